// The live change feed.
#include "service/write/change_feed.h"

#include <algorithm>

namespace pogi::service {

std::optional<v1::ChangeEvent> ChangeFeed::Watcher::Pop() {
  std::lock_guard lock(mu_);
  if (queue_.empty()) {
    if (dropped_ == 0) return std::nullopt;
    v1::ChangeEvent marker;
    marker.set_event_name("DROPPED");
    marker.set_dropped(dropped_);
    dropped_ = 0;
    return marker;
  }
  v1::ChangeEvent e = std::move(queue_.front());
  queue_.pop_front();
  return e;
}

std::shared_ptr<ChangeFeed::Watcher> ChangeFeed::Watch(std::string table, std::function<void()> notify,
                                                       size_t capacity) {
  auto w = std::make_shared<Watcher>();
  w->table_ = std::move(table);
  w->notify_ = std::move(notify);
  w->capacity_ = std::max<size_t>(capacity, 1);
  std::lock_guard lock(mu_);
  watchers_.push_back(w);
  active_.store(static_cast<int>(watchers_.size()), std::memory_order_relaxed);
  return w;
}

void ChangeFeed::Unwatch(const std::shared_ptr<Watcher>& watcher) {
  std::lock_guard lock(mu_);
  watchers_.erase(std::remove(watchers_.begin(), watchers_.end(), watcher), watchers_.end());
  active_.store(static_cast<int>(watchers_.size()), std::memory_order_relaxed);
}

void ChangeFeed::Close() {
  std::lock_guard lock(mu_);
  for (const auto& w : watchers_) {
    w->closed_.store(true);
    if (w->notify_) w->notify_();
  }
}

void ChangeFeed::Publish(v1::ChangeEvent event) {
  // Under mu_ so that an Unwatch never races a notify; notify only starts
  // an asynchronous write.
  std::lock_guard lock(mu_);
  event.set_feed_sequence(++next_sequence_);
  for (const auto& w : watchers_) {
    if (!w->table_.empty() && w->table_ != event.table_name()) continue;
    {
      std::lock_guard wl(w->mu_);
      if (w->queue_.size() >= w->capacity_) {
        ++w->dropped_;
        continue;
      }
      // The marker goes where the dropped events would have been.
      if (w->dropped_ > 0) {
        v1::ChangeEvent marker;
        marker.set_event_name("DROPPED");
        marker.set_dropped(w->dropped_);
        w->dropped_ = 0;
        w->queue_.push_back(std::move(marker));
      }
      w->queue_.push_back(event);
    }
    if (w->notify_) w->notify_();
  }
}

}  // namespace pogi::service
