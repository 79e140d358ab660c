// Capacity that throttles (opt-in: `pogi start --throttle`, Admin
// SetThrottle, `pogi throttle`): tables and global indexes spend capacity
// units from token buckets refilled by pogi's clock, and a request that finds
// a bucket it needs in debt is refused with DynamoDB's throttling error and
// ThrottlingReasons. Off by default, so test suites stay deterministic; when
// off a request pays one relaxed atomic load (`active()`).
//
// The buckets, as DynamoDB describes its admission control:
// - a provisioned table or index refills at its provisioned units per second
//   and keeps up to 300 seconds of unused capacity (burst capacity);
// - an on-demand table or index refills at its OnDemandThroughput maximum,
//   or at the account's per-table quota (40,000 units) without one, and
//   keeps one second of it;
// - one partition key value serves at most 3,000 read or 1,000 write units
//   a second (the partition limit, in both modes).
// A request is admitted while the buckets it needs are not in debt, and is
// charged afterwards the units it consumed (its ConsumedCapacity), so one
// large item may take a bucket below zero, as DynamoDB lets it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

struct Table;  // core/catalog.h

enum class CapacityKind { kRead, kWrite };

// What one request asks of one table.
struct ThrottleTarget {
  std::shared_ptr<const Table> table;
  CapacityKind kind = CapacityKind::kRead;
  std::string index;      // the global index a Query or Scan reads; empty: the table
  std::string partition;  // the partition key's value, serialized; empty: not known
};

// Whether throttling is on: for every table, and tables' own settings.
struct ThrottleSettings {
  bool all = false;
  std::map<std::string, bool> tables;  // by table name
};

// DynamoDB's limits behind the buckets.
inline constexpr double kBurstSeconds = 300;
inline constexpr double kAccountTableUnits = 40000;
inline constexpr double kPartitionReadUnits = 3000;
inline constexpr double kPartitionWriteUnits = 1000;

class Throttle {
 public:
  bool active() const { return active_.load(std::memory_order_relaxed); }

  // Turns throttling on or off for every table (`table` empty: tables with
  // their own setting keep it) or for one table (nullopt: it follows the
  // setting for every table again).
  void Set(const std::string& table, std::optional<bool> on);
  ThrottleSettings Settings() const;
  bool EnabledFor(const std::string& table) const;

  // Before the request: its throttling error when a bucket it needs is in
  // debt at `now`, else nullopt (admitted).
  std::optional<Error> Admit(const ThrottleTarget& target, double now);
  // After it: charges what it consumed (ConsumedCapacity in INDEXES form):
  // the table's and local indexes' units to the table, each global index's
  // to the index.
  void Charge(const ThrottleTarget& target, const v1::ConsumedCapacity& consumed, double now);

  // Forgets every bucket (a reset of the data).
  void Clear();

 private:
  struct Bucket {
    double tokens = 0;
    double updated = 0;
  };
  // The table's storage id (a table created again under the same name
  // starts afresh), index name ("" the table; "#" + partition value for a
  // partition of the table), kind.
  using Key = std::tuple<int64_t, std::string, CapacityKind>;

  Bucket& Refilled(const Key& key, double rate, double burst_seconds, double now);
  void PruneFullPartitions(double now);

  mutable std::mutex mu_;
  ThrottleSettings settings_;
  std::map<Key, Bucket> buckets_;
  std::atomic<bool> active_{false};
};

}  // namespace pogi::service
