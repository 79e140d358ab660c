// Engine: the admin calls over the whole database — Reset and snapshots.
#include <mutex>

#include "service/engine/engine.h"

namespace pogi::service {

Result<std::vector<std::string>> Engine::Reset(const std::vector<std::string>& names) {
  std::unique_lock state(state_mu_);
  std::vector<std::shared_ptr<const Table>> tables;
  if (names.empty()) {
    tables = catalog_.All();
  } else {
    for (const auto& name : names) {
      auto t = catalog_.Find(name);
      if (!t) return Error::ResourceNotFound("Requested resource not found: Table: " + name + " not found");
      tables.push_back(std::move(t));
    }
  }
  POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
    for (const auto& t : tables) {
      // A global table's replica reset alone leaves its group; with every
      // table, the queues just go.
      if (!names.empty() && t->description.replicas_size() > 0) {
        POGI_RETURN_IF_ERROR(LeaveReplicationGroup(txn, *t));
      } else if (t->replication_queue != 0) {
        POGI_RETURN_IF_ERROR(txn.DeleteStream(t->replication_queue));
      }
      POGI_RETURN_IF_ERROR(txn.DropTable(t->id));
      for (const auto& v : t->vector_indexes) vector_cache_.Forget(v.id);
    }
    return Status::Ok();
  }));
  std::vector<std::string> dropped;
  for (const auto& t : tables) {
    catalog_.Remove(t->description.table_name(), t->region);
    dropped.push_back(t->description.table_name());
  }
  return dropped;
}

Status Engine::CreateSnapshot(const std::string& name) {
  // Shared: operations may run beside the copy, which is one read transaction.
  auto state = LockState();
  return storage_->SaveSnapshot(name);
}

Status Engine::RestoreSnapshot(const std::string& name) {
  std::unique_lock state(state_mu_);
  POGI_RETURN_IF_ERROR(storage_->RestoreSnapshot(name));
  // The clock stays where it stands: a snapshot holds data, not time (the
  // data's clock state came back with it).
  if (controllable_clock_) {
    POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) { return StoreClock(txn); }));
  }
  return LoadCatalog();
}

Result<std::vector<storage::SnapshotRecord>> Engine::ListSnapshots() { return storage_->ListSnapshots(); }

Status Engine::DeleteSnapshot(const std::string& name) { return storage_->DeleteSnapshot(name); }

}  // namespace pogi::service
