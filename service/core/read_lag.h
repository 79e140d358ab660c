// ReadLag: the optional delay of eventually consistent reads (Admin
// SetReadLag, `pogi lag`), and the recent item versions it needs. While a
// table lags by N ms, the write path records what each item held before it
// changed, and an eventually consistent read of the table (or any read of a
// global index) sees every item as it was N ms ago.
//
// Time here is the monotonic wall clock, not the engine's Clock: a
// replication delay is real elapsed time, and the Clock may be frozen or set
// back (TTL and stream tests do both), which would leave writes invisible to
// eventually consistent reads forever or show them early.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "service/value/item.h"
#include "storage/storage.h"

namespace pogi::service {

struct Table;  // catalog.h

// What an item held just before a change: its key, and its stored bytes and
// size (no bytes: the item did not exist).
struct LaggedVersion {
  std::string partition, sort;
  std::optional<std::string> bytes;
  int64_t size = 0;
};

class ReadLag {
 public:
  // The items of one table that changed within its lag, by KeyId: each as it
  // was when the lag window began.
  using Overlay = std::unordered_map<std::string, LaggedVersion>;

  // Whether any lag is set: with none, the write path and reads make only
  // this check (one relaxed load).
  bool active() const { return active_.load(std::memory_order_relaxed); }

  // Sets the lag of `table` (empty: the global lag, which every table
  // without its own follows). A table's 0 removes its own setting; a
  // global 0 turns every lag off, the tables' own included.
  void Set(const std::string& table, int64_t lag_ms);
  int64_t global_ms() const;
  std::map<std::string, int64_t> table_ms() const;

  // Write path: `key` of `table` is changing from `old_item` (null: absent).
  // Does nothing unless the table lags. Thread-safe.
  void Record(const Table& table, const storage::EncodedKey& key, const value::AttributeMap* old_item,
              std::string_view old_item_stored = {});

  // The items of `table` that changed within its lag, as they were at its
  // start; empty when the table does not lag or nothing changed.
  Overlay Since(const Table& table) const;

  // Forgets the versions of table `table_id` (dropped: its id may be used
  // again), or of every table.
  void Forget(int64_t table_id);
  void ForgetAll();

  // The identity of a key in an Overlay.
  static std::string KeyId(std::string_view partition, std::string_view sort);

 private:
  struct Version {
    int64_t at_us;
    std::optional<std::string> bytes;
    int64_t size;
  };
  struct KeyVersions {
    std::string partition, sort;
    std::deque<Version> versions;  // oldest first
  };
  struct TableVersions {
    std::unordered_map<std::string, KeyVersions> by_key;
    std::deque<std::pair<int64_t, std::string>> by_time;  // (at_us, KeyId), oldest first
  };

  int64_t LagMsLocked(const std::string& table) const;
  void PruneLocked(TableVersions& tv, int64_t before_us);

  mutable std::mutex mu_;
  std::atomic<bool> active_{false};
  int64_t global_ms_ = 0;
  std::map<std::string, int64_t> table_ms_;
  std::map<int64_t, TableVersions> versions_;  // by table id
  uint64_t records_ = 0;
};

}  // namespace pogi::service
