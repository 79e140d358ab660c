// PgPool: idle connections on a stack (the most recently used first: its
// prepared statements and the server's caches are warm).
#include "storage/pg_pool.h"

#include <random>

namespace pogi::storage {

PgPool::PgPool(std::string conninfo, std::string schema, size_t keep)
    : conninfo_(std::move(conninfo)), schema_(std::move(schema)), keep_(keep) {
  // Processes sharing a database start their connections at different
  // shards, so that they too seldom share one.
  next_shard_ = std::random_device()() % kCounterShards;
}

Result<std::unique_ptr<PgConn>> PgPool::Take() {
  int64_t shard;
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      std::unique_ptr<PgConn> c = std::move(idle_.back());
      idle_.pop_back();
      return c;
    }
    shard = next_shard_;
    next_shard_ = (next_shard_ + 1) % kCounterShards;
  }
  POGI_ASSIGN_OR_RETURN(auto c, PgConn::Connect(conninfo_, schema_));
  // A read is an implicit transaction (PgConn::set_open_batch): one
  // snapshot for all its statements. Writes say their own isolation. Lock
  // waits are bounded (kLockWaitSeconds). One statement, one round trip.
  POGI_RETURN_IF_ERROR(
      c->Run("SELECT set_config('default_transaction_isolation', 'repeatable read', false), "
             "set_config('lock_timeout', '" +
             std::to_string(kLockWaitSeconds) + "s', false)"));
  c->counter_shard = shard;
  return c;
}

void PgPool::Give(std::unique_ptr<PgConn> c) {
  if (!c) return;
  if (c->Broken()) return Forget();
  std::lock_guard lock(mu_);
  if (idle_.size() < keep_) idle_.push_back(std::move(c));
}

void PgPool::Forget() {
  std::vector<std::unique_ptr<PgConn>> gone;
  std::lock_guard lock(mu_);
  gone.swap(idle_);
}

}  // namespace pogi::storage
