// SqliteTxn's statements: static, prepared SQL over the schema of
// sqlite_schema.cc.
#include "storage/sqlite_txn.h"

#include "storage/sqlite_control.h"

namespace pogi::storage {
namespace {

// Above every encoded key (keys are at most 2048 bytes; S keys are UTF-8,
// which never holds 0xFF): the upper bound of an unbounded range.
const std::string& MaxKey() {
  static const std::string k(2100, '\xff');
  return k;
}

}  // namespace

Result<std::vector<StreamRecordRow>> SqliteTxn::ReadStreamRecords(int64_t stream_id, int64_t after,
                                                                  int64_t last, int limit) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT seq, created, record FROM stream_records WHERE "
                                              "stream_id=?1 AND seq>?2 AND seq<=?3 ORDER BY seq LIMIT ?4"));
  st->Bind(1, stream_id).Bind(2, after).Bind(3, last).Bind(4, static_cast<int64_t>(limit));
  std::vector<StreamRecordRow> out;
  int rc;
  while ((rc = st->Step()) == SQLITE_ROW) out.push_back({st->Int(0), st->Double(1), st->Blob(2)});
  if (rc != SQLITE_DONE) return db_->Fail("read stream records");
  return out;
}

int64_t SqliteTxn::LastStreamSequence(int64_t) {
  if (sequence_) return *sequence_;
  return read_sequence_ ? *read_sequence_ : 0;
}

Result<std::optional<std::string>> SqliteTxn::GetStream(int64_t stream_id) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT state FROM streams WHERE id=?1"));
  st->Bind(1, stream_id);
  int rc = st->Step();
  if (rc == SQLITE_ROW) return std::optional<std::string>(st->Blob(0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return db_->Fail("read stream");
}

Result<int64_t> SqliteTxn::IssueStreamSequence(int64_t) {
  if (!sequence_) return Error::Internal("stream sequence issued outside a write");
  return ++*sequence_;
}

Result<int64_t> SqliteTxn::CreateStream(std::string_view state) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO streams(state) VALUES(?1)"));
  st->Bind(1, state);
  POGI_RETURN_IF_ERROR(Done(st->Step(), "create stream"));
  int64_t id = static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
  POGI_RETURN_IF_ERROR(SaveSequence());
  return id;
}

Status SqliteTxn::UpdateStream(int64_t stream_id, std::string_view state) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("UPDATE streams SET state=?2 WHERE id=?1"));
  st->Bind(1, stream_id).Bind(2, state);
  POGI_RETURN_IF_ERROR(Done(st->Step(), "update stream"));
  return SaveSequence();
}

Status SqliteTxn::DeleteStream(int64_t stream_id) {
  {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM stream_records WHERE stream_id=?1"));
    st->Bind(1, stream_id);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "delete stream records"));
  }
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM streams WHERE id=?1"));
  st->Bind(1, stream_id);
  return Done(st->Step(), "delete stream");
}

Result<int64_t> SqliteTxn::AppendStreamRecord(int64_t stream_id, double created, std::string_view record) {
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

Result<int64_t> SqliteTxn::TrimStreamRecords(int64_t stream_id, double created_before) {
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

Status SqliteTxn::DeleteStreamRecordsThrough(int64_t stream_id, int64_t through) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM stream_records WHERE stream_id=?1 AND seq<=?2"));
  st->Bind(1, stream_id).Bind(2, through);
  POGI_RETURN_IF_ERROR(Done(st->Step(), "delete stream records"));
  return SaveSequence();
}

void SqliteTxn::OnCommit(std::function<void()> fn) {
  if (on_commit_) on_commit_->push_back(std::move(fn));
}

Result<std::optional<std::string>> SqliteTxn::GetItem(int64_t table_id, const EncodedKey& key) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db_->Prepare("SELECT item FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND sk=?4"));
  st->Bind(1, table_id).Bind(2, PartitionHash(key.partition)).Bind(3, key.partition).Bind(4, key.sort);
  int rc = st->Step();
  if (rc == SQLITE_ROW) return std::optional<std::string>(st->Blob(0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return db_->Fail("read item");
}

Result<std::optional<TableRecord>> SqliteTxn::GetTable(int64_t table_id) {
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

Status SqliteTxn::ReadRange(const RangeRead& r, const std::function<bool(const Row&)>& visit) {
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
      sql = r.forward ? "SELECT size, pk, sk, tpk, tsk, item FROM index_items WHERE index_id=?1 AND hash=?2 "
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

Result<std::pair<int64_t, int64_t>> SqliteTxn::IndexCounters(int64_t index_id) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db_->Prepare("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM index_items WHERE index_id=?1"));
  st->Bind(1, index_id);
  if (st->Step() != SQLITE_ROW) return db_->Fail("count index");
  return std::make_pair(st->Int(0), st->Int(1));
}

Result<int64_t> SqliteTxn::CreateIndex(int64_t table_id, const std::string& name) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO indexes(table_id, name) VALUES(?1, ?2)"));
  st->Bind(1, table_id).BindText(2, name);
  POGI_RETURN_IF_ERROR(Done(st->Step(), "create index"));
  return static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
}

Status SqliteTxn::DropIndex(int64_t index_id) {
  POGI_RETURN_IF_ERROR(DropVectorEntries("DELETE FROM vector_entries WHERE index_id=?1",
                                         "DELETE FROM vector_generations WHERE index_id=?1", index_id));
  {
    POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM index_items WHERE index_id=?1"));
    st->Bind(1, index_id);
    POGI_RETURN_IF_ERROR(Done(st->Step(), "drop index entries"));
  }
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("DELETE FROM indexes WHERE id=?1"));
  st->Bind(1, index_id);
  return Done(st->Step(), "drop index");
}

Status SqliteTxn::PutIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key,
                                std::string_view bytes, int64_t size) {
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

Status SqliteTxn::DeleteIndexEntry(int64_t index_id, const EncodedKey& index_key,
                                   const EncodedKey& table_key) {
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

Result<int64_t> SqliteTxn::AdjustCollectionSize(int64_t table_id, std::string_view partition, int64_t delta) {
  POGI_ASSIGN_OR_RETURN(auto st,
                        db_->Prepare("INSERT INTO collections(table_id, pk, size) VALUES(?1, ?2, ?3) "
                                     "ON CONFLICT(table_id, pk) DO UPDATE SET size=size+?3 RETURNING size"));
  st->Bind(1, table_id).Bind(2, partition).Bind(3, delta);
  if (st->Step() != SQLITE_ROW) return db_->Fail("update item collection size");
  int64_t size = st->Int(0);
  while (st->Step() == SQLITE_ROW) {
  }
  return size;
}

Status SqliteTxn::PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes, int64_t size) {
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

Status SqliteTxn::DeleteItem(int64_t table_id, const EncodedKey& key) {
  POGI_ASSIGN_OR_RETURN(auto st,
                        db_->Prepare("DELETE FROM items WHERE table_id=?1 AND hash=?2 AND pk=?3 AND sk=?4"));
  st->Bind(1, table_id).Bind(2, PartitionHash(key.partition)).Bind(3, key.partition).Bind(4, key.sort);
  return Done(st->Step(), "delete item");
}

Status SqliteTxn::AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) {
  if (!changes_) return Error::Internal("counters changed outside a write");
  changes_->Add(table_id, items, bytes);
  return Status::Ok();
}

Result<int64_t> SqliteTxn::CreateTable(const TableRecord& record) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("INSERT INTO catalog(name, description) VALUES(?1,?2)"));
  st->BindText(1, record.name).Bind(2, record.description);
  POGI_RETURN_IF_ERROR(Done(st->Step(), "create table"));
  return static_cast<int64_t>(sqlite3_last_insert_rowid(db_->raw()));
}

Status SqliteTxn::UpdateTableDescription(int64_t table_id, std::string_view description) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("UPDATE catalog SET description=?2 WHERE id=?1"));
  st->Bind(1, table_id).Bind(2, description);
  return Done(st->Step(), "update table");
}

Result<std::string> SqliteTxn::GetTableSettings(int64_t table_id) {
  return sqlite_control::GetTableSettings(*db_, table_id);
}

Result<std::vector<BackupRecord>> SqliteTxn::ListBackups() { return sqlite_control::ListBackups(*db_); }

Result<std::optional<BackupRecord>> SqliteTxn::GetBackup(std::string_view arn) {
  return sqlite_control::GetBackup(*db_, arn);
}

Status SqliteTxn::ReadBackupItems(int64_t backup_id, const std::function<bool(const Row&)>& visit) {
  return sqlite_control::ReadBackupItems(*db_, backup_id, visit);
}

Status SqliteTxn::ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                                  const std::function<bool(const Row&)>& visit) {
  return sqlite_control::ReadHistoryAsOf(*db_, table_id, time_us, visit);
}

Status SqliteTxn::ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                                        const std::function<bool(const Row&)>& visit) {
  return sqlite_control::ReadBackupHistoryAsOf(*db_, backup_id, time_us, visit);
}

Status SqliteTxn::MoveHistoryToBackup(int64_t table_id, int64_t backup_id) {
  return sqlite_control::MoveHistoryToBackup(*db_, table_id, backup_id);
}

Status SqliteTxn::PutTableSettings(int64_t table_id, std::string_view settings) {
  return sqlite_control::PutTableSettings(*db_, table_id, settings);
}

Result<std::optional<std::string>> SqliteTxn::GetSharedValue(std::string_view key, int64_t now_us) {
  return sqlite_control::GetSharedValue(*db_, key, now_us);
}

Status SqliteTxn::PutSharedValue(std::string_view key, std::string_view value, int64_t expires_us) {
  return sqlite_control::PutSharedValue(*db_, key, value, expires_us);
}

Status SqliteTxn::PruneSharedValues(int64_t now_us) {
  return sqlite_control::PruneSharedValues(*db_, now_us);
}

Result<int64_t> SqliteTxn::CreateBackup(const BackupRecord& record, int64_t table_id) {
  return sqlite_control::CreateBackup(*db_, record, table_id);
}

Status SqliteTxn::DeleteBackup(int64_t backup_id) { return sqlite_control::DeleteBackup(*db_, backup_id); }

Status SqliteTxn::AppendHistory(int64_t table_id, const EncodedKey& key, int64_t time_us,
                                std::optional<std::string_view> item, int64_t size) {
  return sqlite_control::AppendHistory(*db_, table_id, key, time_us, item, size);
}

Status SqliteTxn::PruneHistory(int64_t table_id, int64_t before_us) {
  return sqlite_control::PruneHistory(*db_, table_id, before_us);
}

Status SqliteTxn::DropHistory(int64_t table_id) { return sqlite_control::DropHistory(*db_, table_id); }

Status SqliteTxn::DropTable(int64_t table_id) {
  POGI_RETURN_IF_ERROR(DropVectorEntries(
      "DELETE FROM vector_entries WHERE index_id IN (SELECT id FROM indexes WHERE table_id=?1)",
      "DELETE FROM vector_generations WHERE index_id IN (SELECT id FROM indexes WHERE table_id=?1)",
      table_id));
  {
    POGI_ASSIGN_OR_RETURN(
        auto st,
        db_->Prepare("DELETE FROM index_items WHERE index_id IN (SELECT id FROM indexes WHERE table_id=?1)"));
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

Status SqliteTxn::Done(int rc, std::string_view what) {
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status::Ok();
  return db_->Fail(what);
}

Status SqliteTxn::SaveSequence() {
  POGI_ASSIGN_OR_RETURN(auto st,
                        db_->Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('stream_seq', ?1)"));
  st->Bind(1, LastStreamSequence(0));
  return Done(st->Step(), "save stream sequence");
}

}  // namespace pogi::storage
