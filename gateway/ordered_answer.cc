// The answer rewriter: a walk over the wire format guided by the message's
// descriptor, copying every field but renumbering the ordered ones.
#include "gateway/ordered_answer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>

#include <string>

#include "common/wire_reader.h"
#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"
#include "service/value/item.h"

namespace pogi::gateway {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

// Answers nest a few messages deep; items inside them are not walked.
constexpr int kMaxDepth = 16;

void PutVarint(uint64_t v, std::string* out) {
  uint8_t buf[10];
  uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(v, buf);
  out->append(reinterpret_cast<const char*>(buf), end - buf);
}

// Fields the JSON writer writes from their bytes in the order they came.
bool KeptInOrder(const FieldDescriptor* f) {
  if (f->message_type() == v1::Record::descriptor()) return true;
  return f->is_map() && f->message_type()->map_value()->message_type() == v1::AttributeValue::descriptor();
}

bool Rewrite(std::string_view wire, const Descriptor* d, int depth, std::string* out) {
  if (depth > kMaxDepth) return false;
  wire::Reader r(wire);
  while (!r.done()) {
    size_t start = r.offset();
    uint32_t number, type;
    if (!r.Tag(&number, &type)) return false;
    const FieldDescriptor* f = d->FindFieldByNumber(static_cast<int>(number));
    if (type != wire::kLengthDelimited || !f || f->type() != FieldDescriptor::TYPE_MESSAGE) {
      if (!r.Skip(type)) return false;
      out->append(wire.substr(start, r.offset() - start));
      continue;
    }
    std::string_view payload;
    if (!r.LengthDelimited(&payload)) return false;
    if (KeptInOrder(f)) {
      PutVarint(static_cast<uint64_t>(number + value::kCarriedFieldOffset) << 3 | wire::kLengthDelimited,
                out);
      PutVarint(payload.size(), out);
      out->append(payload);
      continue;
    }
    std::string inner;
    if (!Rewrite(payload, f->message_type(), depth + 1, &inner)) return false;
    PutVarint(static_cast<uint64_t>(number) << 3 | wire::kLengthDelimited, out);
    PutVarint(inner.size(), out);
    out->append(inner);
  }
  return true;
}

}  // namespace

bool ParseKeepingOrder(std::string_view wire, google::protobuf::Message* out) {
  std::string rewritten;
  rewritten.reserve(wire.size() + 64);
  if (!Rewrite(wire, out->GetDescriptor(), 0, &rewritten)) return false;
  return out->ParseFromString(rewritten);
}

}  // namespace pogi::gateway
