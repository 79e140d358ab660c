// Attribute value, item and key validation with DynamoDB's messages.
#include "service/validate/item_validation.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <set>
#include <vector>

#include "common/base64.h"
#include "common/entry_order.h"
#include "service/value/decimal.h"
#include "service/value/set_order.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

// Binary members are shown in base64, and DynamoDB names the set type (with
// no space before "of").
Error DuplicatesError(const google::protobuf::RepeatedPtrField<std::string>& values, bool binary) {
  std::string list = "[";
  for (int i = 0; i < values.size(); ++i) {
    if (i) list += ", ";
    list += binary ? Base64Encode(values[i]) : values[i];
  }
  return Error::InvalidParameter("Input collection " + list + "]" + (binary ? "of type BS" : "") +
                                 " contains duplicates.");
}

// MarkInvalidValue's error travels as an unknown field of the empty value
// (no field of the proto is spent on it, and a valid value carries none).
constexpr int kCarriedErrorField = 1000;

const std::string* CarriedError(const V& v) {
  const auto& unknown = v.GetReflection()->GetUnknownFields(v);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() == kCarriedErrorField &&
        f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
      return &f.length_delimited();
    }
  }
  return nullptr;
}

Status CanonicalNumber(std::string* n) {
  POGI_ASSIGN_OR_RETURN(auto d, value::Decimal::Parse(*n));
  *n = d.ToString();
  return Status::Ok();
}

// The error `e` of map entry `name` with value `v`: a null value is named (a
// null inside it, in a list, is not).
Error EntryError(const std::string& name, const V& v, Error e) {
  if (v.value_case() == V::VALUE_NOT_SET && e.message() == kNullValueError) {
    return Error::Validation(std::string(kNullValueError) + ": " + name + " is null");
  }
  return e;
}

Status ValidateAt(V* v, int depth) {
  if (depth > kMaxNestingDepth) {
    return Error::Validation(kNestingError);
  }
  switch (v->value_case()) {
    case V::VALUE_NOT_SET:
      if (const std::string* carried = CarriedError(*v)) return Error::Validation(*carried);
      return Error::Validation(
          "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    case V::kNullValue:
      if (!v->null_value()) {
        return Error::InvalidParameter("Null attribute value types must have the value of true");
      }
      return Status::Ok();
    case V::kN:
      return CanonicalNumber(v->mutable_n());
    case V::kSs: {
      auto& vals = *v->mutable_ss()->mutable_values();
      if (vals.empty()) return Error::InvalidParameter("An string set  may not be empty");
      if (std::set<std::string>(vals.begin(), vals.end()).size() != static_cast<size_t>(vals.size())) {
        return DuplicatesError(vals, false);
      }
      value::SortAsWritten(v);
      return Status::Ok();
    }
    case V::kBs: {
      auto& vals = *v->mutable_bs()->mutable_values();
      if (vals.empty()) return Error::InvalidParameter("Binary sets should not be empty");
      if (std::set<std::string>(vals.begin(), vals.end()).size() != static_cast<size_t>(vals.size())) {
        return DuplicatesError(vals, true);
      }
      value::SortAsWritten(v);
      return Status::Ok();
    }
    case V::kNs: {
      auto& vals = *v->mutable_ns()->mutable_values();
      if (vals.empty()) return Error::InvalidParameter("An number set  may not be empty");
      std::set<std::string> seen;
      for (auto& n : vals) {
        POGI_RETURN_IF_ERROR(CanonicalNumber(&n));
        seen.insert(n);
      }
      // No list and no prefix for numbers, unlike SS and BS (DynamoDB's answer).
      if (seen.size() != static_cast<size_t>(vals.size())) {
        return Error::Validation("Input collection contains duplicates");
      }
      value::SortAsWritten(v);
      return Status::Ok();
    }
    case V::kM: {
      auto& fields = *v->mutable_m()->mutable_fields();
      auto check = [&](const std::string& name, V* e) -> Status {
        POGI_RETURN_IF_ERROR(value::CheckAttributeName(name));
        Status s = ValidateAt(e, depth + 1);
        if (s.ok()) return s;
        return EntryError(name, *e, std::move(s).error());
      };
      for (auto& [k, e] : fields) {
        Status s = check(k, &e);
        if (s.ok()) continue;
        if (fields.size() == 1) return s;
        // Two bad members or more: the one the client wrote first.
        return FirstFailureInClientOrder(fields, std::move(s).error(), [&](const std::string& name) {
          return check(name, &fields.at(name));
        });
      }
      return Status::Ok();
    }
    case V::kL:
      for (auto& e : *v->mutable_l()->mutable_values()) {
        POGI_RETURN_IF_ERROR(ValidateAt(&e, depth + 1));
      }
      return Status::Ok();
    case V::kS:
    case V::kB:
    case V::kBoolValue:
      return Status::Ok();
  }
  return Status::Ok();
}

// Checks one key attribute's value against its declared type and limits.
// `for_item` selects PutItem's messages over those of a Key parameter for a
// wrong type, `empty_as_item` for an empty value.
Status CheckKeyAttribute(const KeyAttribute& attr, const V& v, bool is_partition, bool for_item,
                         bool empty_as_item) {
  if (value::TypeName(v) != attr.type) {
    if (!for_item) return Error::Validation("The provided key element does not match the schema");
    return Error::InvalidParameter("Type mismatch for key " + attr.name + " expected: " + attr.type +
                                   " actual: " + std::string(value::TypeName(v)));
  }
  return CheckKeyValue(attr, v, is_partition, empty_as_item);
}

}  // namespace

Status CheckKeyValue(const KeyAttribute& attr, const V& v, bool is_partition, bool empty_as_item) {
  size_t size = v.value_case() == V::kS ? v.s().size() : v.value_case() == V::kB ? v.b().size() : 0;
  if (v.value_case() != V::kN && size == 0) {
    // DynamoDB words this differently for an Item and for a Key parameter.
    std::string detail = std::string("The AttributeValue for a key attribute cannot contain an empty ") +
                         (v.value_case() == V::kS ? "string" : "binary") + " value. Key: " + attr.name;
    if (!empty_as_item) return Error::InvalidParameter(detail);
    return Error::Validation("One or more parameter values are not valid. " + detail);
  }
  if (is_partition && size > kMaxPartitionKeySize) {
    return Error::InvalidParameter("Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (!is_partition && size > kMaxSortKeySize) {
    return Error::InvalidParameter(
        "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
  }
  return Status::Ok();
}

namespace {

storage::EncodedKey Encode(const Table& table, const AttributeMap& m) {
  storage::EncodedKey key;
  key.partition = value::EncodeKeyValue(m.at(table.hash.name));
  if (table.range) key.sort = value::EncodeKeyValue(m.at(table.range->name));
  return key;
}

}  // namespace

Status ValidateValue(V* v) { return ValidateAt(v, 1); }

Status CheckValue(const V& v) {
  V copy = v;
  return ValidateAt(&copy, 1);
}

Status ValidateAttributes(AttributeMap* item) {
  for (auto& [name, v] : *item) {
    Status s = value::CheckAttributeName(name);
    if (s.ok()) s = ValidateValue(&v);
    if (s.ok()) continue;
    Error first = EntryError(name, v, std::move(s).error());
    if (item->size() == 1) return first;
    // The proto map iterates in an order of its own: with several bad
    // members, DynamoDB answers the one the client wrote first. Only an
    // invalid request pays for finding it.
    return FirstFailureInClientOrder(*item, std::move(first), [&](const std::string& n) -> Status {
      POGI_RETURN_IF_ERROR(value::CheckAttributeName(n));
      Status c = CheckValue(item->at(n));
      if (c.ok()) return c;
      return EntryError(n, item->at(n), std::move(c).error());
    });
  }
  return Status::Ok();
}

void MarkInvalidValue(V* v, const std::string& message) {
  v->Clear();
  v->GetReflection()->MutableUnknownFields(v)->AddLengthDelimited(kCarriedErrorField, message);
}

void MarkNullValue(V* v) { MarkInvalidValue(v, std::string(kNullValueError)); }

Status ValidateStartKeyValues(const AttributeMap& key) {
  for (const auto& entry : key) {
    Status first = CheckValue(entry.second);
    if (first.ok()) continue;
    Status s = FirstFailureInClientOrder(key, std::move(first).error(),
                                         [&](const std::string& name) { return CheckValue(key.at(name)); });
    const std::string& m = s.error().message();
    bool shape = m.starts_with("Supplied AttributeValue") ||
                 m.ends_with("Null attribute value types must have the value of true") ||
                 m.ends_with("An string set  may not be empty") ||
                 m.ends_with("Binary sets should not be empty");
    if (!shape) return s;
    return Error::Validation("The provided starting key is invalid: " + m);
  }
  return Status::Ok();
}

Result<storage::EncodedKey> ValidateItemForPut(const Table& table, const AttributeMap& item) {
  for (const KeyAttribute* attr : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!attr) continue;
    auto it = item.find(attr->name);
    if (it == item.end()) return Error::InvalidParameter("Missing the key " + attr->name + " in the item");
    POGI_RETURN_IF_ERROR(CheckKeyAttribute(*attr, it->second, attr == &table.hash, /*for_item=*/true,
                                           /*empty_as_item=*/true));
  }
  if (value::ItemSize(item) > kMaxItemSize) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  return Encode(table, item);
}

Result<storage::EncodedKey> ValidateKey(const Table& table, const AttributeMap& key, bool empty_as_item) {
  size_t expected = table.range ? 2 : 1;
  if (key.size() != expected) {
    return Error::Validation("The provided key element does not match the schema");
  }
  for (const KeyAttribute* attr : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!attr) continue;
    auto it = key.find(attr->name);
    if (it == key.end()) return Error::Validation("The provided key element does not match the schema");
    POGI_RETURN_IF_ERROR(
        CheckKeyAttribute(*attr, it->second, attr == &table.hash, /*for_item=*/false, empty_as_item));
  }
  return Encode(table, key);
}

}  // namespace pogi::service
