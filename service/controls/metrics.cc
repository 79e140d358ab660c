// Metrics: recording RequestRecords and the Prometheus text format.
#include "service/controls/metrics.h"

#include <algorithm>

namespace pogi::service {
namespace {

// Prometheus label values escape backslash, quote and newline.
std::string Label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

Metrics::~Metrics() {
  if (observers_ && observer_id_ >= 0) observers_->Remove(observer_id_);
}

void Metrics::Start(RequestObservers& observers, double now) {
  if (started_.load(std::memory_order_acquire)) return;
  std::lock_guard lock(mu_);
  if (started_.load()) return;
  started_at_ = now;
  observers_ = &observers;
  observer_id_ = observers.Add([this](const RequestRecord& r) { Record(r); });
  started_.store(true);
}

void Metrics::Record(const RequestRecord& r) {
  size_t bucket = std::lower_bound(kBoundsUs.begin(), kBoundsUs.end(), r.latency_us) - kBoundsUs.begin();
  // The series this thread recorded last, if the same: most calls repeat
  // the operation and table of the one before, and a series, once made,
  // stays where it is (series_ is never erased from).
  // (Keyed by the Metrics' id, not its address: another one may be made
  // where a destroyed one was.)
  thread_local uint64_t last_owner = 0;
  thread_local Key last_key;
  thread_local Series* last = nullptr;
  std::lock_guard lock(mu_);
  if (last_owner != id_ || last_key.first != r.operation || last_key.second != r.table) {
    last_key = Key(std::string(r.operation), std::string(r.table));
    last = &series_[last_key];
    last_owner = id_;
  }
  Series& s = *last;
  ++s.calls;
  if (!r.error_type.empty()) ++s.errors[std::string(r.error_type)];
  ++s.latency[bucket];
  s.latency_sum_us += r.latency_us;
  s.bytes_in += static_cast<int64_t>(r.bytes_in);
  s.bytes_out += static_cast<int64_t>(r.bytes_out);
}

std::map<Metrics::Key, Metrics::Series> Metrics::Snapshot() const {
  std::lock_guard lock(mu_);
  return series_;
}

std::string Metrics::PrometheusText() const {
  auto all = Snapshot();
  std::string out;
  auto labels = [](const Key& k) {
    return "operation=\"" + Label(k.first) + "\",table=\"" + Label(k.second) + "\"";
  };
  out += "# HELP pogi_requests_total Requests answered, by operation and table.\n";
  out += "# TYPE pogi_requests_total counter\n";
  for (const auto& [k, s] : all)
    out += "pogi_requests_total{" + labels(k) + "} " + std::to_string(s.calls) + "\n";
  out += "# HELP pogi_request_errors_total Requests answered with an error, by DynamoDB error type.\n";
  out += "# TYPE pogi_request_errors_total counter\n";
  for (const auto& [k, s] : all) {
    for (const auto& [type, n] : s.errors) {
      out += "pogi_request_errors_total{" + labels(k) + ",type=\"" + Label(type) + "\"} " +
             std::to_string(n) + "\n";
    }
  }
  out += "# HELP pogi_request_duration_seconds Time from the request read to the answer ready.\n";
  out += "# TYPE pogi_request_duration_seconds histogram\n";
  for (const auto& [k, s] : all) {
    int64_t cumulative = 0;
    for (size_t i = 0; i <= kBoundsUs.size(); ++i) {
      cumulative += s.latency[i];
      std::string le = i < kBoundsUs.size() ? std::to_string(kBoundsUs[i] / 1e6) : "+Inf";
      out += "pogi_request_duration_seconds_bucket{" + labels(k) + ",le=\"" + le + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    out += "pogi_request_duration_seconds_sum{" + labels(k) + "} " + std::to_string(s.latency_sum_us / 1e6) +
           "\n";
    out += "pogi_request_duration_seconds_count{" + labels(k) + "} " + std::to_string(s.calls) + "\n";
  }
  out += "# HELP pogi_request_bytes_total Request body bytes received.\n";
  out += "# TYPE pogi_request_bytes_total counter\n";
  for (const auto& [k, s] : all) {
    out += "pogi_request_bytes_total{" + labels(k) + "} " + std::to_string(s.bytes_in) + "\n";
  }
  out += "# HELP pogi_response_bytes_total Response body bytes sent.\n";
  out += "# TYPE pogi_response_bytes_total counter\n";
  for (const auto& [k, s] : all) {
    out += "pogi_response_bytes_total{" + labels(k) + "} " + std::to_string(s.bytes_out) + "\n";
  }
  return out;
}

}  // namespace pogi::service
