// The write path's point-in-time history records and their pruning.
#include "service/write/pitr_history.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace pogi::service {

int64_t ToMicros(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e6)); }

double EarliestRestorable(const v1::PitrState& pitr, double now) {
  int days = pitr.has_recovery_period_in_days() ? pitr.recovery_period_in_days() : kDefaultRecoveryDays;
  return std::max(pitr.enabled_date_time(), now - days * 86400.0);
}

Status RecordHistory(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const std::string* bytes, int64_t size) {
  double now = table.clock ? table.clock->Now() : 0;
  std::optional<std::string_view> item;
  if (bytes) item = *bytes;
  POGI_RETURN_IF_ERROR(txn.AppendHistory(table.id, key, ToMicros(now), item, size));
  // Pruning costs a pass over the table's history, so it runs once every
  // 4,096 recorded writes (of any table): history outlives its period by at
  // most that many writes, and a restore never reaches before the window.
  static std::atomic<uint64_t> writes{0};
  if (++writes % 4096 == 0) {
    POGI_RETURN_IF_ERROR(
        txn.PruneHistory(table.id, ToMicros(EarliestRestorable(table.settings.pitr(), now))));
  }
  return Status::Ok();
}

}  // namespace pogi::service
