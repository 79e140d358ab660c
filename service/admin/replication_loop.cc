// The loop that delivers global tables' replication.
#include "service/admin/replication_loop.h"

#include <chrono>

#include "common/log.h"

namespace pogi::service {
namespace {

// Between looks for due changes: a small part of the default lag while
// there are global tables; without any, a look at the catalog now and then.
constexpr double kIdleSeconds = 0.02;
constexpr double kNoGlobalTableSeconds = 0.25;
constexpr double kRetrySeconds = 0.5;  // after a failed round
// How often the lease is asked for (a round that does not hold it does
// nothing), and how often the catalog is followed (on a shared PostgreSQL,
// a global table made by another process; requests follow it too).
constexpr double kLeaseEverySeconds = 1;
constexpr double kFollowEverySeconds = 0.25;

}  // namespace

ReplicationLoop::ReplicationLoop(Engine& engine) : engine_(engine) {
  thread_ = std::thread([this] { Run(); });
}

ReplicationLoop::~ReplicationLoop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ReplicationLoop::Run() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point lease_checked{}, followed_at{};
  bool held = false;
  std::unique_lock lock(mu_);
  while (!stop_) {
    lock.unlock();
    if (Clock::now() - lease_checked > std::chrono::duration<double>(kLeaseEverySeconds)) {
      auto h = engine_.HoldReplicationLease();
      held = h.ok() && *h;
      lease_checked = Clock::now();
    }
    double wait = held ? kIdleSeconds : kNoGlobalTableSeconds;
    if (held) {
      Status followed = Status::Ok();
      if (Clock::now() - followed_at > std::chrono::duration<double>(kFollowEverySeconds)) {
        followed = engine_.FollowCatalog();
        followed_at = Clock::now();
      }
      bool any_global = false;
      auto more = followed.ok() ? engine_.ReplicateDue(&any_global) : Result<bool>(followed.error());
      if (!any_global) wait = kNoGlobalTableSeconds;
      if (!more.ok()) {
        log::Warn("replication round failed; will try again", {{"error", more.error().message()}});
        wait = kRetrySeconds;
      } else if (*more) {
        wait = 0;
      }
    }
    lock.lock();
    if (wait > 0) cv_.wait_for(lock, std::chrono::duration<double>(wait), [this] { return stop_; });
  }
}

}  // namespace pogi::service
