// Point-in-time recovery's history: what the write path records while PITR
// is on, and the recovery window it allows restores in.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// Microseconds since the Unix epoch of a clock reading.
int64_t ToMicros(double seconds);

// Records that `key` of `table` now holds `bytes` (null: was deleted) at the
// table's clock time. Every few thousand records, also forgets what fell out
// of the recovery period. REQUIRES: table.settings.pitr().enabled().
Status RecordHistory(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                     const std::string* bytes, int64_t size);

// The recovery window of `pitr` at `now` (seconds): from the later of
// enabling and now minus the recovery period, to now.
double EarliestRestorable(const v1::PitrState& pitr, double now);

// DynamoDB's default recovery period.
inline constexpr int kDefaultRecoveryDays = 35;

}  // namespace pogi::service
