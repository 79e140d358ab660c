// Engine: opening storage, the catalog lookups and table descriptions shared
// by the actions, and the statistics the admin service reports.
#include "service/engine.h"

namespace pogi::service {

Result<std::unique_ptr<Engine>> Engine::Open(const storage::Options& options,
                                             std::shared_ptr<const Clock> clock) {
  POGI_ASSIGN_OR_RETURN(auto storage, storage::Storage::Open(options));
  POGI_ASSIGN_OR_RETURN(auto records, storage->ListTables());
  std::unique_ptr<Engine> engine(new Engine(std::move(storage), std::move(clock)));
  for (auto& r : records) {
    v1::TableDescription d;
    if (!d.ParseFromString(r.description)) {
      return Error::Internal("catalog entry of table " + r.name + " is corrupt");
    }
    engine->catalog_.Put(Catalog::Make(r.id, std::move(d)));
  }
  return engine;
}

Result<std::shared_ptr<const Table>> Engine::FindTable(const std::string& name) const {
  auto t = catalog_.Find(name);
  if (!t) return Error::ResourceNotFound("Requested resource not found");
  return t;
}

Result<v1::TableDescription> Engine::Describe(const Table& table) {
  v1::TableDescription d = table.description;
  Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto rec, txn.GetTable(table.id));
    if (rec) {
      d.set_item_count(rec->item_count);
      d.set_table_size_bytes(rec->size_bytes);
    }
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  return d;
}

Result<std::vector<TableStats>> Engine::Stats() {
  std::vector<TableStats> out;
  for (const auto& t : catalog_.All()) {
    POGI_ASSIGN_OR_RETURN(auto d, Describe(*t));
    out.push_back({d.table_name(), d.table_status(), d.item_count(), d.table_size_bytes()});
  }
  return out;
}

}  // namespace pogi::service
