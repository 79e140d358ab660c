// `pogi start`: open storage, bind the HTTP and gRPC listeners, print
// "Ready.", serve until SIGINT/SIGTERM or an admin's stop, then shut down
// cleanly (in-flight requests finish, storage closes).
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli/commands.h"
#include "cli/flags.h"
#include "gateway/http_server.h"
#include "service/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::cli {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "pogi: %s\n", message.c_str());
  return 1;
}

}  // namespace

int Start(const std::vector<std::string>& args) {
  // Block the stop signals before any thread exists, so that only the
  // dedicated waiter below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Flags flags({"host", "port", "grpc-port", "data-dir", "log-level", "item-collection-limit", "access-key-id",
               "secret-access-key", "threads"},
              {"in-memory", "fsync", "check-signatures"});
  std::string error;
  if (!flags.Parse(args, &error)) return Fail(error + " (see pogi help start)");
  if (!flags.positional().empty()) return Fail("unexpected argument '" + flags.positional()[0] + "'");

  std::string host = flags.Get("host").value_or("127.0.0.1");
  uint16_t http_port = kDefaultHttpPort, grpc_port = kDefaultGrpcPort;
  if (auto p = flags.Get("port"); p && !ParsePort(*p, &http_port)) return Fail("invalid --port " + *p);
  if (auto p = flags.Get("grpc-port"); p && !ParsePort(*p, &grpc_port))
    return Fail("invalid --grpc-port " + *p);
  std::string level = flags.Get("log-level").value_or("info");
  if (level != "error" && level != "warn" && level != "info" && level != "debug") {
    return Fail("invalid --log-level " + level + " (error, warn, info or debug)");
  }
  bool quiet = level == "error" || level == "warn";

  storage::Options options;
  options.in_memory = flags.Has("in-memory");
  options.fsync_each_commit = flags.Has("fsync");
  const char* env_dir = std::getenv("POGI_DATA_DIR");
  options.data_dir = flags.Get("data-dir").value_or(env_dir && *env_dir ? env_dir : ".pogi");

  auto clock = std::make_shared<service::SystemClock>();
  int64_t collection_limit = service::kMaxItemCollectionBytes;
  if (auto v = flags.Get("item-collection-limit")) {
    char* end = nullptr;
    long long parsed = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1) return Fail("invalid --item-collection-limit " + *v);
    collection_limit = parsed;
  }
  auto engine = service::Engine::Open(options, clock, collection_limit);
  if (!engine.ok()) return Fail(engine.error().message());

  // Half the CPUs by default: the clients under test run on the same
  // machine, and storage serializes on one connection anyway, so more HTTP
  // threads only add lock hand-offs (measured on 2 cores: one thread serves
  // PutItem at 28 us CPU instead of 35, GetItem at 13 instead of 15).
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
  if (auto v = flags.Get("threads")) {
    char* end = nullptr;
    long parsed = std::strtol(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1 || parsed > 256) return Fail("invalid --threads " + *v);
    threads = static_cast<int>(parsed);
  }
  std::optional<gateway::Credentials> credentials;
  if (flags.Has("check-signatures")) {
    // The defaults are what `pogi env` exports.
    credentials = gateway::Credentials{flags.Get("access-key-id").value_or("pogi"),
                                       flags.Get("secret-access-key").value_or("pogi")};
  }
  auto http = gateway::HttpServer::Bind(**engine, host, http_port, threads, credentials);
  if (!http.ok()) return Fail(http.error().message());
  gateway::HttpServer* http_server = http->get();

  auto grpc = rpc::GrpcServer::Start(**engine, host, grpc_port, [http_server] { http_server->Stop(); });
  if (!grpc.ok()) return Fail(grpc.error().message());

  rpc::ServerInfo info;
  info.version = POGI_VERSION;
  info.in_memory = options.in_memory;
  info.data_dir = options.in_memory ? "" : options.data_dir;
  info.http_port = (*http)->port();
  info.grpc_port = (*grpc)->port();
  info.started_at = clock->Now();
  (*grpc)->SetInfo(info);

  std::thread([stop_signals, http_server] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    http_server->Stop();
  }).detach();

  if (!quiet) {
    std::fprintf(stderr, "pogi %s: DynamoDB API on http://%s:%u, gRPC on %s:%u, %s\n", POGI_VERSION,
                 host.c_str(), info.http_port, host.c_str(), info.grpc_port,
                 options.in_memory ? "in memory" : ("data in " + options.data_dir).c_str());
  }
  std::fputs("Ready.\n", stdout);
  std::fflush(stdout);

  (*http)->Run();
  (*grpc)->Shutdown();
  if (!quiet) std::fprintf(stderr, "pogi: stopped\n");
  return 0;
}

}  // namespace pogi::cli
