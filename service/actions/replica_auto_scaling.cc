// DescribeTableReplicaAutoScaling and UpdateTableReplicaAutoScaling: the
// auto scaling settings of each replica of a global table (a regional table
// is a group of one) and of each of its global secondary indexes. The write
// capacity's settings are the group's (every replica gets them); the read
// capacity's are each replica's own. pogi keeps and describes them and
// never changes capacity by itself.
#include "service/core/auto_scaling_store.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/validate/auto_scaling.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/write/item_write.h"

namespace pogi::service {
namespace {

bool OnDemand(const v1::TableDescription& d) {
  return d.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
}

// The group's members, in the order of its Replicas list (the table alone
// when it is not global), with each one's ReplicaStatus.
struct Member {
  std::string region;
  std::string status;
  std::shared_ptr<const Table> table;  // null: not a table here (yet)
};

std::vector<Member> MembersOf(const Catalog& catalog, const std::shared_ptr<const Table>& table) {
  std::vector<Member> out;
  const auto& d = table->description;
  if (d.replicas_size() == 0) {
    out.push_back({table->region, "ACTIVE", table});
    return out;
  }
  for (const auto& r : d.replicas()) {
    Member m{r.region_name(), r.replica_status(), nullptr};
    m.table = r.region_name() == table->region ? table : catalog.FindIn(d.table_name(), r.region_name());
    out.push_back(std::move(m));
  }
  return out;
}

const v1::AutoScalingSettingsDescription& OrOff(bool set, const v1::AutoScalingSettingsDescription& s) {
  static const v1::AutoScalingSettingsDescription* off =
      new v1::AutoScalingSettingsDescription(AutoScalingOff());
  return set ? s : *off;
}

// DynamoDB's description of the group's settings.
Result<v1::TableAutoScalingDescription> DescribeGroup(storage::ReadTxn& txn, const Catalog& catalog,
                                                      const std::shared_ptr<const Table>& table) {
  v1::TableAutoScalingDescription out;
  const auto& d = table->description;
  out.set_table_name(d.table_name());
  out.set_table_status(d.table_status());
  for (const Member& m : MembersOf(catalog, table)) {
    auto* r = out.add_replicas();
    r->set_region_name(m.region);
    r->set_replica_status(m.status);
    if (!m.table) continue;
    const auto& md = m.table->description;
    POGI_ASSIGN_OR_RETURN(auto kept, ReadAutoScaling(txn, md));
    const bool provisioned = !OnDemand(md);
    if (provisioned) {
      *r->mutable_replica_provisioned_read_capacity_auto_scaling_settings() =
          OrOff(kept.has_replica_provisioned_read_capacity_auto_scaling_settings(),
                kept.replica_provisioned_read_capacity_auto_scaling_settings());
      *r->mutable_replica_provisioned_write_capacity_auto_scaling_settings() =
          OrOff(kept.has_replica_provisioned_write_capacity_auto_scaling_settings(),
                kept.replica_provisioned_write_capacity_auto_scaling_settings());
    }
    for (const auto& g : md.global_secondary_indexes()) {
      auto* gd = r->add_global_secondary_indexes();
      gd->set_index_name(g.index_name());
      gd->set_index_status(g.index_status());
      if (!provisioned) continue;
      v1::ReplicaGlobalSecondaryIndexAutoScalingDescription none;
      const auto* k = &none;
      for (const auto& e : kept.global_secondary_indexes()) {
        if (e.index_name() == g.index_name()) k = &e;
      }
      *gd->mutable_provisioned_read_capacity_auto_scaling_settings() =
          OrOff(k->has_provisioned_read_capacity_auto_scaling_settings(),
                k->provisioned_read_capacity_auto_scaling_settings());
      *gd->mutable_provisioned_write_capacity_auto_scaling_settings() =
          OrOff(k->has_provisioned_write_capacity_auto_scaling_settings(),
                k->provisioned_write_capacity_auto_scaling_settings());
    }
  }
  return out;
}

Status CheckUpdateMembers(const v1::UpdateTableReplicaAutoScalingRequest& req) {
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  for (int i = 0; i < req.global_secondary_index_updates_size(); ++i) {
    const auto& g = req.global_secondary_index_updates(i);
    const std::string at = "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member";
    c.Length(g.has_index_name() ? &g.index_name() : nullptr, 3, 255, at + ".indexName");
    c.NamePattern(g.has_index_name() ? &g.index_name() : nullptr, at + ".indexName");
    if (g.has_provisioned_write_capacity_auto_scaling_update())
      CheckAutoScalingMembers(c, g.provisioned_write_capacity_auto_scaling_update(),
                              at + ".provisionedWriteCapacityAutoScalingUpdate");
  }
  if (req.has_provisioned_write_capacity_auto_scaling_update())
    CheckAutoScalingMembers(c, req.provisioned_write_capacity_auto_scaling_update(),
                            "provisionedWriteCapacityAutoScalingUpdate");
  for (int i = 0; i < req.replica_updates_size(); ++i) {
    const auto& r = req.replica_updates(i);
    const std::string at = "replicaUpdates." + std::to_string(i + 1) + ".member";
    c.Required(r.has_region_name(), at + ".regionName");
    for (int j = 0; j < r.replica_global_secondary_index_updates_size(); ++j) {
      const auto& g = r.replica_global_secondary_index_updates(j);
      const std::string gat = at + ".replicaGlobalSecondaryIndexUpdates." + std::to_string(j + 1) + ".member";
      c.Length(g.has_index_name() ? &g.index_name() : nullptr, 3, 255, gat + ".indexName");
      c.NamePattern(g.has_index_name() ? &g.index_name() : nullptr, gat + ".indexName");
      if (g.has_provisioned_read_capacity_auto_scaling_update())
        CheckAutoScalingMembers(c, g.provisioned_read_capacity_auto_scaling_update(),
                                gat + ".provisionedReadCapacityAutoScalingUpdate");
    }
    if (r.has_replica_provisioned_read_capacity_auto_scaling_update())
      CheckAutoScalingMembers(c, r.replica_provisioned_read_capacity_auto_scaling_update(),
                              at + ".replicaProvisionedReadCapacityAutoScalingUpdate");
  }
  return c.Finish();
}

Status IndexExists(const v1::TableDescription& d, const std::string& name) {
  for (const auto& g : d.global_secondary_indexes()) {
    if (g.index_name() == name) return Status::Ok();
  }
  // TODO(fidelity): no record of DynamoDB's text for an index the table
  // does not have; this follows UpdateTable's.
  return Error::ResourceNotFound("Requested resource not found: Index: " + name + " not found");
}

}  // namespace

Result<v1::DescribeTableReplicaAutoScalingResponse> Engine::DescribeTableReplicaAutoScaling(
    const v1::DescribeTableReplicaAutoScalingRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  auto table = FindTableInAnyState(req.table_name());
  if (!table.ok()) {
    if (table.error().code() != ErrorCode::kResourceNotFound) return std::move(table).error();
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  v1::DescribeTableReplicaAutoScalingResponse resp;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(*resp.mutable_table_auto_scaling_description(),
                          DescribeGroup(txn, catalog_, *table));
    return Status::Ok();
  }));
  return resp;
}

Result<v1::UpdateTableReplicaAutoScalingResponse> Engine::UpdateTableReplicaAutoScaling(
    const v1::UpdateTableReplicaAutoScalingRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  POGI_RETURN_IF_ERROR(CheckUpdateMembers(req));
  auto seen = FindTableInAnyState(req.table_name());
  if (!seen.ok()) {
    if (seen.error().code() != ErrorCode::kResourceNotFound) return std::move(seen).error();
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  v1::UpdateTableReplicaAutoScalingResponse resp;
  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, **seen));
    const v1::TableDescription& d = table->description;
    POGI_RETURN_IF_ERROR(CheckTableChangeable(d, /*updating_too=*/true));
    if (OnDemand(d)) {
      // TODO(fidelity): no record of DynamoDB's text for auto scaling
      // settings of an on-demand table.
      return Error::Validation(
          "Auto scaling settings cannot be updated for a table with PAY_PER_REQUEST billing mode");
    }
    for (const auto& g : req.global_secondary_index_updates())
      POGI_RETURN_IF_ERROR(IndexExists(d, g.index_name()));
    std::vector<Member> members = MembersOf(catalog_, table);
    for (const auto& r : req.replica_updates()) {
      bool found = false;
      for (const Member& m : members) found |= m.region == r.region_name() && m.table;
      // TODO(fidelity): no record of DynamoDB's text for a region without
      // a replica; this follows UpdateTable's ReplicaUpdates.
      if (!found) return Error::InvalidParameter("No replica exists in region " + r.region_name());
      for (const auto& g : r.replica_global_secondary_index_updates())
        POGI_RETURN_IF_ERROR(IndexExists(d, g.index_name()));
    }
    const std::string& name = d.table_name();
    for (const Member& m : members) {
      if (!m.table) continue;
      POGI_ASSIGN_OR_RETURN(auto kept, ReadAutoScaling(txn, m.table->description));
      // The write capacity's settings: the group's, the same in every replica.
      if (req.has_provisioned_write_capacity_auto_scaling_update()) {
        POGI_ASSIGN_OR_RETURN(
            *kept.mutable_replica_provisioned_write_capacity_auto_scaling_settings(),
            ApplyAutoScalingUpdate(OrOff(kept.has_replica_provisioned_write_capacity_auto_scaling_settings(),
                                         kept.replica_provisioned_write_capacity_auto_scaling_settings()),
                                   req.provisioned_write_capacity_auto_scaling_update(),
                                   AutoScalingDefaultsFor(name, "", true)));
      }
      for (const auto& g : req.global_secondary_index_updates()) {
        if (!g.has_provisioned_write_capacity_auto_scaling_update()) continue;
        auto* k = AutoScalingOfIndex(kept, g.index_name());
        POGI_ASSIGN_OR_RETURN(
            *k->mutable_provisioned_write_capacity_auto_scaling_settings(),
            ApplyAutoScalingUpdate(OrOff(k->has_provisioned_write_capacity_auto_scaling_settings(),
                                         k->provisioned_write_capacity_auto_scaling_settings()),
                                   g.provisioned_write_capacity_auto_scaling_update(),
                                   AutoScalingDefaultsFor(name, g.index_name(), true)));
      }
      // The read capacity's: each replica's own.
      for (const auto& r : req.replica_updates()) {
        if (r.region_name() != m.region) continue;
        if (r.has_replica_provisioned_read_capacity_auto_scaling_update()) {
          POGI_ASSIGN_OR_RETURN(
              *kept.mutable_replica_provisioned_read_capacity_auto_scaling_settings(),
              ApplyAutoScalingUpdate(OrOff(kept.has_replica_provisioned_read_capacity_auto_scaling_settings(),
                                           kept.replica_provisioned_read_capacity_auto_scaling_settings()),
                                     r.replica_provisioned_read_capacity_auto_scaling_update(),
                                     AutoScalingDefaultsFor(name, "", false)));
        }
        for (const auto& g : r.replica_global_secondary_index_updates()) {
          if (!g.has_provisioned_read_capacity_auto_scaling_update()) continue;
          auto* k = AutoScalingOfIndex(kept, g.index_name());
          POGI_ASSIGN_OR_RETURN(
              *k->mutable_provisioned_read_capacity_auto_scaling_settings(),
              ApplyAutoScalingUpdate(OrOff(k->has_provisioned_read_capacity_auto_scaling_settings(),
                                           k->provisioned_read_capacity_auto_scaling_settings()),
                                     g.provisioned_read_capacity_auto_scaling_update(),
                                     AutoScalingDefaultsFor(name, g.index_name(), false)));
        }
      }
      POGI_RETURN_IF_ERROR(WriteAutoScaling(txn, m.table->description, kept));
    }
    POGI_ASSIGN_OR_RETURN(*resp.mutable_table_auto_scaling_description(),
                          DescribeGroup(txn, catalog_, table));
    return Status::Ok();
  }));
  return resp;
}

}  // namespace pogi::service
