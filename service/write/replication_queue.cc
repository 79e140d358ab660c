// Global tables: queueing a replica's changes, and item versions.
#include "service/write/replication_queue.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "pogi/v1/streams.pb.h"

namespace pogi::service {
namespace {

void AppendHex(std::string_view bytes, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (unsigned char c : bytes) {
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 15]);
  }
}

// Kept under the table's own id (its TableId, never used again, unlike the
// storage id) and the item's key: "replica-version:ID:PARTITION.SORT", in hex.
std::string VersionKey(const Table& table, const storage::EncodedKey& key) {
  std::string k = "replica-version:" + table.description.table_id() + ":";
  AppendHex(key.partition, &k);
  k.push_back('.');
  AppendHex(key.sort, &k);
  return k;
}

}  // namespace

bool NewerVersion(const ReplicaVersion& a, const ReplicaVersion& b) {
  if (a.time != b.time) return a.time > b.time;
  return a.region > b.region;
}

Result<std::optional<ReplicaVersion>> ReadReplicaVersion(storage::ReadTxn& txn, const Table& table,
                                                         const storage::EncodedKey& key) {
  POGI_ASSIGN_OR_RETURN(auto value, txn.GetSharedValue(VersionKey(table, key), 0));
  if (!value) return std::optional<ReplicaVersion>();
  // "TIME REGION", the time with every digit a double needs.
  size_t space = value->find(' ');
  if (space == std::string::npos) return std::optional<ReplicaVersion>();
  ReplicaVersion v;
  v.time = std::strtod(value->c_str(), nullptr);
  v.region = value->substr(space + 1);
  return std::optional<ReplicaVersion>(std::move(v));
}

Status WriteReplicaVersion(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                           const ReplicaVersion& version) {
  char time[40];
  std::snprintf(time, sizeof time, "%.17g", version.time);
  return txn.PutSharedValue(VersionKey(table, key), std::string(time) + " " + version.region, 0);
}

// TODO(fidelity): no record of DynamoDB's texts for these two refusals;
// pogi's own.
Status CheckTransactionAllowed(const Table& table) {
  if (!IsStrongReplica(table)) return Status::Ok();
  return Error::Validation("Transactions are not supported for the global table " +
                           table.description.table_name() + " with MultiRegionConsistency STRONG");
}

Status CheckTimeToLiveAllowed(const Table& table) {
  if (!IsStrongReplica(table)) return Status::Ok();
  return Error::Validation("Time to Live is not supported for the global table " +
                           table.description.table_name() + " with MultiRegionConsistency STRONG");
}

Status QueueReplication(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                        const std::string* new_item_stored) {
  const double now = table.clock ? table.clock->Now() : 0;
  v1::ReplicationQueuedChange change;
  change.set_partition(key.partition);
  change.set_sort(key.sort);
  if (new_item_stored) change.set_new_item(*new_item_stored);
  change.set_write_time(now);
  change.set_origin_region(table.region);
  change.set_queued_wall(
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  POGI_RETURN_IF_ERROR(txn.AppendStreamRecord(table.replication_queue, now, change.SerializeAsString()));
  return WriteReplicaVersion(txn, table, key, {now, table.region});
}

}  // namespace pogi::service
