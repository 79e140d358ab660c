// `pogi throttle [on | off | default] [--table T]`: capacity that throttles
// on a running pogi, over gRPC.
#include <cstdio>
#include <map>
#include <string>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {
namespace {

void Print(const v1::ThrottleState& state) {
  std::printf("throttle: %s (every table)\n", state.all_tables() ? "on" : "off");
  // A map's order is unspecified: print the tables by name.
  std::map<std::string, bool> tables(state.tables().begin(), state.tables().end());
  for (const auto& [name, on] : tables)
    std::printf("throttle: %s (table %s)\n", on ? "on" : "off", name.c_str());
}

}  // namespace

int ThrottleCommand(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("throttle", {"table"}, {}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  if (pos.size() > 1) return UsageError("throttle", "throttle takes one of on, off or default");
  auto stub = v1::Admin::NewStub(client->channel);
  v1::ThrottleState state;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s;
  if (pos.empty()) {
    s = stub->GetThrottle(&ctx, v1::GetThrottleRequest(), &state);
  } else {
    std::string table = flags.Get("table").value_or("");
    const std::string& mode = pos[0];
    if (mode != "on" && mode != "off" && !(mode == "default" && !table.empty())) {
      return UsageError("throttle", "invalid setting " + mode + " (on, off, or default with --table)");
    }
    v1::SetThrottleRequest req;
    req.set_table_name(table);
    req.set_mode(mode == "on" ? "ON" : mode == "off" ? "OFF" : "DEFAULT");
    s = stub->SetThrottle(&ctx, req, &state);
  }
  if (!s.ok()) return CallFailed(s, client->address);
  Print(state);
  return 0;
}

}  // namespace pogi::cli
