// ConsoleLive: the change and request rings the console's Live view polls.
#include "gateway/console_live.h"

#include <cstdio>

#include "gateway/json_codec.h"
#include "gateway/json_text.h"

namespace pogi::gateway {
namespace {

// A change feed watcher's own bound: beyond it the feed drops (and counts)
// rather than slow a write, whether or not a page polls.
constexpr size_t kWatcherCapacity = 2000;

void AppendNumber(double v, std::string* out) {
  char buf[40];
  int n = std::snprintf(buf, sizeof buf, "%.17g", v);
  out->append(buf, n);
}

}  // namespace

ConsoleLive::~ConsoleLive() {
  if (watcher_) engine_.change_feed().Unwatch(watcher_);
  if (observer_ >= 0) engine_.request_observers().Remove(observer_);
}

std::string ConsoleLive::ChangesAfter(uint64_t after) {
  std::lock_guard lock(mu_);
  if (!watcher_) watcher_ = engine_.change_feed().Watch("", nullptr, kWatcherCapacity);
  while (auto e = watcher_->Pop()) {
    if (e->event_name() == "DROPPED") {
      dropped_ += e->dropped();
      continue;
    }
    changes_.push_back(std::move(*e));
    if (changes_.size() > kMaxChanges) changes_.pop_front();
  }
  uint64_t newest = changes_.empty() ? 0 : changes_.back().feed_sequence();
  // A cursor from before a restart (the feed counts from 1 again): start over.
  if (after > newest) after = 0;
  std::string out = "{\"Events\":[";
  bool first = true;
  for (const auto& e : changes_) {
    if (e.feed_sequence() <= after) continue;
    if (!first) out.push_back(',');
    first = false;
    MessageToJson(e, &out);
  }
  out += "],\"Next\":" + std::to_string(newest) + ",\"Dropped\":" + std::to_string(dropped_) + "}";
  return out;
}

std::string ConsoleLive::RequestsAfter(uint64_t after) {
  std::shared_ptr<Tail> tail;
  {
    std::lock_guard lock(mu_);
    if (!tail_) {
      tail_ = std::make_shared<Tail>();
      const service::Clock* clock = &engine_.clock();
      observer_ = engine_.request_observers().Add([tail = tail_, clock](const service::RequestRecord& r) {
        RequestLine line;
        line.time = clock->Now();
        line.door = r.door;
        line.operation = r.operation;
        line.table = r.table;
        line.error_type = r.error_type;
        line.status = r.status;
        line.latency_us = r.latency_us;
        std::lock_guard tl(tail->mu);
        line.seq = ++tail->next;
        tail->lines.push_back(std::move(line));
        if (tail->lines.size() > kMaxRequests) tail->lines.pop_front();
      });
    }
    tail = tail_;
  }
  std::lock_guard lock(tail->mu);
  if (after > tail->next) after = 0;  // a cursor from before a restart
  std::string out = "{\"Requests\":[";
  bool first = true;
  for (const auto& l : tail->lines) {
    if (l.seq <= after) continue;
    if (!first) out.push_back(',');
    first = false;
    out += "{\"Seq\":" + std::to_string(l.seq) + ",\"Time\":";
    AppendNumber(l.time, &out);
    out += ",\"Door\":";
    AppendJsonString(l.door, &out);
    out += ",\"Operation\":";
    AppendJsonString(l.operation, &out);
    out += ",\"TableName\":";
    AppendJsonString(l.table, &out);
    out += ",\"Status\":" + std::to_string(l.status) + ",\"ErrorType\":";
    AppendJsonString(l.error_type, &out);
    out += ",\"LatencyUs\":" + std::to_string(l.latency_us) + "}";
  }
  out += "],\"Next\":" + std::to_string(tail->next) + "}";
  return out;
}

}  // namespace pogi::gateway
