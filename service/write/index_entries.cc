// Index membership, keys and projections.
#include "service/write/index_entries.h"

#include <array>

#include "service/validate/item_validation.h"
#include "service/value/key_tuple.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

bool IsEmptyKeyValue(const V& v) {
  return (v.value_case() == V::kS && v.s().empty()) || (v.value_case() == V::kB && v.b().empty());
}

// DynamoDB refuses a write whose value of one index key attribute has the
// wrong type, is empty, or is larger than `max_size` bytes (each attribute of
// a multi-attribute key held to its role's limit).
Status CheckIndexKey(const Index& index, const KeyAttribute& key, size_t max_size,
                     const value::AttributeMap& item) {
  auto it = item.find(key.name);
  if (it == item.end()) return Status::Ok();
  if (value::TypeName(it->second) != key.type) {
    return Error::InvalidParameter("Type mismatch for Index Key " + key.name + " Expected: " + key.type +
                                   " Actual: " + std::string(value::TypeName(it->second)) +
                                   " IndexName: " + index.name);
  }
  if (IsEmptyKeyValue(it->second)) {
    return Error::Validation(
        "One or more parameter values are not valid. A value specified for a secondary index key is not "
        "supported. The AttributeValue for a key attribute cannot contain an empty " +
        std::string(it->second.value_case() == V::kS ? "string" : "binary") +
        " value. IndexName: " + index.name + ", IndexKey: " + key.name);
  }
  // Numbers (at most 38 digits) never come near the limits.
  const V& v = it->second;
  size_t size = v.value_case() == V::kS ? v.s().size() : v.value_case() == V::kB ? v.b().size() : 0;
  if (size > max_size) {
    // DynamoDB's words, as its answers quote them.
    return Error::InvalidParameter(
        "Size limit exceeded for Index Key " + key.name + " Actual Size: " + std::to_string(size) +
        " bytes Max Size: " + std::to_string(max_size) + " bytes IndexName: " + index.name);
  }
  return Status::Ok();
}

}  // namespace

Status CheckIndexKeyValues(const Index& index, const value::AttributeMap& item) {
  for (const KeyAttribute& key : index.keys.hash) {
    POGI_RETURN_IF_ERROR(CheckIndexKey(index, key, kMaxPartitionKeySize, item));
  }
  for (const KeyAttribute& key : index.keys.range) {
    POGI_RETURN_IF_ERROR(CheckIndexKey(index, key, kMaxSortKeySize, item));
  }
  return Status::Ok();
}

Status CheckIndexKeys(const Table& table, const value::AttributeMap& item) {
  // A table without indexes pays for one empty loop.
  for (const Index& index : table.indexes) POGI_RETURN_IF_ERROR(CheckIndexKeyValues(index, item));
  return Status::Ok();
}

std::optional<storage::EncodedKey> IndexKeyOf(const Index& index, const value::AttributeMap& item) {
  // Sparse: an item lacking any key attribute of the index (or holding one
  // of another type) is not in it.
  // (At most four attributes each: no allocation on the write path.)
  std::array<const v1::AttributeValue*, kMaxKeyAttributes> values;
  auto collect = [&](const std::vector<KeyAttribute>& keys) -> std::optional<std::string> {
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = item.find(keys[i].name);
      if (it == item.end() || value::TypeName(it->second) != keys[i].type) return std::nullopt;
      values[i] = &it->second;
    }
    return value::EncodeKeyTuple(std::span(values.data(), keys.size()));
  };
  storage::EncodedKey key;
  auto partition = collect(index.keys.hash);
  if (!partition) return std::nullopt;
  key.partition = std::move(*partition);
  if (!index.keys.range.empty()) {
    auto sort = collect(index.keys.range);
    if (!sort) return std::nullopt;
    key.sort = std::move(*sort);
  }
  return key;
}

bool IndexHolds(const Table& table, const Index& index, const std::string& attribute) {
  return index.projection_type == "ALL" || table.IsTableKey(attribute) || index.keys.Has(attribute) ||
         index.non_key_attributes.count(attribute) > 0;
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
