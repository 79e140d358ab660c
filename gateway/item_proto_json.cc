// A protobuf wire-format walk over pogi.v1.Item, AttributeValue and their
// set, map and list messages, writing JSON as it goes. Field numbers are
// those of proto/pogi/v1/dynamodb.proto.
#include "gateway/item_proto_json.h"

#include <cstdint>

#include "common/wire_reader.h"

namespace pogi::gateway {
namespace {

// Stored items nest at most 32 levels (DynamoDB's limit, checked on write);
// anything deeper is not an item pogi wrote.
constexpr int kMaxDepth = 40;

bool AppendValue(std::string_view proto, int depth, JsonOut& out);

// The entries of a map<string, AttributeValue> field (number 1 of Item and
// of MapValue; 2 to 4 of a stream record's StreamRecord) as a JSON object.
bool AppendAttributeMap(std::string_view proto, uint32_t field, int depth, JsonOut& out) {
  if (depth > kMaxDepth) return false;
  out.Put('{');
  bool first = true;
  bool ok = wire::ForEachField(proto, field, [&](std::string_view entry) {
    std::string_view key, value;
    wire::Reader e(entry);
    while (!e.done()) {  // key = 1, value = 2; either may be absent (default)
      uint32_t f, t;
      if (!e.Tag(&f, &t)) return false;
      if (f == 1 && t == wire::kLengthDelimited) {
        if (!e.LengthDelimited(&key)) return false;
      } else if (f == 2 && t == wire::kLengthDelimited) {
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
  bool ok = wire::ForEachField(proto, 1, [&](std::string_view element) {
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
  wire::Reader r(proto);
  uint32_t set = 0;  // field number of the value, 0 for none
  std::string_view payload;
  uint64_t flag = 0;
  while (!r.done()) {
    uint32_t field, type;
    if (!r.Tag(&field, &type)) return false;
    if (field >= 1 && field <= 8 && type == wire::kLengthDelimited) {
      if (!r.LengthDelimited(&payload)) return false;
      set = field;
    } else if ((field == 9 || field == 10) && type == wire::kVarint) {
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
      if (!AppendAttributeMap(payload, 1, depth, out)) return false;
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

bool AppendMapFieldJson(std::string_view message, uint32_t field, JsonOut& out) {
  size_t mark = out.size();
  if (AppendAttributeMap(message, field, 0, out)) return true;
  out.CutTo(mark);
  return false;
}

bool AppendItemProtoJson(std::string_view proto, JsonOut& out) { return AppendMapFieldJson(proto, 1, out); }

bool AppendItemListJson(std::string_view list_wire, bool* first, JsonOut& out) {
  size_t mark = out.size();
  bool was_first = *first;
  bool ok = wire::ForEachField(list_wire, 1, [&](std::string_view item) {
    if (!*first) out.Put(',');
    *first = false;
    return AppendAttributeMap(item, 1, 0, out);
  });
  if (!ok) {
    out.CutTo(mark);
    *first = was_first;
  }
  return ok;
}

}  // namespace pogi::gateway
