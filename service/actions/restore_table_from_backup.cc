// RestoreTableFromBackup: a new table made from a backup's items and
// settings, with the request's overrides.
#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"

namespace pogi::service {

Result<v1::RestoreTableFromBackupResponse> Engine::RestoreTableFromBackup(
    const v1::RestoreTableFromBackupRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_target_table_name() ? &req.target_table_name() : nullptr, "targetTableName");
  c.Required(req.has_backup_arn(), "backupArn");
  c.Length(req.has_backup_arn() ? &req.backup_arn() : nullptr, 37, 1024, "backupArn");
  CheckRestoreOverrides(c, req);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(DropExpiredBackups());
  std::optional<storage::BackupRecord> record;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(record, txn.GetBackup(req.backup_arn()));
    return Status::Ok();
  }));
  if (!record) return Error(ErrorCode::kBackupNotFound, "Backup not found: " + req.backup_arn());
  v1::StoredBackup backup;
  if (!backup.ParseFromString(record->description))
    return Error::Internal("backup " + record->arn + " is corrupt");
  if (catalog_.Find(req.target_table_name())) {
    return Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + req.target_table_name());
  }
  v1::RestoreSummary summary;
  summary.set_source_backup_arn(record->arn);
  summary.set_source_table_arn(backup.table().table_arn());
  summary.set_restore_date_time(clock_->Now());
  int64_t backup_id = record->id;
  POGI_ASSIGN_OR_RETURN(
      auto d, RestoreTable(backup.table(), req.target_table_name(), OverridesOf(req), summary,
                           [&](storage::ReadTxn& txn, const std::function<bool(const storage::Row&)>& visit) {
                             return txn.ReadBackupItems(backup_id, visit);
                           }));
  v1::RestoreTableFromBackupResponse resp;
  *resp.mutable_table_description() = std::move(d);
  return resp;
}

}  // namespace pogi::service
