// PgPool: the connections of one PostgreSQL storage to its database. Any
// thread takes one for a transaction (or one statement) and gives it back.
// Up to `keep` stay open between uses (pogi start --pg-connections); a
// burst beyond that opens more, closed once given back, so a caller never
// waits for a connection (a write that reads on a second connection
// cannot deadlock the pool). Storage-internal.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "storage/pg_conn.h"

namespace pogi::storage {

// Shards of a table's counter rows (pg_schema.cc, table_counts): each
// connection adds to one, so concurrent writers of one table seldom wait
// for the same row, and a table has at most this many rows to add up.
inline constexpr int64_t kCounterShards = 64;

class PgPool {
 public:
  PgPool(std::string conninfo, std::string schema, size_t keep);

  // An idle connection, else a new one (its counter_shard set).
  Result<std::unique_ptr<PgConn>> Take();
  // Back to the pool, unless it is broken or `keep` are idle already. A
  // broken one empties the pool: the others are likely on the same host,
  // which is gone or stopped answering, and each would fail (or wait out
  // the statement deadline) once before being replaced.
  void Give(std::unique_ptr<PgConn> c);
  // Closes every idle connection: the next users connect anew (after a
  // failover or a primary turned read-only).
  void Forget();

 private:
  const std::string conninfo_, schema_;
  const size_t keep_;
  std::mutex mu_;
  std::vector<std::unique_ptr<PgConn>> idle_;
  int64_t next_shard_;  // under mu_
};

}  // namespace pogi::storage
