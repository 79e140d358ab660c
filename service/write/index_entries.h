// What a secondary index holds for an item: whether the item is in it
// (sparse indexes), its index key, and the projected attributes.
#pragma once

#include <optional>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

// DynamoDB refuses a write whose index key attributes have the wrong type,
// are empty, or break the key size limits (a partition key attribute over
// 2048 bytes, a sort key one over 1024); an item without them is simply not
// in the index. Checked before the write path changes anything.
Status CheckIndexKeys(const Table& table, const value::AttributeMap& item);
// The same for one index (the backfill leaves out the items it refuses).
Status CheckIndexKeyValues(const Index& index, const value::AttributeMap& item);

// The index key of `item`, or nullopt when the item is not in the index.
std::optional<storage::EncodedKey> IndexKeyOf(const Index& index, const value::AttributeMap& item);

// The attributes of `item` that `index` projects: the table's and the
// index's keys, plus the INCLUDE attributes, or everything for ALL.
value::AttributeMap ProjectForIndex(const Table& table, const Index& index, const value::AttributeMap& item);

// Whether `attribute` is stored in `index`'s entries.
bool IndexHolds(const Table& table, const Index& index, const std::string& attribute);

}  // namespace pogi::service
