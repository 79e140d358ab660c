// The write path every item write shares (single-item operations, batches,
// transactions): read the current item, decide the new one, and store the
// change with the table's counters (and, later, its indexes) in the same
// storage transaction.
#pragma once

#include <functional>
#include <optional>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/streams/stream_records.h"
#include "service/validate/capacity.h"
#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

struct ItemChange {
  std::optional<value::AttributeMap> old_item;  // before the write, if any
  std::optional<value::AttributeMap> new_item;  // after the write; nullopt: deleted
  std::vector<IndexCapacity> index_units;       // write units charged to indexes
  // The serialized pogi.v1.Items as stored (value::StoredItemProto), in
  // their order: what ReturnValues answer. Empty where there is no item.
  std::string old_proto, new_proto;
};

// The stored forms around one change: what need not be encoded again, and
// what decides the order of the new item's maps (value::EntryOrigin).
struct ChangeForms {
  std::string_view old_item;           // the old item as stored, when at hand
  value::EntryOrigin new_item_origin;  // where the new item's maps take their order from
  std::string* new_item = nullptr;     // receives the new item as stored
};

// The item stored under `key`, if any.
Result<std::optional<value::AttributeMap>> ReadItem(storage::ReadTxn& txn, const Table& table,
                                                    const storage::EncodedKey& key);

// Stores the change from `old_item` to `new_item` (either may be null: a
// create or a delete) with everything that must change with it: the table's
// counters and every secondary index. Fails (writing nothing) when the new
// item's index key attributes have the wrong type.
// When `index_units` is not null it receives the write units each index
// was charged (an index entry written or removed; nothing when the entry
// does not change).
// The change's stream record (tables with a stream) is written in the same
// transaction, and watchers of the change feed get it after the commit; a
// write that leaves the item as it was produces neither.
// `forms.old_item`, when not empty, is the old item's stored form as read
// (the record's old image is then copied from it, not encoded again).
Status ApplyChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                   const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                   std::vector<IndexCapacity>* index_units = nullptr,
                   ChangeSource source = ChangeSource::kRequest, const ChangeForms& forms = {});

// Decides the new item from the old one (null when there is none): the new
// item, nullopt to delete, or an error (a failed condition) to write nothing.
// Called again when the write runs again (storage's Write may): `previous`
// then holds the new item it decided before, so that a decide that hands
// over an item it holds (PutItem's) can hand it over again without a copy.
using Decide = std::function<Result<std::optional<value::AttributeMap>>(
    const value::AttributeMap* old, std::optional<value::AttributeMap>* previous)>;

// The table as it is now, inside a write: a request looks its table up
// before its write runs, and UpdateTable/DeleteTable may have changed it in
// between. Every write uses this one (its indexes) and fails as DynamoDB
// does when the table is gone.
Result<std::shared_ptr<const Table>> CurrentTable(const Catalog& catalog, const Table& seen);

// `e` with the item a failed condition returns (ReturnValuesOnConditionCheckFailure
// ALL_OLD) carried as `stored`, the item as stored, so that it keeps its order.
Error WithStoredItem(Error e, std::string_view stored);

// One atomic read-decide-write of one item. An update passes the paths its
// decide fills (value::PathTree), which order the new item's maps.
Result<ItemChange> ModifyItem(storage::Storage& storage, const Catalog& catalog, const Table& table,
                              const storage::EncodedKey& key, const Decide& decide,
                              ChangeSource source = ChangeSource::kRequest,
                              const value::PathTree* updated = nullptr);

}  // namespace pogi::service
