// Streams: every stream's state (ARN, view type, shards), cached from
// storage, and the changes to it: a stream created or disabled with its
// table, shards rolled over after a span of clock time or on demand,
// records trimmed after the 24-hour retention, streams forgotten 24 hours
// after they were disabled. A shard is a range of the stream's sequence
// numbers, so records carry no shard: storage issues sequence numbers in
// commit order, and a roll-over issues the parent's end, so every record
// committed before it is below the end and every one after above. Each
// change to a stream's state reads the stored state inside the write and
// updates the cache after the commit; the cache may therefore lag a
// roll-over, and what reads a shard's records takes an open shard's bounds
// from the same storage snapshot as its records (ReadShard). Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"
#include "service/core/clock.h"
#include "storage/storage.h"

namespace pogi::service {

class Streams {
 public:
  explicit Streams(const Clock& clock) : clock_(clock) {}

  Status Load(storage::Storage& storage);
  // DynamoDB opens a new shard about every four hours.
  void set_shard_seconds(double seconds) { shard_seconds_ = seconds; }

  // Inside the write that enables a stream on `table` (whose table_arn and
  // key schema are set): a new stream with one open shard; its id. Sets
  // the table's LatestStreamArn and LatestStreamLabel.
  Result<int64_t> Create(storage::WriteTxn& txn, v1::TableDescription* table, int64_t table_id,
                         const std::string& view_type);
  // Inside the write that disables the stream (or deletes its table).
  Status Disable(storage::WriteTxn& txn, int64_t stream_id);

  // Closes the open shard of an enabled stream now; its id and its child's.
  Result<std::pair<std::string, std::string>> CloseShard(storage::Storage& storage, int64_t stream_id);
  // The background work due at the clock's now: roll-overs, trims, streams
  // past their retention dropped.
  Status Maintain(storage::Storage& storage);

  // A shard's end as `txn` sees it (0: still open). `shard` is the cached
  // state, which may predate a roll-over committed since: a shard's end
  // never changes once set, so a cached end is final; an open shard's is
  // read from the stored state in `txn`. ResourceNotFound when the stored
  // state no longer has the shard.
  static Result<int64_t> ShardEnd(storage::ReadTxn& txn, int64_t stream_id, const v1::ShardState& shard);
  // The records of `shard` after sequence number `after` (at most `limit`),
  // and the shard's end, both as `txn` sees them. In one snapshot a
  // roll-over and its child's records are seen together or not at all;
  // with the cache's open shard and records read later, a child's record
  // committed between the two would be read as the parent's as well.
  struct ShardRecords {
    std::vector<storage::StreamRecordRow> rows;
    int64_t end = 0;  // 0: the shard is open
  };
  static Result<ShardRecords> ReadShard(storage::ReadTxn& txn, int64_t stream_id, const v1::ShardState& shard,
                                        int64_t after, int limit);

  std::optional<v1::StreamState> Get(int64_t stream_id) const;
  // The stream with `arn`, and its id.
  std::optional<std::pair<int64_t, v1::StreamState>> Find(const std::string& arn) const;
  // Every stream, oldest first.
  std::vector<std::pair<int64_t, v1::StreamState>> All() const;

 private:
  // Reads the stored state of `id` inside `txn`.
  static Result<v1::StreamState> Read(storage::ReadTxn& txn, int64_t id);
  // Stores `state` and caches it once the write commits.
  Status Store(storage::WriteTxn& txn, int64_t id, const v1::StreamState& state);
  // Closes the open shard of stream `stream_id` (`state`) and opens its child.
  Status Roll(storage::WriteTxn& txn, int64_t stream_id, v1::StreamState* state, double now);

  const Clock& clock_;
  double shard_seconds_ = 4 * 3600;
  mutable std::mutex mu_;
  std::map<int64_t, v1::StreamState> streams_;
};

}  // namespace pogi::service
