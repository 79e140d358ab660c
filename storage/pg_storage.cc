// Storage on PostgreSQL: the tables of pg_schema.cc in one schema, reached
// through libpq. Writes run one at a time on one connection, each a
// SERIALIZABLE transaction; reads run beside them on a pool of connections,
// each a REPEATABLE READ READ ONLY transaction (one consistent snapshot).
// Nothing is held in this process that another process sharing the
// database would need: ids, the stream sequence and the table counters are
// rows of the database, changed inside the write that changes them.
// A lost connection fails the request in progress (InternalServerError) and
// is replaced at the next one, so pogi follows a restart or a failover
// (libpq's multi-host strings with target_session_attrs=read-write).
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>

#include "storage/backends.h"
#include "storage/pg_conn.h"
#include "storage/pg_schema.h"
#include "storage/pg_txn.h"
#include "storage/storage.h"

namespace pogi::storage {
namespace {

// Connections kept open for reads between requests.
constexpr size_t kIdleReadConnections = 8;
// Runs of a write the database refuses for conflicts before Write gives up.
constexpr int kWriteAttempts = 12;

// The statements of named snapshots, one set per table of the format:
// built once from the format's table list (names, never values).
struct SnapshotSql {
  std::string clear, save, restore_clear, restore;
};
const std::vector<SnapshotSql>& SnapshotStatements() {
  static const std::vector<SnapshotSql> sql = [] {
    std::vector<SnapshotSql> out;
    for (const PgTable& t : PgDataTables()) {
      std::string name = t.name, cols = t.columns;
      out.push_back(
          {"DELETE FROM snap_" + name + " WHERE snapshot=$1",
           "INSERT INTO snap_" + name + "(snapshot, " + cols + ") SELECT $1, " + cols + " FROM " + name,
           "DELETE FROM " + name,
           "INSERT INTO " + name + "(" + cols + ") SELECT " + cols + " FROM snap_" + name +
               " WHERE snapshot=$1"});
    }
    return out;
  }();
  return sql;
}

// A statement's success or error, its rows dropped.
Status Done(const Result<PgRows>& r) { return r.ok() ? Status::Ok() : Status(r.error()); }

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class PgStorage final : public Storage {
 public:
  PgStorage(std::string conninfo, std::string schema, std::unique_ptr<PgConn> writer)
      : conninfo_(std::move(conninfo)), schema_(std::move(schema)), writer_(std::move(writer)) {
    std::random_device random;
    // The counter shard this process adds to (pg_schema.cc, table_counts).
    counter_shard_ = random() % 16;
    // Who holds this storage's leases: unique among the processes sharing
    // the database (the host and pid name it for a person reading the table).
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    holder_ = std::string(host) + ":" + std::to_string(getpid()) + ":" + std::to_string(random());
  }

  // A clean stop gives its leases back at once; a crashed process's lapse.
  ~PgStorage() override {
    (void)Autocommit([&](PgConn& c) -> Status {
      return Done(c.Exec("DELETE FROM leases WHERE holder=$1", PgParams().Text(holder_)));
    });
  }

  Result<std::vector<TableRecord>> ListTables() override {
    std::vector<TableRecord> out;
    POGI_RETURN_IF_ERROR(ReadOnly([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(
          auto rows,
          c.Exec("SELECT c.id, c.name, c.description, CAST(COALESCE(SUM(t.items), 0) AS BIGINT), "
                 "CAST(COALESCE(SUM(t.bytes), 0) AS BIGINT) FROM catalog c LEFT JOIN table_counts t ON "
                 "t.table_id=c.id GROUP BY c.id, c.name, c.description"));
      for (int i = 0; i < rows.count(); i++) {
        out.push_back({rows.Int(i, 0), rows.Str(i, 1), rows.Str(i, 2), rows.Int(i, 3), rows.Int(i, 4)});
      }
      return Status::Ok();
    }));
    // By name, bytewise (SQLite's order), whatever the database's collation.
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
  }

  Result<std::vector<IndexRecord>> ListIndexes() override {
    std::vector<IndexRecord> out;
    POGI_RETURN_IF_ERROR(ReadOnly([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT id, table_id, name FROM indexes ORDER BY id"));
      for (int i = 0; i < rows.count(); i++) out.push_back({rows.Int(i, 0), rows.Int(i, 1), rows.Str(i, 2)});
      return Status::Ok();
    }));
    return out;
  }

  Result<std::vector<StreamRow>> ListStreams() override {
    std::vector<StreamRow> out;
    POGI_RETURN_IF_ERROR(ReadOnly([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT id, state FROM streams ORDER BY id"));
      for (int i = 0; i < rows.count(); i++) out.push_back({rows.Int(i, 0), rows.Str(i, 1)});
      return Status::Ok();
    }));
    return out;
  }

  // A write the database refuses for a conflict with a concurrent
  // transaction (SQLSTATE 40001, or 40P01 for a deadlock: only another
  // process's writes can conflict, this one's run one at a time) runs again
  // from the start, up to kWriteAttempts times with a growing random pause;
  // so does one a read-only server refused (25006), on a new connection.
  Status Write(const std::function<Status(WriteTxn&)>& fn) override {
    std::vector<std::function<void()>> work;
    PgTxn::CatalogBump bump;
    bool reconnected = false;
    for (int attempt = 1;; attempt++) {
      int64_t pause_us = 0;
      {
        std::lock_guard lock(write_mu_);
        work.clear();
        bump = PgTxn::CatalogBump();
        std::string failure;
        Status s = InWriteTxn(
            [&](PgConn& c) -> Status {
              CountChanges changes;
              PgTxn txn(&c, &changes, &work, &bump);
              POGI_RETURN_IF_ERROR(fn(txn));
              return SaveCounts(c, changes);
            },
            &failure);
        if (s.ok()) break;
        if (failure == "25006" && !reconnected) {
          // The server turned read-only: a primary fenced or demoted
          // without a restart. Its connections would stay on it for ever;
          // new ones find the read-write host (target_session_attrs), and
          // nothing of this write ran, so it runs again there, once.
          reconnected = true;
          writer_.reset();
          ForgetIdle();
          continue;
        }
        if (failure != "40001" && failure != "40P01") {
          // The writer's host is gone or stopped answering: so are, likely,
          // the idle readers' (see Release).
          if (writer_ && writer_->Broken()) ForgetIdle();
          return s;
        }
        if (attempt == kWriteAttempts) {
          return Error(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
        }
        // Up to 0.4 ms, then twice as long each time (to 50 ms): writers
        // that keep meeting each other drift apart. Other writes of this
        // process go on meanwhile.
        int64_t cap = std::min<int64_t>(50'000, int64_t{200} << attempt);
        pause_us = std::uniform_int_distribution<int64_t>(0, cap)(rng_);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(pause_us));
    }
    if (bump.to >= 0) NoteOwnCatalogChange(bump);
    for (auto& w : work) w();
    return Status::Ok();
  }

  // One statement: the row is taken when free, lapsed or already ours; a
  // row comes back only then. Times are this machine's system clock (not
  // pogi's, which tests move and freeze), so hosts sharing a database need
  // clocks within a lease of each other.
  Result<bool> HoldLease(const std::string& name, double seconds) override {
    int64_t now = static_cast<int64_t>(Now() * 1e6);
    bool held = false;
    POGI_RETURN_IF_ERROR(Autocommit([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(
          auto rows,
          c.Exec(
              "INSERT INTO leases(name, holder, expires_us) VALUES($1, $2, $3) ON CONFLICT (name) DO "
              "UPDATE SET holder=EXCLUDED.holder, expires_us=EXCLUDED.expires_us WHERE "
              "leases.holder=EXCLUDED.holder OR leases.expires_us<$4 RETURNING holder",
              PgParams().Text(name).Text(holder_).Int(now + static_cast<int64_t>(seconds * 1e6)).Int(now)));
      held = rows.count() == 1;
      return Status::Ok();
    }));
    return held;
  }

  Result<int64_t> ForeignCatalogChanges() override {
    int64_t version = 0;
    POGI_RETURN_IF_ERROR(Autocommit([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT value FROM meta WHERE key='catalog_version'"));
      if (rows.count() != 1) return Error::Internal("PostgreSQL schema has no catalog version");
      version = rows.Int(0, 0);
      return Status::Ok();
    }));
    std::lock_guard lock(version_mu_);
    if (known_version_ >= 0 && version != known_version_) foreign_changes_++;
    known_version_ = version;
    return foreign_changes_;
  }

  Status Read(const std::function<Status(ReadTxn&)>& fn) override {
    return ReadOnly([&](PgConn& c) {
      PgTxn txn(&c);
      return fn(txn);
    });
  }

  // Snapshots are copies inside the database (the snap_ tables), written
  // and restored each in one write transaction.
  Status SaveSnapshot(const std::string& name) override {
    std::lock_guard lock(write_mu_);
    return InWriteTxn([&](PgConn& c) -> Status {
      for (const SnapshotSql& s : SnapshotStatements()) {
        POGI_RETURN_IF_ERROR(Done(c.Exec(s.clear.c_str(), PgParams().Text(name), kBulkStatementSeconds)));
        POGI_RETURN_IF_ERROR(Done(c.Exec(s.save.c_str(), PgParams().Text(name), kBulkStatementSeconds)));
      }
      POGI_ASSIGN_OR_RETURN(auto size, c.Exec("SELECT CAST(COALESCE(SUM(octet_length(item)), 0) AS BIGINT) "
                                              "FROM items",
                                              PgParams(), kBulkStatementSeconds));
      return Done(
          c.Exec("INSERT INTO snapshots(name, created_at, size_bytes) VALUES($1, $2, $3) ON CONFLICT (name) "
                 "DO UPDATE SET created_at=EXCLUDED.created_at, size_bytes=EXCLUDED.size_bytes",
                 PgParams().Text(name).Double(Now()).Int(size.Int(0, 0))));
    });
  }

  Status RestoreSnapshot(const std::string& name) override {
    std::lock_guard lock(write_mu_);
    return InWriteTxn([&](PgConn& c) -> Status {
      POGI_RETURN_IF_ERROR(Exists(c, name));
      for (const SnapshotSql& s : SnapshotStatements()) {
        POGI_RETURN_IF_ERROR(Done(c.Exec(s.restore_clear.c_str(), PgParams(), kBulkStatementSeconds)));
        POGI_RETURN_IF_ERROR(Done(c.Exec(s.restore.c_str(), PgParams().Text(name), kBulkStatementSeconds)));
      }
      return Status::Ok();
    });
  }

  Result<std::vector<SnapshotRecord>> ListSnapshots() override {
    std::vector<SnapshotRecord> out;
    POGI_RETURN_IF_ERROR(ReadOnly([&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT name, size_bytes, created_at FROM snapshots"));
      for (int i = 0; i < rows.count(); i++)
        out.push_back({rows.Str(i, 0), rows.Int(i, 1), rows.Double(i, 2)});
      return Status::Ok();
    }));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
  }

  Status DeleteSnapshot(const std::string& name) override {
    std::lock_guard lock(write_mu_);
    return InWriteTxn([&](PgConn& c) -> Status {
      POGI_RETURN_IF_ERROR(Exists(c, name));
      for (const SnapshotSql& s : SnapshotStatements()) {
        POGI_RETURN_IF_ERROR(Done(c.Exec(s.clear.c_str(), PgParams().Text(name), kBulkStatementSeconds)));
      }
      return Done(c.Exec("DELETE FROM snapshots WHERE name=$1", PgParams().Text(name)));
    });
  }

 private:
  static Status Exists(PgConn& c, const std::string& name) {
    POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT 1 FROM snapshots WHERE name=$1", PgParams().Text(name)));
    if (rows.count() == 0) return Error::ResourceNotFound("no snapshot named " + name);
    return Status::Ok();
  }

  // Adds a write's counter changes to this process's shard of each table's
  // counts (a table dropped by the write has none left).
  Status SaveCounts(PgConn& c, const CountChanges& changes) {
    for (const auto& [id, d] : changes.deltas) {
      if (changes.dropped.count(id) || (d.items == 0 && d.bytes == 0)) continue;
      POGI_RETURN_IF_ERROR(
          c.Exec("INSERT INTO table_counts(table_id, shard, items, bytes) VALUES($1, $2, $3, $4) ON CONFLICT "
                 "(table_id, shard) DO UPDATE SET items=table_counts.items+EXCLUDED.items, "
                 "bytes=table_counts.bytes+EXCLUDED.bytes",
                 PgParams().Int(id).Int(counter_shard_).Int(d.items).Int(d.bytes)));
    }
    return Status::Ok();
  }

  // Runs `body` in a write transaction on the writer connection (caller
  // holds write_mu_), reconnecting first when the connection was lost. A
  // failure's SQLSTATE goes to `failure` (when given).
  Status InWriteTxn(const std::function<Status(PgConn&)>& body, std::string* failure = nullptr) {
    POGI_RETURN_IF_ERROR(Begin(writer_, "BEGIN ISOLATION LEVEL SERIALIZABLE"));
    PgConn& c = *writer_;
    Status s = body(c);
    if (!s.ok()) {
      if (failure) *failure = c.last_sqlstate();
      if (!c.Broken()) (void)c.Run("ROLLBACK");
      return s;
    }
    // A commit whose answer was lost may or may not have happened: the
    // error says so, and the write is not acknowledged.
    s = c.Run("COMMIT");
    if (!s.ok() && failure) *failure = c.last_sqlstate();
    return s;
  }

  // After a write of this process moved the catalog version: the version
  // it moved from was the one last seen, or another process had moved it
  // meanwhile (the engine then reloads).
  void NoteOwnCatalogChange(const PgTxn::CatalogBump& bump) {
    std::lock_guard lock(version_mu_);
    if (bump.from != known_version_) foreign_changes_++;
    known_version_ = bump.to;
  }

  // Runs `body` outside a transaction (one statement) on a pooled connection.
  Status Autocommit(const std::function<Status(PgConn&)>& body) {
    std::unique_ptr<PgConn> c = TakeIdle();
    if (!c || c->Broken()) {
      c.reset();
      POGI_ASSIGN_OR_RETURN(c, PgConn::Connect(conninfo_, schema_));
    }
    Status s = body(*c);
    // A connection the server closed while idle fails once: try a new one.
    if (!s.ok() && c->Broken()) {
      POGI_ASSIGN_OR_RETURN(c, PgConn::Connect(conninfo_, schema_));
      s = body(*c);
    }
    Release(std::move(c));
    return s;
  }

  // Back to the pool, unless it is broken or the pool is full. A broken
  // one empties the pool: the others are likely on the same host, which is
  // gone or stopped answering, and each would fail (or wait out the
  // statement deadline) once before being replaced.
  void Release(std::unique_ptr<PgConn> c) {
    if (!c) return;
    if (c->Broken()) return ForgetIdle();
    std::lock_guard lock(pool_mu_);
    if (!c->InTransaction() && idle_.size() < kIdleReadConnections) idle_.push_back(std::move(c));
  }

  // An idle connection from the pool, or null when there is none.
  std::unique_ptr<PgConn> TakeIdle() {
    std::lock_guard lock(pool_mu_);
    if (idle_.empty()) return nullptr;
    std::unique_ptr<PgConn> c = std::move(idle_.back());
    idle_.pop_back();
    return c;
  }

  // Closes every idle read connection: the next reads connect anew.
  void ForgetIdle() {
    std::vector<std::unique_ptr<PgConn>> gone;
    {
      std::lock_guard lock(pool_mu_);
      gone.swap(idle_);
    }
  }

  // Starts a transaction on `c`, connecting first when there is none. A
  // connection the server closed while it sat idle (a restart, a failover)
  // shows only when used: then BEGIN fails on it, nothing has run yet, and
  // one new connection is tried before the request fails.
  Status Begin(std::unique_ptr<PgConn>& c, const char* begin) {
    for (int attempt = 0;; attempt++) {
      if (!c || c->Broken()) {
        c.reset();
        POGI_ASSIGN_OR_RETURN(c, PgConn::Connect(conninfo_, schema_));
      }
      Status s = c->Run(begin);
      if (s.ok() || !c->Broken() || attempt == 1) return s;
    }
  }

  // Runs `body` in a read-only transaction on a pooled connection.
  Status ReadOnly(const std::function<Status(PgConn&)>& body) {
    std::unique_ptr<PgConn> c = TakeIdle();
    Status s = Begin(c, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    if (s.ok()) {
      s = body(*c);
      Status end = c->Run(s.ok() ? "COMMIT" : "ROLLBACK");
      if (s.ok()) s = end;
    }
    Release(std::move(c));
    return s;
  }

  const std::string conninfo_;
  const std::string schema_;
  std::string holder_;
  int64_t counter_shard_ = 0;
  std::mutex write_mu_;  // the writer connection, one write at a time
  std::unique_ptr<PgConn> writer_;
  std::mt19937 rng_{std::random_device()()};  // retry pauses; under write_mu_
  std::mutex pool_mu_;
  std::vector<std::unique_ptr<PgConn>> idle_;
  std::mutex version_mu_;
  int64_t known_version_ = -1;  // the catalog version last seen
  int64_t foreign_changes_ = 0;
};

}  // namespace

Result<std::unique_ptr<Storage>> OpenPostgres(const Options& options) {
  POGI_ASSIGN_OR_RETURN(auto conn, PgConn::Connect(options.postgres, options.pg_schema));
  POGI_RETURN_IF_ERROR(PreparePgSchema(*conn, options.pg_schema));
  auto storage = std::make_unique<PgStorage>(options.postgres, options.pg_schema, std::move(conn));
  // The version the catalog about to be loaded has.
  POGI_RETURN_IF_ERROR(storage->ForeignCatalogChanges());
  return std::unique_ptr<Storage>(std::move(storage));
}

}  // namespace pogi::storage
