// Engine: DynamoDB's operations over storage. It validates each request,
// runs it atomically, and returns a proto response or a pogi::Error. It knows
// nothing of HTTP, JSON or gRPC; both front doors call it. Thread-safe.
//
// Each operation lives in its own file under service/actions/.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>

#include "common/result.h"
#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"
#include "pogi/v1/streams.pb.h"
#include "service/backup/restore.h"
#include "service/controls/faults.h"
#include "service/controls/metrics.h"
#include "service/controls/request_observers.h"
#include "service/controls/throttle.h"
#include "service/core/catalog.h"
#include "service/core/clock.h"
#include "service/core/read_lag.h"
#include "service/core/replication_control.h"
#include "service/core/transitions.h"
#include "service/streams/streams.h"
#include "service/value/item.h"
#include "service/vector/partition_cache.h"
#include "service/write/change_capture.h"
#include "service/write/change_feed.h"
#include "service/write/transaction_tokens.h"
#include "storage/storage.h"

namespace pogi::service {

class PartiqlRunner;  // service/partiql/runner.h

// An item with its encoded key (an import's, loaded by LoadImportedItems).
struct KeyedItem {
  storage::EncodedKey key;
  value::AttributeMap item;
};

struct TableStats {
  std::string name;
  std::string status;
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

class Engine {
 public:
  // Opens storage and loads the catalog.
  // `item_collection_limit` is DynamoDB's 10 GB unless a test lowers it.
  // The clock's state kept in the database (a restart's, or that of the
  // other processes sharing it) is adopted, unless `clock_set` (pogi start
  // --clock): then the clock as given replaces it.
  static Result<std::unique_ptr<Engine>> Open(const storage::Options& options,
                                              std::shared_ptr<const Clock> clock,
                                              int64_t item_collection_limit = kMaxItemCollectionBytes,
                                              bool clock_set = false);

  Result<v1::CreateTableResponse> CreateTable(const v1::CreateTableRequest& req);
  Result<v1::DescribeTableResponse> DescribeTable(const v1::DescribeTableRequest& req);
  Result<v1::DeleteTableResponse> DeleteTable(const v1::DeleteTableRequest& req);
  Result<v1::ListTablesResponse> ListTables(const v1::ListTablesRequest& req);
  Result<v1::PutItemResponse> PutItem(const v1::PutItemRequest& req);
  Result<v1::GetItemResponse> GetItem(const v1::GetItemRequest& req);
  Result<v1::DeleteItemResponse> DeleteItem(const v1::DeleteItemRequest& req);
  Result<v1::UpdateItemResponse> UpdateItem(const v1::UpdateItemRequest& req);
  Result<v1::QueryResponse> Query(const v1::QueryRequest& req);
  Result<v1::ScanResponse> Scan(const v1::ScanRequest& req);
  Result<v1::UpdateTableResponse> UpdateTable(const v1::UpdateTableRequest& req);
  Result<v1::BatchGetItemResponse> BatchGetItem(const v1::BatchGetItemRequest& req);
  Result<v1::BatchWriteItemResponse> BatchWriteItem(const v1::BatchWriteItemRequest& req);
  Result<v1::TransactWriteItemsResponse> TransactWriteItems(const v1::TransactWriteItemsRequest& req);
  Result<v1::TransactGetItemsResponse> TransactGetItems(const v1::TransactGetItemsRequest& req);
  Result<v1::UpdateTimeToLiveResponse> UpdateTimeToLive(const v1::UpdateTimeToLiveRequest& req);
  Result<v1::DescribeTimeToLiveResponse> DescribeTimeToLive(const v1::DescribeTimeToLiveRequest& req);
  // DynamoDB Streams.
  Result<v1::ListStreamsResponse> ListStreams(const v1::ListStreamsRequest& req);
  Result<v1::DescribeStreamResponse> DescribeStream(const v1::DescribeStreamRequest& req);
  Result<v1::GetShardIteratorResponse> GetShardIterator(const v1::GetShardIteratorRequest& req);
  Result<v1::GetRecordsResponse> GetRecords(const v1::GetRecordsRequest& req);
  // The control plane (service/actions/, one file per operation or family).
  Result<v1::TagResourceResponse> TagResource(const v1::TagResourceRequest& req);
  Result<v1::UntagResourceResponse> UntagResource(const v1::UntagResourceRequest& req);
  Result<v1::ListTagsOfResourceResponse> ListTagsOfResource(const v1::ListTagsOfResourceRequest& req);
  Result<v1::DescribeLimitsResponse> DescribeLimits(const v1::DescribeLimitsRequest& req);
  Result<v1::DescribeEndpointsResponse> DescribeEndpoints(const v1::DescribeEndpointsRequest& req);
  Result<v1::PutResourcePolicyResponse> PutResourcePolicy(const v1::PutResourcePolicyRequest& req);
  Result<v1::GetResourcePolicyResponse> GetResourcePolicy(const v1::GetResourcePolicyRequest& req);
  Result<v1::DeleteResourcePolicyResponse> DeleteResourcePolicy(const v1::DeleteResourcePolicyRequest& req);
  Result<v1::DescribeContributorInsightsResponse> DescribeContributorInsights(
      const v1::DescribeContributorInsightsRequest& req);
  Result<v1::UpdateContributorInsightsResponse> UpdateContributorInsights(
      const v1::UpdateContributorInsightsRequest& req);
  Result<v1::ListContributorInsightsResponse> ListContributorInsights(
      const v1::ListContributorInsightsRequest& req);
  Result<v1::CreateBackupResponse> CreateBackup(const v1::CreateBackupRequest& req);
  Result<v1::DescribeBackupResponse> DescribeBackup(const v1::DescribeBackupRequest& req);
  Result<v1::ListBackupsResponse> ListBackups(const v1::ListBackupsRequest& req);
  Result<v1::DeleteBackupResponse> DeleteBackup(const v1::DeleteBackupRequest& req);
  Result<v1::RestoreTableFromBackupResponse> RestoreTableFromBackup(
      const v1::RestoreTableFromBackupRequest& req);
  Result<v1::UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const v1::UpdateContinuousBackupsRequest& req);
  Result<v1::DescribeContinuousBackupsResponse> DescribeContinuousBackups(
      const v1::DescribeContinuousBackupsRequest& req);
  Result<v1::RestoreTableToPointInTimeResponse> RestoreTableToPointInTime(
      const v1::RestoreTableToPointInTimeRequest& req);
  Result<v1::ExecuteStatementResponse> ExecuteStatement(const v1::ExecuteStatementRequest& req);
  Result<v1::BatchExecuteStatementResponse> BatchExecuteStatement(
      const v1::BatchExecuteStatementRequest& req);
  Result<v1::ExecuteTransactionResponse> ExecuteTransaction(const v1::ExecuteTransactionRequest& req);
  // Exports to S3 (service/actions/exports.cc); the files are written in the
  // background by jobs/ (the job runner).
  Result<v1::ExportTableToPointInTimeResponse> ExportTableToPointInTime(
      const v1::ExportTableToPointInTimeRequest& req);
  Result<v1::DescribeExportResponse> DescribeExport(const v1::DescribeExportRequest& req);
  Result<v1::ListExportsResponse> ListExports(const v1::ListExportsRequest& req);
  // Imports from S3 (service/actions/imports.cc): the action creates the
  // table, CREATING, and records the import; jobs/ reads the objects and
  // loads the items in the background through the methods below.
  Result<v1::ImportTableResponse> ImportTable(const v1::ImportTableRequest& req);
  Result<v1::DescribeImportResponse> DescribeImport(const v1::DescribeImportRequest& req);
  Result<v1::ListImportsResponse> ListImports(const v1::ListImportsRequest& req);
  // Bulk puts from S3 into an existing table (service/actions/bulk_operations.cc):
  // the action records the operation; jobs/ puts the items in the
  // background, each through PutItem.
  Result<v1::StartBulkPutItemsResponse> StartBulkPutItems(const v1::StartBulkPutItemsRequest& req);
  Result<v1::DescribeBulkOperationResponse> DescribeBulkOperation(
      const v1::DescribeBulkOperationRequest& req);
  Result<v1::ListBulkOperationsResponse> ListBulkOperations(const v1::ListBulkOperationsRequest& req);
  Result<v1::CancelBulkOperationResponse> CancelBulkOperation(const v1::CancelBulkOperationRequest& req);

  // Jobs: exports, imports and bulk operations, kept in storage
  // (engine_jobs.cc). The actions start them; the job runner (jobs/) runs
  // them in the background and records their progress here.
  // Every job of `kind` ("export", "import", "bulk"), oldest first.
  Result<std::vector<v1::StoredJob>> ListJobs(std::string_view kind);
  // The job `arn`, or nullopt.
  Result<std::optional<v1::StoredJob>> GetJob(const std::string& arn);
  // The job an earlier request under a ClientToken started (`token_key`:
  // the token's shared value, "" for none), when that request had the same
  // `fingerprint`; `mismatch` when it had other parameters; nullopt when
  // the token is new or expired.
  Result<std::optional<v1::StoredJob>> JobOfClientToken(const std::string& token_key,
                                                        const std::string& fingerprint, double now,
                                                        const Error& mismatch);
  // Stores `job` (a new one, or its progress) under `arn`.
  Status SaveJob(const std::string& arn, std::string_view kind, double created, const v1::StoredJob& job);
  // Changes the stored job `arn` with `change` in one storage write that
  // starts from what is stored (a cancel asked for meanwhile is kept).
  Status UpdateJob(const std::string& arn, const std::function<Status(v1::StoredJob&)>& change);
  // Whether this process runs job `arn` now (the lease of several
  // processes sharing a database; renewed while held).
  Result<bool> HoldJobLease(const std::string& arn) {
    return storage_->HoldLease("job/" + arn, kJobLeaseSeconds);
  }
  static constexpr double kJobLeaseSeconds = 10;
  // Called after a job is started, so that the runner picks it up at once.
  void set_job_started(std::function<void()> fn) { job_started_ = std::move(fn); }
  // Asks the import or bulk operation `arn` to stop (admin CancelJob;
  // CancelBulkOperation): its stored state with cancel_requested set and
  // the status CANCELLING; the runner ends it CANCELLED. Fails for an
  // export or a job no longer in progress.
  Result<v1::StoredJob> RequestJobCancel(const std::string& arn);

  // The table of an import, for the job runner (engine_imports.cc). It is
  // CREATING (it serves no item) from ImportTable until EndImportLoad.
  // Empties it, for a run from the start (a restart runs an import again):
  // the table, made again as ImportTable described it; its storage id goes
  // in job.table_id. Fails when the table is gone (deleted by a reset).
  Result<std::shared_ptr<const Table>> StartImportLoad(v1::StoredJob& job);
  // Writes `items` (validated, with their keys) into the import's table in
  // one storage write, through the write path: counters and every index
  // exact, no stream record (an imported table has no stream), as a later
  // item of the same key replaces an earlier one.
  Status LoadImportedItems(const Table& table, const std::vector<KeyedItem>& items);
  // Ends the import's CREATING: the table ACTIVE with what was loaded, or
  // (`keep` false: a failed or cancelled import) dropped.
  Status EndImportLoad(const Table& table, bool keep);
  // Vector search (actions/search_vectors.cc).
  Result<v1::SearchVectorsResponse> SearchVectors(const v1::SearchVectorsRequest& req);

  // Kinesis streaming destinations (actions/kinesis_destinations.cc). While
  // one is live, the write path queues every change of its table; the
  // delivery job (jobs/kinesis_delivery) checks each newly enabled stream
  // and sends the queue through the methods below (engine_kinesis.cc).
  Result<v1::EnableKinesisStreamingDestinationResponse> EnableKinesisStreamingDestination(
      const v1::EnableKinesisStreamingDestinationRequest& req);
  Result<v1::DisableKinesisStreamingDestinationResponse> DisableKinesisStreamingDestination(
      const v1::DisableKinesisStreamingDestinationRequest& req);
  Result<v1::DescribeKinesisStreamingDestinationResponse> DescribeKinesisStreamingDestination(
      const v1::DescribeKinesisStreamingDestinationRequest& req);
  Result<v1::UpdateKinesisStreamingDestinationResponse> UpdateKinesisStreamingDestination(
      const v1::UpdateKinesisStreamingDestinationRequest& req);
  // Global tables version 2017.11.29, the legacy API (actions/global_tables_legacy.cc,
  // actions/global_table_settings.cc): a group of same-named tables, one per
  // region, replicated by the 2019.11.21 machinery.
  Result<v1::CreateGlobalTableResponse> CreateGlobalTable(const v1::CreateGlobalTableRequest& req);
  Result<v1::UpdateGlobalTableResponse> UpdateGlobalTable(const v1::UpdateGlobalTableRequest& req);
  Result<v1::DescribeGlobalTableResponse> DescribeGlobalTable(const v1::DescribeGlobalTableRequest& req);
  Result<v1::ListGlobalTablesResponse> ListGlobalTables(const v1::ListGlobalTablesRequest& req);
  Result<v1::DescribeGlobalTableSettingsResponse> DescribeGlobalTableSettings(
      const v1::DescribeGlobalTableSettingsRequest& req);
  Result<v1::UpdateGlobalTableSettingsResponse> UpdateGlobalTableSettings(
      const v1::UpdateGlobalTableSettingsRequest& req);
  // Whether a Kinesis endpoint is configured (pogi start --kinesis-endpoint).
  // Without one, an enabled destination is refused at once (ENABLE_FAILED
  // once its ENABLING ends), as DynamoDB's is for a stream it cannot use.
  void set_kinesis_configured(bool on) { kinesis_configured_ = on; }
  // Called after a destination is enabled, so that the delivery job checks
  // its stream at once. Set once, before requests are served.
  void set_kinesis_wake(std::function<void()> fn) { kinesis_wake_ = std::move(fn); }
  // Every table with a Kinesis queue or a destination whose stream is not
  // checked yet.
  std::vector<std::shared_ptr<const Table>> KinesisTables();
  // Records the check of the stream of `seen`'s ENABLING destination
  // `stream_arn`: found, or refused with `description`. Nothing when the
  // destination is no longer waiting for it.
  Status RecordKinesisVerdict(const Table& seen, const std::string& stream_arn, bool found,
                              const std::string& description);
  // The state of queue `queue` (a stream row; trimmed_through: delivered
  // so far) and up to `limit` of its records after that, oldest first.
  Status ReadKinesisQueue(int64_t queue, int limit, v1::StreamState* state,
                          std::vector<storage::StreamRecordRow>* records);
  // The records of `queue` through `through` were delivered (`skipped` of
  // them skipped, over Kinesis' record size limit): they leave storage.
  Status AckKinesisQueue(int64_t queue, int64_t through, int64_t skipped);
  // Whether this process delivers (of several sharing a database, one does).
  Result<bool> HoldKinesisLease() { return storage_->HoldLease("kinesis-delivery", kKinesisLeaseSeconds); }
  static constexpr double kKinesisLeaseSeconds = 10;

  // Global tables' replication (engine_replication.cc): the job
  // (jobs/replication_delivery) calls ReplicateDue every few milliseconds;
  // it applies each queued change whose lag has passed to the other
  // replicas, through the one write path as a replicated write, and removes
  // it from its queue in the same storage write. Whether more may be due
  // now (a queue had more than one round takes). `*any_global`, when
  // given, says whether any table is a global table's replica.
  Result<bool> ReplicateDue(bool* any_global = nullptr);
  // The lag and freeze of replication (Admin SetReplication).
  ReplicationControl& replication() { return replication_; }
  // How many changes wait in replication queues.
  Result<int64_t> ReplicationBacklog();
  // Replica auto scaling settings (actions/replica_auto_scaling.cc): kept
  // and described, never acted on (pogi does not change capacity).
  Result<v1::DescribeTableReplicaAutoScalingResponse> DescribeTableReplicaAutoScaling(
      const v1::DescribeTableReplicaAutoScalingRequest& req);
  Result<v1::UpdateTableReplicaAutoScalingResponse> UpdateTableReplicaAutoScaling(
      const v1::UpdateTableReplicaAutoScalingRequest& req);
  // Whether this process replicates (of several sharing a database, one does).
  Result<bool> HoldReplicationLease() { return storage_->HoldLease("replication", kReplicationLeaseSeconds); }
  static constexpr double kReplicationLeaseSeconds = 3;

  // For the admin service: every table with its live counters.
  Result<std::vector<TableStats>> Stats();

  const Clock& clock() const { return *clock_; }
  // The clock the admin API sets, advances and freezes; null when the
  // engine was opened on another clock.
  ControllableClock* controllable_clock() const { return controllable_clock_; }
  // Changes the controllable clock with `change` and keeps the result in the
  // database, in one write that starts from the state stored there (another
  // process may have moved it); every other process sharing the database
  // adopts it at its next request (engine_clock.cc).
  Status ChangeClock(const std::function<Status(ControllableClock&)>& change);

  // The background work due at the clock's now (engine_maintenance.cc): TTL
  // deletions, shard roll-overs, stream retention. Serialized. `leased`
  // (the timer's runs): only while this process holds the maintenance
  // lease, so that of several processes sharing a database one does it.
  Status RunMaintenance(bool leased = false);
  // How long the maintenance lease lasts without renewal: a process that
  // died hands the work on within it. The timer renews it every interval.
  static constexpr double kMaintenanceLeaseSeconds = 3;
  // Closes the open shard of `table`'s stream now (admin); the closed
  // shard's id and its child's.
  Result<std::pair<std::string, std::string>> CloseStreamShard(const std::string& table);
  // Clock time after which a stream's open shard rolls over.
  void set_stream_shard_seconds(double seconds) { streams_.set_shard_seconds(seconds); }
  // The live change feed (Admin WatchChanges).
  ChangeFeed& change_feed() { return feed_; }

  // How long transient states last (core/transitions.h): all zero unless
  // `pogi start --transient-delay` or -delayTransientStatuses said so.
  void set_transient_delays(const TransientDelays& delays) { delays_ = delays; }
  const TransientDelays& transient_delays() const { return delays_; }
  // Ends every transient state due at the clock's now, in storage, so that
  // what follows sees them ended (engine_transitions.cc). Every operation
  // calls it first, holding LockState(); with none under way it is one
  // atomic load.
  Status SettleTransitions() {
    if (catalog_.next_transition_end() == kNoTransition) return Status::Ok();
    return SettleDueTransitions();
  }

  // Admin (engine_admin.cc). Reset drops every table (`names` empty) or the
  // named ones at once; returns the names dropped.
  Result<std::vector<std::string>> Reset(const std::vector<std::string>& names);
  // Snapshots of the whole database; a restore reloads the catalog.
  Status CreateSnapshot(const std::string& name);
  Status RestoreSnapshot(const std::string& name);
  Result<std::vector<storage::SnapshotRecord>> ListSnapshots();
  Status DeleteSnapshot(const std::string& name);
  // Every operation of the operation table runs holding this shared; a
  // restore holds it exclusively, so a request sees the old state or the
  // new one, never a mix.
  std::shared_lock<std::shared_mutex> LockState() { return std::shared_lock(state_mu_); }
  // Reloads the catalog when another process sharing the database has
  // changed it since the last look (storage's ForeignCatalogChanges): each
  // operation calls it first, so a table made elsewhere is seen at once.
  // Takes the state exclusively to reload, as a snapshot restore does.
  Status FollowCatalog();
  // FollowCatalog without its look when `look` is false: only the changes
  // storage has noticed already (storage::CatalogCheck), at no round trip.
  Status Follow(bool look);
  // How many other processes' catalog changes the catalog follows: it
  // moves when another one is followed (by any thread).
  int64_t followed_catalog_changes() const { return foreign_catalog_changes_.load(); }
  // Reads for export: `fn` runs in one storage read transaction.
  Status ReadStorage(const std::function<Status(storage::ReadTxn&)>& fn) { return storage_->Read(fn); }
  // The table named `name`, or null.
  std::shared_ptr<const Table> FindTableOrNull(const std::string& name) const { return catalog_.Find(name); }

  // Both front doors publish each answered request here (request log,
  // metrics, the admin request tail).
  RequestObservers& request_observers() { return request_observers_; }

  // What SearchVectors scans, in memory (pogi start --vector-cache).
  VectorCache& vector_cache() { return vector_cache_; }
  static constexpr size_t kDefaultVectorCacheBytes = size_t{1} << 30;

  // The lag of eventually consistent reads (Admin SetReadLag).
  ReadLag& read_lag() { return read_lag_; }

  // Capacity that throttles (Admin SetThrottle); the operation table asks
  // it before and after each item operation while throttle().active().
  Throttle& throttle() { return throttle_; }

  // Fault rules; both doors check them before running an operation
  // (CheckFaults, only when faults().active()).
  Faults& faults() { return faults_; }
  std::optional<FaultAction> CheckFaults(std::string_view door, std::string_view operation,
                                         const google::protobuf::Message& request) {
    return faults_.Check(catalog_, door, operation, request);
  }
  // Per-operation metrics, collected from the first time this is called (pogi
  // start calls it at once).
  Metrics& metrics() {
    metrics_.Start(request_observers_, clock_->Now());
    return metrics_;
  }

 private:
  friend class PartiqlRunner;  // PartiQL reads run on storage_ directly

  Engine(std::unique_ptr<storage::Storage> storage, std::shared_ptr<const Clock> clock,
         int64_t item_collection_limit)
      : storage_(std::move(storage)),
        clock_(std::move(clock)),
        controllable_clock_(dynamic_cast<ControllableClock*>(const_cast<Clock*>(clock_.get()))),
        catalog_(item_collection_limit, clock_.get()),
        streams_(*clock_) {
    capture_.clock = clock_.get();
    capture_.feed = &feed_;
    capture_.replicate_now = [this](storage::WriteTxn& txn, const Table& table,
                                    const storage::EncodedKey& key, const std::string* new_item_stored) {
      return ReplicateStrong(txn, table, key, new_item_stored);
    };
    catalog_.set_capture(&capture_);
    catalog_.set_read_lag(&read_lag_);
  }

  // TTL: deletes the expired items of every table with TTL enabled.
  Status SweepExpiredItems();

  // Loads the catalog from storage, replacing what it held, and adopts the
  // stored clock.
  Status LoadCatalog();
  // Adopts the clock state kept in the database, when one is.
  Status LoadClock();
  // Keeps the clock's state in the database, as a catalog change.
  Status StoreClock(storage::WriteTxn& txn);
  // The table named `name` for a request on its items, or DynamoDB's
  // ResourceNotFoundException (also while it is being created or deleted).
  Result<std::shared_ptr<const Table>> FindTable(const std::string& name) const;
  // The table named `name` whatever its state, or the same exception.
  Result<std::shared_ptr<const Table>> FindTableInAnyState(const std::string& name) const;
  // The full description of `table`, live counters included.
  Result<v1::TableDescription> Describe(const Table& table);

  // Table-level writes and lookups (engine_tables.cc, engine_restore.cc).
  // Inside a write: creates the catalog rows and indexes of a new table
  // described by `d` (from NewTableDescription) with `settings`, and puts it
  // in the catalog. The caller removes it from the catalog if the write fails.
  Result<std::shared_ptr<const Table>> CreateTableInTxn(storage::WriteTxn& txn, const v1::TableDescription& d,
                                                        const v1::TableSettings& settings);
  // Creates `target` like `source` (a stored description) but for the
  // overrides, filled with the items `items` visits, in one write; answers
  // its description as a restore's answer shows it.
  Result<v1::TableDescription> RestoreTable(const v1::TableDescription& source, const std::string& target,
                                            const v1::CreateTableRequest& overrides,
                                            const v1::RestoreSummary& summary, const RestoreSource& items);
  // Forgets the SYSTEM backups (with the history they keep) whose retention
  // has passed by the clock; every backup operation calls it first, so no
  // request sees an expired backup.
  Status DropExpiredBackups();
  // Inside a write: drops `table` with what goes with it (the SYSTEM backup
  // of a table with point-in-time recovery, its stream disabled), as of
  // clock time `now`, and removes it from the catalog.
  Status DropTableInTxn(storage::WriteTxn& txn, const Table& table, double now);
  // Transient states (engine_transitions.cc): ends those due, and does what
  // the end of `t` needs beyond the description; true when `table` is gone.
  Status SettleDueTransitions();
  Result<bool> FinishTransition(storage::WriteTxn& txn, const Table& table, const v1::PogiTransition& t);
  // Changes the settings of `table` in one write (`change` may refuse).
  Status ChangeSettings(const Table& table, const std::function<Status(v1::TableSettings&)>& change);
  // The table of a Kinesis destination request, and a change of its
  // destinations (settled to the clock first) in one write that also
  // makes the table's queue when `want_queue` (actions/kinesis_destinations.cc).
  Result<std::shared_ptr<const Table>> KinesisTable(const std::string& name);
  Status ChangeKinesisDestinations(const Table& seen,
                                   const std::function<Status(const Table&, v1::TableSettings&)>& change,
                                   bool want_queue = false);
  // Global tables: UpdateTable's ReplicaUpdates (actions/table_replicas.cc).
  Result<v1::UpdateTableResponse> UpdateReplicas(const v1::UpdateTableRequest& req);
  // Legacy global tables (actions/global_tables_legacy.cc), inside a write:
  // the member of `region` made from `source`, the table that region sees
  // in the default region mode (core/legacy_global_table.h): its schema,
  // indexes and settings, empty, with a NEW_AND_OLD_IMAGES stream.
  Result<std::shared_ptr<const Table>> MakeLegacyMember(storage::WriteTxn& txn, const Table& source,
                                                        const std::string& region, double now);
  // Inside a write: applies queued change `change` of replica `source` to
  // every other replica, unless what a replica holds is newer.
  // `always`: applied whatever the replicas hold (multi-region strong
  // consistency, where every replica holds the same before the write).
  Status ApplyReplicated(storage::WriteTxn& txn, const Table& source,
                         const v1::ReplicationQueuedChange& change, bool always = false);
  // Inside a write: a local write of replica `source` of a STRONG global
  // table (multi-region strong consistency) reaches every other replica in
  // the same transaction. While the replication lag has not passed since a
  // write of the same item from another region, it is refused with
  // ReplicatedWriteConflictException (the mark is kept in storage, so every
  // process sharing a database sees it).
  Status ReplicateStrong(storage::WriteTxn& txn, const Table& source, const storage::EncodedKey& key,
                         const std::string* new_item_stored);
  // Inside a write, as replica `table` is dropped: it leaves its group (the
  // other replicas' Replicas lists), its queue goes, and a replica left
  // alone becomes a regional table again.
  Status LeaveReplicationGroup(storage::WriteTxn& txn, const Table& table);
  // The table a tagging or policy ARN names (after CheckArnForm), with
  // DynamoDB's answers for an ARN that is not a table's and a missing table.
  Result<std::shared_ptr<const Table>> TableOfArn(const std::string& arn);

  std::unique_ptr<storage::Storage> storage_;
  std::shared_ptr<const Clock> clock_;
  ControllableClock* controllable_clock_;
  ChangeFeed feed_;
  ChangeCapture capture_;
  ReadLag read_lag_;  // before catalog_: its tables point to it
  Catalog catalog_;
  Streams streams_;
  std::mutex maintenance_mu_;
  TransientDelays delays_;
  std::mutex transitions_mu_;  // one settling at a time
  TransactionTokens tokens_;   // TransactWriteItems ClientRequestToken idempotency
  RequestObservers request_observers_;
  std::shared_mutex state_mu_;
  std::atomic<int64_t> foreign_catalog_changes_{0};  // as of the catalog loaded
  Faults faults_;
  Throttle throttle_;
  std::function<void()> job_started_;  // set once, before requests are served
  bool kinesis_configured_ = false;
  std::function<void()> kinesis_wake_;  // set once, before requests are served
  Metrics metrics_;                     // after request_observers_: removes its observer first
  VectorCache vector_cache_{kDefaultVectorCacheBytes};
  ReplicationControl replication_;
};

}  // namespace pogi::service
