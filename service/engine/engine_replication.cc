// Global tables' replication. Multi-region eventual consistency: each
// replica's local writes wait in its queue (write/replication_queue.h) until
// the replication lag has passed, then reach every other replica through
// the one write path as replicated writes, in queue order (so one item's
// changes keep their order), last writer wins. Applying a change and
// removing it from its queue are one storage write: none is lost or applied
// twice, across kill -9 too.
#include <chrono>

#include "common/log.h"
#include "service/engine/engine.h"
#include "service/write/item_write.h"
#include "service/write/replication_queue.h"

namespace pogi::service {
namespace {

constexpr int kBatch = 200;  // changes applied in one storage write

double WallNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Whether the first change of `rows` is due at `wall_now` with `lag` seconds.
bool FirstDue(const std::vector<storage::StreamRecordRow>& rows, double lag, double wall_now) {
  if (rows.empty()) return false;
  v1::ReplicationQueuedChange c;
  if (!c.ParseFromString(rows.front().record)) return true;  // unreadable: dropped when handled
  return c.queued_wall() + lag <= wall_now;
}

void AppendHexKey(const storage::EncodedKey& key, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (unsigned char c : key.partition) {
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 15]);
  }
  out->push_back('.');
  for (unsigned char c : key.sort) {
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 15]);
  }
}

}  // namespace

Status Engine::ApplyReplicated(storage::WriteTxn& txn, const Table& source,
                               const v1::ReplicationQueuedChange& change, bool always) {
  const storage::EncodedKey key{change.partition(), change.sort()};
  const ReplicaVersion version{change.write_time(), change.origin_region()};
  std::optional<value::AttributeMap> new_item;
  std::string_view kept;  // a replica's item keeps the order of the one it copies
  if (change.has_new_item()) {
    POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(change.new_item()));
    new_item = std::move(*item.mutable_attributes());
    kept = std::string_view(change.new_item()).substr(1);
  }
  for (const auto& r : source.description.replicas()) {
    if (r.region_name() == source.region) continue;
    // A replica being deleted is gone already; one being created is a
    // table already (its backfill was in the write that made it).
    auto target = catalog_.FindIn(source.description.table_name(), r.region_name());
    if (!target || target->replication_queue == 0) continue;
    POGI_ASSIGN_OR_RETURN(auto current, ReadReplicaVersion(txn, *target, key));
    if (!always && current && !NewerVersion(version, *current)) continue;  // the replica holds a later write
    POGI_ASSIGN_OR_RETURN(auto old_bytes, txn.GetItem(target->id, key));
    std::optional<value::AttributeMap> old_item;
    if (old_bytes) {
      POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*old_bytes));
      old_item = std::move(*item.mutable_attributes());
    }
    ChangeForms forms;
    if (old_bytes) forms.old_item = *old_bytes;
    forms.new_item_origin = value::EntryOrigin::Kept(kept);
    POGI_RETURN_IF_ERROR(ApplyChange(txn, *target, key, old_item ? &*old_item : nullptr,
                                     new_item ? &*new_item : nullptr, nullptr, ChangeSource::kReplicated,
                                     forms));
    POGI_RETURN_IF_ERROR(WriteReplicaVersion(txn, *target, key, version));
  }
  return Status::Ok();
}

// Multi-region strong consistency. The write is applied to every replica in
// its own transaction, so a strongly consistent read in any region sees it
// once it is acknowledged. pogi's stand-in for the replication under way:
// for the replication lag after a write, the item is marked as being
// written from its region (a shared value, seen by every process on the
// database, in wall-clock time so that a frozen pogi clock does not hold
// it), and a write of it from another region meanwhile is refused as
// DynamoDB refuses concurrent writes of one item from two regions. The
// acknowledgement itself does not wait: the HTTP threads never block.
Status Engine::ReplicateStrong(storage::WriteTxn& txn, const Table& source, const storage::EncodedKey& key,
                               const std::string* new_item_stored) {
  const int64_t lag_us = replication_.lag_ms() * 1000;
  const int64_t wall_us = static_cast<int64_t>(WallNow() * 1e6);
  std::string mark = "mrsc-writing:" + source.description.table_name() + ":";
  AppendHexKey(key, &mark);
  if (lag_us > 0) {
    POGI_ASSIGN_OR_RETURN(auto writer, txn.GetSharedValue(mark, wall_us));
    if (writer && *writer != source.region) {
      return Error(
          ErrorCode::kReplicatedWriteConflict,
          "The request was rejected because one or more items in the request are being modified by a "
          "request in another Region.");
    }
  }
  v1::ReplicationQueuedChange change;
  change.set_partition(key.partition);
  change.set_sort(key.sort);
  if (new_item_stored) change.set_new_item(*new_item_stored);
  change.set_write_time(clock_->Now());
  change.set_origin_region(source.region);
  POGI_RETURN_IF_ERROR(WriteReplicaVersion(txn, source, key, {change.write_time(), source.region}));
  POGI_RETURN_IF_ERROR(ApplyReplicated(txn, source, change, /*always=*/true));
  if (lag_us > 0) POGI_RETURN_IF_ERROR(txn.PutSharedValue(mark, source.region, wall_us + lag_us));
  return Status::Ok();
}

Result<bool> Engine::ReplicateDue(bool* any_global) {
  auto lock = LockState();
  std::vector<std::shared_ptr<const Table>> sources;
  for (auto& t : catalog_.All()) {
    if (t->replication_queue != 0) sources.push_back(std::move(t));
  }
  if (any_global) *any_global = !sources.empty();
  if (sources.empty() || replication_.frozen()) return false;
  const double lag = replication_.lag_ms() / 1000.0;
  bool more = false;
  for (const auto& seen : sources) {
    const int64_t queue = seen->replication_queue;
    // A look first, in a read: most rounds find nothing due, and take no
    // write lock.
    std::vector<storage::StreamRecordRow> first;
    POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(queue));
      first.clear();
      v1::StreamState state;
      if (!bytes || !state.ParseFromString(*bytes)) return Status::Ok();
      POGI_ASSIGN_OR_RETURN(first, txn.ReadStreamRecords(queue, state.trimmed_through(), INT64_MAX, 1));
      return Status::Ok();
    }));
    if (!FirstDue(first, lag, WallNow())) continue;
    POGI_RETURN_IF_ERROR(storage_->Write([&](storage::WriteTxn& txn) -> Status {
      auto source = catalog_.FindCurrent(*seen);
      if (!source || source->id != seen->id || source->replication_queue != queue) return Status::Ok();
      POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(queue));
      v1::StreamState state;
      if (!bytes || !state.ParseFromString(*bytes)) return Status::Ok();
      POGI_ASSIGN_OR_RETURN(auto rows,
                            txn.ReadStreamRecords(queue, state.trimmed_through(), INT64_MAX, kBatch));
      const double wall_now = WallNow();
      int64_t through = 0;
      for (const auto& row : rows) {
        v1::ReplicationQueuedChange change;
        if (!change.ParseFromString(row.record)) {
          log::Warn("unreadable replication queue record; skipped",
                    {{"table", source->description.table_name()}});
        } else {
          if (change.queued_wall() + lag > wall_now) break;
          POGI_RETURN_IF_ERROR(ApplyReplicated(txn, *source, change));
        }
        through = row.sequence;
      }
      more |= static_cast<int>(rows.size()) == kBatch && !rows.empty() && through == rows.back().sequence;
      if (through == 0) return Status::Ok();
      state.set_trimmed_through(through);
      POGI_RETURN_IF_ERROR(txn.DeleteStreamRecordsThrough(queue, through));
      return txn.UpdateStream(queue, state.SerializeAsString());
    }));
  }
  return more;
}

Result<int64_t> Engine::ReplicationBacklog() {
  auto lock = LockState();
  int64_t queued = 0;
  for (const auto& t : catalog_.All()) {
    if (t->replication_queue == 0) continue;
    const int64_t queue = t->replication_queue;
    POGI_RETURN_IF_ERROR(storage_->Read([&](storage::ReadTxn& txn) -> Status {
      POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetStream(queue));
      v1::StreamState state;
      if (!bytes || !state.ParseFromString(*bytes)) return Status::Ok();
      // Counted a page at a time: a frozen queue may hold many.
      int64_t after = state.trimmed_through();
      for (;;) {
        POGI_ASSIGN_OR_RETURN(auto rows, txn.ReadStreamRecords(queue, after, INT64_MAX, 1000));
        queued += static_cast<int64_t>(rows.size());
        if (rows.size() < 1000) break;
        after = rows.back().sequence;
      }
      return Status::Ok();
    }));
  }
  return queued;
}

Status Engine::LeaveReplicationGroup(storage::WriteTxn& txn, const Table& table) {
  if (table.replication_queue != 0) POGI_RETURN_IF_ERROR(txn.DeleteStream(table.replication_queue));
  const std::string& name = table.description.table_name();
  std::vector<std::shared_ptr<const Table>> others;
  for (const auto& r : table.description.replicas()) {
    if (r.region_name() == table.region) continue;
    if (auto other = catalog_.FindIn(name, r.region_name())) others.push_back(std::move(other));
  }
  for (const auto& other : others) {
    v1::TableDescription d = other->description;
    auto* replicas = d.mutable_replicas();
    for (int i = 0; i < replicas->size(); ++i) {
      if ((*replicas)[i].region_name() == table.region) {
        replicas->DeleteSubrange(i, 1);
        break;
      }
    }
    auto* pending = d.mutable_pogi_transitions();
    for (int i = pending->size() - 1; i >= 0; --i) {
      if ((*pending)[i].subject() == ReplicaSubject(table.region)) pending->DeleteSubrange(i, 1);
    }
    // Alone now: a regional table again, its stream still enabled (as
    // DynamoDB leaves it); changes it queued have nowhere to go.
    if (replicas->size() <= 1) {
      d.clear_replicas();
      d.clear_global_table_version();
      d.clear_multi_region_consistency();
      d.clear_global_table_witnesses();
      if (d.pogi_replication_queue() != 0) POGI_RETURN_IF_ERROR(txn.DeleteStream(d.pogi_replication_queue()));
      d.clear_pogi_replication_queue();
    }
    ApplyTransitionStatuses(d);
    POGI_RETURN_IF_ERROR(txn.UpdateTableDescription(other->id, d.SerializeAsString()));
    catalog_.Put(catalog_.Make(other->id, std::move(d), other->IndexIds()));
  }
  return Status::Ok();
}

}  // namespace pogi::service
