// `pogi start`: open storage, bind the HTTP and gRPC listeners, print
// "Ready.", serve until SIGINT/SIGTERM or an admin's stop, then shut down
// cleanly (in-flight requests finish, storage closes).
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli/commands.h"
#include "cli/flags.h"
#include "cli/serving.h"
#include "cli/version.h"
#include "common/limits.h"
#include "common/log.h"
#include "gateway/http_server.h"
#include "jobs/job_runner.h"
#include "jobs/kinesis_delivery.h"
#include "outbound/object_store.h"
#include "service/admin/maintenance.h"
#include "service/admin/replication_loop.h"
#include "service/controls/request_log.h"
#include "service/core/region.h"
#include "service/engine/engine.h"
#include "service/rpc/grpc_server.h"

namespace pogi::cli {
int Start(const std::vector<std::string>& args) {
  const sigset_t stop_signals = BlockStopSignals();  // before any thread exists

  Flags flags({"host",
               "port",
               "grpc-port",
               "data-dir",
               "log-level",
               "log-format",
               "log-file",
               "transient-delay",
               "item-collection-limit",
               "access-key-id",
               "secret-access-key",
               "threads",
               "clock",
               "ttl-interval",
               "stream-shard-hours",
               "max-connections",
               "idle-timeout",
               "region",
               "account-id",
               "storage",
               "pg-schema",
               "pg-connections",
               "s3-dir",
               "s3-endpoint",
               "s3-access-key-id",
               "s3-secret-access-key",
               "s3-region",
               "kinesis-endpoint",
               "kinesis-access-key-id",
               "kinesis-secret-access-key",
               "kinesis-region",
               "vector-cache"},
              {"in-memory", "fsync", "check-signatures", "allow-unsigned", "log-requests", "clock-frozen",
               "no-console", "delay-transient-statuses", "s3-path-style", "strict-regions", "throttle"});
  std::string error;
  if (!flags.Parse(args, &error)) return Refuse(error + " (see pogi help start)");
  if (!flags.positional().empty()) return Refuse("unexpected argument '" + flags.positional()[0] + "'");
  // The logger first, so that every later refusal goes where it was told.
  if (Status s = StartLog(flags); !s.ok()) return Refuse(s.error().message());

  uint16_t grpc_port = kDefaultGrpcPort;
  if (auto p = flags.Get("grpc-port"); p && !ParsePort(*p, &grpc_port))
    return Refuse("invalid --grpc-port " + *p);
  // The region first: opening the engine may already build ARNs.
  if (auto r = flags.Get("region")) {
    if (!service::IsRegionName(*r))
      return Refuse("invalid --region " + *r + " (an AWS region name, for example eu-west-1)");
    service::SetRegion(*r);
  }
  if (auto a = flags.Get("account-id")) {
    if (!service::IsAccountId(*a)) return Refuse("invalid --account-id " + *a + " (12 digits)");
    service::SetAccountId(*a);
  }
  service::SetStrictRegions(flags.Has("strict-regions"));
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
    return Refuse("--in-memory and --storage exclude each other (the data lives in PostgreSQL)");
  }
  if (flags.Get("pg-schema") && options.postgres.empty()) return Refuse("--pg-schema needs --storage");
  if (options.pg_schema.empty()) return Refuse("invalid --pg-schema (empty)");
  if (auto v = flags.Get("pg-connections")) {
    if (options.postgres.empty()) return Refuse("--pg-connections needs --storage");
    char* end = nullptr;
    long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || n < 1 || n > 1000) {
      return Refuse("invalid --pg-connections " + *v + " (1 to 1000)");
    }
    options.pg_connections = static_cast<size_t>(n);
  }

  // Where exports go and imports come from: a folder (DATA_DIR/s3 unless
  // --s3-dir), memory (--in-memory without --s3-dir), or an S3-compatible
  // server (--s3-endpoint).
  outbound::ObjectStoreOptions s3;
  s3.endpoint = flags.Get("s3-endpoint").value_or("");
  s3.folder = flags.Get("s3-dir").value_or(options.in_memory ? "" : options.data_dir + "/s3");
  s3.access_key_id = flags.Get("s3-access-key-id").value_or("pogi");
  s3.secret_access_key = flags.Get("s3-secret-access-key").value_or("pogi");
  s3.region = flags.Get("s3-region").value_or(service::Region());
  s3.path_style = flags.Has("s3-path-style");
  if (!s3.endpoint.empty() && flags.Get("s3-dir"))
    return Refuse("--s3-dir and --s3-endpoint exclude each other");
  auto object_store = outbound::OpenObjectStore(s3);
  if (!object_store.ok()) return Refuse("invalid S3 settings: " + object_store.error().message());

  // Where Kinesis streaming destinations deliver (--kinesis-endpoint): a
  // Kinesis-compatible server. Without one, every destination enabled fails
  // as DynamoDB's does for a stream it cannot use.
  std::unique_ptr<outbound::KinesisClient> kinesis;
  if (auto e = flags.Get("kinesis-endpoint")) {
    outbound::KinesisOptions k;
    k.endpoint = *e;
    k.access_key_id = flags.Get("kinesis-access-key-id").value_or("pogi");
    k.secret_access_key = flags.Get("kinesis-secret-access-key").value_or("pogi");
    k.region = flags.Get("kinesis-region").value_or(service::Region());
    auto client = outbound::KinesisClient::Open(k);
    if (!client.ok()) return Refuse("invalid --kinesis-endpoint: " + client.error().message());
    kinesis = std::move(*client);
  } else if (flags.Get("kinesis-access-key-id") || flags.Get("kinesis-secret-access-key") ||
             flags.Get("kinesis-region")) {
    return Refuse(
        "--kinesis-access-key-id, --kinesis-secret-access-key and --kinesis-region need --kinesis-endpoint");
  }

  // The one clock: the system's time unless told otherwise; the admin API
  // sets, advances and freezes it.
  std::shared_ptr<service::ControllableClock> clock;
  if (auto v = flags.Get("clock")) {
    auto t = service::ParseIsoTime(*v);
    if (!t) return Refuse("invalid --clock " + *v + " (for example 2030-01-01T00:00:00Z)");
    clock = std::make_shared<service::ControllableClock>(*t, flags.Has("clock-frozen"));
  } else {
    clock =
        std::make_shared<service::ControllableClock>(service::SystemClock().Now(), flags.Has("clock-frozen"));
  }
  double ttl_interval = 1;
  if (auto v = flags.Get("ttl-interval")) {
    auto d = service::ParseDuration(*v);
    if (!d || *d <= 0) return Refuse("invalid --ttl-interval " + *v + " (for example 1s or 500ms)");
    ttl_interval = *d;
  }
  double shard_hours = 4;
  if (auto v = flags.Get("stream-shard-hours")) {
    char* end = nullptr;
    shard_hours = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || !(shard_hours > 0)) return Refuse("invalid --stream-shard-hours " + *v);
  }
  // How long tables and indexes stay CREATING, UPDATING or DELETING
  // (service/core/transitions.h): by default not at all.
  service::TransientDelays delays;
  if (auto v = flags.Get("transient-delay")) {
    if (flags.Has("delay-transient-statuses"))
      return Refuse("--transient-delay and --delay-transient-statuses exclude each other");
    auto d = service::ParseDuration(*v);
    if (!d || *d < 0) return Refuse("invalid --transient-delay " + *v + " (for example 5s or 0)");
    delays = service::TransientDelays::Uniform(*d);
  } else if (flags.Has("delay-transient-statuses")) {
    delays = service::TransientDelays::DynamoDbLocal();
  }
  int64_t collection_limit = service::kMaxItemCollectionBytes;
  if (auto v = flags.Get("item-collection-limit")) {
    char* end = nullptr;
    long long parsed = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || parsed < 1) return Refuse("invalid --item-collection-limit " + *v);
    collection_limit = parsed;
  }
  size_t vector_cache = service::Engine::kDefaultVectorCacheBytes;
  if (auto v = flags.Get("vector-cache")) {
    char* end = nullptr;
    long long mb = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || mb < 0 || mb > (1ll << 40)) {
      return Refuse("invalid --vector-cache " + *v + " (megabytes, 0 or more)");
    }
    vector_cache = static_cast<size_t>(mb) << 20;
  }
  // Half the CPUs by default: the clients under test run on the same
  // machine, and storage serializes on one connection anyway, so more HTTP
  // threads only add lock hand-offs (measured on 2 cores: one thread serves
  // PutItem at 28 us CPU instead of 35, GetItem at 13 instead of 15).
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
  // On PostgreSQL a request waits for the database's answers, and reads run
  // beside each other: more threads keep one slow answer from holding every
  // request (a database that stops answering holds a thread up to 10 s).
  if (!options.postgres.empty()) threads = std::max(threads, 8);
  auto door = ReadHttpDoor(flags, threads);
  if (!door.ok()) return Refuse(door.error().message());

  // A clock given here replaces the one kept in the database; otherwise
  // pogi goes on with that one (a restart's, or the other processes').
  const bool clock_set = flags.Get("clock").has_value() || flags.Has("clock-frozen");
  auto engine = service::Engine::Open(options, clock, collection_limit, clock_set);
  if (!engine.ok()) return Refuse(engine.error().message());
  (*engine)->set_stream_shard_seconds(shard_hours * 3600);
  if (flags.Has("throttle")) (*engine)->throttle().Set("", true);
  (*engine)->set_transient_delays(delays);
  (*engine)->vector_cache().set_budget(vector_cache);
  // Metrics count from the start, so that what a test suite did is all
  // there when someone asks afterwards (/_pogi/metrics, pogi top).
  (*engine)->metrics();

  // Kinesis delivery before either door serves: it tells the engine that
  // an endpoint is there.
  std::unique_ptr<jobs::KinesisDelivery> kinesis_delivery;
  if (kinesis) kinesis_delivery = std::make_unique<jobs::KinesisDelivery>(**engine, std::move(kinesis));

  if (flags.Has("log-requests")) service::LogRequests((*engine)->request_observers());
  gateway::LocalBackend backend(**engine);
  auto http = gateway::HttpServer::Bind(backend, door->host, door->port, door->threads, door->credentials,
                                        door->allow_unsigned, !flags.Has("no-console"), door->limits);
  if (!http.ok()) return Refuse(http.error().message());
  gateway::HttpServer* http_server = http->get();

  auto grpc = rpc::GrpcServer::Start(**engine, door->host, grpc_port, [http_server] { http_server->Stop(); });
  if (!grpc.ok()) return Refuse(grpc.error().message());

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
  // Global tables' replication between replicas.
  auto replication = std::make_unique<service::ReplicationLoop>(**engine);
  // Exports in the background, against the object store.
  auto job_runner = std::make_unique<jobs::JobRunner>(**engine, *object_store);

  StopOnSignal(stop_signals, [http_server] { http_server->Stop(); });

  std::string http_address = "http://" + door->host + ":" + std::to_string(info.http_port);
  log::Info(std::string("pogi ") + kVersion + ": DynamoDB API on " + http_address + ", gRPC on " +
                door->host + ":" + std::to_string(info.grpc_port) + ", " +
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
  replication.reset();       // what was not replicated waits in storage for the next start
  job_runner.reset();        // a job in progress stops; the next start runs it again
  kinesis_delivery.reset();  // what was not delivered waits in storage for the next start
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
