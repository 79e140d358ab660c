// The shared item write path.
#include "service/write/item_write.h"

#include "service/core/read_lag.h"
#include "service/core/region.h"
#include "service/expr/value_ops.h"
#include "service/write/change_capture.h"
#include "service/write/index_entries.h"
#include "service/write/legacy_attributes.h"
#include "service/write/pitr_history.h"
#include "service/write/replication_queue.h"
#include "service/write/vector_entries.h"

namespace pogi::service {

Result<std::optional<value::AttributeMap>> ReadItem(storage::ReadTxn& txn, const Table& table,
                                                    const storage::EncodedKey& key) {
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table.id, key));
  if (!bytes) return std::optional<value::AttributeMap>();
  POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*bytes));
  return std::optional<value::AttributeMap>(std::move(*item.mutable_attributes()));
}

namespace {

bool SameKey(const storage::EncodedKey& a, const storage::EncodedKey& b) {
  return a.partition == b.partition && a.sort == b.sort;
}

bool SameAttributes(const value::AttributeMap& a, const value::AttributeMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, v] : a) {
    auto it = b.find(name);
    if (it == b.end() || !expr::ValuesEqual(v, it->second)) return false;
  }
  return true;
}

// Keeps every secondary index of `table` exact for the change. An entry
// whose key and projected attributes do not change is left alone (and, as
// in DynamoDB, costs nothing).
Status UpdateIndexes(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                     std::string_view new_item_proto, std::vector<IndexCapacity>* index_units) {
  for (const Index& index : table.indexes) {
    auto old_key = old_item ? IndexKeyOf(index, *old_item) : std::nullopt;
    auto new_key = new_item ? IndexKeyOf(index, *new_item) : std::nullopt;
    if (!old_key && !new_key) continue;
    double units = 0;
    std::optional<value::AttributeMap> old_projected;
    if (old_key) old_projected = ProjectForIndex(table, index, *old_item);
    if (old_key && (!new_key || !SameKey(*old_key, *new_key))) {
      POGI_RETURN_IF_ERROR(txn.DeleteIndexEntry(index.id, *old_key, key));
      units += WriteUnits(value::ItemSize(*old_projected));
      old_projected.reset();
    }
    if (new_key) {
      value::AttributeMap projected = ProjectForIndex(table, index, *new_item);
      if (old_projected && SameAttributes(*old_projected, projected)) continue;
      int64_t size = value::ItemSize(projected);
      POGI_RETURN_IF_ERROR(
          txn.PutIndexEntry(index.id, *new_key, key,
                            value::EncodeItem(projected, value::EntryOrigin::Kept(new_item_proto)), size));
      units += WriteUnits(size);
    }
    if (index_units) index_units->push_back({index.name, index.global, units});
  }
  return Status::Ok();
}

// The size an item adds to its item collection: the item and its entries in
// the table's local indexes.
int64_t CollectionShare(const Table& table, const value::AttributeMap* item) {
  if (!item) return 0;
  int64_t size = value::ItemSize(*item);
  for (const Index& index : table.indexes) {
    if (!index.global && IndexKeyOf(index, *item))
      size += value::ItemSize(ProjectForIndex(table, index, *item));
  }
  return size;
}

// Tables with local indexes keep each item collection under DynamoDB's
// limit; a write that would take one past it is refused.
Status UpdateCollectionSize(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                            const value::AttributeMap* old_item, const value::AttributeMap* new_item) {
  int64_t delta = CollectionShare(table, new_item) - CollectionShare(table, old_item);
  if (delta == 0) return Status::Ok();
  POGI_ASSIGN_OR_RETURN(int64_t size, txn.AdjustCollectionSize(table.id, key.partition, delta));
  if (delta > 0 && size > table.item_collection_limit) {
    return Error(ErrorCode::kItemCollectionSizeLimitExceeded, "Item collection size limit exceeded");
  }
  return Status::Ok();
}

}  // namespace

Status ApplyChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                   const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                   std::vector<IndexCapacity>* index_units, ChangeSource source, const ChangeForms& forms) {
  if (!old_item && !new_item) return Status::Ok();  // deleting what is not there
  // A legacy global table's member: a write made here carries the
  // aws:rep:* attributes (legacy_attributes.h); a replicated one has them
  // from its region. Not a legacy member: one size compare.
  std::optional<value::AttributeMap> adorned;
  if (new_item && source == ChangeSource::kRequest && IsLegacyGlobalMember(table.description)) {
    adorned = WithLegacyAttributes(*new_item, table.region.empty() ? Region() : table.region,
                                   table.clock ? table.clock->Now() : 0);
    new_item = &*adorned;
  }
  if (new_item) POGI_RETURN_IF_ERROR(CheckIndexKeys(table, *new_item));
  std::string bytes;
  if (new_item) bytes = value::EncodeItem(*new_item, forms.new_item_origin);
  if (!table.indexes.empty()) {
    // An index entry keeps the order of the item it was projected from.
    std::string_view item_proto = new_item ? std::string_view(bytes).substr(1) : std::string_view();
    POGI_RETURN_IF_ERROR(UpdateIndexes(txn, table, key, old_item, new_item, item_proto, index_units));
  }
  // No vector index: one branch.
  if (!table.vector_indexes.empty()) {
    POGI_RETURN_IF_ERROR(UpdateVectorIndexes(txn, table, key, old_item, new_item, index_units));
  }
  if (table.description.local_secondary_indexes_size() > 0) {
    POGI_RETURN_IF_ERROR(UpdateCollectionSize(txn, table, key, old_item, new_item));
  }
  int64_t old_size = old_item ? value::ItemSize(*old_item) : 0;
  int64_t new_size = new_item ? value::ItemSize(*new_item) : 0;
  if (new_item) {
    POGI_RETURN_IF_ERROR(txn.PutItem(table.id, key, bytes, new_size));
  } else {
    POGI_RETURN_IF_ERROR(txn.DeleteItem(table.id, key));
  }
  // Streams and Kinesis off and nobody watching: two branches and one
  // relaxed load.
  if (table.capture && (table.stream_id != 0 || table.kinesis_queue != 0 || table.capture->feed->active()) &&
      !(old_item && new_item && SameAttributes(*old_item, *new_item))) {
    StoredChange stored{bytes, forms.old_item, new_item ? new_size : -1, old_item ? old_size : -1};
    POGI_RETURN_IF_ERROR(CaptureChange(txn, table, key, old_item, new_item, stored, source));
  }
  // Not a global table: one branch. A replicated write is not replicated
  // again (no loop between replicas).
  if (table.replication_queue != 0 && source != ChangeSource::kReplicated) {
    // Multi-region strong consistency: every replica changes in this
    // transaction, so the write is everywhere once acknowledged.
    if (table.capture && table.capture->replicate_now && IsStrongReplica(table)) {
      POGI_RETURN_IF_ERROR(table.capture->replicate_now(txn, table, key, new_item ? &bytes : nullptr));
    } else {
      POGI_RETURN_IF_ERROR(QueueReplication(txn, table, key, new_item ? &bytes : nullptr));
    }
  }
  // No read lag set: one branch and one relaxed load. Recorded before the
  // commit, so no reader sees the change without its older version; a
  // rolled-back change leaves a "version" equal to the item as it stays.
  if (table.read_lag && table.read_lag->active())
    table.read_lag->Record(table, key, old_item, forms.old_item);
  // Point-in-time recovery off: one branch.
  if (table.settings.pitr().enabled()) {
    POGI_RETURN_IF_ERROR(RecordHistory(txn, table, key, new_item ? &bytes : nullptr, new_size));
  }
  if (forms.new_item) *forms.new_item = std::move(bytes);
  int64_t count_delta = (new_item ? 1 : 0) - (old_item ? 1 : 0);
  return txn.AdjustCounters(table.id, count_delta, new_size - old_size);
}

Error WithStoredItem(Error e, std::string_view stored) {
  if (stored.empty() || !e.detail() || !e.detail()->has_item()) return e;
  auto detail = std::make_shared<v1::ErrorDetail>(*e.detail());
  detail->mutable_item()->Clear();
  value::CarryAttributeMap(detail->mutable_item(), v1::Item::kAttributesFieldNumber, stored.substr(1));
  e.set_detail(std::move(detail));
  return e;
}

Result<std::shared_ptr<const Table>> CurrentTable(const Catalog& catalog, const Table& seen) {
  auto table = catalog.FindCurrent(seen);
  if (!table || table->id != seen.id) return Error::ResourceNotFound("Requested resource not found");
  return table;
}

Result<ItemChange> ModifyItem(storage::Storage& storage, const Catalog& catalog, const Table& seen,
                              const storage::EncodedKey& key, const Decide& decide, ChangeSource source,
                              const value::PathTree* updated) {
  ItemChange change;
  std::optional<value::AttributeMap> previous;  // the new item of the run before
  Status s = storage.WriteItems([&](storage::WriteTxn& txn) -> Status {
    if (change.new_item) previous = std::move(change.new_item);
    change = ItemChange();  // a write run again starts from nothing
    POGI_ASSIGN_OR_RETURN(auto current, CurrentTable(catalog, seen));
    const Table& table = *current;
    // The stored bytes stay at hand for the change's stream record.
    POGI_ASSIGN_OR_RETURN(auto old_bytes, txn.GetItem(table.id, key));
    ChangeForms forms;
    if (old_bytes) {
      POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*old_bytes));
      change.old_item = std::move(*item.mutable_attributes());
      forms.old_item = *old_bytes;
    }
    auto decided = decide(change.old_item ? &*change.old_item : nullptr, &previous);
    if (!decided.ok()) return WithStoredItem(std::move(decided).error(), forms.old_item);
    change.new_item = std::move(*decided);
    // An update keeps the order of the maps it did not reach; a put's come
    // from its request.
    if (updated) {
      forms.new_item_origin = value::EntryOrigin::Along(
          forms.old_item.empty() ? std::string_view() : forms.old_item.substr(1), updated);
    }
    forms.new_item = &change.new_proto;
    POGI_RETURN_IF_ERROR(ApplyChange(txn, table, key, change.old_item ? &*change.old_item : nullptr,
                                     change.new_item ? &*change.new_item : nullptr, &change.index_units,
                                     source, forms));
    if (old_bytes) change.old_proto = old_bytes->substr(1);
    if (!change.new_proto.empty()) change.new_proto.erase(0, 1);  // the format byte
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  return change;
}

}  // namespace pogi::service
