// Index membership, keys and projections.
#include "service/index_entries.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

bool IsEmptyKeyValue(const V& v) {
  return (v.value_case() == V::kS && v.s().empty()) || (v.value_case() == V::kB && v.b().empty());
}

}  // namespace

Status CheckIndexKeys(const Table& table, const value::AttributeMap& item) {
  for (const Index& index : table.indexes) {
    for (const KeyAttribute* attr : {&index.hash, index.range ? &*index.range : nullptr}) {
      if (!attr) continue;
      auto it = item.find(attr->name);
      if (it == item.end()) continue;
      if (value::TypeName(it->second) != attr->type) {
        return Error::InvalidParameter(
            "Type mismatch for Index Key " + attr->name + " Expected: " + attr->type +
            " Actual: " + std::string(value::TypeName(it->second)) + " IndexName: " + index.name);
      }
      if (IsEmptyKeyValue(it->second)) {
        return Error::Validation(
            "One or more parameter values are not valid. A value specified for a secondary index key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty " +
            std::string(it->second.value_case() == V::kS ? "string" : "binary") +
            " value. IndexName: " + index.name + ", IndexKey: " + attr->name);
      }
    }
  }
  return Status::Ok();
}

std::optional<storage::EncodedKey> IndexKeyOf(const Index& index, const value::AttributeMap& item) {
  auto hash = item.find(index.hash.name);
  if (hash == item.end() || value::TypeName(hash->second) != index.hash.type) return std::nullopt;
  storage::EncodedKey key;
  key.partition = value::EncodeKeyValue(hash->second);
  if (index.range) {
    auto range = item.find(index.range->name);
    if (range == item.end() || value::TypeName(range->second) != index.range->type) return std::nullopt;
    key.sort = value::EncodeKeyValue(range->second);
  }
  return key;
}

bool IndexHolds(const Table& table, const Index& index, const std::string& attribute) {
  return index.projection_type == "ALL" || table.IsTableKey(attribute) || attribute == index.hash.name ||
         (index.range && attribute == index.range->name) || index.non_key_attributes.count(attribute) > 0;
}

value::AttributeMap ProjectForIndex(const Table& table, const Index& index, const value::AttributeMap& item) {
  if (index.projection_type == "ALL") return item;
  value::AttributeMap out;
  for (const auto& [name, v] : item) {
    if (IndexHolds(table, index, name)) out[name] = v;
  }
  return out;
}

}  // namespace pogi::service
