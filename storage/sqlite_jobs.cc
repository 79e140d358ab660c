// SQLite storage of what exports, imports and bulk operations use: their
// rows in `jobs`, and point-in-time history read a page at a time (each
// page one short statement, so that a long export never holds the one
// connection every request needs).
#include "storage/history_cursor.h"
#include "storage/sqlite_txn.h"

namespace pogi::storage {
namespace {

Error BadCursor() { return Error::Internal("history cursor is not one this storage made"); }

}  // namespace

Status SqliteTxn::ReadHistoryPage(int64_t table_id, int64_t time_us, std::string* cursor, int limit,
                                  const std::function<bool(const Row&)>& visit) {
  HistoryPosition start;  // bound: stays as it is while the statement runs
  if (!DecodeHistoryCursor(*cursor, &start)) return BadCursor();
  HistoryPosition pos = start;
  POGI_ASSIGN_OR_RETURN(
      auto st,
      db_->Prepare(
          "SELECT h.size, h.pk, h.sk, h.item, h.hash FROM history h WHERE h.table_id=?1 AND "
          "(h.hash, h.pk, h.sk)>(?3, ?4, ?5) AND h.time_us=(SELECT MAX(x.time_us) FROM history x WHERE "
          "x.table_id=?1 AND x.hash=h.hash AND x.pk=h.pk AND x.sk=h.sk AND x.time_us<=?2) AND h.item IS NOT "
          "NULL ORDER BY h.hash, h.pk, h.sk LIMIT ?6"));
  st->Bind(1, table_id).Bind(2, time_us).Bind(3, start.hash).Bind(4, start.order_key).Bind(5, start.sort);
  st->Bind(6, static_cast<int64_t>(limit));
  int rc, rows = 0;
  Row row;
  while ((rc = st->Step()) == SQLITE_ROW) {
    ++rows;
    row.size = st->Int(0);
    row.partition = row.table_partition = st->BlobView(1);
    row.sort = row.table_sort = st->BlobView(2);
    row.item = st->BlobView(3);
    pos = HistoryPosition{st->Int(4), std::string(row.partition), std::string(row.sort)};
    if (!visit(row)) break;
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_->Fail("read history page");
  *cursor = rc == SQLITE_DONE && rows < limit ? std::string() : EncodeHistoryCursor(pos);
  return Status::Ok();
}

Status SqliteTxn::ReadHistoryChanges(int64_t table_id, int64_t from_us, int64_t to_us, std::string* cursor,
                                     int limit, const std::function<bool(const HistoryChange&)>& visit) {
  HistoryPosition start;  // bound: stays as it is while the statement runs
  if (!DecodeHistoryCursor(*cursor, &start)) return BadCursor();
  HistoryPosition pos = start;
  // Per key written in [from, to): its newest version before `from`, its
  // newest before `to`, and that one's time.
  POGI_ASSIGN_OR_RETURN(
      auto st,
      db_->Prepare(
          "SELECT k.hash, k.pk, k.sk, "
          "(SELECT o.item FROM history o WHERE o.table_id=?1 AND o.hash=k.hash AND o.pk=k.pk AND o.sk=k.sk "
          "AND "
          "o.time_us<?2 ORDER BY o.time_us DESC LIMIT 1), "
          "(SELECT n.item FROM history n WHERE n.table_id=?1 AND n.hash=k.hash AND n.pk=k.pk AND n.sk=k.sk "
          "AND "
          "n.time_us<?3 ORDER BY n.time_us DESC LIMIT 1), "
          "(SELECT MAX(t.time_us) FROM history t WHERE t.table_id=?1 AND t.hash=k.hash AND t.pk=k.pk AND "
          "t.sk=k.sk AND t.time_us<?3) "
          "FROM (SELECT DISTINCT hash, pk, sk FROM history WHERE table_id=?1 AND time_us>=?2 AND time_us<?3 "
          "AND "
          "(hash, pk, sk)>(?4, ?5, ?6) ORDER BY hash, pk, sk LIMIT ?7) k ORDER BY k.hash, k.pk, k.sk"));
  st->Bind(1, table_id).Bind(2, from_us).Bind(3, to_us).Bind(4, start.hash).Bind(5, start.order_key);
  st->Bind(6, start.sort).Bind(7, static_cast<int64_t>(limit));
  int rc, rows = 0;
  HistoryChange change;
  while ((rc = st->Step()) == SQLITE_ROW) {
    ++rows;
    change.partition = st->BlobView(1);
    change.sort = st->BlobView(2);
    pos = HistoryPosition{st->Int(0), std::string(change.partition), std::string(change.sort)};
    change.old_item.reset();
    change.new_item.reset();
    if (!st->IsNull(3)) change.old_item = st->BlobView(3);
    if (!st->IsNull(4)) change.new_item = st->BlobView(4);
    change.time_us = st->Int(5);
    if (!change.old_item && !change.new_item) continue;
    if (!visit(change)) break;
  }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_->Fail("read history changes");
  *cursor = rc == SQLITE_DONE && rows < limit ? std::string() : EncodeHistoryCursor(pos);
  return Status::Ok();
}

Result<std::vector<JobRecord>> SqliteTxn::ListJobs(std::string_view kind) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT arn, kind, created_us, state FROM jobs WHERE kind=?1 "
                                              "ORDER BY created_us, arn"));
  st->BindText(1, kind);
  std::vector<JobRecord> out;
  int rc;
  while ((rc = st->Step()) == SQLITE_ROW) out.push_back({st->Blob(0), st->Blob(1), st->Int(2), st->Blob(3)});
  if (rc != SQLITE_DONE) return db_->Fail("list jobs");
  return out;
}

Result<std::optional<JobRecord>> SqliteTxn::GetJob(std::string_view arn) {
  POGI_ASSIGN_OR_RETURN(auto st, db_->Prepare("SELECT arn, kind, created_us, state FROM jobs WHERE arn=?1"));
  st->BindText(1, arn);
  int rc = st->Step();
  if (rc == SQLITE_ROW)
    return std::optional<JobRecord>(JobRecord{st->Blob(0), st->Blob(1), st->Int(2), st->Blob(3)});
  if (rc == SQLITE_DONE) return std::optional<JobRecord>();
  return db_->Fail("read job");
}

Status SqliteTxn::PutJob(const JobRecord& job) {
  POGI_ASSIGN_OR_RETURN(
      auto st,
      db_->Prepare("INSERT OR REPLACE INTO jobs(arn, kind, created_us, state) VALUES(?1, ?2, ?3, ?4)"));
  st->BindText(1, job.arn).BindText(2, job.kind).Bind(3, job.created_us).Bind(4, job.state);
  return Done(st->Step(), "write job");
}

}  // namespace pogi::storage
