// RestoreTableToPointInTime: a new table holding exactly the items the
// source held at an instant of its recovery window, with the overrides. The
// source is a live table, or (by SourceTableArn) a deleted one whose SYSTEM
// backup kept its history.
#include <cmath>

#include "service/backup/backup_description.h"
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

// The newest unexpired SYSTEM backup that kept the history of the deleted
// table `arn`, with its storage id; nullopt when there is none.
Result<std::optional<std::pair<int64_t, v1::StoredBackup>>> DeletedTableBackup(storage::Storage& storage,
                                                                               const std::string& arn) {
  std::optional<std::pair<int64_t, v1::StoredBackup>> found;
  POGI_RETURN_IF_ERROR(storage.Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto records, txn.ListBackups());  // oldest first
    for (const auto& r : records) {
      v1::StoredBackup b;
      if (!b.ParseFromString(r.description)) return Error::Internal("backup " + r.arn + " is corrupt");
      if (b.deleted_table_pitr().enabled() && b.table().table_arn() == arn) found.emplace(r.id, std::move(b));
    }
    return Status::Ok();
  }));
  return found;
}

}  // namespace

Result<v1::RestoreTableToPointInTimeResponse> Engine::RestoreTableToPointInTime(
    const v1::RestoreTableToPointInTimeRequest& req) {
  {
    Constraints c;
    c.Length(req.has_source_table_arn() ? &req.source_table_arn() : nullptr, 1, 1024, "sourceTableArn");
    if (req.has_source_table_name()) CheckTableName(c, &req.source_table_name(), "sourceTableName");
    CheckTableName(c, req.has_target_table_name() ? &req.target_table_name() : nullptr, "targetTableName");
    CheckRestoreOverrides(c, req);
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  // pogi's wording for the combinations DynamoDB refuses.
  if (!req.has_source_table_name() && !req.has_source_table_arn()) {
    return Error::Validation("Either SourceTableName or SourceTableArn must be specified");
  }
  std::string source_name = req.source_table_name();
  if (req.has_source_table_arn()) {
    POGI_ASSIGN_OR_RETURN(source_name, ResolveTableName(req.source_table_arn()));
  }
  if (req.has_source_table_name() && req.has_source_table_arn() && source_name != req.source_table_name()) {
    return Error::Validation("SourceTableName and SourceTableArn name different tables");
  }
  bool latest = req.use_latest_restorable_time();
  if (latest && req.has_restore_date_time()) {
    return Error::Validation("Only one of RestoreDateTime or UseLatestRestorableTime can be specified");
  }
  if (!latest && !req.has_restore_date_time()) {
    return Error::Validation("Either RestoreDateTime or UseLatestRestorableTime must be specified");
  }
  double now = clock_->Now();
  // The source: a live table (its window ends now), else a deleted one,
  // which only its ARN names, as DynamoDB's console and CLI restore a
  // deleted table (its window ends at the deletion).
  auto source = catalog_.Find(source_name);
  std::optional<std::pair<int64_t, v1::StoredBackup>> deleted;
  if (!source && req.has_source_table_arn()) {
    POGI_RETURN_IF_ERROR(DropExpiredBackups());
    POGI_ASSIGN_OR_RETURN(deleted, DeletedTableBackup(*storage_, req.source_table_arn()));
  }
  if (!source && !deleted) {
    return Error(ErrorCode::kTableNotFound,
                 "Table not found: " + (req.has_source_table_arn() ? req.source_table_arn() : source_name));
  }
  const v1::PitrState& pitr = source ? source->settings.pitr() : deleted->second.deleted_table_pitr();
  if (!pitr.enabled()) {
    return Error(ErrorCode::kPointInTimeRecoveryUnavailable,
                 "Point in time recovery is not enabled for table '" + source_name + "'");
  }
  if (catalog_.Find(req.target_table_name())) {
    return Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + req.target_table_name());
  }
  double end = source ? now : deleted->second.deleted_date_time();
  double when = latest ? end : req.restore_date_time();
  // The window is kept to the microsecond; clients send whole seconds, so a
  // time within the second the window opened counts as its start.
  double earliest = EarliestRestorable(pitr, end);
  if (!latest && (when < std::floor(earliest) || when > end)) {
    return Error(ErrorCode::kInvalidRestoreTime,
                 "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
  }
  int64_t as_of = ToMicros(std::max(when, earliest));
  const v1::TableDescription& described = source ? source->description : deleted->second.table();
  v1::RestoreSummary summary;
  summary.set_source_table_arn(described.table_arn());
  summary.set_restore_date_time(when);
  int64_t source_id = source ? source->id : 0;
  int64_t backup_id = deleted ? deleted->first : 0;
  POGI_ASSIGN_OR_RETURN(
      auto d, RestoreTable(described, req.target_table_name(), OverridesOf(req), summary,
                           [&](storage::ReadTxn& txn, const std::function<bool(const storage::Row&)>& visit) {
                             if (backup_id != 0) return txn.ReadBackupHistoryAsOf(backup_id, as_of, visit);
                             return txn.ReadHistoryAsOf(source_id, as_of, visit);
                           }));
  v1::RestoreTableToPointInTimeResponse resp;
  *resp.mutable_table_description() = std::move(d);
  return resp;
}

}  // namespace pogi::service
