// UpdateTable's ReplicaUpdates: global tables version 2019.11.21. Create
// makes a replica in another region, a table of its own there (its ARN, its
// stream, its indexes) filled with the table's items through the one write
// path, and makes every replica queue its local writes for the others
// (engine/engine_replication.cc); Update records a replica's overrides;
// Delete drops a replica. Every replica's description holds the whole group
// (Replicas, GlobalTableVersion), kept the same in one storage write.
#include "common/uuid.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/streams/stream_settings.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"
#include "service/write/item_write.h"

namespace pogi::service {
namespace {

constexpr std::string_view kGlobalTableVersion = "2019.11.21";

void CheckActionMembers(Constraints& c, const v1::ReplicationGroupMemberAction& a, const std::string& at) {
  c.Required(a.has_region_name(), at + ".regionName");
  c.OneOf(a.has_table_class_override() ? &a.table_class_override() : nullptr,
          {"STANDARD", "STANDARD_INFREQUENT_ACCESS"}, at + ".tableClassOverride");
  if (a.has_provisioned_throughput_override()) {
    c.AtLeast(a.provisioned_throughput_override().has_read_capacity_units()
                  ? std::optional<int64_t>(a.provisioned_throughput_override().read_capacity_units())
                  : std::nullopt,
              1, at + ".provisionedThroughputOverride.readCapacityUnits");
  }
  for (int i = 0; i < a.global_secondary_indexes_size(); ++i) {
    const auto& g = a.global_secondary_indexes(i);
    std::string gat = at + ".globalSecondaryIndexes." + std::to_string(i + 1) + ".member.indexName";
    c.Required(g.has_index_name(), gat);
    c.Length(g.has_index_name() ? &g.index_name() : nullptr, 3, 255, gat);
  }
}

Status CheckReplicaMembers(const v1::UpdateTableRequest& req) {
  Constraints c;
  for (int i = 0; i < req.replica_updates_size(); ++i) {
    const auto& u = req.replica_updates(i);
    std::string at = "replicaUpdates." + std::to_string(i + 1) + ".member";
    if (u.has_create()) CheckActionMembers(c, u.create(), at + ".create");
    if (u.has_update()) CheckActionMembers(c, u.update(), at + ".update");
    if (u.has_delete_()) c.Required(u.delete_().has_region_name(), at + ".delete.regionName");
  }
  return c.Finish();
}

// What DynamoDB refuses before looking at the table.
// TODO(fidelity): the texts of the one-action and one-change rules, and of
// mixing ReplicaUpdates with other changes, are not on record; these follow
// the wording of the GSI update rules.
Status CheckReplicaUpdates(const v1::UpdateTableRequest& req) {
  bool others = req.has_billing_mode() || req.has_provisioned_throughput() ||
                req.global_secondary_index_updates_size() > 0 || req.has_stream_specification() ||
                req.has_sse_specification() || req.has_deletion_protection_enabled() ||
                req.has_table_class() || req.has_on_demand_throughput() || req.has_warm_throughput() ||
                req.vector_index_updates_size() > 0;
  if (others) {
    return Error::InvalidParameter("ReplicaUpdates cannot be combined with other changes of the table");
  }
  int changes = 0;
  for (const auto& u : req.replica_updates()) {
    int actions = u.has_create() + u.has_update() + u.has_delete_();
    if (actions == 0) {
      return Error::InvalidParameter(
          "One of ReplicationGroupUpdate.Create, ReplicationGroupUpdate.Update, "
          "ReplicationGroupUpdate.Delete "
          "must not be null");
    }
    if (actions > 1) {
      return Error::InvalidParameter("Only one replica action is allowed per ReplicationGroupUpdate object");
    }
    changes += u.has_create() + u.has_delete_();
    const std::string& region = u.has_create()   ? u.create().region_name()
                                : u.has_update() ? u.update().region_name()
                                                 : u.delete_().region_name();
    if (!IsRegionName(region)) return Error::InvalidParameter("Invalid region: " + region);
  }
  if (changes > 1) {
    return Error::InvalidParameter("Only one replica can be created or deleted in one UpdateTable request");
  }
  return Status::Ok();
}

v1::ReplicaDescription* FindReplica(v1::TableDescription& d, const std::string& region) {
  for (auto& r : *d.mutable_replicas()) {
    if (r.region_name() == region) return &r;
  }
  return nullptr;
}

// Records a Create's or Update's overrides in a replica's entry.
void RecordOverrides(const v1::ReplicationGroupMemberAction& a, v1::ReplicaDescription* r, double now) {
  if (a.has_kms_master_key_id()) r->set_kms_master_key_id(a.kms_master_key_id());
  if (a.has_provisioned_throughput_override())
    *r->mutable_provisioned_throughput_override() = a.provisioned_throughput_override();
  if (a.has_on_demand_throughput_override())
    *r->mutable_on_demand_throughput_override() = a.on_demand_throughput_override();
  for (const auto& g : a.global_secondary_indexes()) {
    v1::ReplicaGlobalSecondaryIndexDescription* gd = nullptr;
    for (auto& existing : *r->mutable_global_secondary_indexes()) {
      if (existing.index_name() == g.index_name()) gd = &existing;
    }
    if (!gd) {
      gd = r->add_global_secondary_indexes();
      gd->set_index_name(g.index_name());
    }
    if (g.has_provisioned_throughput_override())
      *gd->mutable_provisioned_throughput_override() = g.provisioned_throughput_override();
    if (g.has_on_demand_throughput_override())
      *gd->mutable_on_demand_throughput_override() = g.on_demand_throughput_override();
  }
  if (a.has_table_class_override()) {
    r->mutable_replica_table_class_summary()->set_table_class(a.table_class_override());
    r->mutable_replica_table_class_summary()->set_last_update_date_time(now);
  }
}

// The description of a new replica in `region` of the table described by
// `source` (its group already in it): the same schema, indexes and
// settings under its own ARN and id, with no stream yet.
v1::TableDescription ReplicaTableDescription(const v1::TableDescription& source, const std::string& region,
                                             double now) {
  v1::TableDescription d = source;
  d.clear_pogi_transitions();
  d.clear_pogi_stream_id();
  d.clear_pogi_replication_queue();
  d.clear_stream_specification();
  d.clear_latest_stream_arn();
  d.clear_latest_stream_label();
  d.clear_restore_summary();
  d.clear_item_count();
  d.clear_table_size_bytes();
  d.set_table_status("ACTIVE");
  d.set_creation_date_time(now);
  d.set_table_arn(TableArnOf(d.table_name(), region));
  d.set_table_id(RandomUuid());
  for (auto& g : *d.mutable_global_secondary_indexes())
    g.set_index_arn(IndexArn(d.table_arn(), g.index_name()));
  for (auto& l : *d.mutable_local_secondary_indexes())
    l.set_index_arn(IndexArn(d.table_arn(), l.index_name()));
  for (auto& v : *d.mutable_vector_indexes()) v.set_index_arn(IndexArn(d.table_arn(), v.index_name()));
  return d;
}

// Copies every item of `from` into `to` through the one write path, as
// replicated writes (they reach `to`'s stream and indexes, and are not
// queued again).
Status CopyItems(storage::WriteTxn& txn, const Table& from, const Table& to) {
  storage::RangeRead all;
  all.id = from.id;
  std::vector<std::pair<storage::EncodedKey, std::string>> rows;
  POGI_RETURN_IF_ERROR(txn.ReadRange(all, [&](const storage::Row& row) {
    rows.push_back({{std::string(row.partition), std::string(row.sort)}, std::string(row.item)});
    return true;
  }));
  for (const auto& [key, bytes] : rows) {
    POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(bytes));
    POGI_RETURN_IF_ERROR(
        ApplyChange(txn, to, key, nullptr, &item.attributes(), nullptr, ChangeSource::kReplicated));
  }
  return Status::Ok();
}

}  // namespace

Result<v1::UpdateTableResponse> Engine::UpdateReplicas(const v1::UpdateTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckReplicaMembers(req));
  POGI_RETURN_IF_ERROR(CheckReplicaUpdates(req));
  auto seen = FindTableInAnyState(req.table_name());
  if (!seen.ok()) {
    if (seen.error().code() != ErrorCode::kResourceNotFound) return std::move(seen).error();
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  v1::UpdateTableResponse resp;
  std::shared_ptr<const Table> created;  // a replica made in the write, to forget if it fails
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    created.reset();
    POGI_ASSIGN_OR_RETURN(auto table, CurrentTable(catalog_, **seen));
    POGI_RETURN_IF_ERROR(CheckTableChangeable(table->description, /*updating_too=*/true));
    const std::string& name = table->description.table_name();
    const std::string& local = table->region;
    const double now = clock_->Now();
    // The group's members as they are (the local table first).
    std::vector<std::shared_ptr<const Table>> members{table};
    for (const auto& r : table->description.replicas()) {
      if (r.region_name() == local) continue;
      if (auto other = catalog_.FindIn(name, r.region_name())) members.push_back(std::move(other));
    }
    v1::TableDescription group = table->description;  // the Replicas list to give every member
    if (group.replicas_size() == 0) {
      auto* self = group.add_replicas();
      self->set_region_name(local);
      self->set_replica_status("ACTIVE");
    }
    std::string creating, deleting;
    for (const auto& u : req.replica_updates()) {
      const std::string& region = u.has_create()   ? u.create().region_name()
                                  : u.has_update() ? u.update().region_name()
                                                   : u.delete_().region_name();
      if (region == local) {
        return Error::Validation(
            "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or "
            "UpdateTable as required.");
      }
      v1::ReplicaDescription* existing = FindReplica(group, region);
      if (u.has_create()) {
        // TODO(fidelity): DynamoDB's text for a region already in the group
        // is not on record.
        if (existing) {
          return Error::InvalidParameter("Replica already exists in region " + region);
        }
        if (catalog_.FindIn(name, region)) {
          return Error::Validation("Failed to create a the new replica of table with name: '" + name +
                                   "' because one or more replicas already existed as tables.");
        }
        for (const auto& g : u.create().global_secondary_indexes()) {
          if (!table->FindIndex(g.index_name())) {
            return Error::ResourceNotFound("Requested resource not found: Index: " + g.index_name() +
                                           " not found");
          }
        }
        auto* r = group.add_replicas();
        r->set_region_name(region);
        r->set_replica_status("ACTIVE");
        RecordOverrides(u.create(), r, now);
        creating = region;
      } else {
        if (!existing) {
          return Error::InvalidParameter("No replica exists in region " + region);
        }
        if (u.has_update()) {
          RecordOverrides(u.update(), existing, now);
        } else {
          deleting = region;
        }
      }
    }
    // What the answer shows: every replica, the one being deleted too.
    const auto shown = group.replicas();
    // A global table has a stream: NEW_AND_OLD_IMAGES unless it had one
    // already (DynamoDB keeps a KEYS_ONLY one as it is).
    v1::TableDescription local_d = table->description;
    if (!local_d.stream_specification().stream_enabled() && !creating.empty()) {
      v1::StreamSpecification spec;
      spec.set_stream_enabled(true);
      spec.set_stream_view_type("NEW_AND_OLD_IMAGES");
      POGI_RETURN_IF_ERROR(ApplyStreamSpecification(streams_, txn, table->id, spec, &local_d));
    }
    // The replica being deleted goes now (its items with it); its entry
    // stays DELETING for the replica_deleting delay.
    if (!deleting.empty()) {
      for (size_t i = 0; i < members.size(); ++i) {
        if (members[i]->region != deleting) continue;
        if (members[i]->replication_queue != 0)
          POGI_RETURN_IF_ERROR(txn.DeleteStream(members[i]->replication_queue));
        v1::TableDescription gone = members[i]->description;
        gone.clear_replicas();  // LeaveReplicationGroup is not wanted: the group is rewritten below
        auto solo = catalog_.Make(members[i]->id, gone, members[i]->IndexIds());
        POGI_RETURN_IF_ERROR(DropTableInTxn(txn, *solo, now));
        members.erase(members.begin() + static_cast<long>(i));
        break;
      }
      if (delays_.replica_deleting <= 0) {
        auto* replicas = group.mutable_replicas();
        for (int i = 0; i < replicas->size(); ++i) {
          if ((*replicas)[i].region_name() == deleting) {
            replicas->DeleteSubrange(i, 1);
            break;
          }
        }
      }
    }
    const bool global = group.replicas_size() > 1;
    // The replica being created: a table in its region, with a stream like
    // the local table's, filled with its items.
    if (!creating.empty()) {
      v1::TableDescription rd = ReplicaTableDescription(local_d, creating, now);
      POGI_ASSIGN_OR_RETURN(created, CreateTableInTxn(txn, rd, v1::TableSettings()));
      v1::StreamSpecification spec;
      spec.set_stream_enabled(true);
      spec.set_stream_view_type(local_d.stream_specification().stream_view_type());
      POGI_RETURN_IF_ERROR(ApplyStreamSpecification(streams_, txn, created->id, spec, &rd));
      created = catalog_.Make(created->id, rd, created->IndexIds());
      members.push_back(created);
    }
    // Every member gets the group, its queue (while global) and the
    // transitions begun; the local one its stream change too.
    for (const auto& m : members) {
      v1::TableDescription d = m == table ? local_d : m == created ? created->description : m->description;
      d.clear_replicas();
      d.clear_global_table_version();
      int64_t queue = d.pogi_replication_queue();
      if (global) {
        *d.mutable_replicas() = group.replicas();
        d.set_global_table_version(std::string(kGlobalTableVersion));
        if (queue == 0) {
          v1::StreamState q;
          q.set_replication_queue(true);
          q.set_table_id(m->id);
          q.set_table_name(name);
          POGI_ASSIGN_OR_RETURN(queue, txn.CreateStream(q.SerializeAsString()));
        }
      } else {
        if (queue != 0) POGI_RETURN_IF_ERROR(txn.DeleteStream(queue));
        queue = 0;
        if (!deleting.empty() && delays_.replica_deleting > 0) {
          // Alone but for the replica being deleted: shown DELETING until the
          // delay ends (EndTransitionsDue then drops the list).
          *d.mutable_replicas() = group.replicas();
          d.set_global_table_version(std::string(kGlobalTableVersion));
        }
      }
      d.set_pogi_replication_queue(queue);
      if (queue == 0) d.clear_pogi_replication_queue();
      if (!creating.empty() && delays_.replica_creating > 0)
        BeginTransition(d, kReplicaCreating, ReplicaSubject(creating), now + delays_.replica_creating);
      if (!deleting.empty() && delays_.replica_deleting > 0)
        BeginTransition(d, kReplicaDeleting, ReplicaSubject(deleting), now + delays_.replica_deleting);
      ApplyTransitionStatuses(d);
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(m->id, d.SerializeAsString()));
      auto updated = catalog_.Make(m->id, d, m->IndexIds());
      catalog_.Put(updated);  // inside the write: later writes queue their changes
      if (m == created) created = updated;
      if (m == table) {
        *resp.mutable_table_description() = d;
        resp.mutable_table_description()->clear_pogi_transitions();
      }
    }
    if (created) POGI_RETURN_IF_ERROR(CopyItems(txn, *table, *created));
    // The answer shows the change under way, as DynamoDB's does, although
    // without delays it is done.
    auto* rd = resp.mutable_table_description();
    if (!creating.empty() || !deleting.empty()) rd->set_table_status("UPDATING");
    *rd->mutable_replicas() = shown;
    rd->set_global_table_version(std::string(kGlobalTableVersion));
    for (auto& r : *rd->mutable_replicas()) {
      if (r.region_name() == creating) r.set_replica_status("CREATING");
      if (r.region_name() == deleting) r.set_replica_status("DELETING");
    }
    return Status::Ok();
  });
  if (!s.ok() && created) catalog_.Remove(created->description.table_name(), created->region);
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace pogi::service
