// DynamoDB's checks of attribute values, items and keys, with its messages.
// Validation also normalizes: numbers are rewritten in canonical form, so
// that what is stored and compared is canonical.
#pragma once

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

using value::AttributeMap;

// DynamoDB's limits (DESIGN.md).
inline constexpr int64_t kMaxItemSize = 400 * 1024;
inline constexpr size_t kMaxPartitionKeySize = 2048;
inline constexpr size_t kMaxSortKeySize = 1024;
inline constexpr int kMaxNestingDepth = 32;
inline constexpr const char* kNestingError =
    "1 validation error detected: Nesting Levels have exceeded supported limits: Attributes in the "
    "item have nested levels beyond supported limit";

// Checks one value (exactly one type set, NULL is true, sets non-empty and
// without duplicates, numbers valid, nesting within limits) and puts its
// numbers in canonical form.
Status ValidateValue(v1::AttributeValue* v);
// ValidateValue over every attribute of a map.
Status ValidateAttributes(AttributeMap* item);

// The two below expect ValidateAttributes to have run first: DynamoDB checks
// values before it looks the table up.
//
// For PutItem: checks the item's key attributes against the
// table's schema and the item size, and returns the encoded key.
Result<storage::EncodedKey> ValidateItemForPut(const Table& table, const AttributeMap& item);

// For GetItem/DeleteItem/UpdateItem: the key must have exactly the table's
// key attributes, of the declared types. Returns the encoded key.
Result<storage::EncodedKey> ValidateKey(const Table& table, const AttributeMap& key);

}  // namespace pogi::service
