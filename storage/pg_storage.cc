// Storage on PostgreSQL: the tables of pg_schema.cc in one schema, reached
// through libpq. Every request takes a connection of the pool (pg_pool.h)
// for its transaction, so many are in flight at once and the database's
// own concurrency and group commit do the work: writes are SERIALIZABLE
// transactions, reads REPEATABLE READ READ ONLY ones (one consistent
// snapshot). Statements go in libpq's pipeline mode (pg_conn.h): BEGIN
// travels with the first statement, writes whose rows are not needed with
// the COMMIT, and a read's COMMIT is not waited for, so a GetItem is one
// round trip and a PutItem two.
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
#include "storage/pg_pool.h"
#include "storage/pg_schema.h"
#include "storage/pg_txn.h"
#include "storage/storage.h"

namespace pogi::storage {
namespace {

// How long a write the database keeps refusing for conflicts with
// concurrent ones runs again before it is answered TransactionConflict:
// far longer than any run of writers on one item takes to pass.
constexpr auto kConflictPatience = std::chrono::seconds(20);

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
  PgStorage(std::string conninfo, std::string schema, size_t connections)
      : pool_(std::move(conninfo), std::move(schema), connections) {
    std::random_device random;
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
    POGI_RETURN_IF_ERROR(ReadOnly(/*one_statement=*/true, [&](PgConn& c) -> Status {
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
    POGI_RETURN_IF_ERROR(ReadOnly(/*one_statement=*/true, [&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT id, table_id, name FROM indexes ORDER BY id"));
      for (int i = 0; i < rows.count(); i++) out.push_back({rows.Int(i, 0), rows.Int(i, 1), rows.Str(i, 2)});
      return Status::Ok();
    }));
    return out;
  }

  Result<std::vector<StreamRow>> ListStreams() override {
    std::vector<StreamRow> out;
    POGI_RETURN_IF_ERROR(ReadOnly(/*one_statement=*/true, [&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT id, state FROM streams ORDER BY id"));
      for (int i = 0; i < rows.count(); i++) out.push_back({rows.Int(i, 0), rows.Str(i, 1)});
      return Status::Ok();
    }));
    return out;
  }

  Status Write(const std::function<Status(WriteTxn&)>& fn) override {
    // A catalog change asks for the items lock (PgTxn::BumpCatalog): it
    // then runs again holding it from its start.
    for (bool lock_items = false;; lock_items = true) {
      bool wants_lock = false;
      Status s = WriteAs(lock_items ? TxnKind::kCatalog : TxnKind::kSerializable, fn, &wants_lock);
      if (s.ok() || !wants_lock || lock_items) return s;
    }
  }

  Status WriteItems(const std::function<Status(WriteTxn&)>& fn) override {
    bool wants_lock = false;
    return WriteAs(TxnKind::kKeyed, fn, &wants_lock);
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

  int64_t NoticedCatalogChanges() override {
    std::lock_guard lock(version_mu_);
    return foreign_changes_;
  }

  void CatalogFollowed(int64_t changes) override {
    std::lock_guard lock(version_mu_);
    // Changes counted since: the catalog is behind again, and checks keep
    // failing until the engine follows those too.
    if (changes == foreign_changes_) followed_version_ = known_version_;
  }

  Status Read(const std::function<Status(ReadTxn&)>& fn) override {
    return ReadOnly(/*one_statement=*/false, [&](PgConn& c) {
      PgTxn txn(&c);
      return fn(txn);
    });
  }

  Status ReadPoint(const std::function<Status(ReadTxn&)>& fn) override {
    return ReadOnly(/*one_statement=*/true, [&](PgConn& c) {
      PgTxn txn(&c);
      return fn(txn);
    });
  }

  // Snapshots are copies inside the database (the snap_ tables), written
  // and restored each in one write transaction.
  Status SaveSnapshot(const std::string& name) override {
    return RunWrite([&](PgConn& c) -> Status {
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
    return RunWrite(
        [&](PgConn& c) -> Status {
          POGI_RETURN_IF_ERROR(Exists(c, name));
          for (const SnapshotSql& s : SnapshotStatements()) {
            POGI_RETURN_IF_ERROR(Done(c.Exec(s.restore_clear.c_str(), PgParams(), kBulkStatementSeconds)));
            POGI_RETURN_IF_ERROR(
                Done(c.Exec(s.restore.c_str(), PgParams().Text(name), kBulkStatementSeconds)));
          }
          return Status::Ok();
        },
        TxnKind::kCatalog);
  }

  Result<std::vector<SnapshotRecord>> ListSnapshots() override {
    std::vector<SnapshotRecord> out;
    POGI_RETURN_IF_ERROR(ReadOnly(/*one_statement=*/true, [&](PgConn& c) -> Status {
      POGI_ASSIGN_OR_RETURN(auto rows, c.Exec("SELECT name, size_bytes, created_at FROM snapshots"));
      for (int i = 0; i < rows.count(); i++)
        out.push_back({rows.Str(i, 0), rows.Int(i, 1), rows.Double(i, 2)});
      return Status::Ok();
    }));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
  }

  Status DeleteSnapshot(const std::string& name) override {
    return RunWrite([&](PgConn& c) -> Status {
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

  // Adds a write's counter changes to its connection's shard of each
  // table's counts (a table dropped by the write has none left).
  Status SaveCounts(PgConn& c, const CountChanges& changes) {
    for (const auto& [id, d] : changes.deltas) {
      if (changes.dropped.count(id) || (d.items == 0 && d.bytes == 0)) continue;
      POGI_RETURN_IF_ERROR(c.Queue(
          "INSERT INTO table_counts(table_id, shard, items, bytes) VALUES($1, $2, $3, $4) ON CONFLICT "
          "(table_id, shard) DO UPDATE SET items=table_counts.items+EXCLUDED.items, "
          "bytes=table_counts.bytes+EXCLUDED.bytes",
          PgParams().Int(id).Int(c.counter_shard).Int(d.items).Int(d.bytes)));
    }
    return Status::Ok();
  }

  // The write transactions. Keyed writes (WriteItems: the single-item
  // writes) run at READ COMMITTED, each item they read locked FOR UPDATE:
  // writers of one hot item wait for each other instead of failing, and
  // an item read as absent is inserted without ON CONFLICT, so a concurrent
  // insert fails one of them (23505, run again). Every other write is
  // SERIALIZABLE. What READ COMMITTED does not give a keyed write, a
  // catalog as of its commit, comes from the items table's lock: a keyed
  // write takes it in ROW EXCLUSIVE mode before its catalog check, and a
  // write that changes the catalog (and a snapshot restore) in SHARE mode
  // before its snapshot, so each catalog change waits for the keyed writes
  // in flight, and the keyed writes after it wait for it and then see it
  // (their check fails, the engine reloads, they run again).
  enum class TxnKind { kSerializable, kKeyed, kCatalog };

  Status WriteAs(TxnKind kind, const std::function<Status(WriteTxn&)>& fn, bool* wants_items_lock) {
    std::vector<std::function<void()>> work;
    PgTxn::CatalogBump bump;
    Status s = RunWrite(
        [&](PgConn& c) -> Status {
          work.clear();
          bump = PgTxn::CatalogBump();
          bump.items_locked = kind == TxnKind::kCatalog;
          CountChanges changes;
          PgTxn txn(&c, &changes, &work, &bump,
                    kind == TxnKind::kKeyed ? PgTxn::ItemReads::kLocked : PgTxn::ItemReads::kSnapshot);
          POGI_RETURN_IF_ERROR(fn(txn));
          return SaveCounts(c, changes);
        },
        kind);
    *wants_items_lock = bump.wants_items_lock;
    POGI_RETURN_IF_ERROR(s);
    if (bump.to >= 0) NoteOwnCatalogChange(bump);
    for (auto& w : work) w();
    return Status::Ok();
  }

  // Runs `body` in a write transaction of `kind` on a connection of the pool.
  // A transaction the database refuses for a conflict with a concurrent one
  // (SQLSTATE 40001, 40P01 for a deadlock, 55P03 for a lock awaited longer
  // than kLockWaitSeconds) runs again from the start,
  // after a short random pause, until kConflictPatience has passed; so does
  // one a read-only server refused (25006), once, on a new connection, and
  // one whose connection turned out closed before its COMMIT was sent (a
  // restart or failover while it sat idle), once.
  Status RunWrite(const std::function<Status(PgConn&)>& body, TxnKind kind = TxnKind::kSerializable) {
    thread_local std::mt19937 rng{std::random_device()()};
    const auto give_up = std::chrono::steady_clock::now() + kConflictPatience;
    bool reconnected = false;
    for (int attempt = 1;; attempt++) {
      POGI_ASSIGN_OR_RETURN(auto c, pool_.Take());
      bool committing = false;
      Status s = InWriteTxn(*c, kind, body, &committing);
      const std::string failure = c->last_sqlstate();
      const bool lost = c->Broken() && !c->TimedOut() && !committing;
      pool_.Give(std::move(c));
      if (s.ok()) return s;
      if (failure == "25006" || lost) {
        // The server turned read-only (a primary fenced or demoted without
        // a restart: its connections would stay on it for ever; new ones
        // find the read-write host, target_session_attrs), or the
        // connection was gone: nothing of this write was committed.
        if (reconnected) return s;
        reconnected = true;
        pool_.Forget();
        continue;
      }
      // A keyed write that read a key as absent meets its concurrent insert
      // as a unique violation.
      const bool conflict = failure == "40001" || failure == "40P01" || failure == "55P03" ||
                            (failure == "23505" && kind == TxnKind::kKeyed);
      if (!conflict) return s;
      if (std::chrono::steady_clock::now() >= give_up) {
        return Error(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
      }
      // Up to 0.1 ms, then twice as long each time (to 2 ms): writers that
      // keep meeting each other drift apart.
      int64_t cap = std::min<int64_t>(2'000, int64_t{50} << std::min(attempt, 6));
      std::this_thread::sleep_for(
          std::chrono::microseconds(std::uniform_int_distribution<int64_t>(0, cap)(rng)));
    }
  }

  // One run of a write transaction: BEGIN goes with its first statement,
  // the writes it queued with the COMMIT. `committing` turns true once the
  // COMMIT is sent (from then on, a lost answer leaves its fate unknown: the
  // error says so, and the write is not acknowledged).
  Status InWriteTxn(PgConn& c, TxnKind kind, const std::function<Status(PgConn&)>& body, bool* committing) {
    bool checking = false;
    Status s = c.Queue(kind == TxnKind::kKeyed ? "BEGIN ISOLATION LEVEL READ COMMITTED"
                                               : "BEGIN ISOLATION LEVEL SERIALIZABLE");
    // Before the snapshot: a lock taken after it would not make the
    // transaction see what committed while it waited.
    if (s.ok() && kind == TxnKind::kKeyed) s = c.Queue("LOCK TABLE items IN ROW EXCLUSIVE MODE");
    if (s.ok() && kind == TxnKind::kCatalog) s = c.Queue("LOCK TABLE items IN SHARE MODE");
    if (s.ok()) s = QueueCatalogCheck(c, /*always=*/kind == TxnKind::kKeyed, &checking);
    if (s.ok()) s = body(c);
    if (s.ok()) s = c.Queue("COMMIT");
    if (s.ok()) {
      *committing = true;
      s = c.Sync();
      if (s.ok()) return CatalogChecked(c, checking, s);
    }
    c.RollbackLater();
    return CatalogChecked(c, checking, s);
  }

  // After a write of this process moved the catalog version: the version
  // it moved from was the one last seen, or another process had moved it
  // meanwhile (the engine then reloads). The engine holds its own changes
  // in its catalog already.
  void NoteOwnCatalogChange(const PgTxn::CatalogBump& bump) {
    std::lock_guard lock(version_mu_);
    if (bump.from != known_version_) {
      foreign_changes_++;
    } else if (followed_version_ == known_version_) {
      followed_version_ = bump.to;
    }
    known_version_ = bump.to;
  }

  // A transaction begun under a CatalogCheck first runs this statement: it
  // fails (division by zero, SQLSTATE 22012) unless the catalog version is
  // the one the engine's catalog holds. It travels with the transaction's
  // first statement, at no round trip of its own.
  static constexpr const char* kCheckCatalog =
      "SELECT 1/(CASE WHEN value=$1 THEN 1 ELSE 0 END) FROM meta WHERE key='catalog_version'";

  Status QueueCatalogCheck(PgConn& c, bool always, bool* checking) {
    *checking = false;
    if (!always && !CatalogCheck::Due()) return Status::Ok();
    int64_t version;
    {
      std::lock_guard lock(version_mu_);
      version = followed_version_;
    }
    if (version < 0) return Status::Ok();  // nothing followed yet: the engine looks
    *checking = true;
    return c.Queue(kCheckCatalog, PgParams().Int(version));
  }

  // After a transaction under a check ended with `s`: a check that passed
  // confirms the catalog; one that failed is noticed, and the transaction
  // answers kCatalogMoved.
  Status CatalogChecked(PgConn& c, bool checking, Status s) {
    if (!checking) return s;
    if (s.ok()) {
      CatalogCheck::Confirm();
      return s;
    }
    if (c.last_failed_sql() != kCheckCatalog) return s;
    {
      std::lock_guard lock(version_mu_);
      foreign_changes_++;
    }
    return Error(ErrorCode::kCatalogMoved, "another process changed the catalog");
  }

  // Runs `body` outside a transaction (one statement) on a pooled
  // connection; once more on a new one when the first was closed before
  // anything was read on it (a restart or failover while it sat idle).
  Status Autocommit(const std::function<Status(PgConn&)>& body) {
    return OnConnection([&](PgConn& c) { return body(c); });
  }

  // Runs `body` in a read transaction on a pooled connection: the
  // extended query protocol's implicit transaction, at REPEATABLE READ (the
  // pool's session default), kept open across the body's round trips
  // (PgConn::set_open_batch) and ended by a sync that is not waited for. No
  // BEGIN, no COMMIT. With `one_statement`, the sync goes with the
  // statement (its transaction ends there): a GetItem is one message each
  // way.
  Status ReadOnly(bool one_statement, const std::function<Status(PgConn&)>& body) {
    return OnConnection([&](PgConn& c) {
      bool checking = false;
      c.set_open_batch(!one_statement);
      Status s = QueueCatalogCheck(c, /*always=*/false, &checking);
      if (s.ok()) s = body(c);
      c.set_open_batch(false);
      // A body that read nothing leaves the check unread: read it now.
      if (s.ok() && checking) s = c.Sync();
      c.SyncLater();
      return CatalogChecked(c, checking, s);
    });
  }

  Status OnConnection(const std::function<Status(PgConn&)>& body) {
    for (int attempt = 0;; attempt++) {
      POGI_ASSIGN_OR_RETURN(auto c, pool_.Take());
      const int64_t answers = c->answers_read();
      Status s = body(*c);
      const bool again =
          !s.ok() && attempt == 0 && c->Broken() && !c->TimedOut() && c->answers_read() == answers;
      pool_.Give(std::move(c));
      if (!again) return s;
    }
  }

  PgPool pool_;
  std::string holder_;
  std::mutex version_mu_;
  int64_t known_version_ = -1;     // the catalog version last seen
  int64_t followed_version_ = -1;  // the version the engine's catalog holds
  int64_t foreign_changes_ = 0;
};

}  // namespace

Result<std::unique_ptr<Storage>> OpenPostgres(const Options& options) {
  {
    POGI_ASSIGN_OR_RETURN(auto conn, PgConn::Connect(options.postgres, options.pg_schema));
    POGI_RETURN_IF_ERROR(PreparePgSchema(*conn, options.pg_schema));
  }
  auto storage = std::make_unique<PgStorage>(options.postgres, options.pg_schema, options.pg_connections);
  // The version the catalog about to be loaded has.
  POGI_RETURN_IF_ERROR(storage->ForeignCatalogChanges());
  return std::unique_ptr<Storage>(std::move(storage));
}

}  // namespace pogi::storage
