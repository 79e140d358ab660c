// `pogi gateway --engine HOST:PORT`: DynamoDB's HTTP API in a process of its
// own, in front of an engine elsewhere (another process, another host). It
// decodes each request as `pogi start`'s HTTP door does (the same edge
// checks, Authorization and --check-signatures, JSON codec) and forwards it
// over one gRPC channel to the engine's gRPC door (gateway/grpc_backend.h).
// The console and /_pogi/metrics are the engine's: here they answer 404.
#include <algorithm>
#include <cstdio>
#include <thread>

#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/serving.h"
#include "cli/version.h"
#include "common/log.h"
#include "gateway/grpc_backend.h"
#include "gateway/http_server.h"
#include "service/controls/request_log.h"
#include "service/core/region.h"

namespace pogi::cli {
int Gateway(const std::vector<std::string>& args) {
  const sigset_t stop_signals = BlockStopSignals();  // before any thread exists

  Flags flags({"engine", "host", "port", "log-level", "log-format", "log-file", "access-key-id",
               "secret-access-key", "threads", "max-connections", "idle-timeout", "region"},
              {"check-signatures", "allow-unsigned", "log-requests", "strict-regions"});
  std::string error;
  if (!flags.Parse(args, &error)) return Refuse(error + " (see pogi help gateway)");
  if (!flags.positional().empty()) return Refuse("unexpected argument '" + flags.positional()[0] + "'");
  if (Status s = StartLog(flags); !s.ok()) return Refuse(s.error().message());
  std::string engine = flags.Get("engine").value_or("");
  if (engine.empty())
    return Refuse("pogi gateway needs --engine HOST:PORT, the gRPC address of a pogi engine");
  // The credential scope --check-signatures accepts: give it the engine's.
  if (auto r = flags.Get("region")) {
    if (!service::IsRegionName(*r))
      return Refuse("invalid --region " + *r + " (an AWS region name, for example eu-west-1)");
    service::SetRegion(*r);
  }
  // Under --strict-regions every region's scope is served. Without it the
  // gateway serves its own region only: it does not see where the engine's
  // tables live (global tables' replicas need --strict-regions here).
  service::SetStrictRegions(flags.Has("strict-regions"));
  // Each HTTP thread waits for the engine's answer to its request: enough
  // of them that answers overlap, as they do in the engine.
  auto door = ReadHttpDoor(flags, static_cast<int>(std::max(8u, std::thread::hardware_concurrency())));
  if (!door.ok()) return Refuse(door.error().message());

  gateway::GrpcBackend backend(engine);
  if (flags.Has("log-requests")) service::LogRequests(backend.request_observers());
  auto http = gateway::HttpServer::Bind(backend, door->host, door->port, door->threads, door->credentials,
                                        door->allow_unsigned, /*console=*/false, door->limits);
  if (!http.ok()) return Refuse(http.error().message());
  gateway::HttpServer* http_server = http->get();
  StopOnSignal(stop_signals, [http_server] { http_server->Stop(); });

  const uint16_t port = (*http)->port();
  log::Info(
      std::string("pogi ") + kVersion + " gateway: DynamoDB API on http://" + door->host + ":" +
          std::to_string(port) + ", forwarded to the engine at " + engine,
      {{"http_port", port}, {"engine", engine}, {"log_requests", flags.Has("log-requests") ? "on" : ""}});
  std::fputs("Ready.\n", stdout);
  std::fflush(stdout);

  (*http)->Run();
  http->reset();
  log::Info("stopped");
  log::Flush();
  return 0;
}

}  // namespace pogi::cli
