// Checks of the legacy global tables API.
#include "service/validate/global_tables_legacy.h"

#include <map>
#include <set>

#include "service/core/region.h"
#include "service/validate/auto_scaling.h"
#include "service/validate/constraints.h"

namespace pogi::service {
namespace {

// The key schema and key attribute types of `d`'s table (or of its index
// `index`), as one comparable string.
std::string KeysOf(const v1::TableDescription& d,
                   const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& keys) {
  std::map<std::string, std::string> types;
  for (const auto& a : d.attribute_definitions()) types[a.attribute_name()] = a.attribute_type();
  std::string s;
  for (const auto& k : keys)
    s += k.key_type() + ":" + k.attribute_name() + ":" + types[k.attribute_name()] + ";";
  return s;
}

bool OnDemand(const v1::TableDescription& d) {
  return d.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
}

}  // namespace

Status CheckCreateGlobalTableMembers(const v1::CreateGlobalTableRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_global_table_name() ? &req.global_table_name() : nullptr, "globalTableName");
  c.Required(req.replication_group_size() > 0, "replicationGroup");
  for (int i = 0; i < req.replication_group_size(); ++i) {
    c.Required(req.replication_group(i).has_region_name(),
               "replicationGroup." + std::to_string(i + 1) + ".member.regionName");
  }
  return c.Finish();
}

Status CheckUpdateGlobalTableMembers(const v1::UpdateGlobalTableRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_global_table_name() ? &req.global_table_name() : nullptr, "globalTableName");
  c.Required(req.replica_updates_size() > 0, "replicaUpdates");
  for (int i = 0; i < req.replica_updates_size(); ++i) {
    const auto& u = req.replica_updates(i);
    std::string at = "replicaUpdates." + std::to_string(i + 1) + ".member.";
    if (u.has_create()) c.Required(u.create().has_region_name(), at + "create.regionName");
    if (u.has_delete_()) c.Required(u.delete_().has_region_name(), at + "delete.regionName");
  }
  return c.Finish();
}

Status CheckGlobalTableNameMember(const std::string* name) {
  Constraints c;
  CheckTableName(c, name, "globalTableName");
  return c.Finish();
}

Status CheckListGlobalTablesMembers(const v1::ListGlobalTablesRequest& req) {
  Constraints c;
  if (req.has_exclusive_start_global_table_name()) {
    CheckTableName(c, &req.exclusive_start_global_table_name(), "exclusiveStartGlobalTableName");
  }
  if (req.has_limit()) c.AtLeast(req.limit(), 1, "limit");
  return c.Finish();
}

Status CheckUpdateGlobalTableSettingsMembers(const v1::UpdateGlobalTableSettingsRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_global_table_name() ? &req.global_table_name() : nullptr, "globalTableName");
  c.OneOf(req.has_global_table_billing_mode() ? &req.global_table_billing_mode() : nullptr,
          {"PROVISIONED", "PAY_PER_REQUEST"}, "globalTableBillingMode");
  if (req.has_global_table_provisioned_write_capacity_units()) {
    c.AtLeast(req.global_table_provisioned_write_capacity_units(), 1,
              "globalTableProvisionedWriteCapacityUnits");
  }
  if (req.has_global_table_provisioned_write_capacity_auto_scaling_settings_update()) {
    CheckAutoScalingMembers(c, req.global_table_provisioned_write_capacity_auto_scaling_settings_update(),
                            "globalTableProvisionedWriteCapacityAutoScalingSettingsUpdate");
  }
  const int gsis = req.global_table_global_secondary_index_settings_update_size();
  if (gsis > 20) {
    c.Add(
        "Value '" + std::to_string(gsis) +
        "' at 'globalTableGlobalSecondaryIndexSettingsUpdate' failed to satisfy constraint: Member must have "
        "length less than or equal to 20");
  }
  for (int i = 0; i < gsis; ++i) {
    const auto& g = req.global_table_global_secondary_index_settings_update(i);
    std::string at = "globalTableGlobalSecondaryIndexSettingsUpdate." + std::to_string(i + 1) + ".member.";
    CheckTableName(c, g.has_index_name() ? &g.index_name() : nullptr, at + "indexName");
    if (g.has_provisioned_write_capacity_units())
      c.AtLeast(g.provisioned_write_capacity_units(), 1, at + "provisionedWriteCapacityUnits");
    if (g.has_provisioned_write_capacity_auto_scaling_settings_update()) {
      CheckAutoScalingMembers(c, g.provisioned_write_capacity_auto_scaling_settings_update(),
                              at + "provisionedWriteCapacityAutoScalingSettingsUpdate");
    }
  }
  const int replicas = req.replica_settings_update_size();
  if (replicas > 50) {
    c.Add("Value '" + std::to_string(replicas) +
          "' at 'replicaSettingsUpdate' failed to satisfy constraint: Member must have length less than or "
          "equal to 50");
  }
  for (int i = 0; i < replicas; ++i) {
    const auto& r = req.replica_settings_update(i);
    std::string at = "replicaSettingsUpdate." + std::to_string(i + 1) + ".member.";
    c.Required(r.has_region_name(), at + "regionName");
    if (r.has_replica_provisioned_read_capacity_units())
      c.AtLeast(r.replica_provisioned_read_capacity_units(), 1, at + "replicaProvisionedReadCapacityUnits");
    if (r.has_replica_provisioned_read_capacity_auto_scaling_settings_update()) {
      CheckAutoScalingMembers(c, r.replica_provisioned_read_capacity_auto_scaling_settings_update(),
                              at + "replicaProvisionedReadCapacityAutoScalingSettingsUpdate");
    }
    const int rg = r.replica_global_secondary_index_settings_update_size();
    if (rg > 20) {
      c.Add(
          "Value '" + std::to_string(rg) + "' at '" + at +
          "replicaGlobalSecondaryIndexSettingsUpdate' failed to satisfy constraint: Member must have length "
          "less than or equal to 20");
    }
    for (int j = 0; j < rg; ++j) {
      const auto& g = r.replica_global_secondary_index_settings_update(j);
      std::string gat =
          at + "replicaGlobalSecondaryIndexSettingsUpdate." + std::to_string(j + 1) + ".member.";
      CheckTableName(c, g.has_index_name() ? &g.index_name() : nullptr, gat + "indexName");
      if (g.has_provisioned_read_capacity_units())
        c.AtLeast(g.provisioned_read_capacity_units(), 1, gat + "provisionedReadCapacityUnits");
      if (g.has_provisioned_read_capacity_auto_scaling_settings_update()) {
        CheckAutoScalingMembers(c, g.provisioned_read_capacity_auto_scaling_settings_update(),
                                gat + "provisionedReadCapacityAutoScalingSettingsUpdate");
      }
    }
    c.OneOf(r.has_replica_table_class() ? &r.replica_table_class() : nullptr,
            {"STANDARD", "STANDARD_INFREQUENT_ACCESS"}, at + "replicaTableClass");
  }
  return c.Finish();
}

// TODO(fidelity): no record of DynamoDB's texts for a region that is not
// one or is named twice; these are pogi's own (the first as UpdateTable's
// ReplicaUpdates answers).
Status CheckReplicationGroup(const std::vector<std::string>& regions) {
  std::set<std::string> seen;
  for (const auto& r : regions) {
    if (!IsRegionName(r)) return Error::InvalidParameter("Invalid region: " + r);
    if (!seen.insert(r).second) return Error::InvalidParameter("Duplicate region in ReplicationGroup: " + r);
  }
  return Status::Ok();
}

Status CheckReplicaUpdates(const v1::UpdateGlobalTableRequest& req, std::vector<std::string>* create,
                           std::vector<std::string>* remove) {
  std::set<std::string> seen;
  for (const auto& u : req.replica_updates()) {
    // TODO(fidelity): no record of DynamoDB's texts for an update with
    // neither or both actions, or a region named twice.
    if (u.has_create() == u.has_delete_()) {
      return Error::InvalidParameter("Exactly one of Create or Delete must be specified in a ReplicaUpdate");
    }
    const std::string& region = u.has_create() ? u.create().region_name() : u.delete_().region_name();
    if (!IsRegionName(region)) return Error::InvalidParameter("Invalid region: " + region);
    if (!seen.insert(region).second) {
      return Error::InvalidParameter("Duplicate region in ReplicaUpdates: " + region);
    }
    (u.has_create() ? create : remove)->push_back(region);
  }
  return Status::Ok();
}

// TODO(fidelity): no record of DynamoDB's texts for a table that cannot
// join a legacy global table; these are pogi's own, naming the table, its
// region and the rule.
Status CheckLegacyMember(const v1::TableDescription& candidate, const std::string& region,
                         const v1::TableDescription* model) {
  const std::string at = "Table: " + candidate.table_name() + " in region: " + region;
  const auto& stream = candidate.stream_specification();
  if (!stream.stream_enabled() || stream.stream_view_type() != "NEW_AND_OLD_IMAGES") {
    return Error::InvalidParameter(at +
                                   " must have DynamoDB Streams enabled with StreamViewType "
                                   "NEW_AND_OLD_IMAGES");
  }
  if (!model) return Status::Ok();
  if (KeysOf(candidate, candidate.key_schema()) != KeysOf(*model, model->key_schema())) {
    return Error::InvalidParameter(at + " has a key schema that differs from the other replicas'");
  }
  std::map<std::string, const v1::GlobalSecondaryIndexDescription*> theirs;
  for (const auto& g : model->global_secondary_indexes()) theirs[g.index_name()] = &g;
  bool same_indexes = candidate.global_secondary_indexes_size() == model->global_secondary_indexes_size();
  for (const auto& g : candidate.global_secondary_indexes()) {
    auto it = theirs.find(g.index_name());
    if (it == theirs.end() || KeysOf(candidate, g.key_schema()) != KeysOf(*model, it->second->key_schema())) {
      same_indexes = false;
    }
  }
  if (!same_indexes) {
    return Error::InvalidParameter(at + " has global secondary indexes that differ from the other replicas'");
  }
  bool same_writes = OnDemand(candidate) == OnDemand(*model);
  if (same_writes && !OnDemand(candidate)) {
    same_writes = candidate.provisioned_throughput().write_capacity_units() ==
                  model->provisioned_throughput().write_capacity_units();
    for (const auto& g : candidate.global_secondary_indexes()) {
      same_writes =
          same_writes && g.provisioned_throughput().write_capacity_units() ==
                             theirs[g.index_name()]->provisioned_throughput().write_capacity_units();
    }
  }
  if (!same_writes) {
    return Error::InvalidParameter(at + " has write capacity settings that differ from the other replicas'");
  }
  return Status::Ok();
}

}  // namespace pogi::service
