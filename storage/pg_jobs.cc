// PostgreSQL storage of what exports, imports and bulk operations use: their
// rows in `jobs`, and point-in-time history read a page at a time, ordered
// (hash, pkd, sk) as every history read here is.
#include "storage/history_cursor.h"
#include "storage/pg_schema.h"
#include "storage/pg_txn.h"

namespace pogi::storage {
namespace {

Error BadCursor() { return Error::Internal("history cursor is not one this storage made"); }

JobRecord JobOf(const PgRows& rows, int i) {
  return JobRecord{rows.Str(i, 0), rows.Str(i, 1), rows.Int(i, 2), rows.Str(i, 3)};
}

}  // namespace

Status PgTxn::ReadHistoryPage(int64_t table_id, int64_t time_us, std::string* cursor, int limit,
                              const std::function<bool(const Row&)>& visit) {
  HistoryPosition pos;
  if (!DecodeHistoryCursor(*cursor, &pos)) return BadCursor();
  POGI_ASSIGN_OR_RETURN(
      auto rows,
      conn_->Exec(
          "SELECT h.size, h.pk, h.sk, h.item, h.hash, h.pkd FROM history h WHERE h.table_id=$1 AND "
          "(h.hash, h.pkd, h.sk)>($3, $4, $5) AND h.time_us=(SELECT MAX(x.time_us) FROM history x WHERE "
          "x.table_id=$1 AND x.hash=h.hash AND x.pkd=h.pkd AND x.sk=h.sk AND x.time_us<=$2) AND h.item IS "
          "NOT NULL ORDER BY h.hash, h.pkd, h.sk LIMIT $6",
          PgParams()
              .Int(table_id)
              .Int(time_us)
              .Int(pos.hash)
              .Bytes(pos.order_key)
              .Bytes(pos.sort)
              .Int(limit)));
  Row row;
  int i = 0;
  for (; i < rows.count(); i++) {
    row.size = rows.Int(i, 0);
    row.partition = row.table_partition = rows.View(i, 1);
    row.sort = row.table_sort = rows.View(i, 2);
    row.item = rows.View(i, 3);
    pos = HistoryPosition{rows.Int(i, 4), rows.Str(i, 5), rows.Str(i, 2)};
    if (!visit(row)) {
      ++i;
      break;
    }
  }
  *cursor = rows.count() < limit && i == rows.count() ? std::string() : EncodeHistoryCursor(pos);
  return Status::Ok();
}

Status PgTxn::ReadHistoryChanges(int64_t table_id, int64_t from_us, int64_t to_us, std::string* cursor,
                                 int limit, const std::function<bool(const HistoryChange&)>& visit) {
  HistoryPosition pos;
  if (!DecodeHistoryCursor(*cursor, &pos)) return BadCursor();
  POGI_ASSIGN_OR_RETURN(
      auto rows,
      conn_->Exec(
          "SELECT k.hash, k.pkd, k.sk, k.pk, "
          "(SELECT o.item FROM history o WHERE o.table_id=$1 AND o.hash=k.hash AND o.pkd=k.pkd AND o.sk=k.sk "
          "AND "
          "o.time_us<$2 ORDER BY o.time_us DESC LIMIT 1), "
          "(SELECT n.item FROM history n WHERE n.table_id=$1 AND n.hash=k.hash AND n.pkd=k.pkd AND n.sk=k.sk "
          "AND "
          "n.time_us<$3 ORDER BY n.time_us DESC LIMIT 1), "
          "(SELECT MAX(t.time_us) FROM history t WHERE t.table_id=$1 AND t.hash=k.hash AND t.pkd=k.pkd AND "
          "t.sk=k.sk AND t.time_us<$3) "
          "FROM (SELECT DISTINCT hash, pkd, sk, pk FROM history WHERE table_id=$1 AND time_us>=$2 AND "
          "time_us<$3 AND (hash, pkd, sk)>($4, $5, $6) ORDER BY hash, pkd, sk LIMIT $7) k ORDER BY k.hash, "
          "k.pkd, k.sk",
          PgParams()
              .Int(table_id)
              .Int(from_us)
              .Int(to_us)
              .Int(pos.hash)
              .Bytes(pos.order_key)
              .Bytes(pos.sort)
              .Int(limit)));
  HistoryChange change;
  int i = 0;
  bool stopped = false;
  for (; i < rows.count(); i++) {
    pos = HistoryPosition{rows.Int(i, 0), rows.Str(i, 1), rows.Str(i, 2)};
    change.partition = rows.View(i, 3);
    change.sort = rows.View(i, 2);
    change.old_item.reset();
    change.new_item.reset();
    if (!rows.IsNull(i, 4)) change.old_item = rows.View(i, 4);
    if (!rows.IsNull(i, 5)) change.new_item = rows.View(i, 5);
    change.time_us = rows.Int(i, 6);
    if (!change.old_item && !change.new_item) continue;
    if (!visit(change)) {
      stopped = true;
      break;
    }
  }
  *cursor = rows.count() < limit && !stopped ? std::string() : EncodeHistoryCursor(pos);
  return Status::Ok();
}

Result<std::vector<JobRecord>> PgTxn::ListJobs(std::string_view kind) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT arn, kind, created_us, state FROM jobs WHERE kind=$1 "
                                               "ORDER BY created_us, arn",
                                               PgParams().Text(kind)));
  std::vector<JobRecord> out;
  for (int i = 0; i < rows.count(); i++) out.push_back(JobOf(rows, i));
  return out;
}

Result<std::optional<JobRecord>> PgTxn::GetJob(std::string_view arn) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT arn, kind, created_us, state FROM jobs WHERE arn=$1",
                                               PgParams().Text(arn)));
  if (rows.count() == 0) return std::optional<JobRecord>();
  return std::optional<JobRecord>(JobOf(rows, 0));
}

Status PgTxn::PutJob(const JobRecord& job) {
  return Write(
      "INSERT INTO jobs(arn, kind, created_us, state) VALUES($1, $2, $3, $4) ON CONFLICT (arn) DO UPDATE SET "
      "kind=EXCLUDED.kind, created_us=EXCLUDED.created_us, state=EXCLUDED.state",
      PgParams().Text(job.arn).Text(job.kind).Int(job.created_us).Bytes(job.state));
}

}  // namespace pogi::storage
