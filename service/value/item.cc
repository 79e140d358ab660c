// Item encoding, DynamoDB item size, and key value encoding.
#include "service/value/item.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/wire_format_lite.h>

#include "common/wire_reader.h"
#include "service/value/decimal.h"

namespace pogi::value {

// DynamoDB's exact texts for these two are not on record; these follow its
// "One or more parameter values were invalid: ..." family.
Status CheckAttributeName(std::string_view name) {
  if (name.empty()) return Error::InvalidParameter("Empty attribute name");
  if (name.size() > kMaxAttributeNameBytes) {
    return Error::InvalidParameter("Attribute name exceeds the maximum size of " +
                                   std::to_string(kMaxAttributeNameBytes) + " bytes");
  }
  return Status::Ok();
}
namespace {

constexpr char kItemFormatProtoV1 = 1;

// Significant digits of a number ("-120.50" has 4: 1, 2, 0, 5): the digits
// from the first non-zero one to the last non-zero one.
int64_t SignificantDigits(std::string_view n) {
  int64_t count = 0, pending_zeros = 0;
  bool started = false;
  for (char c : n) {
    if (c < '0' || c > '9') continue;
    if (c == '0') {
      if (started) ++pending_zeros;
      continue;
    }
    count += pending_zeros + 1;
    pending_zeros = 0;
    started = true;
  }
  return started ? count : 1;
}

}  // namespace

std::string EncodeItem(const AttributeMap& item, const EntryOrigin& origin) {
  std::string out(1, kItemFormatProtoV1);
  AppendOrderedItem(item, origin, &out);
  return out;
}

Result<std::string_view> StoredItemProto(std::string_view stored) {
  if (stored.empty() || stored[0] != kItemFormatProtoV1) {
    return Error::Internal("stored item is corrupt or of an unknown format");
  }
  return stored.substr(1);
}

std::string ItemProto(const AttributeMap& item, const EntryOrigin& origin) {
  std::string out;
  AppendOrderedItem(item, origin, &out);
  return out;
}

void AppendItemListEntry(std::string_view item_proto, std::string* list_wire) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  constexpr uint32_t kTag =
      (v1::ItemList::kItemsFieldNumber << 3) | WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
  uint8_t head[10];  // two varints of at most 5 bytes
  uint8_t* end = CodedOutputStream::WriteVarint32ToArray(kTag, head);
  end = CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(item_proto.size()), end);
  list_wire->append(reinterpret_cast<const char*>(head), end - head);
  list_wire->append(item_proto);
}

// proto3 messages keep unknown fields but reach them only through reflection.
void CarryItemList(google::protobuf::Message* message, int field_number, std::string list_wire) {
  auto* carried = message->GetReflection()->MutableUnknownFields(message);
  *carried->AddLengthDelimited(field_number) = std::move(list_wire);
}

std::optional<std::string_view> CarriedItemList(const google::protobuf::Message& message, int field_number) {
  const auto& carried = message.GetReflection()->GetUnknownFields(message);
  for (int i = 0; i < carried.field_count(); ++i) {
    const auto& f = carried.field(i);
    if (f.number() == field_number && f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
      return f.length_delimited();
    }
  }
  return std::nullopt;
}

void CarryItem(google::protobuf::Message* message, int field_number, std::string item_proto) {
  auto* carried = message->GetReflection()->MutableUnknownFields(message);
  *carried->AddLengthDelimited(field_number) = std::move(item_proto);
}

std::vector<std::string_view> CarriedItems(const google::protobuf::Message& message, int field_number) {
  std::vector<std::string_view> items;
  const auto& carried = message.GetReflection()->GetUnknownFields(message);
  for (int i = 0; i < carried.field_count(); ++i) {
    const auto& f = carried.field(i);
    if (f.number() == field_number && f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
      items.push_back(f.length_delimited());
    }
  }
  return items;
}

void CarryAttributeMap(google::protobuf::Message* message, int field_number, std::string_view item_proto) {
  auto* carried = message->GetReflection()->MutableUnknownFields(message);
  wire::ForEachField(item_proto, v1::Item::kAttributesFieldNumber, [&](std::string_view entry) {
    carried->AddLengthDelimited(field_number, std::string(entry));
    return true;
  });
}

std::optional<std::string> CarriedAttributeMap(const google::protobuf::Message& message, int field_number) {
  const auto& carried = message.GetReflection()->GetUnknownFields(message);
  std::optional<std::string> item;
  for (int i = 0; i < carried.field_count(); ++i) {
    const auto& f = carried.field(i);
    if ((f.number() != field_number && f.number() != field_number + kCarriedFieldOffset) ||
        f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
      continue;
    }
    if (!item) item.emplace();
    AppendItemListEntry(f.length_delimited(), &*item);  // an Item's entry is framed as an ItemList's item
  }
  return item;
}

Result<v1::Item> DecodeItem(std::string_view bytes) {
  v1::Item item;
  if (bytes.empty() || bytes[0] != kItemFormatProtoV1 ||
      !item.ParseFromArray(bytes.data() + 1, static_cast<int>(bytes.size() - 1))) {
    return Error::Internal("stored item is corrupt or of an unknown format");
  }
  return item;
}

int64_t ValueSize(const v1::AttributeValue& v) {
  using V = v1::AttributeValue;
  switch (v.value_case()) {
    case V::kS:
      return static_cast<int64_t>(v.s().size());
    case V::kB:
      return static_cast<int64_t>(v.b().size());
    case V::kN:
      return (SignificantDigits(v.n()) + 1) / 2 + 1;
    case V::kSs: {
      int64_t n = 0;
      for (const auto& s : v.ss().values()) n += static_cast<int64_t>(s.size());
      return n;
    }
    case V::kNs: {
      int64_t n = 0;
      for (const auto& s : v.ns().values()) n += (SignificantDigits(s) + 1) / 2 + 1;
      return n;
    }
    case V::kBs: {
      int64_t n = 0;
      for (const auto& s : v.bs().values()) n += static_cast<int64_t>(s.size());
      return n;
    }
    case V::kM: {
      int64_t n = 3;
      for (const auto& [k, e] : v.m().fields()) n += static_cast<int64_t>(k.size()) + ValueSize(e) + 1;
      return n;
    }
    case V::kL: {
      int64_t n = 3;
      for (const auto& e : v.l().values()) n += ValueSize(e) + 1;
      return n;
    }
    case V::kNullValue:
    case V::kBoolValue:
      return 1;
    case V::VALUE_NOT_SET:
      return 0;
  }
  return 0;
}

int64_t ItemSize(const AttributeMap& item) {
  int64_t n = 0;
  for (const auto& [name, v] : item) n += static_cast<int64_t>(name.size()) + ValueSize(v);
  return n;
}

std::string EncodeKeyValue(const v1::AttributeValue& v) {
  switch (v.value_case()) {
    case v1::AttributeValue::kS:
      return v.s();
    case v1::AttributeValue::kB:
      return v.b();
    case v1::AttributeValue::kN: {
      std::string out;
      auto d = Decimal::Parse(v.n());
      if (d.ok()) d->AppendKeyEncoding(&out);
      return out;
    }
    default:
      return {};
  }
}

std::string_view TypeName(const v1::AttributeValue& v) {
  using V = v1::AttributeValue;
  switch (v.value_case()) {
    case V::kS:
      return "S";
    case V::kN:
      return "N";
    case V::kB:
      return "B";
    case V::kSs:
      return "SS";
    case V::kNs:
      return "NS";
    case V::kBs:
      return "BS";
    case V::kM:
      return "M";
    case V::kL:
      return "L";
    case V::kNullValue:
      return "NULL";
    case V::kBoolValue:
      return "BOOL";
    case V::VALUE_NOT_SET:
      return "";
  }
  return "";
}

}  // namespace pogi::value
