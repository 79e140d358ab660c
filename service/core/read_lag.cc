// The read lag's settings and the recent versions the write path records.
#include "service/core/read_lag.h"

#include <algorithm>
#include <chrono>

#include "service/core/catalog.h"

namespace pogi::service {
namespace {

int64_t SteadyMicros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string ReadLag::KeyId(std::string_view partition, std::string_view sort) {
  // Length-prefixed: encoded keys may hold any byte.
  std::string id = std::to_string(partition.size());
  id += ':';
  id += partition;
  id += sort;
  return id;
}

void ReadLag::Set(const std::string& table, int64_t lag_ms) {
  std::lock_guard lock(mu_);
  if (table.empty()) {
    global_ms_ = lag_ms;
    if (lag_ms == 0) table_ms_.clear();
  } else if (lag_ms == 0) {
    table_ms_.erase(table);
  } else {
    table_ms_[table] = lag_ms;
  }
  bool any = global_ms_ > 0 || !table_ms_.empty();
  // Versions recorded under a lag that is gone would only cost memory.
  if (!any) versions_.clear();
  active_.store(any, std::memory_order_relaxed);
}

int64_t ReadLag::global_ms() const {
  std::lock_guard lock(mu_);
  return global_ms_;
}

std::map<std::string, int64_t> ReadLag::table_ms() const {
  std::lock_guard lock(mu_);
  return table_ms_;
}

int64_t ReadLag::LagMsLocked(const std::string& table) const {
  auto it = table_ms_.find(table);
  return it != table_ms_.end() ? it->second : global_ms_;
}

void ReadLag::PruneLocked(TableVersions& tv, int64_t before_us) {
  while (!tv.by_time.empty() && tv.by_time.front().first < before_us) {
    auto it = tv.by_key.find(tv.by_time.front().second);
    // Versions of a key are appended in time order, so the oldest of the
    // whole table is also the oldest of its key.
    if (it != tv.by_key.end()) {
      it->second.versions.pop_front();
      if (it->second.versions.empty()) tv.by_key.erase(it);
    }
    tv.by_time.pop_front();
  }
}

void ReadLag::Record(const Table& table, const storage::EncodedKey& key, const value::AttributeMap* old_item,
                     std::string_view old_item_stored) {
  std::optional<std::string> bytes;
  int64_t size = 0;
  if (old_item) {
    // The version a lagged read sees is the item as it was stored.
    bytes = old_item_stored.empty() ? value::EncodeItem(*old_item) : std::string(old_item_stored);
    size = value::ItemSize(*old_item);
  }
  std::lock_guard lock(mu_);
  int64_t lag_ms = LagMsLocked(table.description.table_name());
  if (lag_ms <= 0) return;
  int64_t now = SteadyMicros();
  TableVersions& tv = versions_[table.id];
  PruneLocked(tv, now - lag_ms * 1000);
  // Tables nobody writes to any more are pruned now and then too.
  if (++records_ % 4096 == 0) {
    int64_t longest_ms = global_ms_;
    for (const auto& [name, ms] : table_ms_) longest_ms = std::max(longest_ms, ms);
    for (auto it = versions_.begin(); it != versions_.end();) {
      PruneLocked(it->second, now - longest_ms * 1000);
      it = it->second.by_time.empty() && &it->second != &tv ? versions_.erase(it) : std::next(it);
    }
  }
  std::string id = KeyId(key.partition, key.sort);
  KeyVersions& kv = tv.by_key[id];
  if (kv.versions.empty()) kv.partition = key.partition, kv.sort = key.sort;
  kv.versions.push_back({now, std::move(bytes), size});
  tv.by_time.emplace_back(now, std::move(id));
}

ReadLag::Overlay ReadLag::Since(const Table& table) const {
  Overlay overlay;
  std::lock_guard lock(mu_);
  int64_t lag_ms = LagMsLocked(table.description.table_name());
  if (lag_ms <= 0) return overlay;
  auto t = versions_.find(table.id);
  if (t == versions_.end()) return overlay;
  int64_t window_start = SteadyMicros() - lag_ms * 1000;
  for (const auto& [id, kv] : t->second.by_key) {
    // The first change after the window's start holds what the item was then.
    for (const Version& v : kv.versions) {
      if (v.at_us <= window_start) continue;
      overlay.emplace(id, LaggedVersion{kv.partition, kv.sort, v.bytes, v.size});
      break;
    }
  }
  return overlay;
}

void ReadLag::Forget(int64_t table_id) {
  if (!active()) return;
  std::lock_guard lock(mu_);
  versions_.erase(table_id);
}

void ReadLag::ForgetAll() {
  std::lock_guard lock(mu_);
  versions_.clear();
}

}  // namespace pogi::service
