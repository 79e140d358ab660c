// `pogi replication [lag DURATION | freeze | release]`: global tables'
// replication of a running pogi, over gRPC.
#include <cstdio>
#include <string>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {

int Replication(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("replication", {}, {}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  auto stub = v1::Admin::NewStub(client->channel);
  v1::ReplicationState state;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s;
  if (pos.empty()) {
    s = stub->GetReplication(&ctx, v1::GetReplicationRequest(), &state);
  } else {
    v1::SetReplicationRequest req;
    if (pos[0] == "lag" && pos.size() == 2) {
      int64_t ms = 0;
      if (pos[1] != "0" && !ParseDuration(pos[1], &ms)) {
        return UsageError("replication", "invalid lag " + pos[1] + " (e.g. 500ms, 2s or 0)");
      }
      req.set_lag_ms(ms);
    } else if (pos[0] == "freeze" && pos.size() == 1) {
      req.set_frozen(true);
    } else if (pos[0] == "release" && pos.size() == 1) {
      req.set_frozen(false);
    } else {
      return UsageError("replication", "replication takes lag DURATION, freeze or release");
    }
    s = stub->SetReplication(&ctx, req, &state);
  }
  if (!s.ok()) return CallFailed(s, client->address);
  std::printf("replication: lag %lldms, %s, %lld change%s queued\n", static_cast<long long>(state.lag_ms()),
              state.frozen() ? "frozen" : "running", static_cast<long long>(state.queued()),
              state.queued() == 1 ? "" : "s");
  return 0;
}

}  // namespace pogi::cli
