// DescribeGlobalTableSettings and UpdateGlobalTableSettings (global tables
// version 2017.11.29): each member's billing mode, capacity units (the
// table's and each global secondary index's), table class and auto scaling
// settings. The billing mode and the write capacity are the group's (set on
// every member); read capacity and table class are each replica's. Auto
// scaling settings are kept where replica auto scaling keeps them
// (core/auto_scaling_store.h) and described back: pogi never changes
// capacity by itself.
#include <algorithm>

#include "service/core/auto_scaling_store.h"
#include "service/core/legacy_global_table.h"
#include "service/engine/engine.h"
#include "service/validate/auto_scaling.h"
#include "service/validate/global_tables_legacy.h"
#include "service/write/legacy_attributes.h"

namespace pogi::service {
namespace {

// TODO(fidelity): no record of DynamoDB's texts for these.
Error GlobalTableNotFound(const std::string& name) {
  return Error(ErrorCode::kGlobalTableNotFound,
               "Global table not found: Global table with name: '" + name + "' does not exist.");
}

struct Member {
  std::string region;
  std::shared_ptr<const Table> table;
};

// The members of the group of `record`, in its order (a region whose table
// is gone is left out).
std::vector<Member> MembersOf(const Catalog& catalog, const v1::TableDescription& record) {
  std::vector<Member> out;
  for (const auto& r : record.replicas()) {
    auto t = catalog.FindIn(record.table_name(), r.region_name());
    if (t && IsLegacyGlobalMember(t->description)) out.push_back({r.region_name(), std::move(t)});
  }
  return out;
}

bool OnDemand(const v1::TableDescription& d) {
  return d.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
}

const v1::AutoScalingSettingsDescription& OrOff(const v1::AutoScalingSettingsDescription& s, bool has,
                                                v1::AutoScalingSettingsDescription& off) {
  if (has) return s;
  off = AutoScalingOff();
  return off;
}

// The settings of every member as DescribeGlobalTableSettings shows them.
Result<v1::DescribeGlobalTableSettingsResponse> DescribeSettings(storage::ReadTxn& txn,
                                                                 const v1::TableDescription& record,
                                                                 const std::vector<Member>& members) {
  v1::DescribeGlobalTableSettingsResponse resp;
  resp.set_global_table_name(record.table_name());
  v1::AutoScalingSettingsDescription off;
  for (const auto& m : members) {
    const v1::TableDescription& d = m.table->description;
    POGI_ASSIGN_OR_RETURN(auto scaling, ReadAutoScaling(txn, d));
    auto* rs = resp.add_replica_settings();
    rs->set_region_name(m.region);
    rs->set_replica_status(record.table_status() == "CREATING" ? "CREATING" : "ACTIVE");
    if (OnDemand(d)) {
      *rs->mutable_replica_billing_mode_summary() = d.billing_mode_summary();
    } else {
      rs->mutable_replica_billing_mode_summary()->set_billing_mode("PROVISIONED");
    }
    rs->set_replica_provisioned_read_capacity_units(d.provisioned_throughput().read_capacity_units());
    rs->set_replica_provisioned_write_capacity_units(d.provisioned_throughput().write_capacity_units());
    *rs->mutable_replica_provisioned_read_capacity_auto_scaling_settings() =
        OrOff(scaling.replica_provisioned_read_capacity_auto_scaling_settings(),
              scaling.has_replica_provisioned_read_capacity_auto_scaling_settings(), off);
    *rs->mutable_replica_provisioned_write_capacity_auto_scaling_settings() =
        OrOff(scaling.replica_provisioned_write_capacity_auto_scaling_settings(),
              scaling.has_replica_provisioned_write_capacity_auto_scaling_settings(), off);
    for (const auto& g : d.global_secondary_indexes()) {
      auto* gs = rs->add_replica_global_secondary_index_settings();
      gs->set_index_name(g.index_name());
      gs->set_index_status(g.index_status().empty() ? "ACTIVE" : g.index_status());
      gs->set_provisioned_read_capacity_units(g.provisioned_throughput().read_capacity_units());
      gs->set_provisioned_write_capacity_units(g.provisioned_throughput().write_capacity_units());
      const v1::ReplicaGlobalSecondaryIndexAutoScalingDescription* ga = nullptr;
      for (const auto& e : scaling.global_secondary_indexes()) {
        if (e.index_name() == g.index_name()) ga = &e;
      }
      *gs->mutable_provisioned_read_capacity_auto_scaling_settings() =
          ga && ga->has_provisioned_read_capacity_auto_scaling_settings()
              ? ga->provisioned_read_capacity_auto_scaling_settings()
              : AutoScalingOff();
      *gs->mutable_provisioned_write_capacity_auto_scaling_settings() =
          ga && ga->has_provisioned_write_capacity_auto_scaling_settings()
              ? ga->provisioned_write_capacity_auto_scaling_settings()
              : AutoScalingOff();
    }
    if (d.has_table_class_summary()) *rs->mutable_replica_table_class_summary() = d.table_class_summary();
  }
  return resp;
}

v1::GlobalSecondaryIndexDescription* FindIndex(v1::TableDescription& d, const std::string& name) {
  for (auto& g : *d.mutable_global_secondary_indexes()) {
    if (g.index_name() == name) return &g;
  }
  return nullptr;
}

// TODO(fidelity): no record of DynamoDB's texts for these.
Error IndexMissing(const std::string& name) {
  return Error(ErrorCode::kIndexNotFound, "Requested resource not found: Index: " + name + " not found");
}
Error ReplicaMissing(const std::string& name, const std::string& region) {
  return Error(ErrorCode::kReplicaNotFound,
               "Replica not found: Global table: '" + name + "' has no replica in region: '" + region + "'.");
}

}  // namespace

Result<v1::DescribeGlobalTableSettingsResponse> Engine::DescribeGlobalTableSettings(
    const v1::DescribeGlobalTableSettingsRequest& req) {
  POGI_RETURN_IF_ERROR(
      CheckGlobalTableNameMember(req.has_global_table_name() ? &req.global_table_name() : nullptr));
  const std::string& name = req.global_table_name();
  v1::DescribeGlobalTableSettingsResponse resp;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto record, ReadLegacyRecord(txn, name, clock_->Now()));
    if (!record) return GlobalTableNotFound(name);
    auto members = MembersOf(catalog_, *record);
    if (members.empty()) return GlobalTableNotFound(name);
    POGI_ASSIGN_OR_RETURN(resp, DescribeSettings(txn, *record, members));
    return Status::Ok();
  }));
  return resp;
}

Result<v1::UpdateGlobalTableSettingsResponse> Engine::UpdateGlobalTableSettings(
    const v1::UpdateGlobalTableSettingsRequest& req) {
  POGI_RETURN_IF_ERROR(CheckUpdateGlobalTableSettingsMembers(req));
  const std::string& name = req.global_table_name();
  v1::UpdateGlobalTableSettingsResponse resp;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    const double now = clock_->Now();
    POGI_ASSIGN_OR_RETURN(auto record, ReadLegacyRecord(txn, name, now));
    if (!record) return GlobalTableNotFound(name);
    auto members = MembersOf(catalog_, *record);
    if (members.empty()) return GlobalTableNotFound(name);
    const v1::TableDescription& first = members.front().table->description;
    const bool on_demand = req.has_global_table_billing_mode()
                               ? req.global_table_billing_mode() == "PAY_PER_REQUEST"
                               : OnDemand(first);
    // TODO(fidelity): no record of DynamoDB's texts for capacity given to
    // an on-demand global table, or a switch to provisioned without it.
    bool gives_capacity = req.has_global_table_provisioned_write_capacity_units();
    for (const auto& g : req.global_table_global_secondary_index_settings_update())
      gives_capacity |= g.has_provisioned_write_capacity_units();
    for (const auto& r : req.replica_settings_update()) {
      gives_capacity |= r.has_replica_provisioned_read_capacity_units();
      for (const auto& g : r.replica_global_secondary_index_settings_update())
        gives_capacity |= g.has_provisioned_read_capacity_units();
    }
    if (on_demand && gives_capacity) {
      return Error::InvalidParameter(
          "Provisioned capacity cannot be specified when the billing mode is "
          "PAY_PER_REQUEST");
    }
    if (!on_demand && OnDemand(first) && !req.has_global_table_provisioned_write_capacity_units()) {
      return Error::InvalidParameter(
          "GlobalTableProvisionedWriteCapacityUnits must be specified when switching the billing mode to "
          "PROVISIONED");
    }
    for (const auto& g : req.global_table_global_secondary_index_settings_update()) {
      bool found = false;
      for (const auto& e : first.global_secondary_indexes()) found |= e.index_name() == g.index_name();
      if (!found) return IndexMissing(g.index_name());
    }
    for (const auto& r : req.replica_settings_update()) {
      auto it = std::find_if(members.begin(), members.end(),
                             [&](const Member& m) { return m.region == r.region_name(); });
      if (it == members.end()) return ReplicaMissing(name, r.region_name());
      for (const auto& g : r.replica_global_secondary_index_settings_update()) {
        bool found = false;
        for (const auto& e : it->table->description.global_secondary_indexes())
          found |= e.index_name() == g.index_name();
        if (!found) return IndexMissing(g.index_name());
      }
    }
    for (auto& m : members) {
      v1::TableDescription d = m.table->description;
      POGI_ASSIGN_OR_RETURN(auto scaling, ReadAutoScaling(txn, d));
      const v1::ReplicaSettingsUpdate* mine = nullptr;
      for (const auto& r : req.replica_settings_update()) {
        if (r.region_name() == m.region) mine = &r;
      }
      // Billing mode: the group's.
      if (on_demand && !OnDemand(d)) {
        d.mutable_billing_mode_summary()->set_billing_mode("PAY_PER_REQUEST");
        d.mutable_billing_mode_summary()->set_last_update_to_pay_per_request_date_time(now);
        d.mutable_provisioned_throughput()->set_read_capacity_units(0);
        d.mutable_provisioned_throughput()->set_write_capacity_units(0);
        for (auto& g : *d.mutable_global_secondary_indexes()) {
          g.mutable_provisioned_throughput()->set_read_capacity_units(0);
          g.mutable_provisioned_throughput()->set_write_capacity_units(0);
        }
      } else if (!on_demand && OnDemand(d)) {
        d.clear_billing_mode_summary();
        d.mutable_billing_mode_summary()->set_billing_mode("PROVISIONED");
        const int64_t units = req.global_table_provisioned_write_capacity_units();
        d.mutable_provisioned_throughput()->set_read_capacity_units(units);
        d.mutable_provisioned_throughput()->set_write_capacity_units(units);
        for (auto& g : *d.mutable_global_secondary_indexes()) {
          g.mutable_provisioned_throughput()->set_read_capacity_units(units);
          g.mutable_provisioned_throughput()->set_write_capacity_units(units);
        }
      }
      // Write capacity: the group's.
      if (req.has_global_table_provisioned_write_capacity_units()) {
        d.mutable_provisioned_throughput()->set_write_capacity_units(
            req.global_table_provisioned_write_capacity_units());
      }
      if (req.has_global_table_provisioned_write_capacity_auto_scaling_settings_update()) {
        POGI_ASSIGN_OR_RETURN(
            *scaling.mutable_replica_provisioned_write_capacity_auto_scaling_settings(),
            ApplyAutoScalingUpdate(scaling.replica_provisioned_write_capacity_auto_scaling_settings(),
                                   req.global_table_provisioned_write_capacity_auto_scaling_settings_update(),
                                   AutoScalingDefaultsFor(name, "", true)));
      }
      for (const auto& g : req.global_table_global_secondary_index_settings_update()) {
        auto* gd = FindIndex(d, g.index_name());
        if (!gd) return IndexMissing(g.index_name());
        if (g.has_provisioned_write_capacity_units())
          gd->mutable_provisioned_throughput()->set_write_capacity_units(
              g.provisioned_write_capacity_units());
        if (g.has_provisioned_write_capacity_auto_scaling_settings_update()) {
          auto* ga = AutoScalingOfIndex(scaling, g.index_name());
          POGI_ASSIGN_OR_RETURN(
              *ga->mutable_provisioned_write_capacity_auto_scaling_settings(),
              ApplyAutoScalingUpdate(ga->provisioned_write_capacity_auto_scaling_settings(),
                                     g.provisioned_write_capacity_auto_scaling_settings_update(),
                                     AutoScalingDefaultsFor(name, g.index_name(), true)));
        }
      }
      // Read capacity and table class: each replica's.
      if (mine) {
        if (mine->has_replica_provisioned_read_capacity_units()) {
          d.mutable_provisioned_throughput()->set_read_capacity_units(
              mine->replica_provisioned_read_capacity_units());
        }
        if (mine->has_replica_provisioned_read_capacity_auto_scaling_settings_update()) {
          POGI_ASSIGN_OR_RETURN(
              *scaling.mutable_replica_provisioned_read_capacity_auto_scaling_settings(),
              ApplyAutoScalingUpdate(scaling.replica_provisioned_read_capacity_auto_scaling_settings(),
                                     mine->replica_provisioned_read_capacity_auto_scaling_settings_update(),
                                     AutoScalingDefaultsFor(name, "", false)));
        }
        for (const auto& g : mine->replica_global_secondary_index_settings_update()) {
          auto* gd = FindIndex(d, g.index_name());
          if (!gd) return IndexMissing(g.index_name());
          if (g.has_provisioned_read_capacity_units())
            gd->mutable_provisioned_throughput()->set_read_capacity_units(
                g.provisioned_read_capacity_units());
          if (g.has_provisioned_read_capacity_auto_scaling_settings_update()) {
            auto* ga = AutoScalingOfIndex(scaling, g.index_name());
            POGI_ASSIGN_OR_RETURN(
                *ga->mutable_provisioned_read_capacity_auto_scaling_settings(),
                ApplyAutoScalingUpdate(ga->provisioned_read_capacity_auto_scaling_settings(),
                                       g.provisioned_read_capacity_auto_scaling_settings_update(),
                                       AutoScalingDefaultsFor(name, g.index_name(), false)));
          }
        }
        if (mine->has_replica_table_class()) {
          d.mutable_table_class_summary()->set_table_class(mine->replica_table_class());
          d.mutable_table_class_summary()->set_last_update_date_time(now);
        }
      }
      POGI_RETURN_IF_ERROR(WriteAutoScaling(txn, d, scaling));
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(m.table->id, d.SerializeAsString()));
      auto updated = catalog_.Make(m.table->id, std::move(d), m.table->IndexIds());
      catalog_.Put(updated);
      m.table = std::move(updated);
    }
    POGI_ASSIGN_OR_RETURN(auto described, DescribeSettings(txn, *record, members));
    resp.set_global_table_name(described.global_table_name());
    *resp.mutable_replica_settings() = std::move(*described.mutable_replica_settings());
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace pogi::service
