// The shared item write path.
#include "service/item_write.h"

namespace pogi::service {

Result<std::optional<value::AttributeMap>> ReadItem(storage::ReadTxn& txn, const Table& table,
                                                    const storage::EncodedKey& key) {
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table.id, key));
  if (!bytes) return std::optional<value::AttributeMap>();
  POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*bytes));
  return std::optional<value::AttributeMap>(std::move(*item.mutable_attributes()));
}

Status ApplyChange(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                   const value::AttributeMap* old_item, const value::AttributeMap* new_item) {
  if (!old_item && !new_item) return Status::Ok();  // deleting what is not there
  if (new_item) {
    POGI_RETURN_IF_ERROR(txn.PutItem(table.id, key, value::EncodeItem(*new_item)));
  } else {
    POGI_RETURN_IF_ERROR(txn.DeleteItem(table.id, key));
  }
  int64_t old_size = old_item ? value::ItemSize(*old_item) : 0;
  int64_t new_size = new_item ? value::ItemSize(*new_item) : 0;
  int64_t count_delta = (new_item ? 1 : 0) - (old_item ? 1 : 0);
  return txn.AdjustCounters(table.id, count_delta, new_size - old_size);
}

Result<ItemChange> ModifyItem(storage::Storage& storage, const Table& table,
                              const storage::EncodedKey& key, const Decide& decide) {
  ItemChange change;
  Status s = storage.Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(change.old_item, ReadItem(txn, table, key));
    POGI_ASSIGN_OR_RETURN(change.new_item, decide(change.old_item ? &*change.old_item : nullptr));
    return ApplyChange(txn, table, key, change.old_item ? &*change.old_item : nullptr,
                       change.new_item ? &*change.new_item : nullptr);
  });
  POGI_RETURN_IF_ERROR(s);
  return change;
}

}  // namespace pogi::service
