// The SQLite connection wrapper: open, exec, and the prepared-statement cache.
#include "storage/sqlite_db.h"

namespace pogi::storage {

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
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return Error::Internal(msg);
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
  std::string m = "storage ";
  m.append(what).append(": ").append(sqlite3_errmsg(db_));
  return Error::Internal(std::move(m));
}

}  // namespace pogi::storage
