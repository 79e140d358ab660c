// Global tables (2019.11.21): what the one write path does for a change of a
// replica. A local write is queued for the other replicas in the change's
// own transaction (a stream row used as a queue, as Kinesis destinations'
// are), so an acknowledged write reaches them even across kill -9; and each
// write's version is kept per item and replica, so that the replication
// (engine/engine_replication.cc) applies a replicated write only when it is
// newer than what the replica holds: last writer wins, as DynamoDB's MREC
// global tables resolve concurrent writes.
#pragma once

#include <optional>
#include <string>

#include "common/result.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// The version of an item's last write: pogi's clock time of the write and
// the region it was made in (which breaks a tie, so every replica picks the
// same winner).
struct ReplicaVersion {
  double time = 0;
  std::string region;
};

// Whether a write of version `a` wins over one of version `b`.
bool NewerVersion(const ReplicaVersion& a, const ReplicaVersion& b);

// The version of the last write of `key` in replica `table`, or nullopt
// (never written since the table became global, or backfilled).
Result<std::optional<ReplicaVersion>> ReadReplicaVersion(storage::ReadTxn& txn, const Table& table,
                                                         const storage::EncodedKey& key);
Status WriteReplicaVersion(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                           const ReplicaVersion& version);

// Whether `table` is a replica of a global table in multi-region strong
// consistency (MultiRegionConsistency STRONG): its writes reach the other
// replicas in their own transaction rather than through its queue.
inline bool IsStrongReplica(const Table& table) {
  return table.description.multi_region_consistency() == "STRONG";
}

// DynamoDB's refusal of a transaction (TransactWriteItems, TransactGetItems,
// and PartiQL's ExecuteTransaction through them) naming a table of
// multi-region strong consistency; OK for any other table.
Status CheckTransactionAllowed(const Table& table);
// The same for UpdateTimeToLive enabling Time to Live on such a table.
Status CheckTimeToLiveAllowed(const Table& table);

// Queues a local write of `table` (REQUIRES: table.replication_queue != 0)
// for the other replicas: `new_item_stored` is the new item's stored form
// (null: deleted). Records the write's version at pogi's clock now.
Status QueueReplication(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                        const std::string* new_item_stored);

}  // namespace pogi::service
