// Storage on SQLite: one database file in WAL mode, a catalog table, and one
// WITHOUT ROWID table holding every item ordered by (table, hash of the
// partition key, partition key, sort key). One writer connection serializes
// writes; readers have connections of their own and never wait for it.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>

#include "storage/sqlite_control.h"
#include "storage/sqlite_db.h"
#include "storage/sqlite_file_checks.h"
#include "storage/sqlite_snapshots.h"
#include "storage/storage.h"
#include "storage/table_counters.h"

namespace pogi::storage {
namespace {

// DO NOT CHANGE without a migration: the on-disk format version.
// 2: partition hashes are mixed (format 1 was a development format).
// 3: item collection sizes are stored (tables with local indexes).
// 4: items store their size; table counters live in memory (see
//    table_counters.h) and meta 'clean' says whether the catalog's are exact.
// 5: streams and their records (tables streams, stream_records; meta
//    'stream_seq' holds the sequence counter at the last stream change).
// 6: table settings (tags, policies, PITR), on-demand backups and their
//    items, point-in-time history (5 was either streams or these alone, in
//    development).
// 7: backup_history, the point-in-time history a system backup keeps of
//    its deleted table (RestoreTableToPointInTime of a deleted table); a
//    format-6 file lacks it.
constexpr int64_t kFormatVersion = 7;

constexpr const char* kSchema = R"sql(
BEGIN;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS catalog(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  description BLOB NOT NULL,
  item_count INTEGER NOT NULL DEFAULT 0,
  size_bytes INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS items(
  table_id INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY(table_id, hash, pk, sk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS indexes(
  id INTEGER PRIMARY KEY,
  table_id INTEGER NOT NULL,
  name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS index_items(
  index_id INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  tpk BLOB NOT NULL,
  tsk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY(index_id, hash, pk, sk, tpk, tsk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS collections(
  table_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  size INTEGER NOT NULL,
  PRIMARY KEY(table_id, pk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS streams(
  id INTEGER PRIMARY KEY,
  state BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS stream_records(
  stream_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  created REAL NOT NULL,
  record BLOB NOT NULL,
  PRIMARY KEY(stream_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS table_settings(
  table_id INTEGER PRIMARY KEY,
  settings BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS backups(
  id INTEGER PRIMARY KEY,
  arn TEXT NOT NULL UNIQUE,
  table_name TEXT NOT NULL,
  created_us INTEGER NOT NULL,
  description BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS backup_items(
  backup_id INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY(backup_id, hash, pk, sk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history(
  table_id INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  time_us INTEGER NOT NULL,
  size INTEGER NOT NULL,
  item BLOB,
  PRIMARY KEY(table_id, hash, pk, sk, time_us)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS backup_history(
  backup_id INTEGER NOT NULL,
  hash INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  time_us INTEGER NOT NULL,
  size INTEGER NOT NULL,
  item BLOB,
  PRIMARY KEY(backup_id, hash, pk, sk, time_us)) WITHOUT ROWID;
COMMIT;
)sql";

// Above every encoded key (keys are at most 2048 bytes; S keys are UTF-8,
// which never holds 0xFF): the upper bound of an unbounded range.
const std::string& MaxKey() {
  static const std::string k(2100, '\xff');
  return k;
}

// ReadTxn and WriteTxn over one connection. The caller holds that connection
// exclusively for the transaction's life.
class SqliteTxn final : public WriteTxn {
 public:
  // `counters` are the committed counts; `earlier` the changes of earlier
  // writes of the same transaction (may be null); this write's own go to
  // `changes` (null for a read-only transaction).
  // `sequence` is the stream sequence counter; `on_commit` collects this
  // write's after-commit work (both null for a read-only transaction).
  SqliteTxn(Db* db, const TableCounters* counters, const CountChanges* earlier = nullptr,
            CountChanges* changes = nullptr, int64_t* sequence = nullptr,
            std::vector<std::function<void()>>* on_commit = nullptr, const int64_t* read_sequence = nullptr)
      : db_(db),
        counters_(counters),
        earlier_(earlier),
        changes_(changes),
        sequence_(sequence),
        on_commit_(on_commit),
        read_sequence_(read_sequence) {}

  Result<std::vector<StreamRecordRow>> ReadStreamRecords(int64_t stream_id, int64_t after, int64_t last,
                                                         int limit) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT seq, created, record FROM stream_records WHERE "
                                                "stream_id=?1 AND seq>?2 AND seq<=?3 ORDER BY seq LIMIT ?4"));
    st->Bind(1, stream_id).Bind(2, after).Bind(3, last).Bind(4, static_cast<int64_t>(limit));
    std::vector<StreamRecordRow> out;
    int rc;
    while ((rc = st->Step()) == SQLITE_ROW) out.push_back({st->Int(0), st->Double(1), st->Blob(2)});
    if (rc != SQLITE_DONE) return db_->Fail("read stream records");
    return out;
  }

  int64_t LastStreamSequence() override {
    if (sequence_) return *sequence_;
    return read_sequence_ ? *read_sequence_ : 0;
  }

  Result<std::optional<std::string>> GetStream(int64_t stream_id) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT state FROM streams WHERE id=?1"));
    st->Bind(1, stream_id);
    int rc = st->Step();
    if (rc == SQLITE_ROW) return std::optional<std::string>(st->Blob(0));
    if (rc == SQLITE_DONE) return std::optional<std::string>();
    return db_->Fail("read stream");
  }

  Result<int64_t> IssueStreamSequence() override {
    if (!sequence_) return Error::Internal("stream sequence issued outside a write");
    return ++*sequence_;
  }

  Result<int64_t> CreateStream(std::string_view state) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO streams(state) VALUES(?1)"));
    st->Bind(1, state);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "create stream"));
    int64_t id = static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
    POGI_RETURN_IF_ERROR(SaveSequence());
    return id;
  }

  Status UpdateStream(int64_t stream_id, std::string_view state) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("UPDATE streams SET state=?2 WHERE id=?1"));
    st->Bind(1, stream_id).Bind(2, state);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "update stream"));
    return SaveSequence();
  }

  Status DeleteStream(int64_t stream_id) override {
    {
      POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM stream_records WHERE stream_id=?1"));
      st->Bind(1, stream_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "delete stream records"));
    }
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM streams WHERE id=?1"));
    st->Bind(1, stream_id);
    return Done(st->Step(), "delete stream");
  }

  Result<int64_t> AppendStreamRecord(int64_t stream_id, double created, std::string_view record) override {
    if (!sequence_) return Error::Internal("stream record written outside a write");
    POGI_ASSIGN_OR_RETURN(
        auto st,
        db_->Prepare("INSERT INTO stream_records(stream_id, seq, created, record) VALUES(?1,?2,?3,?4)"));
    int64_t seq = *sequence_ + 1;
    st->Bind(1, stream_id).Bind(2, seq).BindDouble(3, created).Bind(4, record);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "write stream record"));
    *sequence_ = seq;
    return seq;
  }

  Result<int64_t> TrimStreamRecords(int64_t stream_id, double created_before) override {
    POGI_ASSIGN_OR_RETURN(
        auto find,
        db_->Prepare("SELECT COALESCE(MAX(seq), 0) FROM stream_records WHERE stream_id=?1 AND created<?2"));
    find->Bind(1, stream_id).BindDouble(2, created_before);
    if (find->Step() != SQLITE_ROW) return db_->Fail("find old stream records");
    int64_t through = find->Int(0);
    if (through == 0) return int64_t{0};
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM stream_records WHERE stream_id=?1 AND seq<=?2"));
    st->Bind(1, stream_id).Bind(2, through);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "trim stream records"));
    POGI_RETURN_IF_ERROR(SaveSequence());
    return through;
  }

  void OnCommit(std::function<void()> fn) override {
    if (on_commit_) on_commit_->push_back(std::move(fn));
  }

  Result<std::optional<std::string>> GetItem(int64_t table_id, const EncodedKey& key) override {
    POGI_ASSIGN_OR_RETURN(
        auto st, db_->Prepare("SELECT item FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND sk=?4"));
    st->Bind(1, table_id).Bind(2, PartitionHash(key.partition)).Bind(3, key.partition).Bind(4, key.sort);
    int rc = st->Step();
    if (rc == SQLITE_ROW) return std::optional<std::string>(st->Blob(0));
    if (rc == SQLITE_DONE) return std::optional<std::string>();
    return db_->Fail("read item");
  }

  Result<std::optional<TableRecord>> GetTable(int64_t table_id) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT name, description FROM catalog WHERE id=?1"));
    st->Bind(1, table_id);
    int rc = st->Step();
    if (rc == SQLITE_DONE) return std::optional<TableRecord>();
    if (rc != SQLITE_ROW) return db_->Fail("read catalog");
    Count c = counters_->Get(table_id);
    for (const CountChanges* pending : {earlier_, static_cast<const CountChanges*>(changes_)}) {
      if (!pending) continue;
      Count d = pending->DeltaOf(table_id);
      c.items += d.items;
      c.bytes += d.bytes;
    }
    return std::optional<TableRecord>(TableRecord{table_id, st->Blob(0), st->Blob(1), c.items, c.bytes});
  }

  Status ReadRange(const RangeRead& r, const std::function<bool(const Row&)>& visit) override {
    // Static SQL for each shape of read; bounds and the start position are
    // bound values (NULL when absent).
    const char* sql;
    if (r.partition) {
      if (!r.is_index) {
        sql = r.forward ? "SELECT size, pk, sk, item FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND "
                          "sk>=?4 AND sk<=?5 AND (?6 IS NULL OR sk<>?6) AND (?7 IS NULL OR sk<>?7) AND "
                          "(?8 IS NULL OR sk>?8) ORDER BY sk ASC"
                        : "SELECT size, pk, sk, item FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND "
                          "sk>=?4 AND sk<=?5 AND (?6 IS NULL OR sk<>?6) AND (?7 IS NULL OR sk<>?7) AND "
                          "(?8 IS NULL OR sk<?8) ORDER BY sk DESC";
      } else {
        sql = r.forward
                  ? "SELECT size, pk, sk, tpk, tsk, item FROM index_items WHERE index_id=?1 AND hash=?2 "
                    "AND pk=?3 AND sk>=?4 AND sk<=?5 AND (?6 IS NULL OR sk<>?6) AND (?7 IS NULL OR "
                    "sk<>?7) AND (?8 IS NULL OR (sk, tpk, tsk)>(?8, ?9, ?10)) ORDER BY sk, tpk, tsk"
                  : "SELECT size, pk, sk, tpk, tsk, item FROM index_items WHERE index_id=?1 AND hash=?2 "
                    "AND pk=?3 AND sk>=?4 AND sk<=?5 AND (?6 IS NULL OR sk<>?6) AND (?7 IS NULL OR "
                    "sk<>?7) AND (?8 IS NULL OR (sk, tpk, tsk)<(?8, ?9, ?10)) ORDER BY sk DESC, tpk "
                    "DESC, tsk DESC";
      }
    } else {
      sql = !r.is_index
                ? "SELECT size, pk, sk, item FROM items WHERE table_id=?1 AND hash>=?2 AND hash<=?3 AND "
                  "(?4 IS NULL OR (hash, pk, sk)>(?4, ?5, ?6)) ORDER BY hash, pk, sk"
                : "SELECT size, pk, sk, tpk, tsk, item FROM index_items WHERE index_id=?1 AND hash>=?2 "
                  "AND hash<=?3 AND (?4 IS NULL OR (hash, pk, sk, tpk, tsk)>(?4, ?5, ?6, ?7, ?8)) ORDER "
                  "BY hash, pk, sk, tpk, tsk";
    }
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare(sql));
    st->Bind(1, r.id);
    const RowPosition* start = r.start_after ? &*r.start_after : nullptr;
    if (r.partition) {
      st->Bind(2, PartitionHash(*r.partition)).Bind(3, *r.partition);
      // Bound without copying (SQLITE_STATIC): each view must outlive the read.
      static const std::string kMinKey;
      st->Bind(4, std::string_view(r.sort_lo ? *r.sort_lo : kMinKey));
      st->Bind(5, std::string_view(r.sort_hi ? *r.sort_hi : MaxKey()));
      st->BindOptional(6, r.exclude_lo).BindOptional(7, r.exclude_hi);
      if (start) {
        st->Bind(8, std::string_view(start->sort));
        if (r.is_index)
          st->Bind(9, std::string_view(start->table_partition)).Bind(10, std::string_view(start->table_sort));
      }
    } else {
      st->Bind(2, r.hash_lo).Bind(3, r.hash_hi);
      if (start) {
        st->Bind(4, PartitionHash(start->partition))
            .Bind(5, std::string_view(start->partition))
            .Bind(6, std::string_view(start->sort));
        if (r.is_index)
          st->Bind(7, std::string_view(start->table_partition)).Bind(8, std::string_view(start->table_sort));
      }
    }
    int rc;
    Row row;
    while ((rc = st->Step()) == SQLITE_ROW) {
      row.size = st->Int(0);
      row.item = st->BlobView(r.is_index ? 5 : 3);
      if (r.with_keys) {
        row.partition = st->BlobView(1);
        row.sort = st->BlobView(2);
        row.table_partition = r.is_index ? st->BlobView(3) : row.partition;
        row.table_sort = r.is_index ? st->BlobView(4) : row.sort;
      }
      if (!visit(row)) return Status::Ok();
    }
    if (rc != SQLITE_DONE) return db_->Fail("range read");
    return Status::Ok();
  }

  Result<std::pair<int64_t, int64_t>> IndexCounters(int64_t index_id) override {
    POGI_ASSIGN_OR_RETURN(
        auto st, db_->Prepare("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM index_items WHERE index_id=?1"));
    st->Bind(1, index_id);
    if (st->Step() != SQLITE_ROW) return db_->Fail("count index");
    return std::make_pair(st->Int(0), st->Int(1));
  }

  Result<int64_t> CreateIndex(int64_t table_id, const std::string& name) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO indexes(table_id, name) VALUES(?1, ?2)"));
    st->Bind(1, table_id).BindText(2, name);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "create index"));
    return static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
  }

  Status DropIndex(int64_t index_id) override {
    {
      POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM index_items WHERE index_id=?1"));
      st->Bind(1, index_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "drop index entries"));
    }
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM indexes WHERE id=?1"));
    st->Bind(1, index_id);
    return Done(st->Step(), "drop index");
  }

  Status PutIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key,
                       std::string_view bytes, int64_t size) override {
    POGI_ASSIGN_OR_RETURN(
        auto st,
        db_->Prepare("INSERT OR REPLACE INTO index_items(index_id, hash, pk, sk, tpk, tsk, size, item) "
                     "VALUES(?1,?2,?3,?4,?5,?6,?7,?8)"));
    st->Bind(1, index_id)
        .Bind(2, PartitionHash(index_key.partition))
        .Bind(3, index_key.partition)
        .Bind(4, index_key.sort)
        .Bind(5, table_key.partition)
        .Bind(6, table_key.sort)
        .Bind(7, size)
        .Bind(8, bytes);
    return Done(st->Step(), "write index entry");
  }

  Status DeleteIndexEntry(int64_t index_id, const EncodedKey& index_key,
                          const EncodedKey& table_key) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM index_items WHERE index_id=?1 AND hash=?2 AND "
                                                "pk=?3 AND sk=?4 AND tpk=?5 AND tsk=?6"));
    st->Bind(1, index_id)
        .Bind(2, PartitionHash(index_key.partition))
        .Bind(3, index_key.partition)
        .Bind(4, index_key.sort)
        .Bind(5, table_key.partition)
        .Bind(6, table_key.sort);
    return Done(st->Step(), "delete index entry");
  }

  Result<int64_t> AdjustCollectionSize(int64_t table_id, std::string_view partition, int64_t delta) override {
    POGI_ASSIGN_OR_RETURN(
        auto st, db_->Prepare("INSERT INTO collections(table_id, pk, size) VALUES(?1, ?2, ?3) "
                              "ON CONFLICT(table_id, pk) DO UPDATE SET size=size+?3 RETURNING size"));
    st->Bind(1, table_id).Bind(2, partition).Bind(3, delta);
    if (st->Step() != SQLITE_ROW) return db_->Fail("update item collection size");
    int64_t size = st->Int(0);
    while (st->Step() == SQLITE_ROW) {
    }
    return size;
  }

  Status PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes, int64_t size) override {
    POGI_ASSIGN_OR_RETURN(
        auto st,
        db_->Prepare(
            "INSERT OR REPLACE INTO items(table_id, hash, pk, sk, size, item) VALUES(?1,?2,?3,?4,?5,?6)"));
    st->Bind(1, table_id)
        .Bind(2, PartitionHash(key.partition))
        .Bind(3, key.partition)
        .Bind(4, key.sort)
        .Bind(5, size)
        .Bind(6, bytes);
    return Done(st->Step(), "write item");
  }

  Status DeleteItem(int64_t table_id, const EncodedKey& key) override {
    POGI_ASSIGN_OR_RETURN(
        auto st, db_->Prepare("DELETE FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND sk=?4"));
    st->Bind(1, table_id).Bind(2, PartitionHash(key.partition)).Bind(3, key.partition).Bind(4, key.sort);
    return Done(st->Step(), "delete item");
  }

  Status AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) override {
    if (!changes_) return Error::Internal("counters changed outside a write");
    changes_->Add(table_id, items, bytes);
    return Status::Ok();
  }

  Result<int64_t> CreateTable(const TableRecord& record) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO catalog(name, description) VALUES(?1,?2)"));
    st->BindText(1, record.name).Bind(2, record.description);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "create table"));
    return static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
  }

  Status UpdateTableDescription(int64_t table_id, std::string_view description) override {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("UPDATE catalog SET description=?2 WHERE id=?1"));
    st->Bind(1, table_id).Bind(2, description);
    return Done(st->Step(), "update table");
  }

  // The control plane's calls live in sqlite_control.cc.
  Result<std::string> GetTableSettings(int64_t table_id) override {
    return sqlite_control::GetTableSettings(*db_, table_id);
  }
  Result<std::vector<BackupRecord>> ListBackups() override { return sqlite_control::ListBackups(*db_); }
  Result<std::optional<BackupRecord>> GetBackup(std::string_view arn) override {
    return sqlite_control::GetBackup(*db_, arn);
  }
  Status ReadBackupItems(int64_t backup_id, const std::function<bool(const Row&)>& visit) override {
    return sqlite_control::ReadBackupItems(*db_, backup_id, visit);
  }
  Status ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                         const std::function<bool(const Row&)>& visit) override {
    return sqlite_control::ReadHistoryAsOf(*db_, table_id, time_us, visit);
  }
  Status ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                               const std::function<bool(const Row&)>& visit) override {
    return sqlite_control::ReadBackupHistoryAsOf(*db_, backup_id, time_us, visit);
  }
  Status MoveHistoryToBackup(int64_t table_id, int64_t backup_id) override {
    return sqlite_control::MoveHistoryToBackup(*db_, table_id, backup_id);
  }
  Status PutTableSettings(int64_t table_id, std::string_view settings) override {
    return sqlite_control::PutTableSettings(*db_, table_id, settings);
  }
  Result<int64_t> CreateBackup(const BackupRecord& record, int64_t table_id) override {
    return sqlite_control::CreateBackup(*db_, record, table_id);
  }
  Status DeleteBackup(int64_t backup_id) override { return sqlite_control::DeleteBackup(*db_, backup_id); }
  Status AppendHistory(int64_t table_id, const EncodedKey& key, int64_t time_us,
                       std::optional<std::string_view> item, int64_t size) override {
    return sqlite_control::AppendHistory(*db_, table_id, key, time_us, item, size);
  }
  Status PruneHistory(int64_t table_id, int64_t before_us) override {
    return sqlite_control::PruneHistory(*db_, table_id, before_us);
  }
  Status DropHistory(int64_t table_id) override { return sqlite_control::DropHistory(*db_, table_id); }

  Status DropTable(int64_t table_id) override {
    {
      POGI_ASSIGN_OR_RETURN(
          auto st,
          db_->Prepare(
              "DELETE FROM index_items WHERE index_id IN (SELECT id FROM indexes WHERE table_id=?1)"));
      st->Bind(1, table_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "drop index entries"));
    }
    {
      POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM indexes WHERE table_id=?1"));
      st->Bind(1, table_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "drop indexes"));
    }
    {
      POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM collections WHERE table_id=?1"));
      st->Bind(1, table_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "drop item collections"));
    }
    {
      POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM items WHERE table_id=?1"));
      st->Bind(1, table_id);
      POGI_RETURN_IF_ERROR(Done(st->Step(), "drop items"));
    }
    POGI_RETURN_IF_ERROR(sqlite_control::DropTableState(*db_, table_id));
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM catalog WHERE id=?1"));
    st->Bind(1, table_id);
    if (changes_) changes_->dropped.insert(table_id);
    return Done(st->Step(), "drop table");
  }

 private:
  Status Done(int rc, std::string_view what) {
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status::Ok();
    return db_->Fail(what);
  }
  // The sequence counter is kept with every stream change (and trim), so
  // that after a crash it restarts above every sequence number a stream's
  // state names, even when the records holding them are gone.
  Status SaveSequence() {
    POGI_ASSIGN_OR_RETURN(auto st,
                          db_->Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('stream_seq', ?1)"));
    st->Bind(1, LastStreamSequence());
    return Done(st->Step(), "save stream sequence");
  }
  Db* db_;
  const TableCounters* counters_;
  const CountChanges* earlier_;
  CountChanges* changes_;
  int64_t* sequence_;
  std::vector<std::function<void()>>* on_commit_;
  const int64_t* read_sequence_;
};

class SqliteStorage final : public Storage {
 public:
  SqliteStorage(std::unique_ptr<Db> db, bool in_memory, std::string snapshot_dir)
      : db_(std::move(db)), in_memory_(in_memory), snapshots_(std::move(snapshot_dir)) {}

  // Writes the counters back and marks the catalog's counters exact; not
  // when they were never loaded whole (a refused start, a failed reload),
  // which would mark wrong counters exact.
  ~SqliteStorage() override {
    if (in_memory_ || !counters_loaded_) return;
    std::lock_guard lock(db_mu_);
    if (!db_->Run("BEGIN IMMEDIATE").ok()) return;
    for (const auto& [id, c] : counters_.All()) {
      auto st = db_->Prepare("UPDATE catalog SET item_count=?2, size_bytes=?3 WHERE id=?1");
      if (!st.ok()) break;
      (*st)->Bind(1, id).Bind(2, c.items).Bind(3, c.bytes);
      (*st)->Step();
    }
    if (auto st = db_->Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('stream_seq', ?1)"); st.ok()) {
      (*st)->Bind(1, stream_seq_);
      (*st)->Step();
    }
    (void)db_->Exec("INSERT OR REPLACE INTO meta(key, value) VALUES('clean', 1)");
    (void)db_->Run("COMMIT");
  }

  // Loads the counters: from the catalog after a clean close, else counted
  // from the items. Then marks the database in use until the next close.
  Status LoadCounters() {
    std::lock_guard lock(db_mu_);
    return LoadCountersLocked();
  }

  Status SaveSnapshot(const std::string& name) override {
    std::lock_guard lock(db_mu_);
    return snapshots_.Save(*db_, name);
  }

  // A snapshot's catalog counters are those of the last clean close, if any:
  // the counters are counted again from its items.
  Status RestoreSnapshot(const std::string& name) override {
    std::lock_guard lock(db_mu_);
    POGI_RETURN_IF_ERROR(snapshots_.Restore(*db_, name));
    (void)db_->Exec("INSERT OR REPLACE INTO meta(key, value) VALUES('clean', 0)");
    counters_.Clear();
    return LoadCountersLocked();
  }

  Result<std::vector<SnapshotRecord>> ListSnapshots() override { return snapshots_.List(); }
  Status DeleteSnapshot(const std::string& name) override { return snapshots_.Delete(name); }

 private:
  Status LoadCountersLocked() {
    counters_loaded_ = false;
    POGI_ASSIGN_OR_RETURN(auto clean, db_->Prepare("SELECT value FROM meta WHERE key='clean'"));
    bool was_clean = clean->Step() == SQLITE_ROW && clean->Int(0) == 1;
    const char* sql = was_clean ? "SELECT id, item_count, size_bytes FROM catalog"
                                : "SELECT c.id, COUNT(i.table_id), COALESCE(SUM(i.size), 0) FROM catalog c "
                                  "LEFT JOIN items i ON i.table_id = c.id GROUP BY c.id";
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare(sql));
    int rc;
    while ((rc = st->Step()) == SQLITE_ROW) counters_.Set(st->Int(0), {st->Int(1), st->Int(2)});
    if (rc != SQLITE_DONE) return db_->Fail("load counters");
    POGI_ASSIGN_OR_RETURN(auto seq, db_->Prepare("SELECT MAX(COALESCE((SELECT value FROM meta WHERE "
                                                 "key='stream_seq'), 0), COALESCE((SELECT MAX(seq) FROM "
                                                 "stream_records), 0))"));
    if (seq->Step() != SQLITE_ROW) return db_->Fail("load stream sequence");
    stream_seq_ = seq->Int(0);
    if (!in_memory_) {
      POGI_RETURN_IF_ERROR(db_->Exec("INSERT OR REPLACE INTO meta(key, value) VALUES('clean', 0)"));
    }
    counters_loaded_ = true;
    return Status::Ok();
  }

 public:
  Result<std::vector<TableRecord>> ListTables() override {
    std::lock_guard lock(db_mu_);
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT id, name, description FROM catalog ORDER BY name"));
    std::vector<TableRecord> out;
    int rc;
    while ((rc = st->Step()) == SQLITE_ROW) {
      Count c = counters_.Get(st->Int(0));
      out.push_back({st->Int(0), st->Blob(1), st->Blob(2), c.items, c.bytes});
    }
    if (rc != SQLITE_DONE) return db_->Fail("list tables");
    return out;
  }

  Result<std::vector<IndexRecord>> ListIndexes() override {
    std::lock_guard lock(db_mu_);
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT id, table_id, name FROM indexes ORDER BY id"));
    std::vector<IndexRecord> out;
    int rc;
    while ((rc = st->Step()) == SQLITE_ROW) out.push_back({st->Int(0), st->Int(1), st->Blob(2)});
    if (rc != SQLITE_DONE) return db_->Fail("list indexes");
    return out;
  }

  Result<std::vector<StreamRow>> ListStreams() override {
    std::lock_guard lock(db_mu_);
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT id, state FROM streams ORDER BY id"));
    std::vector<StreamRow> out;
    int rc;
    while ((rc = st->Step()) == SQLITE_ROW) out.push_back({st->Int(0), st->Blob(1)});
    if (rc != SQLITE_DONE) return db_->Fail("list streams");
    return out;
  }

  // Group commit: concurrent writers queue up; the writer at the front runs
  // the whole queue in one SQLite transaction, each write inside its own
  // savepoint (so one failing write rolls back alone), commits once, and
  // wakes the others. One commit then pays for many writes.
  Status Write(const std::function<Status(WriteTxn&)>& fn) override {
    PendingWrite w(&fn);
    std::unique_lock lock(queue_mu_);
    queue_.push_back(&w);
    while (!w.done && queue_.front() != &w) w.cv.wait(lock);
    if (w.done) return std::move(w.status);

    std::vector<PendingWrite*> batch(queue_.begin(), queue_.end());
    lock.unlock();
    std::vector<std::function<void()>> committed;
    RunBatch(batch, &committed);
    for (auto& fn : committed) fn();
    lock.lock();
    for (PendingWrite* p : batch) {
      queue_.pop_front();
      p->done = true;
      if (p != &w) p->cv.notify_one();
    }
    if (!queue_.empty()) queue_.front()->cv.notify_one();
    return std::move(w.status);
  }

  // One connection serves reads and writes (see Storage::Open): holding it
  // for the whole of fn is what makes fn's view consistent.
  Status Read(const std::function<Status(ReadTxn&)>& fn) override {
    std::lock_guard lock(db_mu_);
    SqliteTxn txn(db_.get(), &counters_, nullptr, nullptr, nullptr, nullptr, &stream_seq_);
    return fn(txn);
  }

 private:
  struct PendingWrite {
    explicit PendingWrite(const std::function<Status(WriteTxn&)>* f) : fn(f) {}
    const std::function<Status(WriteTxn&)>* fn;
    Status status;
    bool done = false;
    std::condition_variable cv;
  };

  // Runs `batch` in one transaction; sets each write's status. The
  // after-commit work of the writes that committed goes to `committed`.
  void RunBatch(const std::vector<PendingWrite*>& batch, std::vector<std::function<void()>>* committed_work) {
    std::lock_guard lock(db_mu_);
    Db& db = *db_;
    // A transaction a failed ROLLBACK left open (a disk fault) goes first:
    // BEGIN would fail on it for good.
    if (db.InTransaction()) (void)db.Run("ROLLBACK");
    if (Status s = db.Run("BEGIN IMMEDIATE"); !s.ok()) {
      for (PendingWrite* p : batch) p->status = s;
      return;
    }
    CountChanges committed;  // of the writes that succeeded so far
    // A write alone in its batch needs no savepoint (two statements fewer):
    // when it fails, the whole transaction rolls back.
    const bool alone = batch.size() == 1;
    std::vector<std::function<void()>> work;
    for (PendingWrite* p : batch) {
      CountChanges mine;
      std::vector<std::function<void()>> my_work;
      SqliteTxn txn(&db, &counters_, &committed, &mine, &stream_seq_, &my_work);
      Status s = alone ? Status::Ok() : db.Run("SAVEPOINT w");
      // Whether the transaction still holds exactly the writes that succeeded.
      bool intact = s.ok();
      if (s.ok()) {
        s = (*p->fn)(txn);
        if (!alone && !s.ok()) intact = db.Run("ROLLBACK TO w").ok();
        if (!alone && intact) intact = db.Run("RELEASE w").ok();
      }
      // A disk fault may make SQLite roll the whole transaction back by
      // itself: the writes after it would then commit statement by statement,
      // half a write at a time, and the earlier ones are gone. And a write
      // that failed but could not be undone must not be committed. Either
      // way the whole batch fails and nothing of it is kept.
      if (!intact || !db.InTransaction()) {
        Error cause = !s.ok() ? s.error() : db.Fail("write transaction");
        if (db.InTransaction()) (void)db.Run("ROLLBACK");
        for (PendingWrite* q : batch) q->status = cause;
        return;
      }
      if (s.ok()) {
        committed.Merge(mine);
        for (auto& fn : my_work) work.push_back(std::move(fn));
      }
      p->status = std::move(s);
    }
    if (alone && !batch[0]->status.ok()) {
      (void)db.Run("ROLLBACK");
      return;
    }
    if (Status c = db.Run("COMMIT"); !c.ok()) {
      (void)db.Run("ROLLBACK");
      for (PendingWrite* p : batch) {
        if (p->status.ok()) p->status = c;
      }
      return;
    }
    counters_.Apply(committed);
    *committed_work = std::move(work);
  }

  std::mutex queue_mu_;
  std::deque<PendingWrite*> queue_;
  TableCounters counters_;
  int64_t stream_seq_ = 0;        // the last stream sequence number issued; under db_mu_
  bool counters_loaded_ = false;  // counters_ holds every table's counts; under db_mu_
  std::mutex db_mu_;              // the connection
  std::unique_ptr<Db> db_;
  bool in_memory_;
  SnapshotStore snapshots_;
};

Status CheckFormat(Db& db) {
  POGI_ASSIGN_OR_RETURN(auto get, db.Prepare("SELECT value FROM meta WHERE key='format'"));
  int rc = get->Step();
  if (rc == SQLITE_ROW) {
    if (get->Int(0) != kFormatVersion) {
      return Error::Internal("database format " + std::to_string(get->Int(0)) +
                             " is not the format this pogi "
                             "reads (" +
                             std::to_string(kFormatVersion) + ")");
    }
    return Status::Ok();
  }
  if (rc != SQLITE_DONE) return db.Fail("read format");
  POGI_ASSIGN_OR_RETURN(auto put, db.Prepare("INSERT INTO meta(key, value) VALUES('format', ?1)"));
  put->Bind(1, kFormatVersion);
  if (put->Step() != SQLITE_DONE) return db.Fail("write format");
  return Status::Ok();
}

}  // namespace

// FNV-1a over the bytes, then a 64-bit finalizer (splitmix64's) so that
// similar keys ("k001", "k002") land far apart: parallel scan segments are
// hash ranges and must split the keys evenly. 63 bits, so that SQLite's
// signed integers sort it as unsigned.
int64_t PartitionHash(std::string_view partition) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : partition) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return static_cast<int64_t>(h >> 1);
}

Result<std::unique_ptr<Storage>> Storage::Open(const Options& options) {
  // In memory: SQLite's memdb VFS (a name without a leading '/' is private
  // to the connection), not ":memory:". A ":memory:" database lives in the
  // page cache itself, which SQLite walks at the end of every transaction;
  // memdb keeps the pages in a buffer behind an ordinary page cache. A
  // PutItem into a 270,000-item table measured 16.6 -> 13.9 us of CPU.
  std::string path = "file:pogi-in-memory?vfs=memdb";
  if (!options.in_memory) {
    if (mkdir(options.data_dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return Error::Internal("cannot create data folder " + options.data_dir + ": " + std::strerror(errno));
    }
    if (access(options.data_dir.c_str(), W_OK) != 0) {
      return Error::Internal("data folder " + options.data_dir + " is not writable: " + std::strerror(errno));
    }
    path = options.data_dir + "/pogi.db";
    POGI_RETURN_IF_ERROR(CheckFileLength(path));
  }
  POGI_ASSIGN_OR_RETURN(auto db, Db::Open(path));
  if (options.in_memory) {
    // memdb stops a database at 1 GB unless told otherwise; memory is the limit.
    sqlite3_int64 limit = sqlite3_int64{1} << 40;
    sqlite3_file_control(db->raw(), "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
  }
  // No busy timeout: with exclusive locking (below) a second process on the
  // same database fails at once instead of waiting for the lock.
  // The connection outlives `db`, which the storage takes over below.
  sqlite3* raw = db->raw();
  auto fail = [&](const Error& e) { return RefusedOpen(path, raw, e); };
  // One connection in exclusive locking mode serves every read and write:
  // SQLite then keeps the WAL index in the heap and takes no file lock per
  // transaction (six fcntl calls fewer per write), which measured 46 -> 34
  // us CPU per durable PutItem and 18 -> 15 us per GetItem. Reads wait for
  // the write batch in progress (microseconds) instead of running beside it
  // on their own connections, and no other process can open the database
  // while pogi runs.
  // WAL: synchronous=NORMAL: a commit is in
  // the WAL before we answer, so it survives kill -9; FULL also fsyncs it.
  // The schema is written with synchronous=OFF (a crash there leaves an
  // empty database to recreate), which saves start-up the fsyncs of a
  // rollback journal. A larger WAL between checkpoints means fewer fsyncs
  // and more pages written once for many commits: at 16,000 pages (the WAL
  // grows to 64 MB, and is removed on a clean stop) a PutItem over 100,000
  // random keys measured 18.5 us of CPU instead of 19.5, where 4,000 pages
  // left the put rate 21 % below that over 1,000 keys.
  const char* setup = options.in_memory ? "PRAGMA journal_mode=MEMORY;"
                                        : "PRAGMA locking_mode=EXCLUSIVE; PRAGMA synchronous=OFF; "
                                          "PRAGMA journal_mode=WAL; "
                                          "PRAGMA wal_autocheckpoint=16000;";
  if (Status s = db->Exec(setup); !s.ok()) return fail(s.error());
  if (Status s = db->Exec(kSchema); !s.ok()) return fail(s.error());
  const char* durability = options.in_memory           ? "PRAGMA synchronous=OFF;"
                           : options.fsync_each_commit ? "PRAGMA synchronous=FULL;"
                                                       : "PRAGMA synchronous=NORMAL;";
  if (Status s = db->Exec(durability); !s.ok()) return fail(s.error());
  if (Status s = CheckFormat(*db); !s.ok()) return fail(s.error());
  Db* connection = db.get();
  auto storage = std::make_unique<SqliteStorage>(std::move(db), options.in_memory,
                                                 options.in_memory ? "" : options.data_dir + "/snapshots");
  if (Status s = storage->LoadCounters(); !s.ok()) return fail(s.error());
  connection->set_log_faults(true);
  return std::unique_ptr<Storage>(std::move(storage));
}

}  // namespace pogi::storage
