// Parsing an engine's gRPC answer without losing the order of its items.
// The engine sends every item's attributes in DynamoDB Local's order
// (service/value/attribute_order.h), but a parsed protobuf map forgets its
// order. So the gateway moves those fields out of protobuf's way before it
// parses: the entries of every map<string, AttributeValue> field (and every
// stream record) are renumbered to an unknown field, value::kCarriedFieldOffset
// above their own, which the JSON writer finds and writes from the bytes,
// in order (value::CarriedAttributeMap).
#pragma once

#include <google/protobuf/message.h>

#include <string_view>

namespace pogi::gateway {

// Parses `wire` into `out` (cleared first), items kept as ordered bytes.
// False when `wire` is not a serialized message of out's type.
bool ParseKeepingOrder(std::string_view wire, google::protobuf::Message* out);

}  // namespace pogi::gateway
