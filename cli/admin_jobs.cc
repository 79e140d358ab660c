// `pogi jobs [--kind K] [--json]` and `pogi jobs cancel ARN`: the exports,
// imports and bulk operations of a running pogi and their progress, over
// gRPC (Admin ListJobs, CancelJob).
#include <cstdio>

#include "cli/client.h"
#include "cli/commands.h"
#include "gateway/json_codec.h"
#include "pogi/v1/admin.grpc.pb.h"
#include "service/core/clock.h"

namespace pogi::cli {
namespace {

// "1,234,567"
std::string Count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return (n < 0 ? "-" : "") + out;
}

std::string Progress(const v1::JobSummary& j) {
  std::string p = Count(j.items_written()) + " items";
  if (j.total_bytes() > 0) {
    p += " (" + std::to_string(j.bytes_processed() * 100 / j.total_bytes()) + "% of the input)";
  }
  return p;
}

void PrintTable(const v1::ListJobsResponse& resp) {
  std::printf("%-7s %-22s %-24s %-34s %8s  %-20s %s\n", "KIND", "STATUS", "TABLE", "PROGRESS", "ERRORS",
              "STARTED", "ARN");
  for (const auto& j : resp.jobs()) {
    std::printf("%-7s %-22s %-24s %-34s %8s  %-20s %s\n", j.kind().c_str(), j.status().c_str(),
                j.table_name().c_str(), Progress(j).c_str(), Count(j.errors()).c_str(),
                service::FormatIsoTime(j.start_time()).substr(0, 19).c_str(), j.arn().c_str());
    if (!j.failure_code().empty()) {
      std::printf("        %s: %s\n", j.failure_code().c_str(), j.failure_message().c_str());
    }
    for (const auto& e : j.recent_errors()) std::printf("        error: %s\n", e.c_str());
  }
}

}  // namespace

int Jobs(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("jobs", {"kind"}, {"json"}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  auto stub = v1::Admin::NewStub(client->channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  if (!pos.empty()) {
    if (pos[0] != "cancel" || pos.size() != 2) return UsageError("jobs", "usage: pogi jobs [cancel ARN]");
    v1::CancelJobRequest req;
    req.set_arn(pos[1]);
    v1::CancelJobResponse resp;
    grpc::Status s = stub->CancelJob(&ctx, req, &resp);
    if (!s.ok()) return CallFailed(s, client->address);
    std::printf("%s %s\n", resp.job().arn().c_str(), resp.job().status().c_str());
    return 0;
  }
  v1::ListJobsRequest req;
  req.set_kind(flags.Get("kind").value_or(""));
  v1::ListJobsResponse resp;
  grpc::Status s = stub->ListJobs(&ctx, req, &resp);
  if (!s.ok()) return CallFailed(s, client->address);
  if (flags.Has("json")) {
    for (const auto& j : resp.jobs()) {
      std::string json;
      gateway::MessageToJson(j, &json);
      std::printf("%s\n", json.c_str());
    }
    return 0;
  }
  PrintTable(resp);
  return 0;
}

}  // namespace pogi::cli
