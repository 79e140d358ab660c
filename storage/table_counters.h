// The live item count and size of every table, kept in memory. Updating a
// catalog row on every write would add a page to every commit; instead the
// counters are written to the catalog when storage closes cleanly, and
// counted again from the items after a crash (each row stores its size).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>

namespace pogi::storage {

struct Count {
  int64_t items = 0;
  int64_t bytes = 0;
};

// Changes made by one transaction, applied to TableCounters once it commits.
struct CountChanges {
  std::map<int64_t, Count> deltas;
  std::set<int64_t> dropped;

  void Add(int64_t table_id, int64_t items, int64_t bytes) {
    Count& c = deltas[table_id];
    c.items += items;
    c.bytes += bytes;
  }
  void Merge(const CountChanges& other) {
    for (const auto& [id, d] : other.deltas) Add(id, d.items, d.bytes);
    dropped.insert(other.dropped.begin(), other.dropped.end());
  }
  Count DeltaOf(int64_t table_id) const {
    auto it = deltas.find(table_id);
    return it == deltas.end() ? Count{} : it->second;
  }
};

class TableCounters {
 public:
  Count Get(int64_t table_id) const {
    std::lock_guard lock(mu_);
    auto it = values_.find(table_id);
    return it == values_.end() ? Count{} : it->second;
  }
  void Set(int64_t table_id, Count c) {
    std::lock_guard lock(mu_);
    values_[table_id] = c;
  }
  // After a commit.
  void Apply(const CountChanges& changes) {
    std::lock_guard lock(mu_);
    for (const auto& [id, d] : changes.deltas) {
      values_[id].items += d.items;
      values_[id].bytes += d.bytes;
    }
    for (int64_t id : changes.dropped) values_.erase(id);
  }
  void Clear() {
    std::lock_guard lock(mu_);
    values_.clear();
  }
  std::map<int64_t, Count> All() const {
    std::lock_guard lock(mu_);
    return values_;
  }

 private:
  mutable std::mutex mu_;
  std::map<int64_t, Count> values_;
};

}  // namespace pogi::storage
