// How global tables' replication behaves now (pogi replication, Admin
// SetReplication): the delay before a queued change reaches the other
// replicas, and whether replication is frozen (nothing delivered: changes
// wait in their queues until released). In this process only, as the read
// lag. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>

namespace pogi::service {

class ReplicationControl {
 public:
  // Well under a second, as DynamoDB's MREC replication usually is.
  static constexpr int64_t kDefaultLagMs = 200;

  int64_t lag_ms() const { return lag_ms_.load(std::memory_order_relaxed); }
  void set_lag_ms(int64_t ms) { lag_ms_.store(ms, std::memory_order_relaxed); }
  bool frozen() const { return frozen_.load(std::memory_order_relaxed); }
  void set_frozen(bool frozen) { frozen_.store(frozen, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> lag_ms_{kDefaultLagMs};
  std::atomic<bool> frozen_{false};
};

}  // namespace pogi::service
