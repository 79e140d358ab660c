// A protobuf wire-format walk over pogi.v1.Item, AttributeValue and their
// set, map and list messages, writing JSON as it goes. Field numbers are
// those of proto/pogi/v1/dynamodb.proto.
#include "gateway/item_proto_json.h"

#include <cstdint>

namespace pogi::gateway {
namespace {

constexpr uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

// Stored items nest at most 32 levels (DynamoDB's limit, checked on write);
// anything deeper is not an item pogi wrote.
constexpr int kMaxDepth = 40;

// Reads protobuf wire format from a byte range; every read checks bounds.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool done() const { return p_ == end_; }

  bool Varint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      uint8_t b = static_cast<uint8_t>(*p_++);
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        *v = result;
        return true;
      }
    }
    return false;
  }

  // The next field's number and wire type.
  bool Tag(uint32_t* field, uint32_t* type) {
    uint64_t tag;
    if (!Varint(&tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX) return false;
    *field = static_cast<uint32_t>(tag >> 3);
    *type = static_cast<uint32_t>(tag & 7);
    return true;
  }

  bool LengthDelimited(std::string_view* v) {
    uint64_t n;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *v = std::string_view(p_, n);
    p_ += n;
    return true;
  }

  // Skips the value of a field of wire type `type`.
  bool Skip(uint32_t type) {
    uint64_t ignored;
    std::string_view ignored_bytes;
    switch (type) {
      case kVarint:
        return Varint(&ignored);
      case kLengthDelimited:
        return LengthDelimited(&ignored_bytes);
      case kFixed64:
        return Advance(8);
      case kFixed32:
        return Advance(4);
      default:
        return false;  // groups never occur in pogi's messages
    }
  }

 private:
  bool Advance(size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) return false;
    p_ += n;
    return true;
  }
  const char* p_;
  const char* end_;
};

// Calls f(payload) for each length-delimited field 1 of `proto` (the
// elements of a repeated field, the entries of a map), skipping any other
// field. False at malformed bytes or as soon as f returns false.
template <typename F>
bool ForEachField1(std::string_view proto, F&& f) {
  WireReader r(proto);
  while (!r.done()) {
    uint32_t field, type;
    if (!r.Tag(&field, &type)) return false;
    if (field != 1 || type != kLengthDelimited) {
      if (!r.Skip(type)) return false;
      continue;
    }
    std::string_view payload;
    if (!r.LengthDelimited(&payload) || !f(payload)) return false;
  }
  return true;
}

bool AppendValue(std::string_view proto, int depth, JsonOut& out);

// The entries of a map<string, AttributeValue> field (number 1 of Item and
// of MapValue) as a JSON object.
bool AppendAttributeMap(std::string_view proto, int depth, JsonOut& out) {
  if (depth > kMaxDepth) return false;
  out.Put('{');
  bool first = true;
  bool ok = ForEachField1(proto, [&](std::string_view entry) {
    std::string_view key, value;
    WireReader e(entry);
    while (!e.done()) {  // key = 1, value = 2; either may be absent (default)
      uint32_t f, t;
      if (!e.Tag(&f, &t)) return false;
      if (f == 1 && t == kLengthDelimited) {
        if (!e.LengthDelimited(&key)) return false;
      } else if (f == 2 && t == kLengthDelimited) {
        if (!e.LengthDelimited(&value)) return false;
      } else if (!e.Skip(t)) {
        return false;
      }
    }
    if (!first) out.Put(',');
    first = false;
    out.String(key);
    out.Put(':');
    return AppendValue(value, depth + 1, out);
  });
  out.Put('}');
  return ok;
}

// The repeated field 1 of StringSetValue, BinarySetValue or ListValue as a
// JSON array.
bool AppendList(std::string_view proto, bool binary, bool values, int depth, JsonOut& out) {
  out.Put('[');
  bool first = true;
  bool ok = ForEachField1(proto, [&](std::string_view element) {
    if (!first) out.Put(',');
    first = false;
    if (values) return AppendValue(element, depth + 1, out);
    binary ? out.Base64String(element) : out.String(element);
    return true;
  });
  out.Put(']');
  return ok;
}

// One AttributeValue. Its oneof is the last of its fields on the wire, as a
// protobuf parser would have it.
bool AppendValue(std::string_view proto, int depth, JsonOut& out) {
  if (depth > kMaxDepth) return false;
  WireReader r(proto);
  uint32_t set = 0;  // field number of the value, 0 for none
  std::string_view payload;
  uint64_t flag = 0;
  while (!r.done()) {
    uint32_t field, type;
    if (!r.Tag(&field, &type)) return false;
    if (field >= 1 && field <= 8 && type == kLengthDelimited) {
      if (!r.LengthDelimited(&payload)) return false;
      set = field;
    } else if ((field == 9 || field == 10) && type == kVarint) {
      if (!r.Varint(&flag)) return false;
      set = field;
    } else if (!r.Skip(type)) {
      return false;
    }
  }
  switch (set) {
    case 1:
      out.Put("{\"S\":");
      out.String(payload);
      break;
    case 2:
      out.Put("{\"N\":");
      out.String(payload);
      break;
    case 3:
      out.Put("{\"B\":");
      out.Base64String(payload);
      break;
    case 4:
      out.Put("{\"SS\":");
      if (!AppendList(payload, false, false, depth, out)) return false;
      break;
    case 5:
      out.Put("{\"NS\":");
      if (!AppendList(payload, false, false, depth, out)) return false;
      break;
    case 6:
      out.Put("{\"BS\":");
      if (!AppendList(payload, true, false, depth, out)) return false;
      break;
    case 7:
      out.Put("{\"M\":");
      if (!AppendAttributeMap(payload, depth, out)) return false;
      break;
    case 8:
      out.Put("{\"L\":");
      if (!AppendList(payload, false, true, depth, out)) return false;
      break;
    case 9:
      out.Put("{\"NULL\":true");
      break;
    case 10:
      out.Put(flag ? "{\"BOOL\":true" : "{\"BOOL\":false");
      break;
    default:
      out.Put('{');
  }
  out.Put('}');
  return true;
}

}  // namespace

bool AppendItemProtoJson(std::string_view proto, JsonOut& out) {
  size_t mark = out.size();
  if (AppendAttributeMap(proto, 0, out)) return true;
  out.CutTo(mark);
  return false;
}

bool AppendItemListJson(std::string_view list_wire, bool* first, JsonOut& out) {
  size_t mark = out.size();
  bool was_first = *first;
  bool ok = ForEachField1(list_wire, [&](std::string_view item) {
    if (!*first) out.Put(',');
    *first = false;
    return AppendAttributeMap(item, 0, out);
  });
  if (!ok) {
    out.CutTo(mark);
    *first = was_first;
  }
  return ok;
}

}  // namespace pogi::gateway
