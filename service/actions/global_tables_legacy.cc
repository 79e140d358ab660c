// Global tables version 2017.11.29, the legacy API: CreateGlobalTable,
// UpdateGlobalTable, DescribeGlobalTable and ListGlobalTables. A legacy
// global table joins same-named tables, one per region (the table a request
// of that region sees: core/legacy_global_table.h says what that is in
// either region mode), which must be empty, have the same key schema and
// indexes and write capacity, and a NEW_AND_OLD_IMAGES stream. Joining them
// writes the group into every member's description and gives each a
// replication queue: the 2019.11.21 machinery then replicates between them
// (lag, per-item order, last writer wins, freeze and release), and the
// write path adds the aws:rep:* attributes. Removing a region leaves its
// table in place, a regional table again, as DynamoDB does.
#include "service/validate/global_tables_legacy.h"

#include <algorithm>

#include "service/core/legacy_global_table.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/streams/stream_settings.h"
#include "service/validate/control_plane.h"
#include "service/validate/index_schema.h"
#include "service/write/legacy_attributes.h"

namespace pogi::service {
namespace {

// TODO(fidelity): no record of DynamoDB's texts for these four; the
// TableNotFoundException text is the one on record.
Error GlobalTableNotFound(const std::string& name) {
  return Error(ErrorCode::kGlobalTableNotFound,
               "Global table not found: Global table with name: '" + name + "' does not exist.");
}
Error GlobalTableExists(const std::string& name) {
  return Error(ErrorCode::kGlobalTableAlreadyExists,
               "Global table already exists: Global table with name: '" + name + "' already exists.");
}
Error ReplicaExists(const std::string& name, const std::string& region) {
  return Error(ErrorCode::kReplicaAlreadyExists, "Replica already exists: Global table: '" + name +
                                                     "' already has a replica in region: '" + region + "'.");
}
Error ReplicaMissing(const std::string& name, const std::string& region) {
  return Error(ErrorCode::kReplicaNotFound,
               "Replica not found: Global table: '" + name + "' has no replica in region: '" + region + "'.");
}
Error TableNotFound(const std::string& name, const std::string& region) {
  return Error(ErrorCode::kTableNotFound,
               "Table not found: Table: '" + name + "' not found in region: '" + region + "'.");
}

// Whether a table named `name` is a member of a legacy global table.
bool LegacyGroupExists(const Catalog& catalog, const std::string& name) {
  for (const auto& t : catalog.AllNamed(name)) {
    if (IsLegacyGlobalMember(t->description)) return true;
  }
  return false;
}

Result<bool> IsEmpty(storage::ReadTxn& txn, const Table& table) {
  storage::RangeRead all;
  all.id = table.id;
  bool any = false;
  POGI_RETURN_IF_ERROR(txn.ReadRange(all, [&](const storage::Row&) {
    any = true;
    return false;
  }));
  return !any;
}

// What DynamoDB refuses of a table that would join: another group already
// (a 2019.11.21 replica), a table still changing, or one with items.
// TODO(fidelity): no record of DynamoDB's texts for these.
Status CheckJoinable(storage::ReadTxn& txn, const Table& t, const std::string& region) {
  if (t.description.replicas_size() > 0) {
    return Error::InvalidParameter("Table: " + t.description.table_name() + " in region: " + region +
                                   " is already a replica of a global table");
  }
  POGI_RETURN_IF_ERROR(CheckTableChangeable(t.description, /*updating_too=*/true));
  POGI_ASSIGN_OR_RETURN(bool empty, IsEmpty(txn, t));
  if (!empty) {
    return Error::InvalidParameter("Table: " + t.description.table_name() + " in region: " + region +
                                   " is not empty");
  }
  return Status::Ok();
}

// The description of a member made in `region` from `source` (the table the
// region saw, in the default region mode): a copy in that region, of no
// global table yet.
v1::TableDescription MemberDescription(const v1::TableDescription& source, const std::string& region,
                                       double now) {
  v1::TableDescription d = TableDescriptionInRegion(source, region, now);
  d.clear_replicas();
  d.clear_global_table_version();
  return d;
}

// Writes group `regions` into every member's description, with a
// replication queue while there is someone to replicate to.
Status SetGroup(storage::WriteTxn& txn, Catalog& catalog,
                const std::vector<std::shared_ptr<const Table>>& members,
                const std::vector<std::string>& regions) {
  for (const auto& m : members) {
    v1::TableDescription d = m->description;
    d.clear_replicas();
    for (const auto& r : regions) {
      auto* rd = d.add_replicas();
      rd->set_region_name(r);
      rd->set_replica_status("ACTIVE");
    }
    d.set_global_table_version(std::string(kLegacyGlobalTableVersion));
    int64_t queue = d.pogi_replication_queue();
    if (regions.size() > 1 && queue == 0) {
      v1::StreamState q;
      q.set_replication_queue(true);
      q.set_table_id(m->id);
      q.set_table_name(d.table_name());
      POGI_ASSIGN_OR_RETURN(queue, txn.CreateStream(q.SerializeAsString()));
    } else if (regions.size() <= 1 && queue != 0) {
      POGI_RETURN_IF_ERROR(txn.DeleteStream(queue));
      queue = 0;
    }
    if (queue != 0) {
      d.set_pogi_replication_queue(queue);
    } else {
      d.clear_pogi_replication_queue();
    }
    POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(m->id, d.SerializeAsString()));
    catalog.Put(catalog.Make(m->id, std::move(d), m->IndexIds()));  // inside the write: later writes queue
  }
  return Status::Ok();
}

// `member` leaves its group: a regional table again, its stream and items kept.
Status LeaveGroup(storage::WriteTxn& txn, Catalog& catalog, const Table& member) {
  v1::TableDescription d = member.description;
  if (d.pogi_replication_queue() != 0) POGI_RETURN_IF_ERROR(txn.DeleteStream(d.pogi_replication_queue()));
  d.clear_pogi_replication_queue();
  d.clear_replicas();
  d.clear_global_table_version();
  POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(member.id, d.SerializeAsString()));
  catalog.Put(catalog.Make(member.id, std::move(d), member.IndexIds()));
  return Status::Ok();
}

std::vector<std::string> RegionsOf(const v1::TableDescription& record) {
  std::vector<std::string> out;
  for (const auto& r : record.replicas()) out.push_back(r.region_name());
  return out;
}

void SetRecordGroup(v1::TableDescription& record, const std::vector<std::string>& regions) {
  record.clear_replicas();
  for (const auto& r : regions) record.add_replicas()->set_region_name(r);
}

}  // namespace

Result<std::shared_ptr<const Table>> Engine::MakeLegacyMember(storage::WriteTxn& txn, const Table& source,
                                                              const std::string& region, double now) {
  v1::TableDescription d = MemberDescription(source.description, region, now);
  POGI_ASSIGN_OR_RETURN(auto created, CreateTableInTxn(txn, d, v1::TableSettings()));
  v1::StreamSpecification spec;
  spec.set_stream_enabled(true);
  spec.set_stream_view_type("NEW_AND_OLD_IMAGES");
  Status s = ApplyStreamSpecification(streams_, txn, created->id, spec, &d);
  if (s.ok()) s = txn.UpdateTableDescription(created->id, d.SerializeAsString());
  if (!s.ok()) {
    catalog_.Remove(d.table_name(), region);
    return std::move(s).error();
  }
  auto member = catalog_.Make(created->id, d, created->IndexIds());
  catalog_.Put(member);
  return member;
}

Result<v1::CreateGlobalTableResponse> Engine::CreateGlobalTable(const v1::CreateGlobalTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckCreateGlobalTableMembers(req));
  std::vector<std::string> regions;
  for (const auto& r : req.replication_group()) regions.push_back(r.region_name());
  POGI_RETURN_IF_ERROR(CheckReplicationGroup(regions));
  const std::string& name = req.global_table_name();
  v1::CreateGlobalTableResponse resp;
  std::vector<std::shared_ptr<const Table>> made;  // members made here, to forget if the write fails
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    made.clear();
    const double now = clock_->Now();
    if (LegacyGroupExists(catalog_, name)) return GlobalTableExists(name);
    // The table each region sees, held to the rules against the first.
    std::vector<std::shared_ptr<const Table>> seen;
    const v1::TableDescription* model = nullptr;
    for (const auto& region : regions) {
      auto t = SeenFrom(catalog_, name, region);
      if (!t) return TableNotFound(name, region);
      POGI_RETURN_IF_ERROR(CheckLegacyMember(t->description, region, model));
      POGI_RETURN_IF_ERROR(CheckJoinable(txn, *t, region));
      if (!model) model = &t->description;
      seen.push_back(std::move(t));
    }
    // Each region's own table, or (default region mode) one made there.
    std::vector<std::shared_ptr<const Table>> members;
    for (size_t i = 0; i < regions.size(); ++i) {
      if (seen[i]->region == regions[i]) {
        members.push_back(seen[i]);
        continue;
      }
      POGI_ASSIGN_OR_RETURN(auto member, MakeLegacyMember(txn, *seen[i], regions[i], now));
      made.push_back(member);
      members.push_back(std::move(member));
    }
    POGI_RETURN_IF_ERROR(SetGroup(txn, catalog_, members, regions));
    v1::TableDescription record;
    record.set_table_name(name);
    record.set_table_arn(GlobalTableArnOf(name));
    record.set_creation_date_time(now);
    SetRecordGroup(record, regions);
    if (delays_.replica_creating > 0)
      BeginTransition(record, kTableCreating, "", now + delays_.replica_creating);
    ApplyTransitionStatuses(record);
    POGI_RETURN_IF_ERROR(WriteLegacyRecord(txn, name, &record));
    *resp.mutable_global_table_description() = DescribeLegacyRecord(record);
    // DynamoDB answers CREATING; without a delay it is ACTIVE at once.
    resp.mutable_global_table_description()->set_global_table_status("CREATING");
    return Status::Ok();
  });
  if (!s.ok()) {
    for (const auto& m : made) catalog_.Remove(name, m->region);
  }
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

Result<v1::UpdateGlobalTableResponse> Engine::UpdateGlobalTable(const v1::UpdateGlobalTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckUpdateGlobalTableMembers(req));
  std::vector<std::string> adding, removing;
  POGI_RETURN_IF_ERROR(CheckReplicaUpdates(req, &adding, &removing));
  const std::string& name = req.global_table_name();
  v1::UpdateGlobalTableResponse resp;
  std::vector<std::shared_ptr<const Table>> made;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    resp.Clear();
    made.clear();
    const double now = clock_->Now();
    POGI_ASSIGN_OR_RETURN(auto record, ReadLegacyRecord(txn, name, now));
    if (!record || !LegacyGroupExists(catalog_, name)) return GlobalTableNotFound(name);
    std::vector<std::string> regions = RegionsOf(*record);
    auto in_group = [&](const std::string& r) {
      return std::find(regions.begin(), regions.end(), r) != regions.end();
    };
    for (const auto& r : removing) {
      if (!in_group(r)) return ReplicaMissing(name, r);
    }
    for (const auto& r : adding) {
      if (in_group(r)) return ReplicaExists(name, r);
    }
    std::vector<std::shared_ptr<const Table>> members;
    for (const auto& r : regions) {
      if (auto m = catalog_.FindIn(name, r)) members.push_back(std::move(m));
    }
    const v1::TableDescription* model = members.empty() ? nullptr : &members.front()->description;
    for (const auto& r : adding) {
      auto t = SeenFrom(catalog_, name, r);
      if (!t) return TableNotFound(name, r);
      if (t->region == r) {
        POGI_RETURN_IF_ERROR(CheckLegacyMember(t->description, r, model));
        POGI_RETURN_IF_ERROR(CheckJoinable(txn, *t, r));
        members.push_back(std::move(t));
        continue;
      }
      // The default region mode: the region sees another region's table
      // (this group's member there, or the shared one); its member is made
      // empty, as the table the legacy flow creates there would be.
      if (!IsLegacyGlobalMember(t->description)) {
        POGI_RETURN_IF_ERROR(CheckLegacyMember(t->description, r, model));
        POGI_RETURN_IF_ERROR(CheckJoinable(txn, *t, r));
      }
      POGI_ASSIGN_OR_RETURN(auto member, MakeLegacyMember(txn, *t, r, now));
      made.push_back(member);
      members.push_back(std::move(member));
    }
    std::vector<std::shared_ptr<const Table>> staying;
    for (const auto& m : members) {
      if (std::find(removing.begin(), removing.end(), m->region) != removing.end()) {
        POGI_RETURN_IF_ERROR(LeaveGroup(txn, catalog_, *m));
      } else {
        staying.push_back(m);
      }
    }
    std::vector<std::string> now_regions;
    for (const auto& r : regions) {
      if (std::find(removing.begin(), removing.end(), r) == removing.end()) now_regions.push_back(r);
    }
    now_regions.insert(now_regions.end(), adding.begin(), adding.end());
    POGI_RETURN_IF_ERROR(SetGroup(txn, catalog_, staying, now_regions));
    SetRecordGroup(*record, now_regions);
    const double delay = adding.empty() ? delays_.replica_deleting : delays_.replica_creating;
    if (delay > 0) BeginTransition(*record, kTableUpdating, "", now + delay);
    ApplyTransitionStatuses(*record);
    POGI_RETURN_IF_ERROR(WriteLegacyRecord(txn, name, now_regions.empty() ? nullptr : &*record));
    *resp.mutable_global_table_description() = DescribeLegacyRecord(*record);
    // The answer shows the change under way, as DynamoDB's does.
    resp.mutable_global_table_description()->set_global_table_status("UPDATING");
    return Status::Ok();
  });
  if (!s.ok()) {
    for (const auto& m : made) catalog_.Remove(name, m->region);
  }
  POGI_RETURN_IF_ERROR(s);
  return resp;
}

Result<v1::DescribeGlobalTableResponse> Engine::DescribeGlobalTable(
    const v1::DescribeGlobalTableRequest& req) {
  POGI_RETURN_IF_ERROR(
      CheckGlobalTableNameMember(req.has_global_table_name() ? &req.global_table_name() : nullptr));
  const std::string& name = req.global_table_name();
  std::optional<v1::TableDescription> record;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(record, ReadLegacyRecord(txn, name, clock_->Now()));
    return Status::Ok();
  }));
  if (!record || !LegacyGroupExists(catalog_, name)) return GlobalTableNotFound(name);
  v1::DescribeGlobalTableResponse resp;
  *resp.mutable_global_table_description() = DescribeLegacyRecord(*record);
  return resp;
}

Result<v1::ListGlobalTablesResponse> Engine::ListGlobalTables(const v1::ListGlobalTablesRequest& req) {
  POGI_RETURN_IF_ERROR(CheckListGlobalTablesMembers(req));
  // Every legacy global table, by name (the catalog is ordered by name).
  std::vector<std::string> names;
  for (const auto& t : catalog_.All()) {
    const std::string& name = t->description.table_name();
    if (!IsLegacyGlobalMember(t->description) || (!names.empty() && names.back() == name)) continue;
    if (req.has_exclusive_start_global_table_name() && name <= req.exclusive_start_global_table_name())
      continue;
    names.push_back(name);
  }
  const size_t limit = req.has_limit() ? static_cast<size_t>(req.limit()) : 100;
  v1::ListGlobalTablesResponse resp;
  const double now = clock_->Now();
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    resp.Clear();
    for (const auto& name : names) {
      POGI_ASSIGN_OR_RETURN(auto record, ReadLegacyRecord(txn, name, now));
      if (!record) continue;
      std::vector<std::string> regions = RegionsOf(*record);
      if (req.has_region_name() &&
          std::find(regions.begin(), regions.end(), req.region_name()) == regions.end()) {
        continue;
      }
      if (static_cast<size_t>(resp.global_tables_size()) == limit) {
        resp.set_last_evaluated_global_table_name(
            resp.global_tables(resp.global_tables_size() - 1).global_table_name());
        break;
      }
      auto* g = resp.add_global_tables();
      g->set_global_table_name(name);
      for (const auto& r : regions) g->add_replication_group()->set_region_name(r);
    }
    return Status::Ok();
  }));
  return resp;
}

}  // namespace pogi::service
