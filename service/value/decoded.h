// Answers as a gRPC client reads them. The engine carries items in answers
// as the bytes storage holds, in their order (item.h CarryItem,
// CarryAttributeMap, CarryItemList), so an answer's item fields look empty
// to code that reads the message in the same process. Decoded() makes the
// fields what a client sees: for the few places in the engine that read
// another operation's answer, and for tests.
#pragma once

namespace pogi::value {

template <typename Message>
Message Decoded(const Message& message) {
  Message out;
  out.ParseFromString(message.SerializeAsString());
  return out;
}

}  // namespace pogi::value
