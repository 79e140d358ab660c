// `pogi tail` (each answered request as it happens) and `pogi top` (a
// per-operation view of rates and latencies, refreshed each second), over
// TailRequests and GetMetrics.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <thread>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {
namespace {

// The latency below which `q` of the calls of `m` fell, from its histogram.
double Quantile(const v1::OperationMetrics& m, const std::vector<int64_t>& bounds, double q) {
  int64_t total = 0;
  for (int64_t c : m.latency_counts()) total += c;
  if (total == 0) return 0;
  int64_t seen = 0;
  for (int i = 0; i < m.latency_counts_size(); ++i) {
    seen += m.latency_counts(i);
    if (seen >= q * total)
      return i < static_cast<int>(bounds.size()) ? bounds[i] / 1000.0 : bounds.back() / 1000.0;
  }
  return bounds.back() / 1000.0;
}

}  // namespace

int Tail(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("tail", {}, {"body"}, args, &flags, &rc);
  if (!client) return rc;
  if (!flags.positional().empty()) return UsageError("tail", "unexpected argument");
  v1::TailRequestsRequest req;
  req.set_with_body(flags.Has("body"));
  grpc::ClientContext ctx;
  auto reader = v1::Admin::NewStub(client->channel)->TailRequests(&ctx, req);
  v1::RequestEvent e;
  while (reader->Read(&e)) {
    std::time_t t = static_cast<std::time_t>(e.time());
    char when[16];
    std::strftime(when, sizeof when, "%H:%M:%S", std::localtime(&t));
    std::printf("%s.%03d %-4s %-20s %-24s %3d %9.3f ms %s%s%s\n", when,
                static_cast<int>((e.time() - static_cast<double>(t)) * 1000), e.door().c_str(),
                e.operation().empty() ? "-" : e.operation().c_str(),
                e.table_name().empty() ? "-" : e.table_name().c_str(), e.status(), e.latency_us() / 1000.0,
                e.error_type().c_str(), e.error_type().empty() ? "" : " ", e.request_id().c_str());
    if (!e.body().empty()) std::printf("  %s\n", e.body().c_str());
    std::fflush(stdout);
  }
  grpc::Status s = reader->Finish();
  if (!s.ok()) return CallFailed(s, client->address);
  return 0;
}

int Top(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("top", {"iterations", "interval"}, {}, args, &flags, &rc);
  if (!client) return rc;
  int64_t iterations = -1, interval_ms = 1000;
  if (auto n = flags.Get("iterations")) iterations = std::atoll(n->c_str());
  if (auto i = flags.Get("interval"); i && (!ParseDuration(*i, &interval_ms) || interval_ms == 0)) {
    return UsageError("top", "invalid --interval " + *i);
  }
  auto admin = v1::Admin::NewStub(client->channel);
  bool terminal = isatty(STDOUT_FILENO);
  std::map<std::pair<std::string, std::string>, int64_t> last_calls;
  for (int64_t round = 0; iterations < 0 || round < iterations; ++round) {
    if (round > 0) std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    v1::GetMetricsResponse resp;
    grpc::Status s = admin->GetMetrics(&ctx, v1::GetMetricsRequest(), &resp);
    if (!s.ok()) return CallFailed(s, client->address);
    std::vector<int64_t> bounds(resp.latency_bounds_us().begin(), resp.latency_bounds_us().end());
    if (terminal) std::printf("\033[H\033[2J");
    std::printf("pogi top  %s  (collecting for %.0f s)\n\n", client->address.c_str(), resp.since_seconds());
    std::printf("%-20s %-24s %10s %8s %8s %9s %9s\n", "OPERATION", "TABLE", "CALLS", "RATE/s", "ERRORS",
                "P50 ms", "P99 ms");
    for (const auto& m : resp.metrics()) {
      auto key = std::make_pair(m.operation(), m.table_name());
      int64_t before = last_calls.count(key) ? last_calls[key] : m.calls();
      last_calls[key] = m.calls();
      int64_t errors = 0;
      for (const auto& [type, n] : m.errors()) errors += n;
      std::printf("%-20s %-24s %10lld %8.1f %8lld %9.3f %9.3f\n",
                  m.operation().empty() ? "-" : m.operation().c_str(),
                  m.table_name().empty() ? "-" : m.table_name().c_str(), static_cast<long long>(m.calls()),
                  (m.calls() - before) * 1000.0 / interval_ms, static_cast<long long>(errors),
                  Quantile(m, bounds, 0.5), Quantile(m, bounds, 0.99));
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace pogi::cli
