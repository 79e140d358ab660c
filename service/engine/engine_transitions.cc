// Ending transient states (core/transitions.h) once pogi's clock has passed
// them: each table's in one storage write that starts from its stored
// description, so that of several processes sharing a database the first
// to look ends them and the others find them ended.
#include "service/engine/engine.h"

namespace pogi::service {

Status Engine::SettleDueTransitions() {
  std::lock_guard lock(transitions_mu_);
  const double now = clock_->Now();
  if (now < catalog_.next_transition_end()) return Status::Ok();  // ended meanwhile
  for (const auto& seen : catalog_.All()) {
    if (seen->transition_end > now) continue;
    const std::string name = seen->description.table_name();
    POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(auto record, txn.GetTable(seen->id));
      if (!record) {
        // Its DELETING ended in another process.
        if (auto current = catalog_.FindCurrent(*seen); current && current->id == seen->id) {
          catalog_.Remove(name, seen->region);
        }
        return Status::Ok();
      }
      v1::TableDescription d;
      if (!d.ParseFromString(record->description)) {
        return Error::Internal("catalog entry of table " + name + " is corrupt");
      }
      auto ended = EndTransitionsDue(d, now);
      for (const auto& t : ended) {
        POGI_ASSIGN_OR_RETURN(bool gone, FinishTransition(txn, *seen, t));
        if (gone) return Status::Ok();
      }
      if (!ended.empty()) POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(seen->id, d.SerializeAsString()));
      // The stored description either way: another process may have ended
      // some of them already.
      catalog_.Put(catalog_.Make(seen->id, std::move(d), seen->IndexIds()));
      return Status::Ok();
    }));
  }
  return Status::Ok();
}

Result<bool> Engine::FinishTransition(storage::WriteTxn& txn, const Table& table,
                                      const v1::PogiTransition& t) {
  if (t.phase() == kTableDeleting) {
    POGI_RETURN_IF_ERROR(DropTableInTxn(txn, table, t.ends_at()));
    return true;
  }
  return false;  // the description said it all
}

}  // namespace pogi::service
