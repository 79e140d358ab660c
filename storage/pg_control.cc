// PgTxn's control plane: table settings, shared values, on-demand backups (a copy of a
// table's items) and point-in-time history, keyed like the items.
#include <algorithm>
#include <tuple>

#include "storage/pg_schema.h"
#include "storage/pg_txn.h"

namespace pogi::storage {
namespace {

BackupRecord BackupOf(const PgRows& rows, int i) {
  return BackupRecord{rows.Int(i, 0), rows.Str(i, 1), rows.Str(i, 2), rows.Int(i, 3), rows.Str(i, 4)};
}

}  // namespace

Status PgTxn::VisitPages(const char* first, const char* next, const PgParams& params,
                         const std::function<bool(const Row&)>& visit) {
  std::optional<std::tuple<int64_t, std::string, std::string>> pos;
  for (int page = kPgFirstPage;; page = kPgPage) {
    PgParams p = params;
    if (pos) p.Int(std::get<0>(*pos)).Bytes(std::get<1>(*pos)).Bytes(std::get<2>(*pos));
    p.Int(page);
    POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec(pos ? next : first, p));
    Row row;
    for (int i = 0; i < rows.count(); i++) {
      row.size = rows.Int(i, 0);
      row.partition = row.table_partition = rows.View(i, 1);
      row.sort = row.table_sort = rows.View(i, 2);
      row.item = rows.View(i, 3);
      if (!visit(row)) return Status::Ok();
    }
    if (rows.count() < page) return Status::Ok();
    int last = rows.count() - 1;
    pos.emplace(rows.Int(last, 4), rows.Str(last, 5), rows.Str(last, 2));
  }
}

Result<std::string> PgTxn::GetTableSettings(int64_t table_id) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT settings FROM table_settings WHERE table_id=$1",
                                               PgParams().Int(table_id)));
  return rows.count() ? rows.Str(0, 0) : std::string();
}

Status PgTxn::PutTableSettings(int64_t table_id, std::string_view settings) {
  POGI_RETURN_IF_ERROR(BumpCatalog());
  return Write(
      "INSERT INTO table_settings(table_id, settings) VALUES($1, $2) ON CONFLICT (table_id) DO UPDATE "
      "SET settings=EXCLUDED.settings",
      PgParams().Int(table_id).Bytes(settings));
}

Result<std::optional<std::string>> PgTxn::GetSharedValue(std::string_view key, int64_t now_us) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT value FROM shared_values WHERE key=$1 AND "
                                               "(expires_us=0 OR expires_us>$2)",
                                               PgParams().Text(key).Int(now_us)));
  if (rows.count() == 0) return std::optional<std::string>();
  return std::optional<std::string>(rows.Str(0, 0));
}

Status PgTxn::PutSharedValue(std::string_view key, std::string_view value, int64_t expires_us) {
  return Write(
      "INSERT INTO shared_values(key, value, expires_us) VALUES($1, $2, $3) ON CONFLICT (key) DO UPDATE "
      "SET value=EXCLUDED.value, expires_us=EXCLUDED.expires_us",
      PgParams().Text(key).Bytes(value).Int(expires_us));
}

Status PgTxn::PruneSharedValues(int64_t now_us) {
  return Write("DELETE FROM shared_values WHERE expires_us<>0 AND expires_us<=$1", PgParams().Int(now_us));
}

Result<std::vector<BackupRecord>> PgTxn::ListBackups() {
  // Ordered here, not by the database: ARNs compare bytewise, whatever
  // collation the database has.
  POGI_ASSIGN_OR_RETURN(auto rows,
                        conn_->Exec("SELECT id, arn, table_name, created_us, description FROM backups"));
  std::vector<BackupRecord> out;
  for (int i = 0; i < rows.count(); i++) out.push_back(BackupOf(rows, i));
  std::sort(out.begin(), out.end(), [](const BackupRecord& a, const BackupRecord& b) {
    return std::tie(a.created_us, a.arn) < std::tie(b.created_us, b.arn);
  });
  return out;
}

Result<std::optional<BackupRecord>> PgTxn::GetBackup(std::string_view arn) {
  POGI_ASSIGN_OR_RETURN(auto rows, conn_->Exec("SELECT id, arn, table_name, created_us, description FROM "
                                               "backups WHERE arn=$1",
                                               PgParams().Text(arn)));
  if (rows.count() == 0) return std::optional<BackupRecord>();
  return std::optional<BackupRecord>(BackupOf(rows, 0));
}

Status PgTxn::ReadBackupItems(int64_t backup_id, const std::function<bool(const Row&)>& visit) {
  return VisitPages(
      "SELECT size, pk, sk, item, hash, pkd FROM backup_items WHERE backup_id=$1 ORDER BY hash, "
      "pkd, sk LIMIT $2",
      "SELECT size, pk, sk, item, hash, pkd FROM backup_items WHERE backup_id=$1 AND (hash, pkd, "
      "sk)>($2, $3, $4) ORDER BY hash, pkd, sk LIMIT $5",
      PgParams().Int(backup_id), visit);
}

Result<int64_t> PgTxn::CreateBackup(const BackupRecord& record, int64_t table_id) {
  POGI_ASSIGN_OR_RETURN(int64_t id, NextId());
  POGI_RETURN_IF_ERROR(
      Write("INSERT INTO backups(id, arn, table_name, created_us, description) VALUES($1, $2, "
            "$3, $4, $5)",
            PgParams()
                .Int(id)
                .Text(record.arn)
                .Text(record.table_name)
                .Int(record.created_us)
                .Bytes(record.description)));
  // One statement inside the caller's transaction: the copy is the table
  // exactly as this transaction sees it.
  POGI_RETURN_IF_ERROR(
      WriteBulk("INSERT INTO backup_items(backup_id, hash, pkd, sk, pk, size, item) SELECT $1, hash, "
                "pkd, sk, pk, size, item FROM items WHERE table_id=$2",
                PgParams().Int(id).Int(table_id)));
  return id;
}

Status PgTxn::DeleteBackup(int64_t backup_id) {
  PgParams id = PgParams().Int(backup_id);
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM backup_history WHERE backup_id=$1", id));
  POGI_RETURN_IF_ERROR(WriteBulk("DELETE FROM backup_items WHERE backup_id=$1", id));
  return Write("DELETE FROM backups WHERE id=$1", id);
}

Status PgTxn::AppendHistory(int64_t table_id, const EncodedKey& key, int64_t time_us,
                            std::optional<std::string_view> item, int64_t size) {
  std::string pkd = PgKeyDigest(key.partition);
  PgParams p;
  p.Int(table_id)
      .Int(PartitionHash(key.partition))
      .Bytes(pkd)
      .Bytes(key.sort)
      .Int(time_us)
      .Bytes(key.partition);
  p.Int(size);
  if (item) {
    p.Bytes(*item);
  } else {
    p.NullBytes();  // a deletion
  }
  return Write(
      "INSERT INTO history(table_id, hash, pkd, sk, time_us, pk, size, item) VALUES($1, $2, $3, $4, $5, "
      "$6, $7, $8) ON CONFLICT (table_id, hash, pkd, sk, time_us) DO UPDATE SET size=EXCLUDED.size, "
      "item=EXCLUDED.item",
      p);
}

Status PgTxn::ReadHistoryAsOf(int64_t table_id, int64_t time_us,
                              const std::function<bool(const Row&)>& visit) {
  return VisitPages(
      "SELECT h.size, h.pk, h.sk, h.item, h.hash, h.pkd FROM history h WHERE h.table_id=$1 AND "
      "h.time_us=(SELECT "
      "MAX(x.time_us) FROM history x WHERE x.table_id=$1 AND x.hash=h.hash AND x.pkd=h.pkd AND x.sk=h.sk AND "
      "x.time_us<=$2) AND h.item IS NOT NULL ORDER BY h.hash, h.pkd, h.sk LIMIT $3",
      "SELECT h.size, h.pk, h.sk, h.item, h.hash, h.pkd FROM history h WHERE h.table_id=$1 AND "
      "h.time_us=(SELECT "
      "MAX(x.time_us) FROM history x WHERE x.table_id=$1 AND x.hash=h.hash AND x.pkd=h.pkd AND x.sk=h.sk AND "
      "x.time_us<=$2) AND h.item IS NOT NULL AND (h.hash, h.pkd, h.sk)>($3, $4, $5) ORDER BY h.hash, h.pkd, "
      "h.sk "
      "LIMIT $6",
      PgParams().Int(table_id).Int(time_us), visit);
}

Status PgTxn::ReadBackupHistoryAsOf(int64_t backup_id, int64_t time_us,
                                    const std::function<bool(const Row&)>& visit) {
  return VisitPages(
      "SELECT h.size, h.pk, h.sk, h.item, h.hash, h.pkd FROM backup_history h WHERE h.backup_id=$1 AND "
      "h.time_us=(SELECT MAX(x.time_us) FROM backup_history x WHERE x.backup_id=$1 AND x.hash=h.hash AND "
      "x.pkd=h.pkd AND x.sk=h.sk AND x.time_us<=$2) AND h.item IS NOT NULL ORDER BY h.hash, h.pkd, h.sk "
      "LIMIT $3",
      "SELECT h.size, h.pk, h.sk, h.item, h.hash, h.pkd FROM backup_history h WHERE h.backup_id=$1 AND "
      "h.time_us=(SELECT MAX(x.time_us) FROM backup_history x WHERE x.backup_id=$1 AND x.hash=h.hash AND "
      "x.pkd=h.pkd AND x.sk=h.sk AND x.time_us<=$2) AND h.item IS NOT NULL AND (h.hash, h.pkd, h.sk)>($3, "
      "$4, $5) "
      "ORDER BY h.hash, h.pkd, h.sk LIMIT $6",
      PgParams().Int(backup_id).Int(time_us), visit);
}

Status PgTxn::PruneHistory(int64_t table_id, int64_t before_us) {
  PgParams p = PgParams().Int(table_id).Int(before_us);
  POGI_RETURN_IF_ERROR(
      WriteBulk("DELETE FROM history WHERE table_id=$1 AND time_us<(SELECT MAX(x.time_us) FROM "
                "history x WHERE x.table_id=$1 AND x.hash=history.hash AND x.pkd=history.pkd AND "
                "x.sk=history.sk AND x.time_us<=$2)",
                p));
  // What is left at or before the cutoff is each key's only version there:
  // a deletion among them says nothing a restore needs.
  return WriteBulk("DELETE FROM history WHERE table_id=$1 AND time_us<=$2 AND item IS NULL", p);
}

Status PgTxn::DropHistory(int64_t table_id) {
  return WriteBulk("DELETE FROM history WHERE table_id=$1", PgParams().Int(table_id));
}

Status PgTxn::MoveHistoryToBackup(int64_t table_id, int64_t backup_id) {
  POGI_RETURN_IF_ERROR(
      WriteBulk("INSERT INTO backup_history(backup_id, hash, pkd, sk, time_us, pk, size, item) SELECT "
                "$2, hash, pkd, sk, time_us, pk, size, item FROM history WHERE table_id=$1 ON "
                "CONFLICT (backup_id, hash, pkd, sk, time_us) DO UPDATE SET size=EXCLUDED.size, "
                "item=EXCLUDED.item",
                PgParams().Int(table_id).Int(backup_id)));
  return DropHistory(table_id);
}

}  // namespace pogi::storage
