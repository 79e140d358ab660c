// DynamoDB's checks of attribute values, items and keys, with its messages.
// Validation also normalizes: numbers are rewritten in canonical form, so
// that what is stored and compared is canonical.
#pragma once

#include <string>
#include <vector>

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
// without duplicates, numbers valid, nesting within limits), puts its
// numbers in canonical form and its sets' members in the order of a set
// written whole (value::SortAsWritten).
Status ValidateValue(v1::AttributeValue* v);
// ValidateValue of a value that is only read, such as one inside a legacy
// parameter (a copy is checked; its numbers stay as given).
Status CheckValue(const v1::AttributeValue& v);
// ValidateValue over every attribute of a map (and each name's rules). With
// several bad attributes, the first the client wrote answers
// (common/entry_order.h), as in the members of a map value.
Status ValidateAttributes(AttributeMap* item);

// A value that arrived with several datatypes set cannot be held by the
// proto's oneof: the reader stores it empty, carrying the error DynamoDB
// gives for it (a member's content error, else "more than one datatypes"),
// and ValidateValue reports that error. So the error comes where DynamoDB
// checks that value (after the member constraints, wrapped by location),
// not while the request is read.
void MarkInvalidValue(v1::AttributeValue* v, const std::string& message);

// A JSON null where an AttributeValue belongs (a map's entry, a list's
// element) is not an absent entry: DynamoDB refuses it, naming a map entry
// ("... AttributeValue: x is null"). The reader keeps it as a value carrying
// this error (MarkNullValue).
inline constexpr std::string_view kNullValueError = "The supplied Item contains a null AttributeValue";
void MarkNullValue(v1::AttributeValue* v);

// A key attribute's value of the declared type: not empty (S, B) and within
// the key size limits. `empty_as_item` as for ValidateKey.
Status CheckKeyValue(const KeyAttribute& attr, const v1::AttributeValue& v, bool is_partition,
                     bool empty_as_item = false);

// ExclusiveStartKey's values. DynamoDB prefixes "The provided starting key
// is invalid: " to the errors of a value's shape (empty, NULL false, empty
// SS or BS, several datatypes), not to number, NS or duplicate errors.
Status ValidateStartKeyValues(const AttributeMap& key);

// The two below expect ValidateAttributes to have run first: DynamoDB checks
// values before it looks the table up.
//
// For PutItem: checks the item's key attributes against the
// table's schema and the item size, and returns the encoded key.
Result<storage::EncodedKey> ValidateItemForPut(const Table& table, const AttributeMap& item);

// For GetItem/DeleteItem/UpdateItem: the key must have exactly the table's
// key attributes, of the declared types. Returns the encoded key.
// `empty_as_item` words an empty key value as an Item's ("... are not
// valid. ..."), as BatchWriteItem does for a PutRequest's item; a Key
// parameter's is "One or more parameter values were invalid: ...".
Result<storage::EncodedKey> ValidateKey(const Table& table, const AttributeMap& key,
                                        bool empty_as_item = false);

}  // namespace pogi::service
