// ChangeFeed: the live feed of committed item changes behind Admin
// WatchChanges. Writers check one atomic (`active`) and publish only when
// someone watches, after the commit. Each watcher has a bounded queue: when
// it is full, events are dropped and the watcher is told how many, so a
// slow watcher never slows a write. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pogi/v1/admin.pb.h"

namespace pogi::service {

class ChangeFeed {
 public:
  class Watcher {
   public:
    // The next event, or nullopt when none is waiting. Where events were
    // dropped, a "DROPPED" marker says how many.
    std::optional<v1::ChangeEvent> Pop();
    // Whether the feed has closed (the server is stopping): nothing more comes.
    bool closed() const { return closed_.load(); }

   private:
    friend class ChangeFeed;
    std::string table_;  // empty: every table
    size_t capacity_ = 0;
    std::function<void()> notify_;
    std::mutex mu_;
    std::deque<v1::ChangeEvent> queue_;
    uint64_t dropped_ = 0;
    std::atomic<bool> closed_{false};
  };

  // Starts watching `table` (empty: every table). `notify` is called (from a
  // writer's thread, without the watcher's lock) when an event arrives.
  std::shared_ptr<Watcher> Watch(std::string table, std::function<void()> notify, size_t capacity = 10000);
  // After Unwatch returns, `notify` is never called again.
  void Unwatch(const std::shared_ptr<Watcher>& watcher);

  // Whether anybody watches: the write path's only cost when nobody does.
  bool active() const { return active_.load(std::memory_order_relaxed) > 0; }

  // Publishes a committed change to every watcher of its table.
  void Publish(v1::ChangeEvent event);

  // Ends every watch (the server is stopping): each watcher is notified
  // once more and then sees closed().
  void Close();

 private:
  std::atomic<int> active_{0};
  std::mutex mu_;
  std::vector<std::shared_ptr<Watcher>> watchers_;
  uint64_t next_sequence_ = 0;
};

}  // namespace pogi::service
