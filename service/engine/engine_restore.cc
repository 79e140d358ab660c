// Engine::RestoreTable, the one write that creates a restored table and
// fills it through the write path (RestoreTableFromBackup and
// RestoreTableToPointInTime; the new table's request is backup/restore.h's).
#include "service/backup/restore.h"
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/validate/vector_index.h"
#include "service/write/item_write.h"

namespace pogi::service {

Result<v1::TableDescription> Engine::RestoreTable(const v1::TableDescription& source,
                                                  const std::string& target,
                                                  const v1::CreateTableRequest& overrides,
                                                  const v1::RestoreSummary& summary,
                                                  const RestoreSource& items) {
  POGI_RETURN_IF_ERROR(CheckVectorIndexOverride(overrides.vector_indexes(), source));
  v1::CreateTableRequest create = RestoreRequestOf(source, target, overrides);
  POGI_ASSIGN_OR_RETURN(v1::TableDescription d, NewTableDescription(create, clock_->Now()));
  *d.mutable_restore_summary() = summary;
  d.mutable_restore_summary()->set_restore_in_progress(false);
  std::shared_ptr<const Table> table;
  // One write: a crash before its commit leaves neither the table nor any
  // of its items.
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    if (catalog_.Find(target)) {
      return Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + target);
    }
    POGI_ASSIGN_OR_RETURN(table, CreateTableInTxn(txn, d, v1::TableSettings()));
    Status failure;
    POGI_RETURN_IF_ERROR(items(txn, [&](const storage::Row& row) {
      auto item = value::DecodeItem(row.item);
      if (!item.ok()) {
        failure = item.error();
        return false;
      }
      storage::EncodedKey key{std::string(row.partition), std::string(row.sort)};
      ChangeForms forms;  // a restored item keeps its maps' order
      forms.new_item_origin = value::EntryOrigin::Kept(std::string_view(row.item).substr(1));
      failure =
          ApplyChange(txn, *table, key, nullptr, &item->attributes(), nullptr, ChangeSource::kRequest, forms);
      return failure.ok();
    }));
    return failure;
  });
  if (!s.ok() && table) catalog_.Remove(target, table->region);
  POGI_RETURN_IF_ERROR(s);
  POGI_ASSIGN_OR_RETURN(v1::TableDescription out, Describe(*table));
  // As DynamoDB answers a restore: the table being created, the restore
  // under way; DescribeTable shows both done.
  out.set_table_status("CREATING");
  out.mutable_restore_summary()->set_restore_in_progress(true);
  return out;
}

}  // namespace pogi::service
