// Engine: opening storage, the catalog lookups and table descriptions shared
// by the actions, and the statistics the admin service reports.
#include "service/engine/engine.h"

#include <map>

#include "service/validate/control_plane.h"
#include "service/write/live_counts.h"

namespace pogi::service {

Result<std::unique_ptr<Engine>> Engine::Open(const storage::Options& options,
                                             std::shared_ptr<const Clock> clock,
                                             int64_t item_collection_limit, bool clock_set) {
  POGI_ASSIGN_OR_RETURN(auto storage, storage::Storage::Open(options));
  std::unique_ptr<Engine> engine(new Engine(std::move(storage), std::move(clock), item_collection_limit));
  if (clock_set && engine->controllable_clock_) {
    POGI_RETURN_IF_ERROR(
        engine->storage_->Write([&](storage::WriteTxn& txn) { return engine->StoreClock(txn); }));
  }
  POGI_RETURN_IF_ERROR(engine->LoadCatalog());
  engine->storage_->CatalogFollowed(engine->foreign_catalog_changes_);
  return engine;
}

Status Engine::LoadCatalog() {
  // Index ids may name other indexes now (a snapshot restore, another
  // process's changes): what the vector cache holds is read again.
  vector_cache_.Clear();
  POGI_ASSIGN_OR_RETURN(auto records, storage_->ListTables());
  POGI_ASSIGN_OR_RETURN(auto index_records, storage_->ListIndexes());
  std::map<int64_t, std::map<std::string, int64_t>> index_ids;  // table id -> name -> index id
  for (const auto& i : index_records) index_ids[i.table_id][i.name] = i.id;
  std::vector<std::shared_ptr<const Table>> tables;
  for (auto& r : records) {
    v1::TableDescription d;
    if (!d.ParseFromString(r.description)) {
      return Error::Internal("catalog entry of table " + r.name + " is corrupt");
    }
    auto table = catalog_.Make(r.id, std::move(d), index_ids[r.id]);
    std::string settings;
    POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(settings, txn.GetTableSettings(r.id));
      return Status::Ok();
    }));
    v1::TableSettings parsed;
    if (!settings.empty() && !parsed.ParseFromString(settings)) {
      return Error::Internal("settings of table " + r.name + " are corrupt");
    }
    // Always the stored settings: after a snapshot restore the catalog may
    // still hold another table under the same id.
    tables.push_back(Catalog::WithSettings(*table, std::move(parsed)));
  }
  catalog_.ReplaceAll(tables);
  POGI_RETURN_IF_ERROR(LoadClock());
  return streams_.Load(*storage_);
}

Status Engine::FollowCatalog() { return Follow(/*look=*/true); }

Status Engine::Follow(bool look) {
  int64_t changes = storage_->NoticedCatalogChanges();
  if (look) {
    POGI_ASSIGN_OR_RETURN(changes, storage_->ForeignCatalogChanges());
  }
  if (changes == foreign_catalog_changes_.load()) return Status::Ok();
  std::unique_lock state(state_mu_);
  if (changes == foreign_catalog_changes_.load()) return Status::Ok();  // reloaded meanwhile
  POGI_RETURN_IF_ERROR(LoadCatalog());
  foreign_catalog_changes_ = changes;
  storage_->CatalogFollowed(changes);
  return Status::Ok();
}

Result<std::shared_ptr<const Table>> Engine::FindTable(const std::string& name) const {
  POGI_ASSIGN_OR_RETURN(std::string resolved, ResolveTableName(name));
  auto t = catalog_.FindNamed(resolved, name);
  // A table being created or deleted answers as DynamoDB's does: as if it
  // were not there.
  if (!t || !t->serves_items) return Error::ResourceNotFound("Requested resource not found");
  return t;
}

Result<std::shared_ptr<const Table>> Engine::FindTableInAnyState(const std::string& name) const {
  POGI_ASSIGN_OR_RETURN(std::string resolved, ResolveTableName(name));
  auto t = catalog_.FindNamed(resolved, name);
  if (!t) return Error::ResourceNotFound("Requested resource not found");
  return t;
}

Result<v1::TableDescription> Engine::Describe(const Table& table) {
  v1::TableDescription d = table.description;
  POGI_RETURN_IF_ERROR(
      storage_->Read([&](storage::ReadTxn& txn) -> Status { return FillLiveCounts(txn, table, &d); }));
  return d;
}

Result<std::vector<TableStats>> Engine::Stats() {
  {
    auto state = LockState();
    POGI_RETURN_IF_ERROR(SettleTransitions());
  }
  std::vector<TableStats> out;
  for (const auto& t : catalog_.All()) {
    POGI_ASSIGN_OR_RETURN(auto d, Describe(*t));
    out.push_back({d.table_name(), d.table_status(), d.item_count(), d.table_size_bytes()});
  }
  return out;
}

}  // namespace pogi::service
