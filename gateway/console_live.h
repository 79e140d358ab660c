// ConsoleLive: what the console's Live view polls for — the committed item
// changes of the change feed and the answered requests — kept in two small
// rings so that any number of pages can ask "what happened after N" without
// holding a thread (the HTTP threads must never block). Nothing is watched
// until a page first asks; from then on the change feed publishes to it.
// Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "service/engine/engine.h"

namespace pogi::gateway {

class ConsoleLive {
 public:
  explicit ConsoleLive(service::Engine& engine) : engine_(engine) {}
  ~ConsoleLive();
  ConsoleLive(const ConsoleLive&) = delete;
  ConsoleLive& operator=(const ConsoleLive&) = delete;

  // {"Events":[ChangeEvent as DynamoDB-style JSON...],"Next":N,"Dropped":D}:
  // the changes held with feed sequence > `after` (oldest first), N the
  // cursor to ask with next (a cursor beyond the newest change, from before
  // a restart, starts over). Starts watching on the first call.
  std::string ChangesAfter(uint64_t after);
  // {"Requests":[{"Seq","Time","Door","Operation","TableName","Status",
  // "ErrorType","LatencyUs"}...],"Next":N}: the answered requests held after
  // `after`. Starts observing on the first call.
  std::string RequestsAfter(uint64_t after);

  static constexpr size_t kMaxChanges = 500;
  static constexpr size_t kMaxRequests = 200;

 private:
  struct RequestLine {
    uint64_t seq = 0;
    double time = 0;
    std::string door, operation, table, error_type;
    int status = 0;
    int64_t latency_us = 0;
  };

  service::Engine& engine_;
  std::mutex mu_;
  std::shared_ptr<service::ChangeFeed::Watcher> watcher_;
  std::deque<v1::ChangeEvent> changes_;
  uint64_t dropped_ = 0;  // changes the feed dropped before we drained them
  // The request ring is shared with the observer, which may run a moment
  // after we are gone (observers are called on a copy of their list).
  struct Tail {
    std::mutex mu;
    std::deque<RequestLine> lines;
    uint64_t next = 0;
  };
  std::shared_ptr<Tail> tail_;
  int observer_ = -1;
};

}  // namespace pogi::gateway
