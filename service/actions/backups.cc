// CreateBackup, DescribeBackup, ListBackups, DeleteBackup: on-demand backups,
// each a copy of a table's items and settings taken in one storage
// transaction, kept until deleted (they outlive their table).
//
// BackupInUseException and TableInUseException are never answered, because
// pogi never has the state DynamoDB answers them in: every table and backup
// operation completes inside one storage transaction before it answers, and
// writes are serialized, so no request ever meets
//   - a backup being created, deleted or restored from (DynamoDB's
//     BackupInUseException for CreateBackup, DeleteBackup and
//     RestoreTableFromBackup on it, and for DeleteTable of its table);
//   - a table being created, updated or deleted (TableInUseException for
//     CreateBackup of it and for a restore whose target name it holds:
//     a finished table answers TableAlreadyExistsException instead).
// A table is always ACTIVE between requests (CreateTable, UpdateTable and
// restores answer CREATING/UPDATING as DynamoDB does, but are done).
#include "service/backup/backup_description.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/write/item_write.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

Error BackupNotFound(const std::string& arn) {
  return Error(ErrorCode::kBackupNotFound, "Backup not found: " + arn);
}

void CheckBackupArn(Constraints& c, const std::string* arn) {
  c.Required(arn != nullptr, "backupArn");
  c.Length(arn, 37, 1024, "backupArn");
}

Result<v1::StoredBackup> Parse(const storage::BackupRecord& r) {
  v1::StoredBackup b;
  if (!b.ParseFromString(r.description)) return Error::Internal("backup " + r.arn + " is corrupt");
  return b;
}

}  // namespace

Status Engine::DropExpiredBackups() {
  double now = clock_->Now();
  std::vector<int64_t> expired;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto records, txn.ListBackups());
    for (const auto& r : records) {
      POGI_ASSIGN_OR_RETURN(auto backup, Parse(r));
      if (Expired(backup, now)) expired.push_back(r.id);
    }
    return Status::Ok();
  }));
  if (expired.empty()) return Status::Ok();
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    for (int64_t id : expired) POGI_RETURN_IF_ERROR(txn.DeleteBackup(id));
    return Status::Ok();
  });
}

Result<v1::CreateBackupResponse> Engine::CreateBackup(const v1::CreateBackupRequest& req) {
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(req.has_backup_name(), "backupName");
  c.Length(req.has_backup_name() ? &req.backup_name() : nullptr, 3, 255, "backupName");
  c.NamePattern(req.has_backup_name() ? &req.backup_name() : nullptr, "backupName");
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  auto seen = catalog_.FindNamed(name, req.table_name());
  if (!seen) return Error(ErrorCode::kTableNotFound, "Table not found: " + req.table_name());
  double now = clock_->Now();
  v1::StoredBackup backup;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, *seen));
    int64_t id = 0;
    POGI_ASSIGN_OR_RETURN(backup, TakeBackup(txn, *table, req.backup_name(), "USER", now, nullptr, &id));
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  v1::CreateBackupResponse resp;
  *resp.mutable_backup_details() = backup.description().backup_details();
  // DynamoDB answers CREATING; the copy is complete when this returns.
  resp.mutable_backup_details()->set_backup_status("CREATING");
  return resp;
}

Result<v1::DescribeBackupResponse> Engine::DescribeBackup(const v1::DescribeBackupRequest& req) {
  Constraints c;
  CheckBackupArn(c, req.has_backup_arn() ? &req.backup_arn() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(DropExpiredBackups());
  std::optional<storage::BackupRecord> record;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(record, txn.GetBackup(req.backup_arn()));
    return Status::Ok();
  }));
  if (!record) return BackupNotFound(req.backup_arn());
  POGI_ASSIGN_OR_RETURN(auto backup, Parse(*record));
  v1::DescribeBackupResponse resp;
  *resp.mutable_backup_description() = backup.description();
  return resp;
}

Result<v1::ListBackupsResponse> Engine::ListBackups(const v1::ListBackupsRequest& req) {
  Constraints c;
  c.Length(req.has_table_name() ? &req.table_name() : nullptr, 1, 1024, "tableName");
  if (req.has_limit() && (req.limit() < 1 || req.limit() > 100)) {
    c.Add("Value '" + std::to_string(req.limit()) +
          "' at 'limit' failed to satisfy constraint: Member must have value " +
          (req.limit() < 1 ? "greater than or equal to 1" : "less than or equal to 100"));
  }
  c.Length(req.has_exclusive_start_backup_arn() ? &req.exclusive_start_backup_arn() : nullptr, 37, 1024,
           "exclusiveStartBackupArn");
  c.OneOf(req.has_backup_type() ? &req.backup_type() : nullptr, {"USER", "SYSTEM", "AWS_BACKUP", "ALL"},
          "backupType");
  POGI_RETURN_IF_ERROR(c.Finish());
  if (req.has_time_range_lower_bound() && req.has_time_range_upper_bound() &&
      req.time_range_lower_bound() > req.time_range_upper_bound()) {
    // pogi's wording: DynamoDB's for an inverted range is not on record.
    return Error::Validation("TimeRangeLowerBound must not be later than TimeRangeUpperBound");
  }
  POGI_RETURN_IF_ERROR(DropExpiredBackups());
  std::vector<storage::BackupRecord> records;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(records, txn.ListBackups());
    return Status::Ok();
  }));
  std::string table_name;
  if (req.has_table_name()) {
    POGI_ASSIGN_OR_RETURN(table_name, ResolveTableName(req.table_name()));
  }
  // Without a BackupType, DynamoDB lists USER backups only.
  std::string type = req.has_backup_type() ? req.backup_type() : "USER";
  bool started = !req.has_exclusive_start_backup_arn();
  int limit = req.has_limit() ? req.limit() : 100;  // a page holds at most 100 (and 1 MB)
  v1::ListBackupsResponse resp;
  for (const auto& r : records) {
    if (!started) {
      started = r.arn == req.exclusive_start_backup_arn();
      continue;
    }
    if (!table_name.empty() && r.table_name != table_name) continue;
    // Each region lists its own tables' backups (their ARNs carry it).
    if (StrictRegions() && RegionOfArn(r.arn) != RequestRegion()) continue;
    POGI_ASSIGN_OR_RETURN(auto backup, Parse(r));
    const auto& d = backup.description().backup_details();
    // The lower bound is inclusive, the upper exclusive, as DynamoDB documents.
    if (req.has_time_range_lower_bound() && d.backup_creation_date_time() < req.time_range_lower_bound())
      continue;
    if (req.has_time_range_upper_bound() && d.backup_creation_date_time() >= req.time_range_upper_bound())
      continue;
    if (type != "ALL" && d.backup_type() != type) continue;
    if (resp.backup_summaries_size() == limit) {
      resp.set_last_evaluated_backup_arn(resp.backup_summaries(limit - 1).backup_arn());
      break;
    }
    *resp.add_backup_summaries() = SummaryOf(backup);
  }
  return resp;
}

Result<v1::DeleteBackupResponse> Engine::DeleteBackup(const v1::DeleteBackupRequest& req) {
  Constraints c;
  CheckBackupArn(c, req.has_backup_arn() ? &req.backup_arn() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_RETURN_IF_ERROR(DropExpiredBackups());
  v1::DeleteBackupResponse resp;
  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto record, txn.GetBackup(req.backup_arn()));
    if (!record) return BackupNotFound(req.backup_arn());
    POGI_ASSIGN_OR_RETURN(auto backup, Parse(*record));
    *resp.mutable_backup_description() = backup.description();
    resp.mutable_backup_description()->mutable_backup_details()->set_backup_status("DELETED");
    return txn.DeleteBackup(record->id);
  }));
  return resp;
}

}  // namespace pogi::service
