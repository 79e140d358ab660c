// The SQLite connection wrapper: open, exec, and the prepared-statement cache.
#include "storage/sqlite_db.h"

#include <atomic>
#include <chrono>

#include "common/log.h"

namespace pogi::storage {
namespace {

// What the operator has to fix when SQLite fails for a reason outside pogi
// (the disk, the file), or nullptr for any other failure.
const char* DiskFault(int code) {
  switch (code & 0xff) {
    case SQLITE_FULL:
      return "the data folder is full";
    case SQLITE_READONLY:
      return "the database file is read-only";
    case SQLITE_IOERR:
      return "the data folder cannot be read or written";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return "the database file is damaged";
    case SQLITE_CANTOPEN:
      return "a database file cannot be opened";
    case SQLITE_NOMEM:
      return "out of memory";
    default:
      return nullptr;
  }
}

// A full disk fails every write of a busy server: one line a second says so
// (with the number of failures since the last line) without flooding the log.
void LogFault(std::string_view cause, std::string_view what, std::string_view detail, int code) {
  static std::atomic<int64_t> last_us{0};
  static std::atomic<int64_t> unlogged{0};
  int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  int64_t last = last_us.load(std::memory_order_relaxed);
  if (last != 0 && now - last < 1'000'000) {
    unlogged.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (!last_us.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
    unlogged.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  log::Error(std::string("storage failed: ") + std::string(cause),
             {{"step", what},
              {"sqlite", detail},
              {"code", code},
              {"failures_not_logged", unlogged.exchange(0, std::memory_order_relaxed)}});
}

}  // namespace

Result<std::unique_ptr<Db>> Db::Open(const std::string& path) {
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    sqlite3_close(raw);
    return Error::Internal("cannot open " + path + ": " + msg);
  }
  sqlite3_extended_result_codes(raw, 1);
  return std::unique_ptr<Db>(new Db(raw));
}

Db::~Db() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

Status Db::Exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    sqlite3_free(err);  // the same text as sqlite3_errmsg, which Fail reads
    return Fail("exec");
  }
  return Status::Ok();
}

Result<std::unique_ptr<Stmt>> Db::Prepare(const char* sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
      return Fail("prepare");
    }
    it = cache_.emplace(sql, stmt).first;
  }
  return std::make_unique<Stmt>(it->second);
}

Status Db::Run(const char* sql) {
  POGI_ASSIGN_OR_RETURN(auto st, Prepare(sql));
  int rc = st->Step();
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return Fail(sql);
  return Status::Ok();
}

Error Db::Fail(std::string_view what) const {
  int code = sqlite3_extended_errcode(db_);
  const char* detail = sqlite3_errmsg(db_);
  if (const char* cause = DiskFault(code)) {
    if (log_faults_) LogFault(cause, what, detail, code);
    // DynamoDB says "Internal server error"; pogi's operator is usually the
    // person reading the answer, so the cause follows, without SQL details.
    return Error::Internal(std::string("Internal server error: ") + cause + " (" + detail + ")");
  }
  std::string m = "storage ";
  m.append(what).append(": ").append(detail);
  return Error::Internal(std::move(m));
}

}  // namespace pogi::storage
