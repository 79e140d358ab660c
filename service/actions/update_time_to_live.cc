// UpdateTimeToLive: enable or disable TTL on a table, with DynamoDB's rules:
// not twice in a row, not on another attribute while enabled, and not again
// within an hour of the last change. pogi applies the change at once
// (DynamoDB passes through ENABLING/DISABLING for up to an hour).
#include <map>

#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/write/item_write.h"
#include "service/write/replication_queue.h"

namespace pogi::service {
namespace {

// "It can take up to one hour for the change to fully process. Any
// additional UpdateTimeToLive calls for the same table during this one hour
// duration result in a ValidationException" (UpdateTimeToLive's reference).
constexpr double kChangeIntervalSeconds = 3600;

}  // namespace

Result<v1::UpdateTimeToLiveResponse> Engine::UpdateTimeToLive(const v1::UpdateTimeToLiveRequest& req) {
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(req.has_time_to_live_specification(), "timeToLiveSpecification");
  if (req.has_time_to_live_specification()) {
    const auto& spec = req.time_to_live_specification();
    c.Required(spec.has_enabled(), "timeToLiveSpecification.enabled");
    c.Required(spec.has_attribute_name(), "timeToLiveSpecification.attributeName");
    c.Length(spec.has_attribute_name() ? &spec.attribute_name() : nullptr, 1, 255,
             "timeToLiveSpecification.attributeName");
  }
  POGI_RETURN_IF_ERROR(c.Finish());
  const auto& spec = req.time_to_live_specification();
  POGI_ASSIGN_OR_RETURN(auto seen, FindTable(req.table_name()));
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, *seen));
    v1::TableDescription d = table->description;
    const auto& current = d.pogi_time_to_live();
    bool enabled = current.time_to_live_status() == "ENABLED";
    if (spec.enabled() && enabled) {
      if (current.attribute_name() != spec.attribute_name()) {
        return Error::Validation(
            "TimeToLive is active on a different AttributeName: current AttributeName is " +
            current.attribute_name());
      }
      return Error::Validation("TimeToLive is already enabled");
    }
    if (!spec.enabled() && !enabled) return Error::Validation("TimeToLive is already disabled");
    if (spec.enabled()) POGI_RETURN_IF_ERROR(CheckTimeToLiveAllowed(*table));
    if (!spec.enabled() && current.attribute_name() != spec.attribute_name()) {
      return Error::Validation(
          "TimeToLive is active on a different AttributeName: current AttributeName is " +
          current.attribute_name());
    }
    double now = clock_->Now();
    if (d.has_pogi_time_to_live_updated() && now - d.pogi_time_to_live_updated() < kChangeIntervalSeconds) {
      return Error::Validation("Time to live has been modified multiple times within a fixed interval");
    }
    auto* ttl = d.mutable_pogi_time_to_live();
    ttl->set_time_to_live_status(spec.enabled() ? "ENABLED" : "DISABLED");
    if (spec.enabled()) {
      ttl->set_attribute_name(spec.attribute_name());
    } else {
      ttl->clear_attribute_name();
    }
    d.set_pogi_time_to_live_updated(now);
    // A global table's TTL setting is its replicas' too, as in DynamoDB:
    // each deletes its own expired items (and the deletions replicate).
    for (const auto& r : d.replicas()) {
      if (r.region_name() == table->region) continue;
      auto other = catalog_.FindIn(d.table_name(), r.region_name());
      if (!other) continue;
      v1::TableDescription od = other->description;
      *od.mutable_pogi_time_to_live() = d.pogi_time_to_live();
      od.set_pogi_time_to_live_updated(now);
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(other->id, od.SerializeAsString()));
      catalog_.Put(catalog_.Make(other->id, std::move(od), other->IndexIds()));
    }
    POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(table->id, d.SerializeAsString()));
    catalog_.Put(catalog_.Make(table->id, std::move(d), table->IndexIds()));
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  v1::UpdateTimeToLiveResponse resp;
  *resp.mutable_time_to_live_specification() = spec;
  return resp;
}

}  // namespace pogi::service
