// `pogi start`: open storage, bind the HTTP and gRPC listeners, print
// "Ready.", serve until SIGINT/SIGTERM or an admin's stop, then shut down
// cleanly (in-flight requests finish, storage closes).
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/version.h"
#include "common/limits.h"
#include "common/log.h"
#include "gateway/http_server.h"
#include "service/admin/maintenance.h"
#include "service/controls/request_log.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::cli {
namespace {

// A refused start: one log line, exit status 1.
int Fail(const std::string& message) {
  log::Error(message);
  return 1;
}

// Whether `host` (an IP literal) is a loopback address: 127.0.0.0/8 or ::1.
bool IsLoopback(const std::string& host) {
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

// Raises the open-files limit to its hard ceiling (each HTTP connection is
// a descriptor; distributions default the soft limit to 1024) and returns
// the connections that fit under it beside pogi's other files.
int ConnectionsThatFit(int wanted) {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return wanted;
  if (files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) files = raised;
  }
  if (files.rlim_cur == RLIM_INFINITY) return wanted;
  long long room = static_cast<long long>(files.rlim_cur) - limits::kReservedFiles;
  return static_cast<int>(std::max(1LL, std::min<long long>(wanted, room)));
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

  Flags flags(
      {"host", "port", "grpc-port", "data-dir", "log-level", "log-format", "log-file",
       "item-collection-limit", "access-key-id", "secret-access-key", "threads", "clock", "ttl-interval",
       "stream-shard-hours", "max-connections", "idle-timeout", "region", "storage", "pg-schema"},
      {"in-memory", "fsync", "check-signatures", "allow-unsigned", "log-requests", "clock-frozen",
       "no-console"});
  std::string error;
  if (!flags.Parse(args, &error)) return Fail(error + " (see pogi help start)");
  if (!flags.positional().empty()) return Fail("unexpected argument '" + flags.positional()[0] + "'");
  // The logger first, so that every later refusal goes where it was told.
  log::Options log_options;
  std::string level = flags.Get("log-level").value_or("info");
  if (!log::ParseLevel(level, &log_options.level)) {
    return Fail("invalid --log-level " + level + " (error, warn, info or debug)");
  }
  std::string format = flags.Get("log-format").value_or("text");
  if (!log::ParseFormat(format, &log_options.format)) {
    return Fail("invalid --log-format " + format + " (text or json)");
  }
  log_options.file = flags.Get("log-file").value_or("");
  if (Status s = log::Init(log_options); !s.ok()) return Fail(s.error().message());

  // In pogi's container image (POGI_CONTAINER=1) the default address is
  // every interface, and listening there is not warned about: the
  // container's own network is the boundary, and its port mapping decides
  // who reaches pogi. Everywhere else the default is loopback only.
  const char* container = std::getenv("POGI_CONTAINER");
  const bool in_container = container && std::string(container) == "1";
  std::string host = flags.Get("host").value_or(in_container ? "0.0.0.0" : "127.0.0.1");
  uint16_t http_port = kDefaultHttpPort, grpc_port = kDefaultGrpcPort;
  if (auto p = flags.Get("port"); p && !ParsePort(*p, &http_port)) return Fail("invalid --port " + *p);
  if (auto p = flags.Get("grpc-port"); p && !ParsePort(*p, &grpc_port))
    return Fail("invalid --grpc-port " + *p);
  // The region first: opening the engine may already build ARNs.
  if (auto r = flags.Get("region")) {
    if (!service::IsRegionName(*r))
      return Fail("invalid --region " + *r + " (an AWS region name, for example eu-west-1)");
    service::SetRegion(*r);
  }
  storage::Options options;
  options.in_memory = flags.Has("in-memory");
  options.fsync_each_commit = flags.Has("fsync");
  const char* env_dir = std::getenv("POGI_DATA_DIR");
  options.data_dir = flags.Get("data-dir").value_or(env_dir && *env_dir ? env_dir : ".pogi");
  const char* env_storage = std::getenv("POGI_STORAGE");
  options.postgres = flags.Get("storage").value_or(env_storage ? env_storage : "");
  const char* env_schema = std::getenv("POGI_PG_SCHEMA");
  options.pg_schema = flags.Get("pg-schema").value_or(env_schema && *env_schema ? env_schema : "pogi");
  if (!options.postgres.empty() && options.in_memory) {
    return Fail("--in-memory and --storage exclude each other (the data lives in PostgreSQL)");
  }
  if (flags.Get("pg-schema") && options.postgres.empty()) return Fail("--pg-schema needs --storage");
  if (options.pg_schema.empty()) return Fail("invalid --pg-schema (empty)");

  // The one clock: the system's time unless told otherwise; the admin API
  // sets, advances and freezes it.
  std::shared_ptr<service::ControllableClock> clock;
  if (auto v = flags.Get("clock")) {
    auto t = service::ParseIsoTime(*v);
    if (!t) return Fail("invalid --clock " + *v + " (for example 2030-01-01T00:00:00Z)");
    clock = std::make_shared<service::ControllableClock>(*t, flags.Has("clock-frozen"));
  } else {
    clock =
        std::make_shared<service::ControllableClock>(service::SystemClock().Now(), flags.Has("clock-frozen"));
  }
  double ttl_interval = 1;
  if (auto v = flags.Get("ttl-interval")) {
    auto d = service::ParseDuration(*v);
    if (!d || *d <= 0) return Fail("invalid --ttl-interval " + *v + " (for example 1s or 500ms)");
    ttl_interval = *d;
  }
  double shard_hours = 4;
  if (auto v = flags.Get("stream-shard-hours")) {
    char* end = nullptr;
    shard_hours = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || !(shard_hours > 0)) return Fail("invalid --stream-shard-hours " + *v);
  }
  int64_t collection_limit = service::kMaxItemCollectionBytes;
  if (auto v = flags.Get("item-collection-limit")) {
    char* end = nullptr;
    long long parsed = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1) return Fail("invalid --item-collection-limit " + *v);
    collection_limit = parsed;
  }
  // A clock given here replaces the one kept in the database; otherwise
  // pogi goes on with that one (a restart's, or the other processes').
  const bool clock_set = flags.Get("clock").has_value() || flags.Has("clock-frozen");
  auto engine = service::Engine::Open(options, clock, collection_limit, clock_set);
  if (!engine.ok()) return Fail(engine.error().message());
  (*engine)->set_stream_shard_seconds(shard_hours * 3600);

  // Half the CPUs by default: the clients under test run on the same
  // machine, and storage serializes on one connection anyway, so more HTTP
  // threads only add lock hand-offs (measured on 2 cores: one thread serves
  // PutItem at 28 us CPU instead of 35, GetItem at 13 instead of 15).
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
  // On PostgreSQL a request waits for the database's answers, and reads run
  // beside each other: more threads keep one slow answer from holding every
  // request (a database that stops answering holds a thread up to 10 s).
  if (!options.postgres.empty()) threads = std::max(threads, 8);
  if (auto v = flags.Get("threads")) {
    char* end = nullptr;
    long parsed = std::strtol(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1 || parsed > 256) return Fail("invalid --threads " + *v);
    threads = static_cast<int>(parsed);
  }
  gateway::ConnectionLimits connection_limits;
  if (auto v = flags.Get("max-connections")) {
    char* end = nullptr;
    long parsed = std::strtol(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1 || parsed > limits::kMaxConnections) {
      return Fail("invalid --max-connections " + *v + " (1 to " + std::to_string(limits::kMaxConnections) +
                  ")");
    }
    connection_limits.max_connections = static_cast<int>(parsed);
  }
  if (int fit = ConnectionsThatFit(connection_limits.max_connections);
      fit < connection_limits.max_connections) {
    log::Warn("the open-files limit allows " + std::to_string(fit) + " HTTP connections, not " +
              std::to_string(connection_limits.max_connections));
    connection_limits.max_connections = fit;
  }
  if (auto v = flags.Get("idle-timeout")) {
    auto d = service::ParseDuration(*v);
    if (!d || *d <= 0) return Fail("invalid --idle-timeout " + *v + " (for example 60s or 500ms)");
    connection_limits.idle_timeout = std::chrono::milliseconds(static_cast<int64_t>(*d * 1000));
  }
  if (!IsLoopback(host) && !flags.Has("check-signatures") && !in_container) {
    log::Warn(
        "listening on " + host +
        " without --check-signatures: anyone who can reach this address can read and change every table");
  }
  std::optional<gateway::Credentials> credentials;
  if (flags.Has("check-signatures")) {
    // The defaults are what `pogi env` exports.
    credentials = gateway::Credentials{flags.Get("access-key-id").value_or("pogi"),
                                       flags.Get("secret-access-key").value_or("pogi")};
  }
  if (flags.Has("log-requests")) service::LogRequests((*engine)->request_observers());
  // --allow-unsigned lifts DynamoDB's Authorization presence check, for
  // requests made by hand (curl).
  auto http =
      gateway::HttpServer::Bind(**engine, host, http_port, threads, credentials, flags.Has("allow-unsigned"),
                                !flags.Has("no-console"), connection_limits);
  if (!http.ok()) return Fail(http.error().message());
  gateway::HttpServer* http_server = http->get();

  auto grpc = rpc::GrpcServer::Start(**engine, host, grpc_port, [http_server] { http_server->Stop(); });
  if (!grpc.ok()) return Fail(grpc.error().message());

  rpc::ServerInfo info;
  info.version = kVersion;
  info.in_memory = options.in_memory;
  // Where the data is, for `pogi status` and the log; a connection string
  // may hold a password, so PostgreSQL is named by its schema only.
  const std::string where =
      options.postgres.empty() ? options.data_dir : "PostgreSQL schema " + options.pg_schema;
  info.data_dir = options.in_memory ? "" : where;
  info.http_port = (*http)->port();
  info.grpc_port = (*grpc)->port();
  info.started_at = service::SystemClock().Now();
  (*grpc)->SetInfo(info);
  // TTL deletions, shard roll-overs and stream retention, every interval.
  auto maintenance = std::make_unique<service::MaintenanceLoop>(**engine, ttl_interval);

  std::thread([stop_signals, http_server] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    http_server->Stop();
  }).detach();

  std::string http_address = "http://" + host + ":" + std::to_string(info.http_port);
  log::Info(std::string("pogi ") + kVersion + ": DynamoDB API on " + http_address + ", gRPC on " + host +
                ":" + std::to_string(info.grpc_port) + ", " +
                (options.in_memory ? std::string("in memory") : "data in " + where) +
                (flags.Has("no-console") ? std::string() : ", console on " + http_address + "/_pogi/"),
            {{"http_port", info.http_port},
             {"grpc_port", info.grpc_port},
             {"data_dir", info.data_dir},
             {"log_requests", flags.Has("log-requests") ? "on" : ""}});
  std::fputs("Ready.\n", stdout);
  std::fflush(stdout);

  (*http)->Run();
  log::Info("stopping: the HTTP door is closed and drained");
  maintenance.reset();
  (*grpc)->Shutdown();
  grpc->reset();
  // The HTTP server before the engine: its console watches the engine's
  // change feed and unwatches it on the way out.
  http->reset();
  engine->reset();  // closes storage: counters written back, the WAL folded in
  log::Info("stopped");
  log::Flush();
  return 0;
}

}  // namespace pogi::cli
