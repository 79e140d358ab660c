// UpdateContinuousBackups, DescribeContinuousBackups: point-in-time
// recovery's switch and recovery window. Turning it on records the table's
// items as they are then; from then on the write path records every change
// (service/write/pitr_history.h); turning it off forgets the history.
#include "service/engine/engine.h"
#include "service/validate/control_plane.h"
#include "service/write/item_write.h"
#include "service/write/pitr_history.h"

namespace pogi::service {
namespace {

Error TableNotFound(const std::string& name) {
  return Error(ErrorCode::kTableNotFound, "Table not found: " + name);
}

v1::ContinuousBackupsDescription DescriptionOf(const v1::PitrState& pitr, double now) {
  v1::ContinuousBackupsDescription d;
  // Continuous backups are always on for a DynamoDB table; PITR is the switch.
  d.set_continuous_backups_status("ENABLED");
  auto* p = d.mutable_point_in_time_recovery_description();
  p->set_point_in_time_recovery_status(pitr.enabled() ? "ENABLED" : "DISABLED");
  if (pitr.enabled()) {
    p->set_recovery_period_in_days(pitr.recovery_period_in_days());
    p->set_earliest_restorable_date_time(EarliestRestorable(pitr, now));
    p->set_latest_restorable_date_time(now);
  }
  return d;
}

}  // namespace

Result<v1::UpdateContinuousBackupsResponse> Engine::UpdateContinuousBackups(
    const v1::UpdateContinuousBackupsRequest& req) {
  const auto& spec = req.point_in_time_recovery_specification();
  {
    Constraints c;
    c.Required(req.has_table_name(), "tableName");
    CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
    c.Required(req.has_point_in_time_recovery_specification(), "pointInTimeRecoverySpecification");
    if (req.has_point_in_time_recovery_specification()) {
      c.Required(spec.has_point_in_time_recovery_enabled(),
                 "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled");
      if (spec.has_recovery_period_in_days() &&
          (spec.recovery_period_in_days() < 1 || spec.recovery_period_in_days() > 35)) {
        c.Add(
            "Value '" + std::to_string(spec.recovery_period_in_days()) +
            "' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: "
            "Member "
            "must have value " +
            (spec.recovery_period_in_days() < 1 ? "greater than or equal to 1" : "less than or equal to 35"));
      }
    }
    POGI_RETURN_IF_ERROR(c.Finish());
  }
  if (!spec.point_in_time_recovery_enabled() && spec.has_recovery_period_in_days()) {
    // pogi's wording; DynamoDB refuses a period for PITR turned off.
    return Error::InvalidParameter(
        "RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true");
  }
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  auto seen = catalog_.FindNamed(name, req.table_name());
  if (!seen) return TableNotFound(req.table_name());
  double now = clock_->Now();
  v1::PitrState pitr;
  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, *seen));
    v1::TableSettings settings = table->settings;
    bool was_on = settings.pitr().enabled();
    if (!spec.point_in_time_recovery_enabled()) {
      settings.clear_pitr();
      if (was_on) POGI_RETURN_IF_ERROR(txn.DropHistory(table->id));
    } else {
      auto* p = settings.mutable_pitr();
      if (!was_on) {
        p->set_enabled(true);
        p->set_enabled_date_time(now);
        // The history starts with every item as it is now.
        storage::RangeRead all;
        all.id = table->id;
        Status failure;
        POGI_RETURN_IF_ERROR(txn.ReadRange(all, [&](const storage::Row& row) {
          std::string bytes(row.item);
          failure = txn.AppendHistory(table->id, {std::string(row.partition), std::string(row.sort)},
                                      ToMicros(now), bytes, row.size);
          return failure.ok();
        }));
        POGI_RETURN_IF_ERROR(failure);
      }
      p->set_recovery_period_in_days(spec.has_recovery_period_in_days()
                                         ? spec.recovery_period_in_days()
                                         : (was_on ? p->recovery_period_in_days() : kDefaultRecoveryDays));
      POGI_RETURN_IF_ERROR(txn.PruneHistory(table->id, ToMicros(EarliestRestorable(*p, now))));
    }
    POGI_RETURN_IF_ERROR(txn.PutTableSettings(table->id, settings.SerializeAsString()));
    pitr = settings.pitr();
    catalog_.Put(Catalog::WithSettings(*table, std::move(settings)));
    return Status::Ok();
  }));
  v1::UpdateContinuousBackupsResponse resp;
  *resp.mutable_continuous_backups_description() = DescriptionOf(pitr, now);
  return resp;
}

Result<v1::DescribeContinuousBackupsResponse> Engine::DescribeContinuousBackups(
    const v1::DescribeContinuousBackupsRequest& req) {
  Constraints c;
  c.Required(req.has_table_name(), "tableName");
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  auto table = catalog_.FindNamed(name, req.table_name());
  if (!table) return TableNotFound(req.table_name());
  v1::DescribeContinuousBackupsResponse resp;
  *resp.mutable_continuous_backups_description() = DescriptionOf(table->settings.pitr(), clock_->Now());
  return resp;
}

}  // namespace pogi::service
