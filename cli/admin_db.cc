// `pogi reset` and `pogi snapshot save|restore|list|rm`: the whole database
// of a running pogi, over gRPC.
#include <cstdio>
#include <ctime>

#include "cli/client.h"
#include "cli/commands.h"
#include "pogi/v1/admin.grpc.pb.h"

namespace pogi::cli {

int Reset(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("reset", {}, {}, args, &flags, &rc);
  if (!client) return rc;
  v1::ResetRequest req;
  for (const auto& t : flags.positional()) req.add_table_names(t);
  v1::ResetResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  grpc::Status s = v1::Admin::NewStub(client->channel)->Reset(&ctx, req, &resp);
  if (!s.ok()) return CallFailed(s, client->address);
  std::printf("dropped %d table%s in %.1f ms\n", resp.dropped_size(), resp.dropped_size() == 1 ? "" : "s",
              resp.elapsed_ms());
  return 0;
}

int Snapshot(const std::vector<std::string>& args) {
  Flags flags({}, {});
  int rc = 0;
  auto client = Connect("snapshot", {}, {}, args, &flags, &rc);
  if (!client) return rc;
  const auto& pos = flags.positional();
  if (pos.empty()) return UsageError("snapshot", "snapshot needs save, restore, list or rm");
  const std::string& verb = pos[0];
  bool needs_name = verb == "save" || verb == "restore" || verb == "rm";
  if (!needs_name && verb != "list") return UsageError("snapshot", "unknown snapshot command '" + verb + "'");
  if (needs_name && pos.size() != 2) return UsageError("snapshot", "snapshot " + verb + " needs one NAME");
  if (!needs_name && pos.size() != 1) return UsageError("snapshot", "snapshot list takes no argument");
  auto admin = v1::Admin::NewStub(client->channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 600);
  grpc::Status s;
  if (verb == "save") {
    v1::CreateSnapshotRequest req;
    req.set_name(pos[1]);
    v1::CreateSnapshotResponse resp;
    s = admin->CreateSnapshot(&ctx, req, &resp);
    if (s.ok()) {
      std::printf("saved snapshot %s (%lld bytes) in %.1f ms\n", pos[1].c_str(),
                  static_cast<long long>(resp.snapshot().size_bytes()), resp.elapsed_ms());
    }
  } else if (verb == "restore") {
    v1::RestoreSnapshotRequest req;
    req.set_name(pos[1]);
    v1::RestoreSnapshotResponse resp;
    s = admin->RestoreSnapshot(&ctx, req, &resp);
    if (s.ok()) std::printf("restored snapshot %s in %.1f ms\n", pos[1].c_str(), resp.elapsed_ms());
  } else if (verb == "rm") {
    v1::DeleteSnapshotRequest req;
    req.set_name(pos[1]);
    v1::DeleteSnapshotResponse resp;
    s = admin->DeleteSnapshot(&ctx, req, &resp);
    if (s.ok()) std::printf("deleted snapshot %s\n", pos[1].c_str());
  } else {
    v1::ListSnapshotsResponse resp;
    s = admin->ListSnapshots(&ctx, v1::ListSnapshotsRequest(), &resp);
    if (s.ok()) {
      std::printf("%-32s %14s  %s\n", "NAME", "BYTES", "CREATED");
      for (const auto& snap : resp.snapshots()) {
        std::time_t t = static_cast<std::time_t>(snap.created_at());
        char when[32];
        std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
        std::printf("%-32s %14lld  %s\n", snap.name().c_str(), static_cast<long long>(snap.size_bytes()),
                    when);
      }
    }
  }
  if (!s.ok()) return CallFailed(s, client->address);
  return 0;
}

}  // namespace pogi::cli
