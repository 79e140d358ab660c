// The table an import creates and fills (ImportTable; jobs/import_job runs
// the load). It is CREATING from the request on, through a transition with
// no end time (core/transitions.h): it serves no item, DeleteTable and
// UpdateTable answer that it is being created, and the clock never ends
// it. The job fills it a batch at a time, each batch one storage write
// through the write path, so requests to other tables go on meanwhile and
// nobody sees a half-loaded table; then it ends the transition (ACTIVE) or
// drops the table.
#include <algorithm>

#include "service/engine/engine.h"
#include "service/write/item_write.h"

namespace pogi::service {
namespace {

// The import's table, by the name, region and DynamoDB table id the import
// recorded, or DynamoDB's ResourceNotFoundException (a reset dropped it).
Result<std::shared_ptr<const Table>> ImportedTable(const Catalog& catalog,
                                                   const v1::ImportTableDescription& d) {
  const std::string& name = d.table_creation_parameters().table_name();
  auto table = catalog.FindIn(name, std::string(RegionOfArn(d.table_arn())));
  if (!table || table->description.table_id() != d.table_id()) {
    return Error::ResourceNotFound("The table of the import, " + name + ", was deleted");
  }
  return table;
}

bool IsImportTransition(const v1::PogiTransition& t) {
  return t.phase() == kTableCreating && t.subject().empty() && t.ends_at() == kNoTransition;
}

}  // namespace

Result<std::shared_ptr<const Table>> Engine::StartImportLoad(v1::StoredJob& job) {
  std::shared_ptr<const Table> old, made;
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    made.reset();
    POGI_ASSIGN_OR_RETURN(old, ImportedTable(catalog_, job.import()));
    // Made again empty, as ImportTable described it: a run after a restart
    // starts from nothing, and a first run finds it so already.
    v1::TableDescription d = old->description;
    // CREATING again if an earlier run ended the load but stopped before
    // it recorded the outcome.
    if (std::none_of(d.pogi_transitions().begin(), d.pogi_transitions().end(), IsImportTransition)) {
      BeginTransition(d, kTableCreating, "", kNoTransition);
      ApplyTransitionStatuses(d);
    }
    POGI_RETURN_IF_ERROR(txn.DropTable(old->id));
    catalog_.Remove(old->description.table_name(), old->region);
    POGI_ASSIGN_OR_RETURN(made, CreateTableInTxn(txn, d, old->settings));
    return Status::Ok();
  });
  if (!s.ok()) {
    if (old) catalog_.Put(old);  // the write did not commit
    return s.error();
  }
  job.set_table_id(made->id);
  return made;
}

Status Engine::LoadImportedItems(const Table& table, const std::vector<KeyedItem>& items) {
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto current, CurrentTable(catalog_, table));
    for (const KeyedItem& k : items) {
      // An item of a key met before replaces it, as DynamoDB's import does.
      POGI_ASSIGN_OR_RETURN(auto old, ReadItem(txn, *current, k.key));
      POGI_RETURN_IF_ERROR(ApplyChange(txn, *current, k.key, old ? &*old : nullptr, &k.item));
    }
    return Status::Ok();
  });
}

Status Engine::EndImportLoad(const Table& table, bool keep) {
  return storage_->Write([&](storage::WriteTxn& txn) -> Status {
    auto current = catalog_.FindCurrent(table);
    if (!current || current->id != table.id) return Status::Ok();  // gone already
    if (!keep) {
      POGI_RETURN_IF_ERROR(txn.DropTable(current->id));
      catalog_.Remove(current->description.table_name(), current->region);
      return Status::Ok();
    }
    v1::TableDescription d = current->description;
    auto* transitions = d.mutable_pogi_transitions();
    transitions->erase(std::remove_if(transitions->begin(), transitions->end(), IsImportTransition),
                       transitions->end());
    ApplyTransitionStatuses(d);
    POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(current->id, d.SerializeAsString()));
    catalog_.Put(catalog_.Make(current->id, std::move(d), current->IndexIds()));
    return Status::Ok();
  });
}

}  // namespace pogi::service
