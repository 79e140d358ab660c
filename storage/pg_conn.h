// A thin layer over libpq: one connection to PostgreSQL, its prepared
// statements, and results read in binary form. Statements are static SQL
// text with $N parameters; values are always bound, never written into SQL.
// Errors become InternalServerError here; a lost connection is noticed and
// the owner reconnects (PgConn::Broken).
#pragma once

#include <libpq-fe.h>

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
inline constexpr int kBulkStatementSeconds = 600;

class PgConn {
 public:
  // Connects with `conninfo` (a postgresql:// URI or key=value pairs) and
  // sets the search path to `schema`. The error names libpq's cause.
  static Result<std::unique_ptr<PgConn>> Connect(const std::string& conninfo, const std::string& schema);
  ~PgConn();

  // Runs `sql` (a string literal or a string that outlives the connection:
  // the statement is prepared once per connection, keyed by its address).
  Result<PgRows> Exec(const char* sql, const PgParams& params = PgParams(), int patience = kStatementSeconds);
  // Runs SQL text with no parameters and no results (BEGIN, COMMIT, DDL).
  Status Run(std::string_view sql, int patience = kStatementSeconds);
  // `name` quoted as an SQL identifier (a schema's name is not a value).
  Result<std::string> QuoteIdentifier(std::string_view name);
  // The SQLSTATE of the last failure ("" when none).
  const std::string& last_sqlstate() const { return sqlstate_; }
  // True once the connection is gone: the owner replaces it.
  bool Broken() const { return timed_out_ > 0 || PQstatus(conn_) != CONNECTION_OK; }
  bool InTransaction() const { return PQtransactionStatus(conn_) != PQTRANS_IDLE; }

 private:
  explicit PgConn(PGconn* c) : conn_(c) {}
  PGresult* Await(int patience);
  Error Fail(std::string_view what, PGresult* r);
  PGconn* conn_;
  int timed_out_ = 0;                                      // seconds a statement went unanswered: given up
  std::unordered_map<const char*, std::string> prepared_;  // sql -> statement name
  std::string sqlstate_;
};

}  // namespace pogi::storage
