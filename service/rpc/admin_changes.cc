// The WatchChanges reactor: events are written one at a time as the feed
// delivers them; the feed drops (and counts) what a slow watcher cannot take.
#include "service/rpc/admin_changes.h"

#include <mutex>
#include <optional>

namespace pogi::rpc {
namespace {

class WatchReactor final : public grpc::ServerWriteReactor<v1::ChangeEvent> {
 public:
  WatchReactor(service::ChangeFeed& feed, const std::string& table) : feed_(feed) {
    watcher_ = feed_.Watch(table, [this] { WriteNext(); });
    // An empty first message tells the client the watch has begun: changes
    // committed after it arrives are all in the stream.
    std::lock_guard lock(mu_);
    writing_ = true;
    current_.set_event_name("WATCHING");
    StartWrite(&current_);
  }

  void OnWriteDone(bool ok) override {
    {
      std::lock_guard lock(mu_);
      writing_ = false;
      if (!ok) stopped_ = true;
      if (stopped_) {
        FinishOnce();
        return;
      }
    }
    WriteNext();
  }

  void OnCancel() override {
    std::lock_guard lock(mu_);
    Stop();
  }

  void OnDone() override {
    feed_.Unwatch(watcher_);
    delete this;
  }

 private:
  void WriteNext() {
    std::lock_guard lock(mu_);
    if (writing_ || stopped_) return;
    std::optional<v1::ChangeEvent> next = watcher_->Pop();
    if (!next) {
      if (watcher_->closed()) Stop();
      return;
    }
    current_ = std::move(*next);
    writing_ = true;
    StartWrite(&current_);
  }

  // REQUIRES: mu_ held.
  void Stop() {
    stopped_ = true;
    if (!writing_) FinishOnce();
  }
  // REQUIRES: mu_ held; no write in flight.
  void FinishOnce() {
    if (finished_) return;
    finished_ = true;
    Finish(grpc::Status::OK);
  }

  service::ChangeFeed& feed_;
  std::shared_ptr<service::ChangeFeed::Watcher> watcher_;
  std::mutex mu_;
  v1::ChangeEvent current_;
  bool writing_ = false;
  bool stopped_ = false;
  bool finished_ = false;
};

}  // namespace

grpc::ServerWriteReactor<v1::ChangeEvent>* NewWatchReactor(service::ChangeFeed& feed,
                                                           const std::string& table) {
  return new WatchReactor(feed, table);
}

}  // namespace pogi::rpc
