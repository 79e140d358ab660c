// DynamoDB JSON <-> proto by reflection, with AttributeValue and Item by hand.
#include "gateway/json_codec.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "common/base64.h"
#include "common/limits.h"
#include "gateway/item_proto_json.h"
#include "gateway/json_doc.h"
#include "gateway/json_text.h"
#include "gateway/record_proto_json.h"
#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"
#include "service/value/item.h"

namespace pogi::gateway {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Deeper JSON than this inside attribute values is refused before any work:
// DynamoDB allows 32 levels of nesting (the count here includes the value's
// own level).
constexpr int kMaxValueDepth = limits::kMaxAttributeDepth + 1;

// The DynamoDB member name of a field: its json_name, first letter
// capitalized, or verbatim when the proto names it (DynamoDB Streams spells
// a record's members in lower camel case: "eventID", "dynamodb").
std::string MemberName(const FieldDescriptor* f) {
  std::string n = f->json_name();
  if (f->has_json_name()) return n;
  if (!n.empty()) n[0] = static_cast<char>(toupper(static_cast<unsigned char>(n[0])));
  return n;
}

// Fields numbered 1000 and up are pogi's own state kept with a DynamoDB
// shape (a table's TTL setting, its stream's id): never on the wire.
bool IsPogiState(const FieldDescriptor* f) { return f->number() >= 1000; }

// Member name -> field, built once per message type (per thread: no lock).
const FieldDescriptor* FindMember(const Descriptor* d, std::string_view name) {
  thread_local std::unordered_map<const Descriptor*, std::unordered_map<std::string, const FieldDescriptor*>>
      cache;
  auto [it, inserted] = cache.try_emplace(d);
  if (inserted) {
    for (int i = 0; i < d->field_count(); ++i) {
      if (!IsPogiState(d->field(i))) it->second[MemberName(d->field(i))] = d->field(i);
    }
  }
  // Member names are short: the key fits the string's own buffer.
  auto f = it->second.find(std::string(name));
  return f == it->second.end() ? nullptr : f->second;
}

// Where a value sits decides DynamoDB's wording for a wrong type: a
// structure's member, or an element of a list or value of a map.
enum class Slot { kField, kElement };

constexpr std::string_view kPackage = "com.amazonaws.dynamodb.v20120810.";
constexpr std::string_view kStructureHere = "Start of structure or map found where not expected";
// What DynamoDB's (Java) deserializer says of a scalar where a list is a map
// value or a map is a list element, as recorded against DynamoDB.
constexpr std::string_view kParameterizedCast =
    "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class "
    "java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are "
    "in "
    "module java.base of loader 'bootstrap')";

Error TypeError(std::string_view message) { return Error::Serialization(std::string(message)); }

std::string_view ScalarToken(JsonRef j) {
  if (j.is_boolean()) return j.boolean() ? "TRUE_VALUE" : "FALSE_VALUE";
  if (j.is_number()) return j.is_integer() ? "NUMBER_VALUE" : "DECIMAL_VALUE";
  return "STRING_VALUE";
}

// A wrong token where a scalar of Java type `java` ("String", "Long", ...)
// belongs.
Error ScalarMismatch(JsonRef j, std::string_view java) {
  if (j.is_object()) return TypeError(kStructureHere);
  if (j.is_array()) return TypeError("Unrecognized collection type class java.lang." + std::string(java));
  return TypeError(std::string(ScalarToken(j)) + " cannot be converted to " + std::string(java));
}

Error BlobMismatch(JsonRef j) {
  if (j.is_object()) return TypeError(kStructureHere);
  if (j.is_array()) return TypeError("Unrecognized collection type class java.nio.ByteBuffer");
  return TypeError("only base-64-encoded strings are convertible to bytes");
}

Error ListMismatch(JsonRef j, Slot slot) {
  if (j.is_object()) return TypeError(kStructureHere);
  return TypeError(slot == Slot::kElement ? kParameterizedCast : "Unexpected field type");
}

// `value_java`: the Java type of the map's values.
Error MapMismatch(JsonRef j, Slot slot, std::string_view value_java) {
  if (j.is_array()) {
    return TypeError("Unrecognized collection type java.util.Map<java.lang.String, " +
                     std::string(value_java) + ">");
  }
  return TypeError(slot == Slot::kElement ? kParameterizedCast : "Unexpected field type");
}

Error StructureMismatch(JsonRef j, Slot slot, std::string_view shape) {
  if (j.is_array())
    return TypeError("Unrecognized collection type class " + std::string(kPackage) + std::string(shape));
  return TypeError(slot == Slot::kElement ? "Unexpected value type in payload" : "Unexpected field type");
}

const std::string& AttributeValueJava() {
  static const std::string kName = std::string(kPackage) + "AttributeValue";
  return kName;
}

// One-field wrappers that DynamoDB JSON writes as a bare array (a map value
// cannot be a repeated field in proto).
bool IsListWrapper(const Descriptor* d) {
  return d == v1::ItemList::descriptor() || d == v1::WriteRequestList::descriptor() ||
         d == v1::ItemCollectionMetricsList::descriptor() || d == v1::AttributeNameList::descriptor() ||
         d == v1::AttributeValueList::descriptor();
}

// The Java type DynamoDB names for values of field `f` (a map's value field).
std::string JavaType(const FieldDescriptor* f) {
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return "java.lang.String";
  const Descriptor* d = f->message_type();
  if (d == v1::Item::descriptor()) return "java.util.Map<java.lang.String, " + AttributeValueJava() + ">";
  if (IsListWrapper(d)) return "java.util.List<" + JavaType(d->field(0)) + ">";
  return std::string(kPackage) + d->name();
}

// Booleans also come as strings: DynamoDB converts "true"/"1"/"yes" and
// "false"/"0"/"no" (any case).
Status ReadBoolean(JsonRef j, bool* out) {
  if (j.is_boolean()) {
    *out = j.boolean();
    return Status::Ok();
  }
  if (!j.is_string()) return ScalarMismatch(j, "Boolean");
  std::string upper(j.string());
  for (char& c : upper) c = static_cast<char>(toupper(static_cast<unsigned char>(c)));
  if (upper == "TRUE" || upper == "1" || upper == "YES") {
    *out = true;
  } else if (upper == "FALSE" || upper == "0" || upper == "NO") {
    *out = false;
  } else {
    return TypeError("Unexpected token received from parser");
  }
  return Status::Ok();
}

// Integers: a number with a fraction is cut down to an integer, as DynamoDB
// does; out of range is clamped (the validator then reports the range).
Status ReadInteger(JsonRef j, std::string_view java, int64_t min, int64_t max, int64_t* out) {
  if (!j.is_number()) return ScalarMismatch(j, java);
  if (j.is_integer()) {
    *out = std::clamp<int64_t>(j.integer(), min, max);
  } else {
    double v = std::floor(j.number());
    *out = v <= static_cast<double>(min)   ? min
           : v >= static_cast<double>(max) ? max
                                           : static_cast<int64_t>(v);
  }
  return Status::Ok();
}

// The members DynamoDB's model types as 32-bit integers (every other
// integer member is a long); the proto holds all of them as int64.
bool IsJavaInteger(const FieldDescriptor* f) {
  static constexpr std::string_view kIntegers[] = {"count",
                                                   "limit",
                                                   "max_results",
                                                   "page_size",
                                                   "recovery_period_in_days",
                                                   "scale_in_cooldown",
                                                   "scale_out_cooldown",
                                                   "scanned_count",
                                                   "segment",
                                                   "total_segments"};
  return std::find(std::begin(kIntegers), std::end(kIntegers), f->name()) != std::end(kIntegers);
}

Status ReadBlob(JsonRef j, std::string* out) {
  if (!j.is_string()) return BlobMismatch(j);
  std::string_view text = j.string();
  if (text.size() % 4 != 0) {
    return TypeError("Base64 encoded length is expected a multiple of 4 bytes but found: " +
                     std::to_string(text.size()));
  }
  auto bytes = Base64Decode(text);
  // DynamoDB's text, its spelling included.
  if (!bytes) return TypeError("Invalid last non-pad Base64 character dectected");
  *out = std::move(*bytes);
  return Status::Ok();
}

Status ReadMessage(JsonRef j, Message* m, int depth, Slot slot);
Status ReadAttributeMap(JsonRef j, google::protobuf::Map<std::string, v1::AttributeValue>* out, int depth,
                        Slot slot);

Status ReadString(JsonRef j, std::string* out) {
  if (!j.is_string()) return ScalarMismatch(j, "String");
  out->assign(j.string());
  return Status::Ok();
}

Status ReadStringList(JsonRef j, google::protobuf::RepeatedPtrField<std::string>* out, bool binary) {
  if (!j.is_array()) return ListMismatch(j, Slot::kField);
  Status st;
  j.ForEachElement([&](JsonRef e) {
    st = binary ? ReadBlob(e, out->Add()) : ReadString(e, out->Add());
    return st.ok();
  });
  return st;
}

// The error of a value read from one member of a value that has several
// (its content's, such as a number's or a set's), or "" when it has none.
std::string ContentError(const v1::AttributeValue& v) {
  if (v.value_case() == v1::AttributeValue::VALUE_NOT_SET) return "";
  v1::AttributeValue copy = v;  // validation rewrites numbers
  Status s = service::ValidateValue(&copy);
  return s.ok() ? "" : s.error().message();
}

// {"S": "x"}, {"N": "1"}, {"M": {...}}, ... An object with no known member
// stays empty for the engine to report. Two members are DynamoDB's error,
// after each member's own content is checked (DynamoDB answers {"S": "a",
// "N": "b"} with the number's error): the value is kept empty, carrying
// that error for validation to report in its place (MarkInvalidValue).
Status ReadAttributeValue(JsonRef j, v1::AttributeValue* v, int depth, Slot slot) {
  if (!j.is_object()) return StructureMismatch(j, slot, "AttributeValue");
  if (depth > kMaxValueDepth) return Error::Validation(service::kNestingError);
  int set = 0;
  std::string invalid;  // the first content error of a member replaced by another
  Status st;
  j.ForEachMember([&](std::string_view key, JsonRef member) {
    if (member.is_null()) return true;
    // The value read so far is about to be replaced: its content first.
    if (set > 0 && invalid.empty()) invalid = ContentError(*v);
    ++set;
    if (key == "S") {
      st = ReadString(member, v->mutable_s());
    } else if (key == "N") {
      st = ReadString(member, v->mutable_n());
    } else if (key == "B") {
      st = ReadBlob(member, v->mutable_b());
    } else if (key == "SS") {
      st = ReadStringList(member, v->mutable_ss()->mutable_values(), false);
    } else if (key == "NS") {
      st = ReadStringList(member, v->mutable_ns()->mutable_values(), false);
    } else if (key == "BS") {
      st = ReadStringList(member, v->mutable_bs()->mutable_values(), true);
    } else if (key == "M") {
      st = ReadAttributeMap(member, v->mutable_m()->mutable_fields(), depth + 1, Slot::kField);
    } else if (key == "L") {
      if (!member.is_array()) {
        st = ListMismatch(member, Slot::kField);
      } else {
        auto* list = v->mutable_l();
        member.ForEachElement([&](JsonRef e) {
          if (e.is_null()) {
            service::MarkNullValue(list->add_values());
          } else {
            st = ReadAttributeValue(e, list->add_values(), depth + 1, Slot::kElement);
          }
          return st.ok();
        });
      }
    } else if (key == "NULL" || key == "BOOL") {
      bool b = false;
      st = ReadBoolean(member, &b);
      if (st.ok()) key == "NULL" ? v->set_null_value(b) : v->set_bool_value(b);
    } else {
      --set;  // unknown members are ignored, as DynamoDB does
    }
    return st.ok();
  });
  POGI_RETURN_IF_ERROR(st);
  if (set > 1) {
    if (invalid.empty()) invalid = ContentError(*v);
    if (invalid.empty()) {
      invalid =
          "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
          "supported datatypes";
    }
    service::MarkInvalidValue(v, invalid);
  }
  return Status::Ok();
}

// Where JsonToMessage records the key order of attribute maps, if asked.
thread_local MapKeyOrders* recorded_orders = nullptr;

Status ReadAttributeMap(JsonRef j, google::protobuf::Map<std::string, v1::AttributeValue>* out, int depth,
                        Slot slot) {
  if (!j.is_object()) return MapMismatch(j, slot, AttributeValueJava());
  Status st;
  std::vector<const std::string*> order;
  j.ForEachMember([&](std::string_view key, JsonRef member) {
    auto [entry, added] = out->try_emplace(std::string(key));
    if (recorded_orders && added) order.push_back(&entry->first);
    v1::AttributeValue* v = &entry->second;
    if (member.is_null()) {
      service::MarkNullValue(v);  // not an absent entry: DynamoDB refuses it
    } else {
      st = ReadAttributeValue(member, v, depth, Slot::kElement);
    }
    return st.ok();
  });
  if (order.size() > 1) recorded_orders->push_back(std::move(order));
  return st;
}

// One scalar or message value of field `f` into `m` (for repeated fields,
// appended).
Status ReadSingle(JsonRef j, Message* m, const FieldDescriptor* f, int depth, Slot slot) {
  const Reflection* r = m->GetReflection();
  bool rep = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING: {
      if (!j.is_string()) return ScalarMismatch(j, "String");
      std::string s(j.string());
      rep ? r->AddString(m, f, std::move(s)) : r->SetString(m, f, std::move(s));
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_INT64: {
      int64_t v = 0;
      if (IsJavaInteger(f)) {
        POGI_RETURN_IF_ERROR(ReadInteger(j, "Integer", INT32_MIN, INT32_MAX, &v));
      } else {
        POGI_RETURN_IF_ERROR(ReadInteger(j, "Long", INT64_MIN, INT64_MAX, &v));
      }
      rep ? r->AddInt64(m, f, v) : r->SetInt64(m, f, v);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_UINT64: {  // Admin messages only (fault rule seeds)
      int64_t v = 0;
      POGI_RETURN_IF_ERROR(ReadInteger(j, "Long", 0, INT64_MAX, &v));
      rep ? r->AddUInt64(m, f, static_cast<uint64_t>(v)) : r->SetUInt64(m, f, static_cast<uint64_t>(v));
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_INT32: {
      int64_t v = 0;
      POGI_RETURN_IF_ERROR(ReadInteger(j, "Integer", INT32_MIN, INT32_MAX, &v));
      rep ? r->AddInt32(m, f, static_cast<int32_t>(v)) : r->SetInt32(m, f, static_cast<int32_t>(v));
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_DOUBLE: {
      if (!j.is_number()) return ScalarMismatch(j, "Double");
      rep ? r->AddDouble(m, f, j.number()) : r->SetDouble(m, f, j.number());
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      bool b = false;
      POGI_RETURN_IF_ERROR(ReadBoolean(j, &b));
      rep ? r->AddBool(m, f, b) : r->SetBool(m, f, b);
      return Status::Ok();
    }
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      Message* sub = rep ? r->AddMessage(m, f) : r->MutableMessage(m, f);
      return ReadMessage(j, sub, depth + 1, slot);
    }
    default:
      return Error::Internal("unsupported field type in " + f->full_name());
  }
}

Status ReadField(JsonRef j, Message* m, const FieldDescriptor* f, int depth, Slot slot) {
  Status st;
  if (f->is_map()) {
    const Descriptor* entry = f->message_type();
    const FieldDescriptor* kf = entry->map_key();
    const FieldDescriptor* vf = entry->map_value();
    if (!j.is_object()) return MapMismatch(j, slot, JavaType(vf));
    if (j.size() == 0) service::MarkSentEmpty(m, f->number());  // {} is present
    // A null entry is dropped, except where DynamoDB refuses it: an
    // AttributeValue, an ExpressionAttributeNames name, a legacy condition.
    const Descriptor* vt = vf->message_type();
    const bool null_value = vt == v1::AttributeValue::descriptor();
    const bool null_name = vf->cpp_type() == FieldDescriptor::CPPTYPE_STRING;
    const bool null_condition =
        vt == v1::ExpectedAttributeValue::descriptor() || vt == v1::Condition::descriptor();
    j.ForEachMember([&](std::string_view key, JsonRef member) {
      if (member.is_null() && !null_value && !null_name && !null_condition) return true;
      Message* e = m->GetReflection()->AddMessage(m, f);
      e->GetReflection()->SetString(e, kf, std::string(key));
      if (!member.is_null()) {
        st = ReadSingle(member, e, vf, depth, Slot::kElement);
      } else if (null_value) {
        service::MarkNullValue(static_cast<v1::AttributeValue*>(e->GetReflection()->MutableMessage(e, vf)));
      } else if (null_condition) {
        service::MarkConditionSentNull(e->GetReflection()->MutableMessage(e, vf));
      } else {
        service::MarkNameSentNull(m, key);  // the value stays empty
      }
      return st.ok();
    });
    return st;
  }
  if (f->is_repeated()) {
    if (!j.is_array()) return ListMismatch(j, slot);
    if (j.size() == 0) service::MarkSentEmpty(m, f->number());  // [] is present
    j.ForEachElement([&](JsonRef e) {
      st = ReadSingle(e, m, f, depth, Slot::kElement);
      return st.ok();
    });
    return st;
  }
  return ReadSingle(j, m, f, depth, slot);
}

Status ReadMessage(JsonRef j, Message* m, int depth, Slot slot) {
  const Descriptor* d = m->GetDescriptor();
  if (IsListWrapper(d)) return ReadField(j, m, d->field(0), depth, slot);
  // Attribute values count their nesting from their own top level (1),
  // however deep the request holds them: a value in a BatchWriteItem or
  // TransactWriteItems item may nest as deeply as one in PutItem.
  if (d == v1::AttributeValue::descriptor()) {
    return ReadAttributeValue(j, static_cast<v1::AttributeValue*>(m), 1, slot);
  }
  if (d == v1::Item::descriptor()) {
    return ReadAttributeMap(j, static_cast<v1::Item*>(m)->mutable_attributes(), 1, slot);
  }
  if (d == v1::NameMap::descriptor()) return ReadField(j, m, d->field(0), depth, slot);
  if (!j.is_object()) return StructureMismatch(j, slot, d->name());
  Status st;
  j.ForEachMember([&](std::string_view key, JsonRef member) {
    if (member.is_null()) return true;  // null is absent
    const FieldDescriptor* f = FindMember(d, key);
    if (f) st = ReadField(member, m, f, depth, Slot::kField);  // unknown members are ignored
    return st.ok();
  });
  return st;
}

// ---------------------------------------------------------------- writing

void WriteString(std::string_view s, std::string* out) { AppendJsonString(s, out); }

template <typename T>
void WriteNumber(T v, std::string* out) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, res.ptr);
}

void WriteMessage(const Message& m, std::string* out);
void WriteAttributeMap(const google::protobuf::Map<std::string, v1::AttributeValue>& map, std::string* out);

void WriteStringList(const google::protobuf::RepeatedPtrField<std::string>& list, bool binary,
                     std::string* out) {
  out->push_back('[');
  bool first = true;
  for (const auto& s : list) {
    if (!first) out->push_back(',');
    first = false;
    WriteString(binary ? Base64Encode(s) : s, out);
  }
  out->push_back(']');
}

void WriteAttributeValue(const v1::AttributeValue& v, std::string* out) {
  using V = v1::AttributeValue;
  switch (v.value_case()) {
    case V::kS:
      out->append("{\"S\":");
      WriteString(v.s(), out);
      break;
    case V::kN:
      out->append("{\"N\":");
      WriteString(v.n(), out);
      break;
    case V::kB:
      out->append("{\"B\":");
      WriteString(Base64Encode(v.b()), out);
      break;
    case V::kSs:
      out->append("{\"SS\":");
      WriteStringList(v.ss().values(), false, out);
      break;
    case V::kNs:
      out->append("{\"NS\":");
      WriteStringList(v.ns().values(), false, out);
      break;
    case V::kBs:
      out->append("{\"BS\":");
      WriteStringList(v.bs().values(), true, out);
      break;
    case V::kM:
      out->append("{\"M\":");
      WriteAttributeMap(v.m().fields(), out);
      break;
    case V::kL: {
      out->append("{\"L\":[");
      bool first = true;
      for (const auto& e : v.l().values()) {
        if (!first) out->push_back(',');
        first = false;
        WriteAttributeValue(e, out);
      }
      out->push_back(']');
      break;
    }
    case V::kNullValue:
      out->append("{\"NULL\":true");
      break;
    case V::kBoolValue:
      out->append(v.bool_value() ? "{\"BOOL\":true" : "{\"BOOL\":false");
      break;
    case V::VALUE_NOT_SET:
      out->append("{");
      break;
  }
  out->push_back('}');
}

// The JSON of the serialized Item `proto`, written from its bytes in their
// order; false (nothing written) when they are not an Item.
bool WriteItemProto(std::string_view proto, std::string* out) {
  JsonOut json(out);
  return AppendItemProtoJson(proto, json);
}

// A map the engine did not carry in order (value::CarryAttributeMap): a
// request's echoed keys, a key pogi built, an answer that came through
// gRPC. Written in the order pogi would store it, so that the same map
// always reads the same.
void WriteAttributeMap(const google::protobuf::Map<std::string, v1::AttributeValue>& map, std::string* out) {
  if (WriteItemProto(value::ItemProto(map), out)) return;
  out->push_back('{');
  bool first = true;
  for (const auto& [k, v] : map) {
    if (!first) out->push_back(',');
    first = false;
    WriteString(k, out);
    out->push_back(':');
    WriteAttributeValue(v, out);
  }
  out->push_back('}');
}

// An Item, from its carried bytes when it has them.
void WriteItem(const v1::Item& item, std::string* out) {
  if (auto carried = value::CarriedAttributeMap(item, v1::Item::kAttributesFieldNumber)) {
    if (WriteItemProto(*carried, out)) return;
  }
  WriteAttributeMap(item.attributes(), out);
}

// An ItemList as one JSON array: the items of `list` (when there is one),
// those it carries (value::CarryItem), then those of `carried`, a serialized
// ItemList (value::CarryItemList), written straight from their bytes.
void WriteItemList(const v1::ItemList* list, std::optional<std::string_view> carried, std::string* out) {
  out->push_back('[');
  bool first = true;
  if (list) {
    for (const auto& item : list->items()) {
      if (!first) out->push_back(',');
      first = false;
      WriteItem(item, out);
    }
    for (std::string_view item : value::CarriedItems(*list, v1::ItemList::kItemsFieldNumber)) {
      if (!first) out->push_back(',');
      first = false;
      if (!WriteItemProto(item, out)) out->append("{}");
    }
  }
  if (carried) {
    JsonOut json(out);
    if (!AppendItemListJson(*carried, &first, json)) {
      // Not what pogi writes: whatever protobuf makes of it.
      v1::ItemList parsed;
      (void)parsed.ParseFromArray(carried->data(), static_cast<int>(carried->size()));
      std::string text;
      for (const auto& item : parsed.items()) {
        if (!first) text.push_back(',');
        first = false;
        WriteAttributeMap(item.attributes(), &text);
      }
      json.Put(text);
    }
  }
  out->push_back(']');
}

void WriteSingle(const Message& m, const FieldDescriptor* f, int index, std::string* out);

// Whether `f` holds stream records (GetRecordsResponse.records). The
// descriptor is looked up once: every present field of every answer asks.
bool IsRecords(const FieldDescriptor* f) {
  static const Descriptor* const kRecord = v1::Record::descriptor();
  return f->message_type() == kRecord;
}

// GetRecords' records as one JSON array: those set on `m` (none from the
// engine), then those carried as unknown fields under the same number, each
// the bytes of a finished stored record (service/actions/get_records.cc),
// written straight from them.
void WriteRecords(const Message& m, const FieldDescriptor* f, std::string* out) {
  const Reflection* r = m.GetReflection();
  out->push_back('[');
  bool first = true;
  for (int k = 0; k < r->FieldSize(m, f); ++k) {
    if (!first) out->push_back(',');
    first = false;
    WriteSingle(m, f, k, out);
  }
  const auto& carried = r->GetUnknownFields(m);
  // One writer for them all: it grows `out` ahead, zero-filled, so one per
  // record would fill the whole buffer's spare room again for each.
  JsonOut json(out);
  for (int i = 0; i < carried.field_count(); ++i) {
    const auto& u = carried.field(i);
    bool record = u.number() == f->number() || u.number() == f->number() + value::kCarriedFieldOffset;
    if (!record || u.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) continue;
    if (!first) json.Put(',');
    first = false;
    if (!AppendRecordJson(u.length_delimited(), json)) {
      // Not what pogi writes: whatever protobuf makes of it.
      v1::Record parsed;
      (void)parsed.ParseFromString(u.length_delimited());
      std::string text;
      WriteMessage(parsed, &text);
      json.Put(text);
    }
  }
  json.Put(']');
}

void WriteSingle(const Message& m, const FieldDescriptor* f, int index, std::string* out) {
  const Reflection* r = m.GetReflection();
  bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      WriteString(rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f), out);
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      WriteNumber(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f), out);
      break;
    case FieldDescriptor::CPPTYPE_INT32:
      WriteNumber(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f), out);
      break;
    case FieldDescriptor::CPPTYPE_UINT64:  // Admin messages only (change feed sequences)
      WriteNumber(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f), out);
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      WriteNumber(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f), out);
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false");
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE:
      WriteMessage(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), out);
      break;
    default:
      out->append("null");
  }
}

// Repeated and map fields DynamoDB returns even when empty.
bool AlwaysEmitted(const FieldDescriptor* f) {
  static const std::set<const FieldDescriptor*> kFields = {
      v1::ListTablesResponse::descriptor()->FindFieldByName("table_names"),
      v1::BatchGetItemResponse::descriptor()->FindFieldByName("responses"),
      v1::BatchGetItemResponse::descriptor()->FindFieldByName("unprocessed_keys"),
      v1::BatchWriteItemResponse::descriptor()->FindFieldByName("unprocessed_items"),
      v1::ListStreamsResponse::descriptor()->FindFieldByName("streams"),
      v1::StreamDescription::descriptor()->FindFieldByName("shards"),
      v1::GetRecordsResponse::descriptor()->FindFieldByName("records"),
      v1::ListTagsOfResourceResponse::descriptor()->FindFieldByName("tags"),
      v1::ListBackupsResponse::descriptor()->FindFieldByName("backup_summaries"),
      v1::ListContributorInsightsResponse::descriptor()->FindFieldByName("contributor_insights_summaries"),
      v1::DescribeEndpointsResponse::descriptor()->FindFieldByName("endpoints"),
      v1::ExecuteTransactionResponse::descriptor()->FindFieldByName("responses"),
      v1::SearchVectorsResponse::descriptor()->FindFieldByName("search_results"),
      v1::DescribeKinesisStreamingDestinationResponse::descriptor()->FindFieldByName(
          "kinesis_data_stream_destinations"),
  };
  return kFields.count(f) > 0;
}

void WriteField(const Message& m, const FieldDescriptor* f, std::string* out);

// A map<string, AttributeValue> field (an answer's Item, Attributes,
// LastEvaluatedKey...).
bool IsAttributeMap(const FieldDescriptor* f) {
  return f->is_map() && f->message_type()->map_value()->message_type() == v1::AttributeValue::descriptor();
}

void WriteAttributeMapField(const Message& m, const FieldDescriptor* f, std::string* out) {
  const Reflection* r = m.GetReflection();
  const FieldDescriptor* kf = f->message_type()->map_key();
  const FieldDescriptor* vf = f->message_type()->map_value();
  google::protobuf::Map<std::string, v1::AttributeValue> map;
  for (int k = 0; k < r->FieldSize(m, f); ++k) {
    const Message& e = r->GetRepeatedMessage(m, f, k);
    map[e.GetReflection()->GetString(e, kf)] =
        static_cast<const v1::AttributeValue&>(e.GetReflection()->GetMessage(e, vf));
  }
  WriteAttributeMap(map, out);
}

// The value of field `f` of `m` (a map, a list or a single value).
void WriteField(const Message& m, const FieldDescriptor* f, std::string* out) {
  const Reflection* r = m.GetReflection();
  if (f->is_map()) {
    const FieldDescriptor* kf = f->message_type()->map_key();
    const FieldDescriptor* vf = f->message_type()->map_value();
    out->push_back('{');
    for (int k = 0; k < r->FieldSize(m, f); ++k) {
      const Message& e = r->GetRepeatedMessage(m, f, k);
      if (k) out->push_back(',');
      WriteString(e.GetReflection()->GetString(e, kf), out);
      out->push_back(':');
      WriteSingle(e, vf, -1, out);
    }
    out->push_back('}');
  } else if (f->is_repeated()) {
    out->push_back('[');
    for (int k = 0; k < r->FieldSize(m, f); ++k) {
      if (k) out->push_back(',');
      WriteSingle(m, f, k, out);
    }
    out->push_back(']');
  } else {
    WriteSingle(m, f, -1, out);
  }
}

void WriteMessage(const Message& m, std::string* out) {
  const Descriptor* d = m.GetDescriptor();
  if (d == v1::ItemList::descriptor()) {
    return WriteItemList(&static_cast<const v1::ItemList&>(m), std::nullopt, out);
  }
  if (IsListWrapper(d)) return WriteField(m, d->field(0), out);
  if (d == v1::AttributeValue::descriptor()) {
    return WriteAttributeValue(static_cast<const v1::AttributeValue&>(m), out);
  }
  if (d == v1::Item::descriptor()) return WriteItem(static_cast<const v1::Item&>(m), out);
  if (d == v1::NameMap::descriptor()) return WriteField(m, d->field(0), out);
  const Reflection* r = m.GetReflection();
  out->push_back('{');
  bool first = true;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (IsPogiState(f)) continue;
    std::optional<std::string_view> carried;
    std::optional<std::string> carried_map;
    std::vector<std::string_view> carried_item;
    if (f->message_type() == v1::ItemList::descriptor()) {
      carried = value::CarriedItemList(m, f->number());
    } else if (IsAttributeMap(f)) {
      carried_map = value::CarriedAttributeMap(m, f->number());
    } else if (f->message_type() == v1::Item::descriptor() && !f->is_repeated()) {
      carried_item = value::CarriedItems(m, f->number());
    }
    bool present = f->is_repeated() ? (r->FieldSize(m, f) > 0 || AlwaysEmitted(f)) : r->HasField(m, f);
    if (!present && !carried && !carried_map && carried_item.empty()) continue;
    if (!first) out->push_back(',');
    first = false;
    WriteString(MemberName(f), out);
    out->push_back(':');
    if (carried_map && WriteItemProto(*carried_map, out)) {
      // written in the engine's order
    } else if (!carried_item.empty() && WriteItemProto(carried_item.front(), out)) {
      // the same
    } else if (IsAttributeMap(f)) {
      WriteAttributeMapField(m, f, out);
    } else if (carried) {
      WriteItemList(present ? &static_cast<const v1::ItemList&>(r->GetMessage(m, f)) : nullptr, carried, out);
    } else if (IsRecords(f)) {
      WriteRecords(m, f, out);  // present: GetRecordsResponse.records is always written
    } else {
      WriteField(m, f, out);
    }
  }
  out->push_back('}');
}

}  // namespace

Status JsonToMessage(std::string_view text, Message* out, MapKeyOrders* map_orders) {
  out->Clear();
  // One document per thread, its buffers reused from request to request.
  thread_local JsonDoc doc;
  if (!doc.Parse(text)) return Error::Serialization("");
  recorded_orders = map_orders;
  JsonRef j = doc.root();
  // A body that is not an object is DynamoDB's bare SerializationException.
  Status s = j.is_object() ? ReadMessage(j, out, 0, Slot::kField) : Error::Serialization("");
  doc.Trim();
  recorded_orders = nullptr;
  return s;
}

void MessageToJson(const Message& message, std::string* out) { WriteMessage(message, out); }

std::string ErrorToJson(const Error& error) {
  std::string out = "{\"__type\":";
  WriteString(error.info().type, &out);
  if (!error.message().empty()) {
    // DynamoDB spells the key "Message" in its serialization errors and
    // "message" everywhere else.
    out.append(error.code() == ErrorCode::kSerialization ? ",\"Message\":" : ",\"message\":");
    WriteString(error.message(), &out);
  }
  if (const v1::ErrorDetail* d = error.detail()) {
    if (d->has_item()) {
      out.append(",\"Item\":");
      WriteItem(d->item(), &out);
    }
    if (d->cancellation_reasons_size() > 0) {
      out.append(",\"CancellationReasons\":[");
      for (int i = 0; i < d->cancellation_reasons_size(); ++i) {
        if (i) out.push_back(',');
        WriteMessage(d->cancellation_reasons(i), &out);
      }
      out.push_back(']');
    }
    if (d->throttling_reasons_size() > 0) {
      out.append(error.code() == ErrorCode::kThrottling ? ",\"throttlingReasons\":["
                                                        : ",\"ThrottlingReasons\":[");
      for (int i = 0; i < d->throttling_reasons_size(); ++i) {
        if (i) out.push_back(',');
        WriteMessage(d->throttling_reasons(i), &out);
      }
      out.push_back(']');
    }
  }
  out.push_back('}');
  return out;
}

}  // namespace pogi::gateway
