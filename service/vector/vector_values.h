// What a vector index holds for an item: whether the item is in it, its
// index partition, its vector as 32-bit floats and its INLINE_FILTER values,
// with DynamoDB's messages for a vector attribute or search schema value it
// refuses.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/value/item.h"

namespace pogi::service {

// DynamoDB's limit on a vector index's Dimensions.
inline constexpr int kMaxVectorDimensions = 4096;

// An item's entry in one vector index, as storage keeps it.
struct VectorEntryData {
  std::string partition;  // the HASH value's key encoding; empty without a HASH element
  std::string vector;     // `dimensions` float32s, little-endian
  std::string filters;    // the INLINE_FILTER values (EncodeFilterValue), in SearchSchema order
  int64_t size = 0;       // what IndexSizeBytes counts for the entry
};

// The entry of `item` in `index`, or nullopt when the item is not in it: it
// lacks the vector attribute or the HASH attribute (DynamoDB indexes such an
// item silently nowhere). A vector attribute that is not a list of
// `dimensions` numbers within a 32-bit float's range, or a search schema
// attribute of another type than its definition (or an empty HASH value),
// is DynamoDB's ValidationException, which refuses the write.
Result<std::optional<VectorEntryData>> VectorEntryOf(const Table& table, const VectorIndex& index,
                                                     const value::AttributeMap& item);

// The filter value of one INLINE_FILTER attribute of an entry: absent, or
// the value's key encoding. Two values are equal exactly when their
// encodings are.
void AppendFilterValue(const v1::AttributeValue* v, std::string* out);
// The filter values of an entry, one string view each (SearchSchema order);
// nullopt for an absent one. False on malformed bytes.
bool SplitFilterValues(std::string_view filters, size_t count,
                       std::vector<std::optional<std::string_view>>* out);

// DynamoDB number text (a valid N) as the nearest 32-bit float, or nullopt
// when its magnitude is beyond a float's. Values below the smallest float
// round to zero, as DynamoDB keeps them.
std::optional<float> NumberToFloat(std::string_view number);
// A 32-bit float as DynamoDB number text: the shortest decimal that reads
// back as the same float, in DynamoDB's canonical form ("0.1", "-3", "1000").
std::string FloatToNumber(float f);

// The vector of an entry as an attribute value: a list of numbers.
v1::AttributeValue VectorValue(std::span<const float> vector);

// Copies the float32s of an entry's stored vector (bytes as storage holds
// them, of any alignment) to `out` (REQUIRES: room for vector.size() / 4).
void CopyFloats(std::string_view vector, float* out);

}  // namespace pogi::service
