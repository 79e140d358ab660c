// pogi: the one binary — `start` serves, `env` prints client settings, and
// the admin subcommands talk to a running pogi over gRPC.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/version.h"
#include "service/rpc/grpc_server.h"

int main(int argc, char** argv) {
  pogi::rpc::SilenceGrpcLogging();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (pogi::cli::IsDynamoDbLocalCommandLine(args)) return pogi::cli::StartAsDynamoDbLocal(args);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    pogi::cli::PrintUsage();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::printf("pogi %s (commit %s, built %s)\n", pogi::cli::kVersion, pogi::cli::kCommit,
                pogi::cli::kBuildDate);
    return 0;
  }
  const std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "help") {
    if (rest.empty()) {
      pogi::cli::PrintUsage();
      return 0;
    }
    if (pogi::cli::PrintCommandHelp(rest[0])) return 0;
    std::fprintf(stderr, "pogi: no help for unknown command '%s'\n", rest[0].c_str());
    return 2;
  }
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") return pogi::cli::PrintCommandHelp(cmd) ? 0 : 2;
  }
  if (cmd == "start") return pogi::cli::Start(rest);
  if (cmd == "gateway") return pogi::cli::Gateway(rest);
  if (cmd == "env") return pogi::cli::Env(rest);
  if (cmd == "clock") return pogi::cli::Clock(rest);
  if (cmd == "watch") return pogi::cli::Watch(rest);
  if (cmd == "close-shard") return pogi::cli::CloseShard(rest);
  if (cmd == "status" || cmd == "tables" || cmd == "describe" || cmd == "stop") {
    return pogi::cli::Admin(cmd, rest);
  }
  if (cmd == "reset") return pogi::cli::Reset(rest);
  if (cmd == "snapshot") return pogi::cli::Snapshot(rest);
  if (cmd == "faults") return pogi::cli::FaultsCommand(rest);
  if (cmd == "lag") return pogi::cli::Lag(rest);
  if (cmd == "replication") return pogi::cli::Replication(rest);
  if (cmd == "throttle") return pogi::cli::ThrottleCommand(rest);
  if (cmd == "jobs") return pogi::cli::Jobs(rest);
  if (cmd == "export") return pogi::cli::Export(rest);
  if (cmd == "import") return pogi::cli::Import(rest);
  if (cmd == "scan" || cmd == "query" || cmd == "get" || cmd == "put" || cmd == "delete") {
    return pogi::cli::Data(cmd, rest);
  }
  if (cmd == "tail") return pogi::cli::Tail(rest);
  if (cmd == "top") return pogi::cli::Top(rest);
  if (cmd == "completion") return pogi::cli::Completion(rest);
  std::fprintf(stderr, "pogi: unknown command '%s' (see pogi --help)\n", cmd.c_str());
  return 2;
}
