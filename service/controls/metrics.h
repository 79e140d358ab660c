// Metrics: per (operation, table) counts of calls, errors by type, a latency
// histogram and bytes, gathered from the RequestRecords both doors publish.
// `pogi start` starts collection at once, so that everything a test suite
// did is counted when someone asks afterwards; an engine nobody starts it
// for (tests, tools) collects from the first ask (GetMetrics, a scrape).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "service/controls/request_observers.h"

namespace pogi::service {

class Metrics {
 public:
  // Upper bounds of the latency buckets, in microseconds; one more bucket
  // counts what lies above the last.
  static constexpr std::array<int64_t, 14> kBoundsUs = {
      100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000, 2500000};

  struct Series {
    int64_t calls = 0;
    std::map<std::string, int64_t> errors;
    std::array<int64_t, kBoundsUs.size() + 1> latency{};
    int64_t latency_sum_us = 0;
    int64_t bytes_in = 0;
    int64_t bytes_out = 0;
  };
  using Key = std::pair<std::string, std::string>;  // operation, table

  ~Metrics();
  // Registers the observer on `observers` once; later calls do nothing.
  void Start(RequestObservers& observers, double now);
  void Record(const RequestRecord& r);
  std::map<Key, Series> Snapshot() const;
  double started_at() const { return started_at_; }
  // The Prometheus text exposition of every series.
  std::string PrometheusText() const;

 private:
  static inline std::atomic<uint64_t> next_id_{1};
  const uint64_t id_ = next_id_.fetch_add(1);  // this Metrics, unlike any other of the process
  mutable std::mutex mu_;
  std::map<Key, Series> series_;
  std::atomic<bool> started_{false};
  double started_at_ = 0;
  RequestObservers* observers_ = nullptr;
  int observer_id_ = -1;
};

}  // namespace pogi::service
