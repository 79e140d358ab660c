// PgTxn's statements over the tables of pg_schema.cc: static SQL, bound
// values. Partition keys are found by (hash, digest) and ordered by them
// (pg_schema.h, PgKeyDigest); range reads fetch pages of rows and go on
// after the last row of a page, so that memory stays bounded at any size.
#include "storage/pg_txn.h"

#include "storage/pg_schema.h"

namespace pogi::storage {
namespace {

// Above every encoded key (keys are at most 2048 bytes; S keys are UTF-8,
// which never holds 0xFF): the upper bound of an unbounded range.
const std::string& MaxKey() {
  static const std::string k(2100, '\xff');
  return k;
}

// One shape of range read: its first page and the pages after a position.
struct RangeSql {
  const char* first;
  const char* next;
};

// Columns: size, pk, sk, item, hash, pkd (and tpk, tsk, tpkd for an index).
// Partition reads: $1 id, $2 hash, $3 pkd, $4/$5 sort bounds, $6/$7 left-out
// sort keys, then the position (sk, or sk, tpkd, tsk) and the page size.
// Scans: $1 id, $2/$3 hash range, then the position and the page size.
const RangeSql kTableQuery[2] = {
    {"SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk>=$4 "
     "AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) ORDER BY sk DESC LIMIT "
     "$8",
     "SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk>=$4 "
     "AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) AND sk<$8 ORDER BY sk "
     "DESC LIMIT $9"},
    {"SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk>=$4 "
     "AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) ORDER BY sk LIMIT $8",
     "SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk>=$4 "
     "AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) AND sk>$8 ORDER BY sk "
     "LIMIT $9"},
};
const RangeSql kIndexQuery[2] = {
    {"SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash=$2 "
     "AND "
     "pkd=$3 AND sk>=$4 AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) ORDER "
     "BY sk DESC, tpkd DESC, tsk DESC LIMIT $8",
     "SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash=$2 "
     "AND "
     "pkd=$3 AND sk>=$4 AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) AND "
     "(sk, tpkd, tsk)<($8, $9, $10) ORDER BY sk DESC, tpkd DESC, tsk DESC LIMIT $11"},
    {"SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash=$2 "
     "AND "
     "pkd=$3 AND sk>=$4 AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) ORDER "
     "BY sk, tpkd, tsk LIMIT $8",
     "SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash=$2 "
     "AND "
     "pkd=$3 AND sk>=$4 AND sk<=$5 AND ($6::bytea IS NULL OR sk<>$6) AND ($7::bytea IS NULL OR sk<>$7) AND "
     "(sk, tpkd, tsk)>($8, $9, $10) ORDER BY sk, tpkd, tsk LIMIT $11"},
};
const RangeSql kTableScan = {
    "SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash>=$2 AND hash<=$3 ORDER BY "
    "hash, pkd, sk LIMIT $4",
    "SELECT size, pk, sk, item, hash, pkd FROM items WHERE table_id=$1 AND hash>=$2 AND hash<=$3 AND (hash, "
    "pkd, sk)>($4, $5, $6) ORDER BY hash, pkd, sk LIMIT $7"};
const RangeSql kIndexScan = {
    "SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash>=$2 "
    "AND "
    "hash<=$3 ORDER BY hash, pkd, sk, tpkd, tsk LIMIT $4",
    "SELECT size, pk, sk, item, hash, pkd, tpk, tsk, tpkd FROM index_items WHERE index_id=$1 AND hash>=$2 "
    "AND "
    "hash<=$3 AND (hash, pkd, sk, tpkd, tsk)>($4, $5, $6, $7, $8) ORDER BY hash, pkd, sk, tpkd, tsk LIMIT "
    "$9"};

// Where the next page of a range read starts (after, exclusive).
struct Position {
  int64_t hash = 0;
  std::string pkd, sk, tpkd, tsk;
};

}  // namespace

Status PgTxn::Write(const char* sql, const PgParams& params) { return conn_->Queue(sql, params); }

Status PgTxn::BumpCatalog() {
  if (!bump_) return Error::Internal("catalog changed outside a write");
  if (bump_->to >= 0) return Status::Ok();
  if (!bump_->items_locked) {
    bump_->wants_items_lock = true;
    return Error::Internal("a catalog change runs again with the items table locked");
  }
  POGI_ASSIGN_OR_RETURN(
      auto rows, conn_->Exec("UPDATE meta SET value=value+1 WHERE key='catalog_version' RETURNING value"));
  if (rows.count() != 1) return Error::Internal("PostgreSQL schema has no catalog version");
  bump_->to = rows.Int(0, 0);
  bump_->from = bump_->to - 1;
  return Status::Ok();
}

Status PgTxn::WriteBulk(const char* sql, const PgParams& params) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec(sql, params, kBulkStatementSeconds));
  (void)rows;
  return Status::Ok();
}

Result<int64_t> PgTxn::NextId() {
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("UPDATE meta SET value=value+1 WHERE key='next_id' RETURNING value"));
  if (rows.count() != 1) return Error::Internal("PostgreSQL schema has no id counter");
  return rows.Int(0, 0);
}

Result<std::vector<StreamRecordRow>> PgTxn::ReadStreamRecords(int64_t stream_id, int64_t after, int64_t last,
                                                              int limit) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT seq, created, record FROM stream_records WHERE "
                                               "stream_id=$1 AND seq>$2 AND seq<=$3 ORDER BY seq LIMIT $4",
                                               PgParams().Int(stream_id).Int(after).Int(last).Int(limit)));
  std::vector<StreamRecordRow> out;
  for (int i = 0; i < rows.count(); i++) out.push_back({rows.Int(i, 0), rows.Double(i, 1), rows.Str(i, 2)});
  return out;
}

// A stream's counter row starts where meta's 'stream_seq' stands: the one
// counter of every stream before format 1 gained stream_counters, never
// moved since, so a stream's numbers go on increasing across that change.
int64_t PgTxn::LastStreamSequence(int64_t stream_id) {
  auto rows = conn_->Exec(
      "SELECT COALESCE((SELECT value FROM stream_counters WHERE stream_id=$1), (SELECT value FROM meta WHERE "
      "key='stream_seq'))",
      PgParams().Int(stream_id));
  return rows.ok() && rows->count() == 1 ? rows->Int(0, 0) : 0;
}

Result<std::optional<std::string>> PgTxn::GetStream(int64_t stream_id) {
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("SELECT state FROM streams WHERE id=$1", PgParams().Int(stream_id)));
  if (rows.count() == 0) return std::optional<std::string>();
  return std::optional<std::string>(rows.Str(0, 0));
}

// The stream's counter row stays locked until the commit: its numbers are
// issued in commit order, by every process sharing the database, and
// writes to other streams never wait for it.
Result<int64_t> PgTxn::IssueStreamSequence(int64_t stream_id) {
  if (!changes_) return Error::Internal("stream sequence issued outside a write");
  POGI_ASSIGN_OR_RETURN(
      auto rows,
      conn_->Exec("INSERT INTO stream_counters(stream_id, value) SELECT $1, value+1 FROM meta WHERE "
                  "key='stream_seq' ON CONFLICT (stream_id) DO UPDATE SET value=stream_counters.value+1 "
                  "RETURNING value",
                  PgParams().Int(stream_id)));
  if (rows.count() != 1) return Error::Internal("PostgreSQL schema has no stream sequence");
  return rows.Int(0, 0);
}

Result<int64_t> PgTxn::CreateStream(std::string_view state) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  POGI_ASSIGN_OR_RETURN(int64_t id, NextId());
  POGI_RETURN_IF_ERROR(
      Write("INSERT INTO streams(id, state) VALUES($1, $2)", PgParams().Int(id).Bytes(state)));
  return id;
}

Status PgTxn::UpdateStream(int64_t stream_id, std::string_view state) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  return Write("UPDATE streams SET state=$2 WHERE id=$1", PgParams().Int(stream_id).Bytes(state));
}

Status PgTxn::DeleteStream(int64_t stream_id) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM stream_records WHERE stream_id=$1", PgParams().Int(stream_id)));
  POGI_RETURN_IF_ERROR(Write("DELETE FROM stream_counters WHERE stream_id=$1", PgParams().Int(stream_id)));
  return Write("DELETE FROM streams WHERE id=$1", PgParams().Int(stream_id));
}

Result<int64_t> PgTxn::AppendStreamRecord(int64_t stream_id, double created, std::string_view record) {
  POGI_ASSIGN_OR_RETURN(int64_t seq, IssueStreamSequence(stream_id));
  POGI_RETURN_IF_ERROR(
      Write("INSERT INTO stream_records(stream_id, seq, created, record) VALUES($1, $2, $3, $4)",
            PgParams().Int(stream_id).Int(seq).Double(created).Bytes(record)));
  return seq;
}

Result<int64_t> PgTxn::TrimStreamRecords(int64_t stream_id, double created_before) {
  POGI_ASSIGN_OR_RETURN(auto found,
                        conn_->Exec("SELECT CAST(COALESCE(MAX(seq), 0) AS BIGINT) FROM stream_records WHERE "
                                    "stream_id=$1 AND created<$2",
                                    PgParams().Int(stream_id).Double(created_before)));
  int64_t through = found.Int(0, 0);
  if (through == 0) return int64_t{0};
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM stream_records WHERE stream_id=$1 AND seq<=$2",
                                 PgParams().Int(stream_id).Int(through)));
  return through;
}

Status PgTxn::DeleteStreamRecordsThrough(int64_t stream_id, int64_t through) {
  return WriteBulk("DELETE FROM stream_records WHERE stream_id=$1 AND seq<=$2",
                   PgParams().Int(stream_id).Int(through));
}

void PgTxn::OnCommit(std::function<void()> fn) {
  if (on_commit_) on_commit_->push_back(std::move(fn));
}

Result<std::optional<std::string>> PgTxn::GetItem(int64_t table_id, const EncodedKey& key) {
  std::string pkd = PgKeyDigest(key.partition);
  const bool lock = reads_ == ItemReads::kLocked;
  POGI_ASSIGN_OR_RETURN(
      auto rows,
      conn_->Exec(lock
                      ? "SELECT item FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk=$4 FOR UPDATE"
                      : "SELECT item FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk=$4",
                  PgParams().Int(table_id).Int(PartitionHash(key.partition)).Bytes(pkd).Bytes(key.sort)));
  if (rows.count() == 0) {
    if (lock) absent_.emplace(table_id, key.partition, key.sort);
    return std::optional<std::string>();
  }
  return std::optional<std::string>(rows.Str(0, 0));
}

Result<std::optional<TableRecord>> PgTxn::GetTable(int64_t table_id) {
  POGI_ASSIGN_OR_RETURN(
      auto rows,
      conn_->Exec("SELECT c.name, c.description, CAST(COALESCE(SUM(t.items), 0) AS BIGINT), "
                  "CAST(COALESCE(SUM(t.bytes), 0) AS BIGINT) FROM catalog c LEFT JOIN table_counts t "
                  "ON t.table_id=c.id WHERE c.id=$1 GROUP BY c.name, c.description",
                  PgParams().Int(table_id)));
  if (rows.count() == 0) return std::optional<TableRecord>();
  TableRecord t{table_id, rows.Str(0, 0), rows.Str(0, 1), rows.Int(0, 2), rows.Int(0, 3)};
  // This write's own changes are written to table_counts at its commit.
  if (changes_) {
    Count d = changes_->DeltaOf(table_id);
    t.item_count += d.items;
    t.size_bytes += d.bytes;
  }
  return std::optional<TableRecord>(std::move(t));
}

Status PgTxn::ReadRange(const RangeRead& r, const std::function<bool(const Row&)>& visit) {
  const RangeSql& sql = r.partition ? (r.is_index ? kIndexQuery : kTableQuery)[r.forward ? 1 : 0]
                                    : (r.is_index ? kIndexScan : kTableScan);
  static const std::string kMinKey;
  std::string pkd = r.partition ? PgKeyDigest(*r.partition) : std::string();
  std::optional<Position> pos;
  if (r.start_after) {
    const RowPosition& s = *r.start_after;
    pos = Position{PartitionHash(s.partition), PgKeyDigest(s.partition), s.sort,
                   PgKeyDigest(s.table_partition), s.table_sort};
  }
  for (int page = kPgFirstPage;; page = kPgPage) {
    PgParams p;
    p.Int(r.id);
    if (r.partition) {
      p.Int(PartitionHash(*r.partition)).Bytes(pkd);
      p.Bytes(r.sort_lo ? *r.sort_lo : kMinKey).Bytes(r.sort_hi ? *r.sort_hi : MaxKey());
      p.OptionalBytes(r.exclude_lo).OptionalBytes(r.exclude_hi);
      if (pos) {
        p.Bytes(pos->sk);
        if (r.is_index) p.Bytes(pos->tpkd).Bytes(pos->tsk);
      }
    } else {
      p.Int(r.hash_lo).Int(r.hash_hi);
      if (pos) {
        p.Int(pos->hash).Bytes(pos->pkd).Bytes(pos->sk);
        if (r.is_index) p.Bytes(pos->tpkd).Bytes(pos->tsk);
      }
    }
    p.Int(page);
    POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec(pos ? sql.next : sql.first, p));
    Row row;
    for (int i = 0; i < rows.count(); i++) {
      row.size = rows.Int(i, 0);
      row.item = rows.View(i, 3);
      if (r.with_keys) {
        row.partition = rows.View(i, 1);
        row.sort = rows.View(i, 2);
        row.table_partition = r.is_index ? rows.View(i, 6) : row.partition;
        row.table_sort = r.is_index ? rows.View(i, 7) : row.sort;
      }
      if (!visit(row)) return Status::Ok();
    }
    if (rows.count() < page) return Status::Ok();
    int last = rows.count() - 1;
    pos = Position{rows.Int(last, 4), rows.Str(last, 5), rows.Str(last, 2),
                   r.is_index ? rows.Str(last, 8) : std::string(),
                   r.is_index ? rows.Str(last, 7) : std::string()};
  }
}

Result<std::pair<int64_t, int64_t>> PgTxn::IndexCounters(int64_t index_id) {
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(size), 0) AS "
                                    "BIGINT) FROM index_items WHERE index_id=$1",
                                    PgParams().Int(index_id), kBulkStatementSeconds));
  return std::make_pair(rows.Int(0, 0), rows.Int(0, 1));
}

Result<int64_t> PgTxn::CreateIndex(int64_t table_id, const std::string& name) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  POGI_ASSIGN_OR_RETURN(int64_t id, NextId());
  POGI_RETURN_IF_ERROR(Write("INSERT INTO indexes(id, table_id, name) VALUES($1, $2, $3)",
                             PgParams().Int(id).Int(table_id).Text(name)));
  return id;
}

Status PgTxn::DropIndex(int64_t index_id) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM vector_entries WHERE index_id=$1", PgParams().Int(index_id)));
  POGI_RETURN_IF_ERROR(Write("DELETE FROM vector_generations WHERE index_id=$1", PgParams().Int(index_id)));
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM index_items WHERE index_id=$1", PgParams().Int(index_id)));
  return Write("DELETE FROM indexes WHERE id=$1", PgParams().Int(index_id));
}

Status PgTxn::PutIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key,
                            std::string_view bytes, int64_t size) {
  std::string pkd = PgKeyDigest(index_key.partition), tpkd = PgKeyDigest(table_key.partition);
  return Write(
      "INSERT INTO index_items(index_id, hash, pkd, sk, tpkd, tsk, pk, tpk, size, item) VALUES($1, $2, $3, "
      "$4, "
      "$5, $6, $7, $8, $9, $10) ON CONFLICT (index_id, hash, pkd, sk, tpkd, tsk) DO UPDATE SET "
      "pk=EXCLUDED.pk, "
      "tpk=EXCLUDED.tpk, size=EXCLUDED.size, item=EXCLUDED.item",
      PgParams()
          .Int(index_id)
          .Int(PartitionHash(index_key.partition))
          .Bytes(pkd)
          .Bytes(index_key.sort)
          .Bytes(tpkd)
          .Bytes(table_key.sort)
          .Bytes(index_key.partition)
          .Bytes(table_key.partition)
          .Int(size)
          .Bytes(bytes));
}

Status PgTxn::DeleteIndexEntry(int64_t index_id, const EncodedKey& index_key, const EncodedKey& table_key) {
  std::string pkd = PgKeyDigest(index_key.partition), tpkd = PgKeyDigest(table_key.partition);
  return Write(
      "DELETE FROM index_items WHERE index_id=$1 AND hash=$2 AND pkd=$3 AND sk=$4 AND tpkd=$5 AND tsk=$6",
      PgParams()
          .Int(index_id)
          .Int(PartitionHash(index_key.partition))
          .Bytes(pkd)
          .Bytes(index_key.sort)
          .Bytes(tpkd)
          .Bytes(table_key.sort));
}

Result<int64_t> PgTxn::AdjustCollectionSize(int64_t table_id, std::string_view partition, int64_t delta) {
  std::string pkd = PgKeyDigest(partition);
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("INSERT INTO collections(table_id, pkd, size) VALUES($1, $2, $3) "
                                    "ON CONFLICT (table_id, pkd) DO UPDATE SET "
                                    "size=collections.size+EXCLUDED.size RETURNING size",
                                    PgParams().Int(table_id).Bytes(pkd).Int(delta)));
  if (rows.count() != 1) return Error::Internal("item collection size not updated");
  return rows.Int(0, 0);
}

Status PgTxn::PutItem(int64_t table_id, const EncodedKey& key, std::string_view bytes, int64_t size) {
  std::string pkd = PgKeyDigest(key.partition);
  // A keyed write that read the key as absent holds no lock on it: a
  // concurrent insert of the key makes this one fail (23505), to run again.
  const bool read_absent = reads_ == ItemReads::kLocked && absent_.erase({table_id, key.partition, key.sort});
  return Write(
      read_absent
          ? "INSERT INTO items(table_id, hash, pkd, sk, pk, size, item) VALUES($1, $2, $3, $4, $5, $6, $7)"
          : "INSERT INTO items(table_id, hash, pkd, sk, pk, size, item) VALUES($1, $2, $3, $4, $5, $6, $7) "
            "ON "
            "CONFLICT (table_id, hash, pkd, sk) DO UPDATE SET pk=EXCLUDED.pk, size=EXCLUDED.size, "
            "item=EXCLUDED.item",
      PgParams()
          .Int(table_id)
          .Int(PartitionHash(key.partition))
          .Bytes(pkd)
          .Bytes(key.sort)
          .Bytes(key.partition)
          .Int(size)
          .Bytes(bytes));
}

Status PgTxn::DeleteItem(int64_t table_id, const EncodedKey& key) {
  std::string pkd = PgKeyDigest(key.partition);
  return Write("DELETE FROM items WHERE table_id=$1 AND hash=$2 AND pkd=$3 AND sk=$4",
               PgParams().Int(table_id).Int(PartitionHash(key.partition)).Bytes(pkd).Bytes(key.sort));
}

Status PgTxn::AdjustCounters(int64_t table_id, int64_t items, int64_t bytes) {
  if (!changes_) return Error::Internal("counters changed outside a write");
  changes_->Add(table_id, items, bytes);
  return Status::Ok();
}

Result<int64_t> PgTxn::CreateTable(const TableRecord& record) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  POGI_ASSIGN_OR_RETURN(int64_t id, NextId());
  auto inserted = conn_->Exec("INSERT INTO catalog(id, name, description) VALUES($1, $2, $3)",
                              PgParams().Int(id).Text(record.name).Bytes(record.description));
  Status s = inserted.ok() ? Status::Ok() : Status(inserted.error());
  // Another process created a table of that name since this one last
  // loaded its catalog: DynamoDB's answer to a second CreateTable.
  if (!s.ok() && conn_->last_sqlstate() == "23505") {
    return Error::ResourceInUse("Table already exists: " + record.name);
  }
  POGI_RETURN_IF_ERROR(s);
  return id;
}

Status PgTxn::UpdateTableDescription(int64_t table_id, std::string_view description) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  return Write("UPDATE catalog SET description=$2 WHERE id=$1", PgParams().Int(table_id).Bytes(description));
}

Status PgTxn::DropTable(int64_t table_id) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  PgParams id = PgParams().Int(table_id);
  POGI_RETURN_IF_ERROR(WriteBulk(
      "DELETE FROM vector_entries WHERE index_id IN (SELECT id FROM indexes WHERE table_id=$1)", id));
  POGI_RETURN_IF_ERROR(Write(
      "DELETE FROM vector_generations WHERE index_id IN (SELECT id FROM indexes WHERE table_id=$1)", id));
  POGI_RETURN_IF_ERROR(
      WriteBulk("DELETE FROM index_items WHERE index_id IN (SELECT id FROM indexes WHERE table_id=$1)", id));
  POGI_RETURN_IF_ERROR(Write("DELETE FROM indexes WHERE table_id=$1", id));
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM collections WHERE table_id=$1", id));
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM items WHERE table_id=$1", id));
  POGI_RETURN_IF_ERROR(Write("DELETE FROM table_counts WHERE table_id=$1", id));
  POGI_RETURN_IF_ERROR(DropHistory(table_id));
  POGI_RETURN_IF_ERROR(Write("DELETE FROM table_settings WHERE table_id=$1", id));
  if (changes_) changes_->dropped.insert(table_id);
  return Write("DELETE FROM catalog WHERE id=$1", id);
}

}  // namespace pogi::storage
