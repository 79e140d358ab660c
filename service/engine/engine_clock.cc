// pogi's one clock, kept in the database: every process sharing it reads the
// same clock, a restart goes on from where it stood, and a change through any
// process reaches the others at their next request (as a catalog change).
#include "pogi/v1/control_state.pb.h"
#include "service/engine/engine.h"

namespace pogi::service {
namespace {

// The shared value holding the clock's state.
constexpr std::string_view kClockKey = "clock";

std::string Serialize(const ControllableClock::State& state) {
  v1::StoredClock stored;
  stored.set_offset(state.offset);
  stored.set_frozen(state.frozen);
  stored.set_frozen_at(state.frozen_at);
  return stored.SerializeAsString();
}

Result<ControllableClock::State> Parse(const std::string& bytes) {
  v1::StoredClock stored;
  if (!stored.ParseFromString(bytes)) return Error::Internal("the stored clock is corrupt");
  return ControllableClock::State{stored.offset(), stored.frozen(), stored.frozen_at()};
}

}  // namespace

Status Engine::LoadClock() {
  if (!controllable_clock_) return Status::Ok();
  std::optional<std::string> stored;
  POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(stored, txn.GetSharedValue(kClockKey, 0));
    return Status::Ok();
  }));
  if (!stored) return Status::Ok();  // never set: the system time, as started
  POGI_ASSIGN_OR_RETURN(auto state, Parse(*stored));
  controllable_clock_->Adopt(state);
  return Status::Ok();
}

Status Engine::StoreClock(storage::WriteTxn& txn) {
  POGI_RETURN_IF_ERROR(txn.PutSharedValue(kClockKey, Serialize(controllable_clock_->state()), 0));
  return txn.NoteCatalogChange();
}

Status Engine::ChangeClock(const std::function<Status(ControllableClock&)>& change) {
  if (!controllable_clock_) return Error::Validation("this pogi's clock is not controllable");
  const ControllableClock::State before = controllable_clock_->state();
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    // From the stored state, which another process may have moved since
    // this one last looked; from the start again if the write runs again.
    controllable_clock_->Adopt(before);
    POGI_ASSIGN_OR_RETURN(auto stored, txn.GetSharedValue(kClockKey, 0));
    if (stored) {
      POGI_ASSIGN_OR_RETURN(auto state, Parse(*stored));
      controllable_clock_->Adopt(state);
    }
    POGI_RETURN_IF_ERROR(change(*controllable_clock_));
    return StoreClock(txn);
  });
  if (!s.ok()) controllable_clock_->Adopt(before);
  return s;
}

}  // namespace pogi::service
