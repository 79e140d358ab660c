// UpdateTable's ReplicaUpdates: global tables version 2019.11.21. Create
// makes a replica in another region, a table of its own there (its ARN, its
// stream, its indexes) filled with the table's items through the one write
// path, and makes every replica queue its local writes for the others
// (engine/engine_replication.cc); Update records a replica's overrides;
// Delete drops a replica. Every replica's description holds the whole group
// (Replicas, GlobalTableVersion), kept the same in one storage write.
// MultiRegionConsistency STRONG with the Creates (and a witness, in
// GlobalTableWitnessUpdates) makes the group one of multi-region strong
// consistency: its writes reach every replica in their own transaction
// (engine/engine_replication.cc).
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/streams/stream_settings.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"
#include "service/write/item_write.h"
#include "service/write/legacy_attributes.h"

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
  c.OneOf(req.has_multi_region_consistency() ? &req.multi_region_consistency() : nullptr,
          {"EVENTUAL", "STRONG"}, "multiRegionConsistency");
  if (req.global_table_witness_updates_size() > 1) {
    c.Count(req.global_table_witness_updates_size(), 1, 1, "[...]", "globalTableWitnessUpdates");
  }
  for (int i = 0; i < req.global_table_witness_updates_size(); ++i) {
    const auto& w = req.global_table_witness_updates(i);
    std::string at = "globalTableWitnessUpdates." + std::to_string(i + 1) + ".member";
    if (w.has_create()) c.Required(w.create().has_region_name(), at + ".create.regionName");
    if (w.has_delete_()) c.Required(w.delete_().has_region_name(), at + ".delete.regionName");
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
  int changes = 0, creates = 0;
  for (const auto& u : req.replica_updates()) {
    creates += u.has_create();
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
  const bool strong = req.multi_region_consistency() == "STRONG";
  // A group of multi-region strong consistency is made whole in one
  // request: its replicas (and witness) created together.
  if (changes > 1 && !(strong && creates == changes)) {
    return Error::InvalidParameter("Only one replica can be created or deleted in one UpdateTable request");
  }
  // TODO(fidelity): no record of DynamoDB's texts for the rules of
  // MultiRegionConsistency and GlobalTableWitnessUpdates below; pogi's own.
  if (req.has_multi_region_consistency() && creates == 0) {
    return Error::Validation(
        "MultiRegionConsistency can only be specified when creating a global table with ReplicaUpdates "
        "Create "
        "actions");
  }
  for (const auto& w : req.global_table_witness_updates()) {
    if (w.has_create() + w.has_delete_() != 1) {
      return Error::InvalidParameter(
          "One of GlobalTableWitnessGroupUpdate.Create, GlobalTableWitnessGroupUpdate.Delete must be "
          "specified");
    }
    const std::string& region = w.has_create() ? w.create().region_name() : w.delete_().region_name();
    if (!IsRegionName(region)) return Error::InvalidParameter("Invalid region: " + region);
    if (w.has_create() && !strong) {
      return Error::Validation("A witness can only be created with MultiRegionConsistency set to STRONG");
    }
  }
  return Status::Ok();
}

// The region sets a group of multi-region strong consistency lives in: its
// three regions are all in one of them.
int RegionSetOf(const std::string& region) {
  static const std::vector<std::vector<std::string_view>> kSets = {
      {"us-east-1", "us-east-2", "us-west-2"},
      {"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"},
      {"ap-northeast-1", "ap-northeast-2", "ap-northeast-3"},
  };
  for (size_t i = 0; i < kSets.size(); ++i) {
    for (auto r : kSets[i]) {
      if (r == region) return static_cast<int>(i);
    }
  }
  return -1;
}

// What a table must be to become a group of multi-region strong
// consistency with `replicas` (the local region first) and `witness` (may
// be empty). TODO(fidelity): no record of DynamoDB's texts; pogi's own.
Status CheckStrongGroup(storage::ReadTxn& txn, const Table& table, const std::vector<std::string>& replicas,
                        const std::string& witness) {
  const auto& d = table.description;
  if (d.replicas_size() > 0) {
    return Error::Validation("The consistency mode of an existing global table cannot be changed");
  }
  if (replicas.size() + (witness.empty() ? 0 : 1) != 3) {
    return Error::Validation(
        "A global table with MultiRegionConsistency STRONG must have exactly three Regions: three replicas, "
        "or "
        "two replicas and one witness");
  }
  if (!witness.empty() && replicas.size() != 2) {
    return Error::Validation("A global table with a witness must have exactly two replicas");
  }
  std::vector<std::string> all = replicas;
  if (!witness.empty()) all.push_back(witness);
  for (const auto& r : all) {
    if (RegionSetOf(r) < 0 || RegionSetOf(r) != RegionSetOf(all.front())) {
      return Error::Validation(
          "The Regions of a global table with MultiRegionConsistency STRONG must be within one Region set: "
          "us-east-1, us-east-2, us-west-2; eu-west-1, eu-west-2, eu-west-3, eu-central-1; or "
          "ap-northeast-1, "
          "ap-northeast-2, ap-northeast-3");
    }
  }
  for (const auto& r : replicas) {
    if (r == witness) return Error::Validation("The witness Region cannot also hold a replica: " + witness);
  }
  if (d.local_secondary_indexes_size() > 0) {
    return Error::Validation(
        "MultiRegionConsistency STRONG is not supported for tables with local secondary indexes");
  }
  const auto ttl = d.pogi_time_to_live().time_to_live_status();
  if (ttl == "ENABLED" || ttl == "ENABLING") {
    return Error::Validation(
        "MultiRegionConsistency STRONG is not supported for tables with Time to Live enabled");
  }
  storage::RangeRead first;
  first.id = table.id;
  bool empty = true;
  POGI_RETURN_IF_ERROR(txn.ReadRange(first, [&](const storage::Row&) {
    empty = false;
    return false;
  }));
  if (!empty) {
    return Error::Validation(
        "A table must be empty to become a global table with MultiRegionConsistency STRONG");
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
    ChangeForms forms;
    forms.new_item_origin = value::EntryOrigin::Kept(std::string_view(bytes).substr(1));
    POGI_RETURN_IF_ERROR(
        ApplyChange(txn, to, key, nullptr, &item.attributes(), nullptr, ChangeSource::kReplicated, forms));
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
  // A member of a legacy (2017.11.29) global table changes its group with
  // UpdateGlobalTable; DynamoDB upgrades it to 2019.11.21 only from its
  // console. TODO(fidelity): no record of DynamoDB's text.
  if (IsLegacyGlobalMember((*seen)->description)) {
    return Error::Validation("Table " + req.table_name() +
                             " is a replica of a global table of version 2017.11.29: use UpdateGlobalTable");
  }
  v1::UpdateTableResponse resp;
  std::vector<std::shared_ptr<const Table>> made;  // replicas made in the write, to forget if it fails
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    made.clear();
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
    std::vector<std::string> creatings;  // several only for a strong group
    std::string deleting;
    const bool strong_before = table->description.multi_region_consistency() == "STRONG";
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
        // TODO(fidelity): no record of DynamoDB's text; pogi's own.
        if (strong_before) {
          return Error::Validation(
              "Replicas cannot be added to a global table with MultiRegionConsistency STRONG");
        }
        auto* r = group.add_replicas();
        r->set_region_name(region);
        r->set_replica_status("ACTIVE");
        RecordOverrides(u.create(), r, now);
        creatings.push_back(region);
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
    // Multi-region strong consistency: the group made whole now, or a
    // witness going.
    std::string witness_creating, witness_deleting;
    for (const auto& w : req.global_table_witness_updates()) {
      if (w.has_create()) witness_creating = w.create().region_name();
      if (w.has_delete_()) witness_deleting = w.delete_().region_name();
    }
    const bool strong_now = req.multi_region_consistency() == "STRONG";
    if (strong_now) {
      std::vector<std::string> regions{local};
      regions.insert(regions.end(), creatings.begin(), creatings.end());
      POGI_RETURN_IF_ERROR(CheckStrongGroup(txn, *table, regions, witness_creating));
    } else if (strong_before && req.has_multi_region_consistency()) {
      // TODO(fidelity): no record of DynamoDB's text; pogi's own.
      return Error::Validation("The consistency mode of an existing global table cannot be changed");
    }
    if (!witness_deleting.empty()) {
      bool found = false;
      for (const auto& w : group.global_table_witnesses()) found |= w.region_name() == witness_deleting;
      // TODO(fidelity): no record of DynamoDB's text; pogi's own.
      if (!found) return Error::InvalidParameter("No witness exists in region " + witness_deleting);
    }
    if (strong_now) {
      group.set_multi_region_consistency("STRONG");
      group.clear_global_table_witnesses();
      if (!witness_creating.empty()) {
        auto* w = group.add_global_table_witnesses();
        w->set_region_name(witness_creating);
        w->set_witness_status("ACTIVE");
      }
    }
    const auto shown_witnesses = group.global_table_witnesses();
    if (!witness_deleting.empty()) group.clear_global_table_witnesses();
    // What the answer shows: every replica, the one being deleted too.
    const auto shown = group.replicas();
    // A global table has a stream: NEW_AND_OLD_IMAGES unless it had one
    // already (DynamoDB keeps a KEYS_ONLY one as it is).
    v1::TableDescription local_d = table->description;
    if (!local_d.stream_specification().stream_enabled() && !creatings.empty()) {
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
    // The replicas being created: a table in each region, with a stream
    // like the local table's, filled with its items.
    for (const std::string& creating : creatings) {
      v1::TableDescription rd = TableDescriptionInRegion(local_d, creating, now);
      POGI_ASSIGN_OR_RETURN(auto created, CreateTableInTxn(txn, rd, v1::TableSettings()));
      made.push_back(created);
      v1::StreamSpecification spec;
      spec.set_stream_enabled(true);
      spec.set_stream_view_type(local_d.stream_specification().stream_view_type());
      POGI_RETURN_IF_ERROR(ApplyStreamSpecification(streams_, txn, created->id, spec, &rd));
      created = catalog_.Make(created->id, rd, created->IndexIds());
      made.back() = created;
      members.push_back(created);
    }
    // Every member gets the group, its queue (while global) and the
    // transitions begun; the local one its stream change too.
    for (auto& m : members) {
      v1::TableDescription d = m == table ? local_d : m->description;
      d.clear_replicas();
      d.clear_global_table_version();
      d.clear_multi_region_consistency();
      d.clear_global_table_witnesses();
      if (global && group.multi_region_consistency() == "STRONG") {
        d.set_multi_region_consistency("STRONG");
        *d.mutable_global_table_witnesses() = group.global_table_witnesses();
      }
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
      for (const std::string& creating : creatings) {
        if (delays_.replica_creating > 0)
          BeginTransition(d, kReplicaCreating, ReplicaSubject(creating), now + delays_.replica_creating);
      }
      if (!deleting.empty() && delays_.replica_deleting > 0)
        BeginTransition(d, kReplicaDeleting, ReplicaSubject(deleting), now + delays_.replica_deleting);
      ApplyTransitionStatuses(d);
      POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(m->id, d.SerializeAsString()));
      auto updated = catalog_.Make(m->id, d, m->IndexIds());
      catalog_.Put(updated);  // inside the write: later writes queue their changes
      for (auto& x : made) {
        if (x == m) x = updated;
      }
      if (m == table) {
        *resp.mutable_table_description() = d;
        resp.mutable_table_description()->clear_pogi_transitions();
      }
    }
    for (const auto& x : made) POGI_RETURN_IF_ERROR(CopyItems(txn, *table, *x));
    // The answer shows the change under way, as DynamoDB's does, although
    // without delays it is done.
    auto* rd = resp.mutable_table_description();
    if (!creatings.empty() || !deleting.empty() || !witness_deleting.empty())
      rd->set_table_status("UPDATING");
    *rd->mutable_replicas() = shown;
    rd->set_global_table_version(std::string(kGlobalTableVersion));
    for (auto& r : *rd->mutable_replicas()) {
      for (const auto& creating : creatings) {
        if (r.region_name() == creating) r.set_replica_status("CREATING");
      }
      if (r.region_name() == deleting) r.set_replica_status("DELETING");
    }
    *rd->mutable_global_table_witnesses() = shown_witnesses;
    for (auto& w : *rd->mutable_global_table_witnesses()) {
      if (w.region_name() == witness_creating) w.set_witness_status("CREATING");
      if (w.region_name() == witness_deleting) w.set_witness_status("DELETING");
    }
    if (shown_witnesses.empty() && group.multi_region_consistency() != "STRONG") {
      rd->clear_multi_region_consistency();
    } else if (rd->multi_region_consistency().empty()) {
      rd->set_multi_region_consistency("STRONG");
    }
    return Status::Ok();
  });
  if (!s.ok()) {
    for (const auto& x : made) catalog_.Remove(x->description.table_name(), x->region);
  }
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace pogi::service
