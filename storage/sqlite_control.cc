// SQLite storage of the control plane: table settings, on-demand backups and
// point-in-time history, each a WITHOUT ROWID table keyed like the items.
#include "storage/sqlite_control.h"

namespace pogi::storage::sqlite_control {
namespace {

Status Done(Db& db, int rc, std::string_view what) {
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status::Ok();
  return db.Fail(what);
}

BackupRecord BackupOf(const Stmt& st) {
  return BackupRecord{st.Int(0), st.Blob(1), st.Blob(2), st.Int(3), st.Blob(4)};
}

// Visits the rows of a statement whose columns are size, pk, sk, item.
Status VisitRows(Db& db, Stmt& st, const std::function<bool(const Row&)>& visit, std::string_view what) {
  int rc;
  Row row;
  while ((rc = st.Step()) == SQLITE_ROW) {
    row.size = st.Int(0);
    row.partition = row.table_partition = st.BlobView(1);
    row.sort = row.table_sort = st.BlobView(2);
    row.item = st.BlobView(3);
    if (!visit(row)) return Status::Ok();
  }
  return rc == SQLITE_DONE ? Status::Ok() : db.Fail(what);
}

}  // namespace

Result<std::string> GetTableSettings(Db& db, int64_t table_id) {
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("SELECT settings FROM table_settings WHERE table_id=?1"));
  st->Bind(1, table_id);
  int rc = st->Step();
  if (rc == SQLITE_ROW) return st->Blob(0);
  if (rc == SQLITE_DONE) return std::string();
  return db.Fail("read table settings");
}

Status PutTableSettings(Db& db, int64_t table_id, std::string_view settings) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db.Prepare("INSERT OR REPLACE INTO table_settings(table_id, settings) VALUES(?1, ?2)"));
  st->Bind(1, table_id).Bind(2, settings);
  return Done(db, st->Step(), "write table settings");
}

Result<std::optional<std::string>> GetSharedValue(Db& db, std::string_view key, int64_t now_us) {
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("SELECT value FROM shared_values WHERE key=?1 AND "
                                            "(expires_us=0 OR expires_us>?2)"));
  st->Bind(1, key).Bind(2, now_us);
  int rc = st->Step();
  if (rc == SQLITE_ROW) return std::optional<std::string>(st->Blob(0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return db.Fail("read shared value");
}

Status PutSharedValue(Db& db, std::string_view key, std::string_view value, int64_t expires_us) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db.Prepare("INSERT OR REPLACE INTO shared_values(key, value, expires_us) VALUES(?1, ?2, ?3)"));
  st->Bind(1, key).Bind(2, value).Bind(3, expires_us);
  return Done(db, st->Step(), "write shared value");
}

Status PruneSharedValues(Db& db, int64_t now_us) {
  POGI_ASSIGN_OR_RETURN(auto st,
                        db.Prepare("DELETE FROM shared_values WHERE expires_us<>0 AND expires_us<=?1"));
  st->Bind(1, now_us);
  return Done(db, st->Step(), "prune shared values");
}

Result<std::vector<BackupRecord>> ListBackups(Db& db) {
  POGI_ASSIGN_OR_RETURN(auto st,
                        db.Prepare("SELECT id, arn, table_name, created_us, description FROM backups "
                                   "ORDER BY created_us, arn"));
  std::vector<BackupRecord> out;
  int rc;
  while ((rc = st->Step()) == SQLITE_ROW) out.push_back(BackupOf(*st));
  if (rc != SQLITE_DONE) return db.Fail("list backups");
  return out;
}

Result<std::optional<BackupRecord>> GetBackup(Db& db, std::string_view arn) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db.Prepare("SELECT id, arn, table_name, created_us, description FROM backups WHERE arn=?1"));
  st->BindText(1, arn);
  int rc = st->Step();
  if (rc == SQLITE_ROW) return std::optional<BackupRecord>(BackupOf(*st));
  if (rc == SQLITE_DONE) return std::optional<BackupRecord>();
  return db.Fail("read backup");
}

Status ReadBackupItems(Db& db, int64_t backup_id, const std::function<bool(const Row&)>& visit) {
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("SELECT size, pk, sk, item FROM backup_items WHERE backup_id=?1 "
                                            "ORDER BY hash, pk, sk"));
  st->Bind(1, backup_id);
  return VisitRows(db, *st, visit, "read backup items");
}

Result<int64_t> CreateBackup(Db& db, const BackupRecord& record, int64_t table_id) {
  {
    POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("INSERT INTO backups(arn, table_name, created_us, description) "
                                              "VALUES(?1, ?2, ?3, ?4)"));
    st->BindText(1, record.arn).BindText(2, record.table_name).Bind(3, record.created_us);
    st->Bind(4, record.description);
    POGI_RETURN_IF_ERROR(Done(db, st->Step(), "create backup"));
  }
  int64_t id = sqlite3_last_insert_rowid(db.raw());
  // One statement inside the caller's transaction: the copy is the table
  // exactly as this transaction sees it.
  POGI_ASSIGN_OR_RETURN(auto st,
                        db.Prepare("INSERT INTO backup_items(backup_id, hash, pk, sk, size, item) "
                                   "SELECT ?1, hash, pk, sk, size, item FROM items WHERE table_id=?2"));
  st->Bind(1, id).Bind(2, table_id);
  POGI_RETURN_IF_ERROR(Done(db, st->Step(), "copy items into backup"));
  return id;
}

Status DeleteBackup(Db& db, int64_t backup_id) {
  {
    POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("DELETE FROM backup_history WHERE backup_id=?1"));
    st->Bind(1, backup_id);
    POGI_RETURN_IF_ERROR(Done(db, st->Step(), "delete backup history"));
  }
  {
    POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("DELETE FROM backup_items WHERE backup_id=?1"));
    st->Bind(1, backup_id);
    POGI_RETURN_IF_ERROR(Done(db, st->Step(), "delete backup items"));
  }
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("DELETE FROM backups WHERE id=?1"));
  st->Bind(1, backup_id);
  return Done(db, st->Step(), "delete backup");
}

Status AppendHistory(Db& db, int64_t table_id, const EncodedKey& key, int64_t time_us,
                     std::optional<std::string_view> item, int64_t size) {
  POGI_ASSIGN_OR_RETURN(
      auto st, db.Prepare("INSERT OR REPLACE INTO history(table_id, hash, pk, sk, time_us, size, item) "
                          "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)"));
  st->Bind(1, table_id).Bind(2, PartitionHash(key.partition)).Bind(3, key.partition).Bind(4, key.sort);
  st->Bind(5, time_us).Bind(6, size);
  if (item) st->Bind(7, *item);  // unbound: NULL, a deletion
  return Done(db, st->Step(), "write history");
}

Status ReadHistoryAsOf(Db& db, int64_t table_id, int64_t time_us,
                       const std::function<bool(const Row&)>& visit) {
  POGI_ASSIGN_OR_RETURN(
      auto st,
      db.Prepare(
          "SELECT h.size, h.pk, h.sk, h.item FROM history h WHERE h.table_id=?1 AND h.time_us=("
          "SELECT MAX(x.time_us) FROM history x WHERE x.table_id=?1 AND x.hash=h.hash AND x.pk=h.pk AND "
          "x.sk=h.sk AND x.time_us<=?2) AND h.item IS NOT NULL ORDER BY h.hash, h.pk, h.sk"));
  st->Bind(1, table_id).Bind(2, time_us);
  return VisitRows(db, *st, visit, "read history");
}

Status PruneHistory(Db& db, int64_t table_id, int64_t before_us) {
  {
    POGI_ASSIGN_OR_RETURN(
        auto st, db.Prepare("DELETE FROM history WHERE table_id=?1 AND time_us<(SELECT MAX(x.time_us) FROM "
                            "history x WHERE x.table_id=?1 AND x.hash=history.hash AND x.pk=history.pk AND "
                            "x.sk=history.sk AND x.time_us<=?2)"));
    st->Bind(1, table_id).Bind(2, before_us);
    POGI_RETURN_IF_ERROR(Done(db, st->Step(), "prune history"));
  }
  // What is left at or before the cutoff is each key's only version there:
  // a deletion among them says nothing a restore needs.
  POGI_ASSIGN_OR_RETURN(auto st,
                        db.Prepare("DELETE FROM history WHERE table_id=?1 AND time_us<=?2 AND item IS NULL"));
  st->Bind(1, table_id).Bind(2, before_us);
  return Done(db, st->Step(), "prune history deletions");
}

Status DropHistory(Db& db, int64_t table_id) {
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("DELETE FROM history WHERE table_id=?1"));
  st->Bind(1, table_id);
  return Done(db, st->Step(), "drop history");
}

Status MoveHistoryToBackup(Db& db, int64_t table_id, int64_t backup_id) {
  {
    POGI_ASSIGN_OR_RETURN(
        auto st,
        db.Prepare("INSERT OR REPLACE INTO backup_history(backup_id, hash, pk, sk, time_us, size, item) "
                   "SELECT ?2, hash, pk, sk, time_us, size, item FROM history WHERE table_id=?1"));
    st->Bind(1, table_id).Bind(2, backup_id);
    POGI_RETURN_IF_ERROR(Done(db, st->Step(), "keep history in backup"));
  }
  return DropHistory(db, table_id);
}

Status ReadBackupHistoryAsOf(Db& db, int64_t backup_id, int64_t time_us,
                             const std::function<bool(const Row&)>& visit) {
  // ReadHistoryAsOf's statement over backup_history.
  POGI_ASSIGN_OR_RETURN(
      auto st,
      db.Prepare(
          "SELECT h.size, h.pk, h.sk, h.item FROM backup_history h WHERE h.backup_id=?1 AND h.time_us=("
          "SELECT MAX(x.time_us) FROM backup_history x WHERE x.backup_id=?1 AND x.hash=h.hash AND "
          "x.pk=h.pk AND x.sk=h.sk AND x.time_us<=?2) AND h.item IS NOT NULL ORDER BY h.hash, h.pk, h.sk"));
  st->Bind(1, backup_id).Bind(2, time_us);
  return VisitRows(db, *st, visit, "read backup history");
}

Status DropTableState(Db& db, int64_t table_id) {
  POGI_RETURN_IF_ERROR(DropHistory(db, table_id));
  POGI_ASSIGN_OR_RETURN(auto st, db.Prepare("DELETE FROM table_settings WHERE table_id=?1"));
  st->Bind(1, table_id);
  return Done(db, st->Step(), "drop table settings");
}

}  // namespace pogi::storage::sqlite_control
