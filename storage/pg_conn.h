// A thin layer over libpq: one connection to PostgreSQL, its prepared
// statements, and results read in binary form. Statements are static SQL
// text with $N parameters; values are always bound, never written into SQL.
// Errors become InternalServerError here; a lost connection is noticed and
// the owner reconnects (PgConn::Broken).
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"

namespace pogi::storage {

// The parameters of one statement, in $N order. Views must outlive the call.
class PgParams {
 public:
  PgParams& Int(int64_t v);
  PgParams& Double(double v);
  PgParams& Bytes(std::string_view v);
  PgParams& Text(std::string_view v);
  // NULL when absent (typed as bytea).
  PgParams& OptionalBytes(const std::optional<std::string>& v);
  PgParams& NullBytes();

  int size() const { return static_cast<int>(types_.size()); }
  const Oid* types() const { return types_.data(); }
  const int* formats() const { return formats_.data(); }
  const int* lengths() const { return lengths_.data(); }
  // Pointers into the views and into the fixed-width buffers below.
  std::vector<const char*> Values() const;

 private:
  void Add(Oid type, const char* data, int length, int fixed_slot);
  std::vector<Oid> types_;
  std::vector<int> formats_, lengths_;
  std::vector<const char*> data_;
  std::vector<int> fixed_;              // index into fixed_values_, or -1
  std::vector<uint64_t> fixed_values_;  // big-endian 8-byte values
};

// The rows of a statement, columns in binary form.
class PgRows {
 public:
  explicit PgRows(PGresult* r) : r_(r, PQclear) {}
  int count() const { return PQntuples(r_.get()); }
  bool IsNull(int row, int col) const { return PQgetisnull(r_.get(), row, col); }
  int64_t Int(int row, int col) const;
  double Double(int row, int col) const;
  std::string_view View(int row, int col) const {
    return {PQgetvalue(r_.get(), row, col), static_cast<size_t>(PQgetlength(r_.get(), row, col))};
  }
  std::string Str(int row, int col) const { return std::string(View(row, col)); }
  // The number of rows an INSERT/UPDATE/DELETE touched.
  int64_t Affected() const;

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> r_;
};

// How long one statement may go unanswered before its connection is given
// up and the request fails: a server that stopped answering then holds a
// request this long, not for ever. Statements over a whole table (a backup's
// copy, a dropped table's rows, a snapshot) may take the long patience.
inline constexpr int kStatementSeconds = 10;
// How long a statement may wait for a lock (PostgreSQL's lock_timeout, set
// for every connection of the pool): shorter than kStatementSeconds, so a
// write queued behind others on a hot row on a busy machine fails as a
// conflict (SQLSTATE 55P03) and runs again, instead of passing for a server
// that stopped answering.
inline constexpr int kLockWaitSeconds = 5;
inline constexpr int kBulkStatementSeconds = 600;

// One connection in libpq's pipeline mode: statements whose answers are not
// needed at once are sent and their answers read later, together with the
// next statement whose rows are needed, so a transaction of several
// statements costs a round trip per statement whose rows it reads (plus
// its COMMIT), not one per statement. Not thread-safe: one user at a time.
class PgConn {
 public:
  // Connects with `conninfo` (a postgresql:// URI or key=value pairs) and
  // sets the search path to `schema`. The error names libpq's cause.
  static Result<std::unique_ptr<PgConn>> Connect(const std::string& conninfo, const std::string& schema);
  ~PgConn();

  // Sends `sql` (a string literal or a string that outlives the connection:
  // the statement is prepared once per connection, keyed by its address)
  // without waiting for its answer. The answer is read by the next Exec or
  // Sync, which fails with the first failure among the statements it reads
  // (the statements after a failed one do not run).
  Status Queue(const char* sql, const PgParams& params = PgParams());
  // Runs `sql` after every queued statement, in one round trip with them,
  // and returns its rows.
  Result<PgRows> Exec(const char* sql, const PgParams& params = PgParams(), int patience = kStatementSeconds);
  // Reads the answers of every queued statement.
  Status Sync(int patience = kStatementSeconds);
  // While set, Exec asks for its answers without a sync: the statements
  // since the last sync stay one implicit transaction (the extended query
  // protocol's, at the session's default isolation) until Sync or
  // SyncLater ends it. A read of several statements then needs no BEGIN
  // and no COMMIT.
  void set_open_batch(bool open) { open_batch_ = open; }
  // Ends what was sent since the last sync (an open batch's implicit
  // transaction, a read-only transaction's COMMIT) without waiting for its
  // answers, which are read and dropped before the connection's next
  // statement: nothing in them matters.
  void SyncLater();
  // Ends the transaction in progress, if any, without waiting: a ROLLBACK
  // in a batch of its own (after a failure, the statements up to the next
  // sync are skipped, and a ROLLBACK among them would be too).
  void RollbackLater();
  // Runs SQL text with no parameters and no results (DDL, SET), after
  // reading every answer still due.
  Status Run(std::string_view sql, int patience = kStatementSeconds);
  // `name` quoted as an SQL identifier (a schema's name is not a value).
  Result<std::string> QuoteIdentifier(std::string_view name);
  // The SQLSTATE of the last failure ("" when none), and the statement that
  // failed (the `sql` given to Queue or Exec; null for others).
  const std::string& last_sqlstate() const { return sqlstate_; }
  const char* last_failed_sql() const { return failed_sql_; }
  // True once the connection is gone: the owner replaces it.
  bool Broken() const { return timed_out_ > 0 || PQstatus(conn_) != CONNECTION_OK; }
  // True once a statement went unanswered past its patience (Broken too).
  bool TimedOut() const { return timed_out_ > 0; }
  // How many times answers were read (Exec, Sync): a caller that failed
  // before any reached it may run again elsewhere without doing anything twice.
  int64_t answers_read() const { return answers_read_; }

  // The shard of the sharded counter rows (table_counts) that writes on this
  // connection add to (PgPool sets it).
  int64_t counter_shard = 0;

 private:
  // An answer due: a statement's, a prepare's, a sync's, or a flush
  // request's place (it has none).
  struct Due {
    enum Kind { kStatement, kPrepare, kSync, kFlush } kind;  // kFlush: none
    const char* sql = nullptr;                               // the statement (kStatement, kPrepare)
    bool dropped = false;  // kSync of SyncLater: its batch's answers are not read by anyone
  };
  explicit PgConn(PGconn* c) : conn_(c) {}
  Status Send(const char* sql, const PgParams& params);
  // Reads every answer due; with `rows`, the last statement's rows go there
  // (the due list then ends in that statement and its sync or flush).
  Status ReadDue(int patience, PGresult** rows);
  // Waits until a result can be read without blocking: false when the
  // connection failed, or when `deadline` passed (timed_out_ set).
  bool Wait(std::chrono::steady_clock::time_point deadline, int patience);
  // A simple query's results (Run).
  PGresult* Await(int patience);
  Error Fail(std::string_view what, PGresult* r);
  Status EnterPipeline();
  Status PushSync();
  PGconn* conn_;
  int timed_out_ = 0;                                      // seconds a statement went unanswered: given up
  std::unordered_map<const char*, std::string> prepared_;  // sql -> statement name
  std::vector<Due> due_;                                   // answers still to read, in order
  int next_name_ = 0;                                      // of the next prepared statement
  int64_t answers_read_ = 0;
  bool unsynced_ = false;    // statements sent since the last sync
  bool open_batch_ = false;  // set_open_batch
  std::string sqlstate_;
  const char* failed_sql_ = nullptr;
};

}  // namespace pogi::storage
