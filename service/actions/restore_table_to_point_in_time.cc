// RestoreTableToPointInTime: a new table holding exactly the items the
// source held at an instant of its recovery window, with the overrides.
#include <cmath>

#include "service/control_plane.h"
#include "service/engine.h"
#include "service/pitr_history.h"

namespace pogi::service {

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
  std::string source_name =
      req.has_source_table_arn() ? TableNameOrArn(req.source_table_arn()) : req.source_table_name();
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
  auto source = catalog_.Find(source_name);
  if (!source) {
    return Error(ErrorCode::kTableNotFound,
                 "Table not found: " + (req.has_source_table_arn() ? req.source_table_arn() : source_name));
  }
  const v1::PitrState& pitr = source->settings.pitr();
  if (!pitr.enabled()) {
    return Error(ErrorCode::kPointInTimeRecoveryUnavailable,
                 "Point in time recovery is not enabled for table '" + source_name + "'");
  }
  if (catalog_.Find(req.target_table_name())) {
    return Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + req.target_table_name());
  }
  double now = clock_->Now();
  double when = latest ? now : req.restore_date_time();
  // The window is kept to the microsecond; clients send whole seconds, so a
  // time within the second the window opened counts as its start.
  double earliest = EarliestRestorable(pitr, now);
  if (!latest && (when < std::floor(earliest) || when > now)) {
    return Error(ErrorCode::kInvalidRestoreTime,
                 "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime");
  }
  int64_t as_of = ToMicros(std::max(when, earliest));
  v1::RestoreSummary summary;
  summary.set_source_table_arn(source->description.table_arn());
  summary.set_restore_date_time(when);
  int64_t source_id = source->id;
  POGI_ASSIGN_OR_RETURN(
      auto d, RestoreTable(source->description, req.target_table_name(), OverridesOf(req), summary,
                           [&](storage::ReadTxn& txn, const std::function<bool(const storage::Row&)>& visit) {
                             return txn.ReadHistoryAsOf(source_id, as_of, visit);
                           }));
  v1::RestoreTableToPointInTimeResponse resp;
  *resp.mutable_table_description() = std::move(d);
  return resp;
}

}  // namespace pogi::service
