// SnapshotStore: VACUUM INTO for snapshot files, memdb copies in memory, and
// the backup API to copy a snapshot's pages over the live database in one
// transaction (readers of the live connection see all of it or none).
#include "storage/sqlite_snapshots.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace pogi::storage {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Copies every page of `from` over `to` in one step.
Status CopyPages(Db& from, Db& to) {
  sqlite3_backup* b = sqlite3_backup_init(to.raw(), "main", from.raw(), "main");
  if (!b) return to.Fail("start snapshot copy");
  int rc = sqlite3_backup_step(b, -1);
  sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE) return Error::Internal(std::string("snapshot copy failed: ") + sqlite3_errstr(rc));
  return Status::Ok();
}

Result<int64_t> DatabaseBytes(Db& db) {
  POGI_ASSIGN_OR_RETURN(auto count, db.Prepare("PRAGMA page_count"));
  if (count->Step() != SQLITE_ROW) return db.Fail("page count");
  int64_t pages = count->Int(0);
  POGI_ASSIGN_OR_RETURN(auto size, db.Prepare("PRAGMA page_size"));
  if (size->Step() != SQLITE_ROW) return db.Fail("page size");
  return pages * size->Int(0);
}

Error NoSuchSnapshot(const std::string& name) { return Error::ResourceNotFound("no snapshot named " + name); }

}  // namespace

Status SnapshotStore::Save(Db& live, const std::string& name) {
  std::lock_guard lock(mu_);
  if (dir_.empty()) {
    InMemory copy;
    // A memdb name without a leading '/' is private to its connection.
    POGI_ASSIGN_OR_RETURN(copy.db,
                          Db::Open("file:pogi-snapshot-" + std::to_string(next_memdb_++) + "?vfs=memdb"));
    sqlite3_int64 limit = sqlite3_int64{1} << 40;
    sqlite3_file_control(copy.db->raw(), "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
    POGI_RETURN_IF_ERROR(CopyPages(live, *copy.db));
    POGI_ASSIGN_OR_RETURN(copy.size_bytes, DatabaseBytes(*copy.db));
    copy.created_at = Now();
    memory_[name] = std::move(copy);
    return Status::Ok();
  }
  if (mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST) {
    return Error::Internal("cannot create snapshot folder " + dir_ + ": " + std::strerror(errno));
  }
  // Written under a temporary name and renamed: a crash never leaves half a
  // snapshot under the real name, and an older snapshot of that name stays
  // whole until the new one is complete.
  std::string tmp = dir_ + "/." + name + ".tmp";
  std::remove(tmp.c_str());
  {
    POGI_ASSIGN_OR_RETURN(auto st, live.Prepare("VACUUM INTO ?1"));
    st->BindText(1, tmp);
    if (st->Step() != SQLITE_DONE) return live.Fail("write snapshot " + name);
  }
  if (std::rename(tmp.c_str(), PathOf(name).c_str()) != 0) {
    return Error::Internal("cannot store snapshot " + name + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

Status SnapshotStore::Restore(Db& live, const std::string& name) {
  std::lock_guard lock(mu_);
  if (dir_.empty()) {
    auto it = memory_.find(name);
    if (it == memory_.end()) return NoSuchSnapshot(name);
    return CopyPages(*it->second.db, live);
  }
  struct stat st;
  if (stat(PathOf(name).c_str(), &st) != 0) return NoSuchSnapshot(name);
  POGI_ASSIGN_OR_RETURN(auto snapshot, Db::Open(PathOf(name)));
  return CopyPages(*snapshot, live);
}

Result<std::vector<SnapshotRecord>> SnapshotStore::List() {
  std::lock_guard lock(mu_);
  std::vector<SnapshotRecord> out;
  if (dir_.empty()) {
    for (const auto& [name, copy] : memory_) out.push_back({name, copy.size_bytes, copy.created_at});
    return out;
  }
  DIR* d = opendir(dir_.c_str());
  if (!d) return out;  // no snapshot taken yet
  while (dirent* e = readdir(d)) {
    std::string file = e->d_name;
    if (file.starts_with(".") || !file.ends_with(".db")) continue;
    struct stat st;
    if (stat((dir_ + "/" + file).c_str(), &st) != 0) continue;
    out.push_back({file.substr(0, file.size() - 3), static_cast<int64_t>(st.st_size),
                   static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec / 1e9});
  }
  closedir(d);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Status SnapshotStore::Delete(const std::string& name) {
  std::lock_guard lock(mu_);
  if (dir_.empty()) {
    if (memory_.erase(name) == 0) return NoSuchSnapshot(name);
    return Status::Ok();
  }
  if (std::remove(PathOf(name).c_str()) != 0) return NoSuchSnapshot(name);
  return Status::Ok();
}

}  // namespace pogi::storage
