// A Query's key condition (KeyConditionExpression or legacy KeyConditions),
// checked against the key schema it queries and compiled to a storage range
// read of one partition.
#pragma once

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/expr/ast.h"
#include "storage/storage.h"

namespace pogi::service {

// The partition and sort-key range of a Query on `keys` (the table's or an
// index's key schema, multi-attribute keys included). DynamoDB's errors for
// conditions it cannot turn into a range ("Query condition missed key schema
// element: pk", ...).
Result<storage::RangeRead> CompileKeyCondition(const expr::Condition& condition, const KeySchema& keys);

// Legacy KeyConditions are judged against `keys` once the table and index
// are known, key by key (hash, then range), in DynamoDB's order
// (behaviours.md O4, O6): a hash-only schema with more than one condition, a
// missing condition, "Attempted conditional constraint is not an indexable
// operation" (NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS and IN pass
// validation until here), a value of another type, a hash condition other
// than EQ: so {pk BEGINS_WITH, x EQ} on (pk, sk) is "not supported" at the
// hash key before sk is missed. OK (and nothing checked) for multi-attribute
// keys: CompileKeyCondition answers those.
Status CheckLegacyKeyConditions(const google::protobuf::Map<std::string, v1::Condition>& conditions,
                                const KeySchema& keys);

// DynamoDB refuses a filter on the key attributes a key condition reads:
// "Filter Expression can only contain non-primary key attributes: Primary
// key attribute: NAME" (`legacy`: QueryFilter's words).
Status CheckFilterKeys(const expr::Condition& filter, const KeySchema& keys, bool legacy);

// The smallest byte string greater than every string starting with `prefix`,
// or nullopt when there is none (all 0xFF). For begins_with ranges.
std::optional<std::string> PrefixEnd(std::string prefix);

}  // namespace pogi::service
