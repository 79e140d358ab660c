// Storage: the seam between the engine and the bytes on disk. The engine sees
// tables as numbered collections of items keyed by encoded keys; SQLite
// (sqlite_*) or PostgreSQL (pg_*) stays behind this interface. Nothing above
// it writes SQL or knows which backend it runs on.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace pogi::storage {

// The stored form of an item's primary key: the partition key's and the sort
// key's order-preserving encodings (value/key_codec.h). `sort` is empty for a
// table without a sort key.
struct EncodedKey {
  std::string partition;
  std::string sort;
};

// One row of the catalog: a table's id, its description (a serialized
// pogi.v1.TableDescription without the live counters) and the live counters.
struct TableRecord {
  int64_t id = 0;
  std::string name;
  std::string description;  // serialized pogi.v1.TableDescription
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// One secondary index's catalog row.
struct IndexRecord {
  int64_t id = 0;
  int64_t table_id = 0;
  std::string name;
};

// One stream's row: its id and its state (a serialized pogi.v1.StreamState,
// opaque to storage).
struct StreamRow {
  int64_t id = 0;
  std::string state;
};

// One stored stream record. Sequence numbers are issued by storage, per
// stream (a backend may share one counter among all), increasing in commit
// order and never reused within a stream.
struct StreamRecordRow {
  int64_t sequence = 0;
  double created = 0;  // clock time of the change
  std::string record;  // the serialized record, without its sequence number
};

// One row met by a range read. For a table, `partition`/`sort` are the item's
// key; for an index they are the index key and `table_partition`/
// `table_sort` the item's key in its table. Views valid during the visit only.
struct Row {
  std::string_view partition, sort, table_partition, table_sort, item;
  int64_t size = 0;  // the item's (or index entry's) DynamoDB size
};

// One on-demand backup: its ARN, the table it was taken of, when (micro-
// seconds since the Unix epoch), and its description (a serialized
// pogi.v1.StoredBackup). Its items are a copy kept apart from the table's.
struct BackupRecord {
  int64_t id = 0;
  std::string arn;
  std::string table_name;
  int64_t created_us = 0;
  std::string description;
};

// One export, import or bulk operation (service/jobs), kept under its ARN:
// its kind ("export", "import", "bulk"), when it started (microseconds of
// pogi's clock) and its state (a serialized pogi.v1.StoredJob, opaque to
// storage).
struct JobRecord {
  std::string arn;
  std::string kind;
  int64_t created_us = 0;
  std::string state;
};

// One key that changed in a span of point-in-time history
// (ReadTxn::ReadHistoryChanges): its newest version before the span and its
// newest within it (either absent: none, or a deletion), and when that
// newest one was written. Views valid during the visit only.
struct HistoryChange {
  std::string_view partition, sort;
  std::optional<std::string_view> old_item, new_item;
  int64_t time_us = 0;
};

// Where a range read starts after (exclusive), in the read's own order.
struct RowPosition {
  std::string partition, sort, table_partition, table_sort;
};

// Partition keys are spread over [0, kMaxHash] by a hash; Scan visits them
// in hash order, so parallel scan segments are contiguous hash ranges.
inline constexpr int64_t kMaxHash = INT64_MAX;

// The hash of an encoded partition key. DO NOT CHANGE: stored on disk.
int64_t PartitionHash(std::string_view partition);

// Vector indexes. An index's entries are grouped by index partition (the
// engine's encoding of the item's SearchSchema HASH value; empty for an index
// without one), and within a partition into kVectorSlots slots by the item's
// table key. Every change of an entry raises its slot's generation in the
// same transaction, so a reader that saw a slot at generation g has seen all
// the slot held then: a cache of a partition reads again only the slots
// whose generation moved (service/vector/partition_cache.h), whichever
// process wrote them.
inline constexpr int kVectorSlots = 64;
using VectorGenerations = std::array<int64_t, kVectorSlots>;  // 0: a slot never written

// The slot of an item's entry. DO NOT CHANGE: stored on disk.
int VectorSlot(const EncodedKey& table_key);

// One vector index entry met by ReadVectorSlot. Views valid during the visit only.
struct VectorEntry {
  std::string_view table_partition, table_sort;  // the item's key in its table
  std::string_view vector;                       // the vector: float32s, little-endian
  std::string_view filters;                      // INLINE_FILTER values, as the engine encoded them
  int64_t size = 0;                              // the entry's size (IndexSizeBytes adds them up)
};

// A range read over a table's items or an index's entries.
//   Query: one partition (`partition` set), sort keys within the bounds, in
//          sort-key order (then table key, for an index) or the reverse.
//   Scan:  every partition whose hash lies in [hash_lo, hash_hi], in
//          (hash, partition, sort[, table key]) order.
struct RangeRead {
  int64_t id = 0;  // table id or index id
  bool is_index = false;
  std::optional<std::string> partition;
  int64_t hash_lo = 0;
  int64_t hash_hi = kMaxHash;
  // Inclusive sort-key bounds; nullopt: unbounded. An `exclude` value is left
  // out even when it is a bound (for < and >).
  std::optional<std::string> sort_lo, sort_hi, exclude_lo, exclude_hi;
  bool forward = true;
  std::optional<RowPosition> start_after;
  // false: the rows' key fields stay empty (a read that needs only the
  // items; fetching the columns is a tenth of a large Query's CPU).
  bool with_keys = true;
};

// A consistent view for reads. Valid only inside Storage::Read or Storage::Write.
class ReadTxn {
 public:
  virtual ~ReadTxn() = default;
  // Visits the rows of `read` in order until `visit` returns false.
  virtual Status ReadRange(const RangeRead& read, const std::function<bool(const Row&)>& visit) = 0;
  // Number of entries of an index and the sum of their `size`s.
  virtual Result<std::pair<int64_t, int64_t>> IndexCounters(int64_t index_id) = 0;
  // Vector indexes (see VectorSlot): the generation of every slot of a
  // partition, and the entries of one slot (in no particular order).
  virtual Status ReadVectorGenerations(int64_t index_id, std::string_view partition,
                                       VectorGenerations* out) = 0;
  virtual Status ReadVectorSlot(int64_t index_id, std::string_view partition, int slot,
                                const std::function<bool(const VectorEntry&)>& visit) = 0;
  // Number of entries of a vector index and the sum of their sizes.
  virtual Result<std::pair<int64_t, int64_t>> VectorIndexCounters(int64_t index_id) = 0;
  // The stored bytes of the item with `key`, or nullopt.
  virtual Result<std::optional<std::string>> GetItem(int64_t table_id, const EncodedKey& key) = 0;
  virtual Result<std::optional<TableRecord>> GetTable(int64_t table_id) = 0;

  // Streams. The records of `stream_id` with a sequence number in
  // (after, last], in order, at most `limit` of them.
  virtual Result<std::vector<StreamRecordRow>> ReadStreamRecords(int64_t stream_id, int64_t after,
                                                                 int64_t last, int limit) = 0;
  // The highest sequence number issued so far for `stream_id` (0 before
  // the first); for a stream not created yet (0), the number a new
  // stream's records follow.
  virtual int64_t LastStreamSequence(int64_t stream_id) = 0;
  // The state of stream `stream_id`, or nullopt.
  virtual Result<std::optional<std::string>> GetStream(int64_t stream_id) = 0;
  // ---- control plane: table settings, backups, point-in-time history.
  // The settings stored for a table by PutTableSettings (a serialized
  // pogi.v1.TableSettings), empty when none were.
  virtual Result<std::string> GetTableSettings(int64_t table_id) = 0;
  // Values kept for the whole database, so that every process sharing it
  // sees the same: pogi's clock, the answers kept for ClientRequestTokens.
  // The value stored under `key`, or nullopt; a value whose expiry (micro-
  // seconds since the epoch of pogi's clock) is at or before `now_us` reads
  // as absent.
  virtual Result<std::optional<std::string>> GetSharedValue(std::string_view key, int64_t now_us) = 0;
  // Every backup, ordered by creation time, then ARN.
  virtual Result<std::vector<BackupRecord>> ListBackups() = 0;
  virtual Result<std::optional<BackupRecord>> GetBackup(std::string_view arn) = 0;
  // Visits the items of a backup (keys and bytes in `partition`, `sort`,
  // `item`, `size`) until `visit` returns false.
  virtual Status ReadBackupItems(int64_t backup_id, const std::function<bool(const Row&)>& visit) = 0;
  // Visits, for every key in the point-in-time history of a table, its
  // newest version written at or before `time_us`, leaving out keys whose
  // version then was a deletion: the table's items as of that instant.
  virtual Status ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                                 const std::function<bool(const Row&)>& visit) = 0;
  // The same over the history a backup kept of its deleted table
  // (WriteTxn::MoveHistoryToBackup).
  virtual Status ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                                       const std::function<bool(const Row&)>& visit) = 0;
  // ReadHistoryAsOf a page at a time, for work too long for one
  // transaction (exports): up to `limit` rows after `*cursor` (empty: from
  // the start), in the backend's order of the history; `*cursor` is then
  // where the next page starts, empty once the end is reached. A past
  // instant's history does not change, so pages read in separate
  // transactions make one consistent whole.
  virtual Status ReadHistoryPage(int64_t table_id, int64_t time_us, std::string* cursor, int limit,
                                 const std::function<bool(const Row&)>& visit) = 0;
  // Every key with a version written in [from_us, to_us), a page of up to
  // `limit` keys at a time as ReadHistoryPage pages (incremental exports).
  // Keys whose versions before and within the span are both absent (made
  // and deleted inside it) are left out.
  virtual Status ReadHistoryChanges(int64_t table_id, int64_t from_us, int64_t to_us, std::string* cursor,
                                    int limit, const std::function<bool(const HistoryChange&)>& visit) = 0;
  // Jobs (exports, imports, bulk operations): every one of `kind`, by
  // creation time then ARN; one by its ARN.
  virtual Result<std::vector<JobRecord>> ListJobs(std::string_view kind) = 0;
  virtual Result<std::optional<JobRecord>> GetJob(std::string_view arn) = 0;
};

// An atomic write transaction. Valid only inside Storage::Write.
class WriteTxn : public ReadTxn {
 public:
  // Inserts or replaces the item stored under `key`; `size` is its DynamoDB
  // size (kept so that counters can be counted again after a crash).
  virtual Status PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes, int64_t size) = 0;
  virtual Status DeleteItem(int64_t table_id, const EncodedKey& key) = 0;
  // Adds to a table's live item count and size.
  virtual Status AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) = 0;
  // Inserts a catalog row; returns its new id (record.id is ignored).
  virtual Result<int64_t> CreateTable(const TableRecord& record) = 0;
  // Replaces a catalog row's description.
  virtual Status UpdateTableDescription(int64_t table_id, std::string_view description) = 0;
  // Removes a table's catalog row, every item in it and its indexes.
  virtual Status DropTable(int64_t table_id) = 0;

  // Secondary indexes: a catalog row each, and entries keyed by the index
  // key and the item's table key. `size` is what IndexCounters adds up.
  virtual Result<int64_t> CreateIndex(int64_t table_id, const std::string& name) = 0;
  virtual Status DropIndex(int64_t index_id) = 0;
  virtual Status PutIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key,
                               std::string_view bytes, int64_t size) = 0;
  virtual Status DeleteIndexEntry(int64_t index_id, const EncodedKey& index_key,
                                  const EncodedKey& table_key) = 0;

  // Vector index entries (created and dropped with CreateIndex/DropIndex
  // like a secondary index's): the entry of the item with `table_key` in
  // `partition`, replaced or removed, raising its slot's generation.
  virtual Status PutVectorEntry(int64_t index_id, std::string_view partition, const EncodedKey& table_key,
                                std::string_view vector, std::string_view filters, int64_t size) = 0;
  virtual Status DeleteVectorEntry(int64_t index_id, std::string_view partition,
                                   const EncodedKey& table_key) = 0;

  // Adds `delta` to the stored size of the item collection of `partition`
  // (tables with local indexes) and returns the new size.
  virtual Result<int64_t> AdjustCollectionSize(int64_t table_id, std::string_view partition,
                                               int64_t delta) = 0;

  // Streams: a row of state each, and their records. AppendStreamRecord
  // stores a record under the next sequence number and returns it.
  virtual Result<int64_t> CreateStream(std::string_view state) = 0;
  virtual Status UpdateStream(int64_t stream_id, std::string_view state) = 0;
  // Removes a stream and its records.
  virtual Status DeleteStream(int64_t stream_id) = 0;
  virtual Result<int64_t> AppendStreamRecord(int64_t stream_id, double created, std::string_view record) = 0;
  // Issues a sequence number of `stream_id` that no record carries (a
  // shard's end).
  virtual Result<int64_t> IssueStreamSequence(int64_t stream_id) = 0;
  // Removes the records of `stream_id` created before `created_before` (and
  // any older by sequence number); returns the highest sequence number
  // removed, 0 when none was.
  virtual Result<int64_t> TrimStreamRecords(int64_t stream_id, double created_before) = 0;
  // Removes the records of `stream_id` with a sequence number up to
  // `through` (a queue whose records were delivered).
  virtual Status DeleteStreamRecordsThrough(int64_t stream_id, int64_t through) = 0;

  // Runs `fn` once the transaction has committed (never when it rolls back),
  // after the commit is durable, outside any storage lock.
  virtual void OnCommit(std::function<void()> fn) = 0;
  // ---- control plane. DropTable also removes a table's settings and its
  // point-in-time history; backups outlive their table.
  virtual Status PutTableSettings(int64_t table_id, std::string_view settings) = 0;
  // Stores `value` under `key`, replacing any, until `expires_us` (0: for
  // good).
  virtual Status PutSharedValue(std::string_view key, std::string_view value, int64_t expires_us) = 0;
  // Forgets every value expired at `now_us`.
  virtual Status PruneSharedValues(int64_t now_us) = 0;
  // Makes every other process sharing the database reload its catalog, and
  // what it keeps beside it (the clock), at its next request, as a change of
  // a table does. SQLite: nothing to do.
  virtual Status NoteCatalogChange() = 0;
  // Creates a backup holding a copy of every item of `table_id` as this
  // transaction sees them; returns its id (record.id is ignored).
  virtual Result<int64_t> CreateBackup(const BackupRecord& record, int64_t table_id) = 0;
  // Removes a backup, its items and the history it kept.
  virtual Status DeleteBackup(int64_t backup_id) = 0;
  // Moves the whole point-in-time history of `table_id` to backup
  // `backup_id` (the system backup taken as a table with point-in-time
  // recovery is deleted): it then outlives the table, and goes with the
  // backup (a later table given the same id starts with none).
  virtual Status MoveHistoryToBackup(int64_t table_id, int64_t backup_id) = 0;
  // Records in a table's point-in-time history that `key` holds `item`
  // (nullopt: was deleted) from `time_us` on. A second version of a key at
  // the same instant replaces the first.
  virtual Status AppendHistory(int64_t table_id, const EncodedKey& key, int64_t time_us,
                               std::optional<std::string_view> item, int64_t size) = 0;
  // Forgets what no restore to `before_us` or later needs: every version of
  // a key superseded by a newer one at or before `before_us`, and a deletion
  // that is the oldest version left.
  virtual Status PruneHistory(int64_t table_id, int64_t before_us) = 0;
  // Forgets a table's whole point-in-time history.
  virtual Status DropHistory(int64_t table_id) = 0;
  // Stores a job, replacing the one with the same ARN.
  virtual Status PutJob(const JobRecord& job) = 0;
};

// A named copy of the whole database.
struct SnapshotRecord {
  std::string name;
  int64_t size_bytes = 0;
  double created_at = 0;  // seconds since the epoch
};

// A request's catalog check (the engine's operation table). While one lives
// on a thread, the first transaction the thread begins (Read or Write) also
// confirms, in its own first round trip, that no other process sharing the
// database has changed the catalog since the engine last followed it
// (Storage::CatalogFollowed); when one has, the transaction fails with
// kCatalogMoved and the change is noticed (NoticedCatalogChanges), so the
// engine reloads and runs the request again. A request whose transactions
// confirmed nothing (it failed before reaching storage) looks the usual
// way. A backend with one process (SQLite) confirms nothing and checks
// nothing. Not nested.
class CatalogCheck {
 public:
  CatalogCheck();
  ~CatalogCheck();
  CatalogCheck(const CatalogCheck&) = delete;
  CatalogCheck& operator=(const CatalogCheck&) = delete;
  // True once a transaction of this thread confirmed the catalog.
  bool confirmed() const;

  // For backends: whether the transaction being begun should check (a
  // CatalogCheck lives on this thread and nothing confirmed it yet), and
  // that a check passed.
  static bool Due();
  static void Confirm();
};

struct Options {
  std::string data_dir;            // folder holding pogi.db; ignored when in_memory
  bool in_memory = false;          // keep nothing on disk
  bool fsync_each_commit = false;  // survive power loss, not only kill -9
  // PostgreSQL instead of SQLite: a libpq connection string (a
  // postgresql:// URI or key=value pairs), and the schema pogi keeps its
  // tables in. data_dir, in_memory and fsync_each_commit are then unused:
  // durability is the database's.
  std::string postgres;
  std::string pg_schema = "pogi";
  // Connections to PostgreSQL kept open (a burst opens more, closed after):
  // each carries one transaction at a time.
  size_t pg_connections = 16;
};

class Storage {
 public:
  virtual ~Storage() = default;

  // Opens (creating when missing) the database. Errors name the cause in one
  // line: an unwritable folder, a file that is not a pogi database, a newer format.
  static Result<std::unique_ptr<Storage>> Open(const Options& options);

  // Every catalog row, ordered by table name.
  virtual Result<std::vector<TableRecord>> ListTables() = 0;
  // Every index catalog row.
  virtual Result<std::vector<IndexRecord>> ListIndexes() = 0;
  // Every stream row, by id.
  virtual Result<std::vector<StreamRow>> ListStreams() = 0;

  // Runs `fn` in one transaction that commits when fn succeeds and rolls back
  // when it fails. What every backend promises: writes are serializable, as
  // if each ran alone in some order (SQLite runs them one after another in
  // this process; PostgreSQL runs them at its SERIALIZABLE isolation, which
  // also holds against other processes sharing the database); fn sees every
  // write committed before it, and nobody sees fn's writes before the
  // commit. When Write returns OK the transaction is durable against a
  // crash of the process (PostgreSQL: committed in the database); a write
  // whose commit was not confirmed returns an error.
  // fn may run more than once: when the database refuses the transaction
  // for a conflict with a concurrent one (on PostgreSQL, another
  // connection's), it is rolled back and fn runs again on the new state, for
  // a bounded time; then Write answers kTransactionConflict. So
  // fn starts from nothing each time (it assigns, not appends, what it
  // hands out) and does outside storage only what may be done twice.
  virtual Status Write(const std::function<Status(WriteTxn&)>& fn) = 0;

  // Write for a write of items by key (the one write path's single-item
  // writes): fn reads items only with GetItem and changes only items and
  // what changes with them (index entries, counters, collection sizes,
  // stream records, history, queues). A backend may then isolate it by
  // those items alone, each item it read held as read until the commit,
  // so that writers of one hot item wait their turn instead of failing
  // and running again (PostgreSQL: READ COMMITTED, the items read locked).
  // The same promises as Write otherwise.
  virtual Status WriteItems(const std::function<Status(WriteTxn&)>& fn) { return Write(fn); }

  // How many changes of the catalog (tables, indexes, streams, table
  // settings) made by other processes sharing the database this storage has
  // noticed so far, looking now (one cheap read): the engine reloads its
  // catalog when the number grows. SQLite: always 0, the file has one
  // process.
  virtual Result<int64_t> ForeignCatalogChanges() = 0;
  // The same without looking: the count as of the last look, plus the
  // changes that transactions under a CatalogCheck found (no round trip).
  virtual int64_t NoticedCatalogChanges() = 0;
  // Tells storage that the engine's catalog now holds the first `changes`
  // changes (a count ForeignCatalogChanges answered before the reload):
  // CatalogCheck transactions compare against that catalog from now on.
  virtual void CatalogFollowed(int64_t changes) = 0;

  // Whether this storage holds the lease `name` now: taken when free or
  // when its holder let it lapse (a process that died), renewed when held,
  // for `seconds` more. For work only one of the processes sharing a
  // database should do at a time (TTL deletions, stream maintenance).
  // Released when the storage closes. SQLite: always held.
  virtual Result<bool> HoldLease(const std::string& name, double seconds) = 0;

  // Runs `fn` against a consistent snapshot. Thread-safe.
  virtual Status Read(const std::function<Status(ReadTxn&)>& fn) = 0;
  // Read for a read of one item by key (GetItem) and nothing else: with
  // one statement to run, a backend may spare the transaction around it
  // (PostgreSQL: the statement and its end travel together).
  virtual Status ReadPoint(const std::function<Status(ReadTxn&)>& fn) { return Read(fn); }

  // Named snapshots of the whole database: kept with the data by a durable
  // backend (they survive restarts), in memory by an in-memory one. Save
  // replaces a snapshot of the same name. Restore replaces every table with
  // the snapshot's in one step: a Read or Write sees all of the old state or
  // all of the new. Missing names answer ResourceNotFound. Names are checked
  // by the caller (letters, digits, '.', '_', '-').
  virtual Status SaveSnapshot(const std::string& name) = 0;
  virtual Status RestoreSnapshot(const std::string& name) = 0;
  virtual Result<std::vector<SnapshotRecord>> ListSnapshots() = 0;
  virtual Status DeleteSnapshot(const std::string& name) = 0;
};

}  // namespace pogi::storage
