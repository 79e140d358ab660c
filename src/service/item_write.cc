// ModifyItem: one atomic read-modify-write of one item, counters included.
#include "service/item_write.h"

namespace pogi::service {

Result<ItemChange> ModifyItem(storage::Storage& storage, const Table& table,
                              const storage::EncodedKey& key, const Decide& decide) {
  ItemChange change;
  Status s = storage.Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table.id, key));
    if (bytes) {
      POGI_ASSIGN_OR_RETURN(auto old, value::DecodeItem(*bytes));
      change.old_item = std::move(*old.mutable_attributes());
    }
    POGI_ASSIGN_OR_RETURN(change.new_item, decide(change.old_item ? &*change.old_item : nullptr));
    int64_t old_size = change.old_item ? value::ItemSize(*change.old_item) : 0;
    int64_t new_size = change.new_item ? value::ItemSize(*change.new_item) : 0;
    if (change.new_item) {
      POGI_RETURN_IF_ERROR(txn.PutItem(table.id, key, value::EncodeItem(*change.new_item)));
    } else if (change.old_item) {
      POGI_RETURN_IF_ERROR(txn.DeleteItem(table.id, key));
    } else {
      return Status::Ok();  // deleting what is not there changes nothing
    }
    int64_t count_delta = (change.new_item ? 1 : 0) - (change.old_item ? 1 : 0);
    return txn.AdjustCounters(table.id, count_delta, new_size - old_size);
  });
  POGI_RETURN_IF_ERROR(s);
  return change;
}

}  // namespace pogi::service
