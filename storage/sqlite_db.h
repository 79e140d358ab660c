// A thin RAII layer over the SQLite C API: a connection and a cache of its
// prepared statements. Statements are static SQL text; values are bound.
// Errors of SQLite become InternalServerError here, disk faults named.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/result.h"

namespace pogi::storage {

// A prepared statement borrowed from a connection's cache. Reset on destruction.
class Stmt {
 public:
  explicit Stmt(sqlite3_stmt* s) : s_(s) {}
  ~Stmt() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& Bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& Bind(int i, std::string_view v) {
    sqlite3_bind_blob(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
  }
  // Binds NULL when `v` is empty.
  Stmt& BindOptional(int i, const std::optional<std::string>& v) {
    if (!v) {
      sqlite3_bind_null(s_, i);
      return *this;
    }
    return Bind(i, std::string_view(*v));
  }
  Stmt& BindDouble(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Stmt& BindText(int i, std::string_view v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(s_); }
  int64_t Int(int col) const { return sqlite3_column_int64(s_, col); }
  double Double(int col) const { return sqlite3_column_double(s_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(s_, col) == SQLITE_NULL; }
  std::string_view BlobView(int col) const {
    const void* p = sqlite3_column_blob(s_, col);
    return {static_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s_, col))};
  }
  std::string Blob(int col) const {
    const void* p = sqlite3_column_blob(s_, col);
    return std::string(static_cast<const char*>(p), sqlite3_column_bytes(s_, col));
  }

 private:
  sqlite3_stmt* s_;
};

class Db {
 public:
  // Opens `path` (":memory:" for a private in-memory database).
  static Result<std::unique_ptr<Db>> Open(const std::string& path);
  ~Db();

  // Runs SQL text with no results (schema, pragmas, BEGIN/COMMIT).
  Status Exec(const char* sql);
  // Runs one statement with no results through the statement cache
  // (BEGIN, COMMIT, SAVEPOINT...). `sql` must be a string literal.
  Status Run(const char* sql);
  // The cached prepared statement for `sql`, which must be a string literal.
  Result<std::unique_ptr<Stmt>> Prepare(const char* sql);
  // The error of the failed step `what`: InternalServerError. A fault of the
  // disk (full, read-only, I/O error, a damaged file) is logged (at most one
  // line a second) and answered with its cause but without SQL details;
  // anything else names the step and SQLite's message.
  Error Fail(std::string_view what) const;
  // False once SQLite has rolled an open transaction back by itself (it may
  // on SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM): statements would then run
  // in autocommit mode, each committing alone.
  bool InTransaction() const { return sqlite3_get_autocommit(db_) == 0; }
  sqlite3* raw() const { return db_; }
  // Fail() logs disk faults only once the database is open: a refused start
  // says why in the one line of its own.
  void set_log_faults(bool on) { log_faults_ = on; }

 private:
  explicit Db(sqlite3* db) : db_(db) {}
  sqlite3* db_;
  bool log_faults_ = false;
  std::unordered_map<const char*, sqlite3_stmt*> cache_;
};

}  // namespace pogi::storage
