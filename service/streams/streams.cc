// The streams' state: creation, disabling, shard roll-over and retention.
#include "service/streams/streams.h"

#include "service/streams/stream_records.h"

namespace pogi::service {

Status Streams::Load(storage::Storage& storage) {
  POGI_ASSIGN_OR_RETURN(auto rows, storage.ListStreams());
  std::lock_guard lock(mu_);
  streams_.clear();  // a snapshot restore loads again
  for (const auto& r : rows) {
    v1::StreamState s;
    if (!s.ParseFromString(r.state)) return Error::Internal("stream " + std::to_string(r.id) + " is corrupt");
    // A Kinesis destination's or a replica's queue, not a DynamoDB stream.
    if (s.kinesis_queue() || s.replication_queue()) continue;
    streams_[r.id] = std::move(s);
  }
  return Status::Ok();
}

Result<v1::StreamState> Streams::Read(storage::ReadTxn& txn, int64_t id) {
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(id));
  v1::StreamState s;
  if (!bytes || !s.ParseFromString(*bytes))
    return Error::Internal("stream " + std::to_string(id) + " is missing");
  return s;
}

Status Streams::Store(storage::WriteTxn& txn, int64_t id, const v1::StreamState& state) {
  POGI_RETURN_IF_ERROR(txn.UpdateStream(id, state.SerializeAsString()));
  txn.OnCommit([this, id, state] {
    std::lock_guard lock(mu_);
    streams_[id] = state;
  });
  return Status::Ok();
}

Result<int64_t> Streams::Create(storage::WriteTxn& txn, v1::TableDescription* d, int64_t table_id,
                                const std::string& view_type) {
  const v1::TableDescription& table = *d;
  double now = clock_.Now();
  v1::StreamState s;
  // A new stream gets a new ARN even on a frozen clock: labels are unique
  // per table.
  double t = now;
  while (Find(table.table_arn() + "/stream/" + StreamLabel(t))) t += 0.001;
  std::string label = StreamLabel(t);
  s.set_stream_label(label);
  s.set_stream_arn(table.table_arn() + "/stream/" + label);
  s.set_table_name(table.table_name());
  s.set_table_id(table_id);
  s.set_view_type(view_type);
  *s.mutable_key_schema() = table.key_schema();
  s.set_created(now);
  auto* shard = s.add_shards();
  shard->set_shard_id(NewShardId(now));
  shard->set_created(now);
  shard->set_start(txn.LastStreamSequence(/*a stream not created yet*/ 0) + 1);
  POGI_ASSIGN_OR_RETURN(int64_t id, txn.CreateStream(s.SerializeAsString()));
  d->set_latest_stream_arn(s.stream_arn());
  d->set_latest_stream_label(s.stream_label());
  txn.OnCommit([this, id, s] {
    std::lock_guard lock(mu_);
    streams_[id] = s;
  });
  return id;
}

Status Streams::Disable(storage::WriteTxn& txn, int64_t stream_id) {
  POGI_ASSIGN_OR_RETURN(auto s, Read(txn, stream_id));
  if (s.disabled() != 0) return Status::Ok();
  double now = clock_.Now();
  s.set_disabled(now);
  // The open shard closes with the stream.
  auto& last = *s.mutable_shards()->rbegin();
  if (last.end() == 0) {
    POGI_ASSIGN_OR_RETURN(int64_t end, txn.IssueStreamSequence(stream_id));
    last.set_end(end);
  }
  return Store(txn, stream_id, s);
}

Status Streams::Roll(storage::WriteTxn& txn, int64_t stream_id, v1::StreamState* s, double now) {
  auto& open = *s->mutable_shards()->rbegin();
  // The end is a sequence number of its own, which no record carries: every
  // record committed after the roll-over has a higher one and lands in the
  // child.
  POGI_ASSIGN_OR_RETURN(int64_t end, txn.IssueStreamSequence(stream_id));
  open.set_end(end);
  std::string parent = open.shard_id();
  auto* child = s->add_shards();
  child->set_shard_id(NewShardId(now));
  child->set_parent_shard_id(parent);
  child->set_created(now);
  child->set_start(end + 1);
  return Status::Ok();
}

Result<std::pair<std::string, std::string>> Streams::CloseShard(storage::Storage& storage,
                                                                int64_t stream_id) {
  std::pair<std::string, std::string> ids;
  Status st = storage.Write([&](storage::WriteTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto s, Read(txn, stream_id));
    if (s.disabled() != 0) return Error::Validation("The stream is disabled");
    ids.first = s.shards(s.shards_size() - 1).shard_id();
    POGI_RETURN_IF_ERROR(Roll(txn, stream_id, &s, clock_.Now()));
    ids.second = s.shards(s.shards_size() - 1).shard_id();
    return Store(txn, stream_id, s);
  });
  POGI_RETURN_IF_ERROR(st);
  return ids;
}

Status Streams::Maintain(storage::Storage& storage) {
  double now = clock_.Now();
  double horizon = now - kStreamRetentionSeconds;
  for (const auto& entry : All()) {
    // Named, not bound: clang 14 cannot capture structured bindings.
    const int64_t id = entry.first;
    const v1::StreamState& cached = entry.second;
    bool roll = cached.disabled() == 0 && cached.shards_size() > 0 &&
                cached.shards(cached.shards_size() - 1).created() + shard_seconds_ <= now;
    bool forget = cached.disabled() != 0 && cached.disabled() <= horizon;
    bool trim = false;
    if (!roll && !forget) {
      // A write only when the oldest record has outlived its retention.
      Status rs = storage.Read([&](storage::ReadTxn& txn) -> Status {
        POGI_ASSIGN_OR_RETURN(auto oldest, txn.ReadStreamRecords(id, cached.trimmed_through(), INT64_MAX, 1));
        trim = !oldest.empty() && oldest[0].created < horizon;
        return Status::Ok();
      });
      POGI_RETURN_IF_ERROR(rs);
      if (!trim) continue;
    }
    Status st = storage.Write([&, id = id](storage::WriteTxn& txn) -> Status {
      if (forget) {
        POGI_RETURN_IF_ERROR(txn.DeleteStream(id));
        txn.OnCommit([this, id] {
          std::lock_guard lock(mu_);
          streams_.erase(id);
        });
        return Status::Ok();
      }
      POGI_ASSIGN_OR_RETURN(auto s, Read(txn, id));
      if (roll) POGI_RETURN_IF_ERROR(Roll(txn, id, &s, now));
      POGI_ASSIGN_OR_RETURN(int64_t through, txn.TrimStreamRecords(id, horizon));
      if (through > s.trimmed_through()) s.set_trimmed_through(through);
      // Closed shards whose records are all gone leave the description.
      while (s.shards_size() > 1 && s.shards(0).end() != 0 && s.shards(0).end() <= s.trimmed_through() &&
             s.shards(0).created() < horizon) {
        s.mutable_shards()->DeleteSubrange(0, 1);
      }
      return Store(txn, id, s);
    });
    POGI_RETURN_IF_ERROR(st);
  }
  return Status::Ok();
}

Result<int64_t> Streams::ShardEnd(storage::ReadTxn& txn, int64_t stream_id, const v1::ShardState& shard) {
  if (shard.end() != 0) return shard.end();
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(stream_id));
  v1::StreamState s;
  if (bytes && !s.ParseFromString(*bytes))
    return Error::Internal("stream " + std::to_string(stream_id) + " is corrupt");
  // From the newest: a shard cached open is the last or, after roll-overs since, near it.
  for (int i = s.shards_size() - 1; i >= 0; --i) {
    if (s.shards(i).shard_id() == shard.shard_id()) return s.shards(i).end();
  }
  // Forgotten since the cache was read (the stream dropped).
  return Error::ResourceNotFound("Requested resource not found: Shard does not exist");
}

Result<Streams::ShardRecords> Streams::ReadShard(storage::ReadTxn& txn, int64_t stream_id,
                                                 const v1::ShardState& shard, int64_t after, int limit) {
  ShardRecords out;
  POGI_ASSIGN_OR_RETURN(out.end, ShardEnd(txn, stream_id, shard));
  POGI_ASSIGN_OR_RETURN(out.rows,
                        txn.ReadStreamRecords(stream_id, after, out.end != 0 ? out.end : INT64_MAX, limit));
  return out;
}

std::optional<v1::StreamState> Streams::Get(int64_t stream_id) const {
  std::lock_guard lock(mu_);
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::pair<int64_t, v1::StreamState>> Streams::Find(const std::string& arn) const {
  std::lock_guard lock(mu_);
  for (const auto& [id, s] : streams_) {
    if (s.stream_arn() == arn) return std::make_pair(id, s);
  }
  return std::nullopt;
}

std::vector<std::pair<int64_t, v1::StreamState>> Streams::All() const {
  std::lock_guard lock(mu_);
  return {streams_.begin(), streams_.end()};
}

}  // namespace pogi::service
