// `pogi lag [DURATION | off] [--table T]`: the read lag of eventually
// consistent reads of a running pogi, over gRPC.
#include <cstdio>
#include <map>
#include <string>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {
namespace {

void Print(const v1::ReadLagState& state) {
  if (state.global_lag_ms() == 0 && state.table_lag_ms().empty()) {
    std::printf("read lag: off\n");
    return;
  }
  if (state.global_lag_ms() > 0) {
    std::printf("read lag: %lldms (every table)\n", static_cast<long long>(state.global_lag_ms()));
  }
  // A map's order is unspecified: print the tables by name.
  std::map<std::string, int64_t> tables(state.table_lag_ms().begin(), state.table_lag_ms().end());
  for (const auto& [name, ms] : tables) {
    std::printf("read lag: %lldms (table %s)\n", static_cast<long long>(ms), name.c_str());
  }
}

}  // namespace

int Lag(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("lag", {"table"}, {}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  if (pos.size() > 1) return UsageError("lag", "lag takes one duration (e.g. 500ms) or off");
  auto stub = v1::Admin::NewStub(client->channel);
  v1::ReadLagState state;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s;
  if (pos.empty()) {
    s = stub->GetReadLag(&ctx, v1::GetReadLagRequest(), &state);
  } else {
    v1::SetReadLagRequest req;
    req.set_table_name(flags.Get("table").value_or(""));
    int64_t ms = 0;
    if (pos[0] != "off" && (!ParseDuration(pos[0], &ms) || ms == 0)) {
      return UsageError("lag", "invalid lag " + pos[0] + " (e.g. 500ms, 2s or off)");
    }
    req.set_lag_ms(ms);
    s = stub->SetReadLag(&ctx, req, &state);
  }
  if (!s.ok()) return CallFailed(s, client->address);
  Print(state);
  return 0;
}

}  // namespace pogi::cli
