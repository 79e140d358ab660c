// The PostgreSQL backend's tables. Only types and statements that
// PostgreSQL, CockroachDB and YugabyteDB all accept: BIGINT, BYTEA (compared
// bytewise, so keys order exactly as their encodings, with no collation),
// TEXT, DOUBLE PRECISION, composite primary keys, CREATE ... IF NOT EXISTS.
// Ids come from a counter row in `meta`, not from SERIAL or IDENTITY, whose
// forms differ between those databases.
#include "storage/pg_schema.h"

#include <set>

#include "common/sha256.h"

namespace pogi::storage {
namespace {

// DO NOT CHANGE without a migration: the format version of a schema.
// 1: the first PostgreSQL format (SQLite format 7's tables, keys by digest).
//    vector_entries and vector_generations, and stream_counters, came
//    later within format 1: a schema without them gains them empty
//    (PreparePgSchema).
constexpr int64_t kPgFormatVersion = 1;

struct TableDef {
  PgTable table;
  const char* column_defs;
  const char* primary_key;
};

// Partition keys appear as `pk` (the bytes) and `pkd` (PgKeyDigest, in
// primary keys and ordering); an index entry's table key as tpk/tpkd/tsk.
const std::vector<TableDef>& Tables() {
  static const std::vector<TableDef> tables = {
      {{"meta", "key, value"}, "key TEXT NOT NULL, value BIGINT NOT NULL", "key"},
      {{"catalog", "id, name, description"},
       "id BIGINT NOT NULL, name TEXT NOT NULL, description BYTEA NOT NULL",
       "id"},
      // A table's live item count and size, in rows a writer adds to
      // (several shards, so that writers of one table need not all wait for
      // one row): the count is their sum.
      {{"table_counts", "table_id, shard, items, bytes"},
       "table_id BIGINT NOT NULL, shard BIGINT NOT NULL, items BIGINT NOT NULL, bytes BIGINT NOT NULL",
       "table_id, shard"},
      {{"items", "table_id, hash, pkd, sk, pk, size, item"},
       "table_id BIGINT NOT NULL, hash BIGINT NOT NULL, pkd BYTEA NOT NULL, sk BYTEA NOT NULL, "
       "pk BYTEA NOT NULL, size BIGINT NOT NULL, item BYTEA NOT NULL",
       "table_id, hash, pkd, sk"},
      {{"indexes", "id, table_id, name"},
       "id BIGINT NOT NULL, table_id BIGINT NOT NULL, name TEXT NOT NULL",
       "id"},
      {{"index_items", "index_id, hash, pkd, sk, tpkd, tsk, pk, tpk, size, item"},
       "index_id BIGINT NOT NULL, hash BIGINT NOT NULL, pkd BYTEA NOT NULL, sk BYTEA NOT NULL, "
       "tpkd BYTEA NOT NULL, tsk BYTEA NOT NULL, pk BYTEA NOT NULL, tpk BYTEA NOT NULL, "
       "size BIGINT NOT NULL, item BYTEA NOT NULL",
       "index_id, hash, pkd, sk, tpkd, tsk"},
      {{"collections", "table_id, pkd, size"},
       "table_id BIGINT NOT NULL, pkd BYTEA NOT NULL, size BIGINT NOT NULL",
       "table_id, pkd"},
      {{"streams", "id, state"}, "id BIGINT NOT NULL, state BYTEA NOT NULL", "id"},
      // Each stream's sequence counter (PgTxn::IssueStreamSequence): a row
      // per stream, so that writes to different streams never wait for one
      // row. A stream without one goes on from meta's 'stream_seq'.
      {{"stream_counters", "stream_id, value"},
       "stream_id BIGINT NOT NULL, value BIGINT NOT NULL",
       "stream_id"},
      {{"stream_records", "stream_id, seq, created, record"},
       "stream_id BIGINT NOT NULL, seq BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL, "
       "record BYTEA NOT NULL",
       "stream_id, seq"},
      {{"table_settings", "table_id, settings"},
       "table_id BIGINT NOT NULL, settings BYTEA NOT NULL",
       "table_id"},
      // Storage's shared values (the clock, ClientRequestToken answers);
      // expires_us 0: for good.
      {{"shared_values", "key, value, expires_us"},
       "key TEXT NOT NULL, value BYTEA NOT NULL, expires_us BIGINT NOT NULL",
       "key"},
      // Exports, imports and bulk operations (service/jobs).
      {{"jobs", "arn, kind, created_us, state"},
       "arn TEXT NOT NULL, kind TEXT NOT NULL, created_us BIGINT NOT NULL, state BYTEA NOT NULL",
       "arn"},
      // Vector index entries (partition and table key by digest, as
      // above), and the generation of each slot of a partition.
      {{"vector_entries", "index_id, pkd, slot, tpkd, tsk, pk, tpk, size, vec, filters"},
       "index_id BIGINT NOT NULL, pkd BYTEA NOT NULL, slot BIGINT NOT NULL, tpkd BYTEA NOT NULL, "
       "tsk BYTEA NOT NULL, pk BYTEA NOT NULL, tpk BYTEA NOT NULL, size BIGINT NOT NULL, vec BYTEA NOT NULL, "
       "filters BYTEA NOT NULL",
       "index_id, pkd, slot, tpkd, tsk"},
      {{"vector_generations", "index_id, pkd, slot, gen"},
       "index_id BIGINT NOT NULL, pkd BYTEA NOT NULL, slot BIGINT NOT NULL, gen BIGINT NOT NULL",
       "index_id, pkd, slot"},
      {{"backups", "id, arn, table_name, created_us, description"},
       "id BIGINT NOT NULL, arn TEXT NOT NULL, table_name TEXT NOT NULL, created_us BIGINT NOT NULL, "
       "description BYTEA NOT NULL",
       "id"},
      {{"backup_items", "backup_id, hash, pkd, sk, pk, size, item"},
       "backup_id BIGINT NOT NULL, hash BIGINT NOT NULL, pkd BYTEA NOT NULL, sk BYTEA NOT NULL, "
       "pk BYTEA NOT NULL, size BIGINT NOT NULL, item BYTEA NOT NULL",
       "backup_id, hash, pkd, sk"},
      {{"history", "table_id, hash, pkd, sk, time_us, pk, size, item"},
       "table_id BIGINT NOT NULL, hash BIGINT NOT NULL, pkd BYTEA NOT NULL, sk BYTEA NOT NULL, "
       "time_us BIGINT NOT NULL, pk BYTEA NOT NULL, size BIGINT NOT NULL, item BYTEA",
       "table_id, hash, pkd, sk, time_us"},
      {{"backup_history", "backup_id, hash, pkd, sk, time_us, pk, size, item"},
       "backup_id BIGINT NOT NULL, hash BIGINT NOT NULL, pkd BYTEA NOT NULL, sk BYTEA NOT NULL, "
       "time_us BIGINT NOT NULL, pk BYTEA NOT NULL, size BIGINT NOT NULL, item BYTEA",
       "backup_id, hash, pkd, sk, time_us"},
  };
  return tables;
}

// Every statement that creates the format: the tables above, a copy of each
// for named snapshots (snap_T: the snapshot's name, then T's columns), and
// the snapshots' list.
std::string SchemaDdl() {
  std::string ddl;
  for (const TableDef& t : Tables()) {
    ddl += std::string("CREATE TABLE IF NOT EXISTS ") + t.table.name + "(" + t.column_defs +
           ", PRIMARY KEY(" + t.primary_key + "));\n";
    ddl += std::string("CREATE TABLE IF NOT EXISTS snap_") + t.table.name + "(snapshot TEXT NOT NULL, " +
           t.column_defs + ", PRIMARY KEY(snapshot, " + t.primary_key + "));\n";
  }
  ddl +=
      "CREATE UNIQUE INDEX IF NOT EXISTS catalog_name ON catalog(name);\n"
      "CREATE UNIQUE INDEX IF NOT EXISTS backups_arn ON backups(arn);\n"
      "CREATE TABLE IF NOT EXISTS snapshots(name TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, "
      "size_bytes BIGINT NOT NULL, PRIMARY KEY(name));\n"
      // Leases of background work (Storage::HoldLease); not in snapshots.
      "CREATE TABLE IF NOT EXISTS leases(name TEXT NOT NULL, holder TEXT NOT NULL, expires_us BIGINT NOT "
      "NULL, "
      "PRIMARY KEY(name));\n";
  return ddl;
}

// The tables of the format, by name, including the snapshot copies.
std::set<std::string> OwnTableNames() {
  std::set<std::string> names = {"snapshots", "leases"};
  for (const TableDef& t : Tables()) {
    names.insert(t.table.name);
    names.insert(std::string("snap_") + t.table.name);
  }
  return names;
}

}  // namespace

const std::vector<PgTable>& PgDataTables() {
  static const std::vector<PgTable> tables = [] {
    std::vector<PgTable> out;
    for (const TableDef& t : Tables()) out.push_back(t.table);
    return out;
  }();
  return tables;
}

std::string PgKeyDigest(std::string_view partition) {
  auto digest = Sha256(partition);
  return std::string(reinterpret_cast<const char*>(digest.data()), 16);
}

Status PreparePgSchema(PgConn& conn, const std::string& schema) {
  {
    POGI_ASSIGN_OR_RETURN(auto exists, conn.Exec("SELECT 1 FROM information_schema.schemata WHERE "
                                                 "schema_name=$1",
                                                 PgParams().Text(schema)));
    // Only a missing schema is created: CREATE SCHEMA IF NOT EXISTS would
    // need the right to create schemas even when this one exists.
    if (exists.count() == 0) {
      POGI_ASSIGN_OR_RETURN(std::string name, conn.QuoteIdentifier(schema));
      if (Status s = conn.Run("CREATE SCHEMA IF NOT EXISTS " + name); !s.ok()) {
        return Error::Internal("cannot create PostgreSQL schema " + schema + ": " + s.error().message());
      }
    }
  }
  {
    POGI_ASSIGN_OR_RETURN(auto names, conn.Exec("SELECT table_name FROM information_schema.tables WHERE "
                                                "table_schema=$1",
                                                PgParams().Text(schema)));
    std::set<std::string> own = OwnTableNames();
    std::set<std::string> missing = own;
    bool has_meta = false;
    std::string foreign;
    for (int i = 0; i < names.count(); i++) {
      std::string name = names.Str(i, 0);
      if (name == "meta") has_meta = true;
      missing.erase(name);
      if (!own.count(name) && foreign.empty()) foreign = name;
    }
    if (!foreign.empty() || (names.count() > 0 && !has_meta)) {
      return Error::Internal("PostgreSQL schema " + schema + " holds tables that are not pogi's (" +
                             (foreign.empty() ? names.Str(0, 0) : foreign) +
                             "): give pogi a schema of its own with --pg-schema");
    }
    if (has_meta) {
      POGI_ASSIGN_OR_RETURN(auto format, conn.Exec("SELECT value FROM meta WHERE key='format'"));
      if (format.count() == 0) {
        return Error::Internal("PostgreSQL schema " + schema + " has no pogi format version");
      }
      int64_t version = format.Int(0, 0);
      if (version != kPgFormatVersion) {
        return Error::Internal("PostgreSQL schema " + schema + " has format " + std::to_string(version) +
                               ", not the format this pogi reads (" + std::to_string(kPgFormatVersion) + ")");
      }
      // A table this format gained later (jobs) is made in a schema an
      // earlier pogi created; every statement is IF NOT EXISTS.
      if (!missing.empty()) return conn.Run(SchemaDdl());
      return Status::Ok();
    }
  }
  // A new schema: every table in one transaction, then the format row.
  auto create = [&]() -> Status {
    POGI_RETURN_IF_ERROR(conn.Run("BEGIN"));
    Status s = conn.Run(
        SchemaDdl() + "INSERT INTO meta(key, value) VALUES('format', " + std::to_string(kPgFormatVersion) +
        "), ('next_id', 0), ('stream_seq', 0), ('catalog_version', 0) ON CONFLICT (key) DO NOTHING;\n");
    if (!s.ok()) {
      (void)conn.Run("ROLLBACK");
      return s;
    }
    return conn.Run("COMMIT");
  };
  return create();
}

}  // namespace pogi::storage
