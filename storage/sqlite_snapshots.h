// Snapshots of a whole SQLite database by name: files beside the database
// (VACUUM INTO, so they survive restarts) or, in memory, private memdb
// copies. Restores copy the pages back with SQLite's backup API.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "storage/sqlite_db.h"
#include "storage/storage.h"

namespace pogi::storage {

class SnapshotStore {
 public:
  // `dir` is the folder of snapshot files; empty keeps them in memory.
  explicit SnapshotStore(std::string dir) : dir_(std::move(dir)) {}

  // The caller holds `live` exclusively (no transaction open) for each call.
  Status Save(Db& live, const std::string& name);
  Status Restore(Db& live, const std::string& name);
  Result<std::vector<SnapshotRecord>> List();
  Status Delete(const std::string& name);

 private:
  struct InMemory {
    std::unique_ptr<Db> db;
    double created_at = 0;
    int64_t size_bytes = 0;
  };
  std::string PathOf(const std::string& name) const { return dir_ + "/" + name + ".db"; }

  const std::string dir_;
  std::mutex mu_;
  std::map<std::string, InMemory> memory_;
  int64_t next_memdb_ = 0;
};

}  // namespace pogi::storage
