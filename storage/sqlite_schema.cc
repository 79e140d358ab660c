// The SQLite backend's schema and format version.
#include "storage/sqlite_schema.h"

#include <string>

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
// (7 also gained `jobs`, exports, imports and bulk operations, created when
// missing: a file without it reads as one with no jobs; and
// `vector_entries` and `vector_generations`, likewise: a file without them
// has no vector index.)
constexpr int64_t kFormatVersion = 7;

}  // namespace

const char* const kSqliteSchema = R"sql(
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
CREATE TABLE IF NOT EXISTS jobs(
  arn TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  created_us INTEGER NOT NULL,
  state BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector_entries(
  index_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  slot INTEGER NOT NULL,
  tpk BLOB NOT NULL,
  tsk BLOB NOT NULL,
  size INTEGER NOT NULL,
  vec BLOB NOT NULL,
  filters BLOB NOT NULL,
  PRIMARY KEY(index_id, pk, slot, tpk, tsk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector_generations(
  index_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  slot INTEGER NOT NULL,
  gen INTEGER NOT NULL,
  PRIMARY KEY(index_id, pk, slot)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shared_values(
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL,
  expires_us INTEGER NOT NULL) WITHOUT ROWID;
COMMIT;
)sql";

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

}  // namespace pogi::storage
