// GrpcServer: a generic callback service dispatching /pogi.v1.DynamoDB/<Op>
// through the operation table, and the Admin service.
#include "service/rpc/grpc_server.h"

#include <grpc/support/log.h>
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>

#include "pogi/v1/admin.grpc.pb.h"
#include "service/core/region.h"
#include "service/engine/operations.h"
#include "service/rpc/admin_changes.h"
#include "service/rpc/admin_service.h"
#include "service/rpc/reflection_service.h"

namespace pogi::rpc {
namespace {

constexpr std::string_view kDynamoPrefix = "/pogi.v1.DynamoDB/";
constexpr std::string_view kStreamsPrefix = "/pogi.v1.DynamoDBStreams/";

grpc::Status ToStatus(const Error& e) {
  GrpcError g = ToGrpcError(e);
  return grpc::Status(static_cast<grpc::StatusCode>(g.code), g.message, g.details);
}

// One unary DynamoDB call over the generic service: read the request,
// run it through the engine, write the response.
class UnaryReactor final : public grpc::ServerGenericBidiReactor {
 public:
  UnaryReactor(service::Engine& engine, std::string method, std::string region)
      : engine_(engine), method_(std::move(method)), region_(std::move(region)) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no request message"));
      return;
    }
    // Someone wants to hear of each call (--log-requests, metrics): one
    // relaxed load when nobody does.
    observing_ = engine_.request_observers().active();
    if (observing_) started_ = std::chrono::steady_clock::now();
    Answer();
  }

  void OnDone() override { delete this; }

 private:
  void Answer() {
    const service::Operation* op = nullptr;
    if (std::string_view(method_).starts_with(kDynamoPrefix)) {
      op = service::FindOperation(std::string_view(method_).substr(kDynamoPrefix.size()));
    } else if (std::string_view(method_).starts_with(kStreamsPrefix)) {
      op = service::FindOperation(service::Api::kStreams,
                                  std::string_view(method_).substr(kStreamsPrefix.size()));
    }
    if (!op) return FinishWith(Error(ErrorCode::kUnknownOperation, "Unknown operation " + method_));
    operation_ = op->name;
    std::unique_ptr<google::protobuf::Message> req(op->request_prototype->New());
    std::vector<grpc::Slice> slices;
    std::string bytes;
    if (request_.Dump(&slices).ok()) {
      for (const auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    }
    bytes_in_ = bytes.size();
    if (!req->ParseFromString(bytes)) {
      return FinishWith(Error::Serialization("request is not a valid " + req->GetTypeName()));
    }
    if (observing_) table_ = service::TableNameOf(*req);
    // Fault rules (pogi faults): one relaxed load when there are none.
    if (engine_.faults().active()) {
      if (auto fault = engine_.CheckFaults("grpc", op->name, *req)) {
        // A gRPC call cannot cut the shared HTTP/2 connection alone: a cut
        // answers UNAVAILABLE, what a client sees when its connection drops.
        if (fault->error) return FinishWith(*fault->error);
        return FinishWith(Error(ErrorCode::kServiceUnavailable, "connection cut by a pogi fault rule"));
      }
    }
    Result<std::unique_ptr<google::protobuf::Message>> result = Error::Internal("");
    try {
      service::RequestRegionScope region(region_);
      result = op->invoke(engine_, *req);
    } catch (const std::exception& e) {
      result = Error::Internal(std::string("internal error: ") + e.what());
    }
    if (!result.ok()) return FinishWith(result.error());
    grpc::Slice slice((*result)->SerializeAsString());
    if (observing_) Publish(grpc::StatusCode::OK, "", slice.size());
    response_ = grpc::ByteBuffer(&slice, 1);
    StartWriteAndFinish(&response_, grpc::WriteOptions(), grpc::Status::OK);
  }

  // Finishes the call with DynamoDB's error as its status.
  void FinishWith(const Error& error) {
    grpc::Status status = ToStatus(error);
    if (observing_) Publish(status.error_code(), error.info().short_name, 0);
    Finish(status);
  }

  void Publish(grpc::StatusCode code, std::string_view error_type, size_t bytes_out) {
    static std::atomic<uint64_t> calls{0};
    char id[32];
    std::snprintf(id, sizeof id, "grpc-%016llx", static_cast<unsigned long long>(++calls));
    service::RequestRecord record;
    record.door = "grpc";
    record.operation = operation_;
    record.table = table_;
    record.status = static_cast<int>(code);
    record.error_type = error_type;
    record.latency_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_)
            .count();
    record.request_id = id;
    record.bytes_in = bytes_in_;
    record.bytes_out = bytes_out;
    engine_.request_observers().Publish(record);
  }

  service::Engine& engine_;
  std::string method_;
  std::string region_;  // the call's region (pogi-region metadata), "" for the home one
  grpc::ByteBuffer request_;
  grpc::ByteBuffer response_;
  // Set when someone observes requests.
  bool observing_ = false;
  std::chrono::steady_clock::time_point started_;
  std::string_view operation_;
  std::string table_;
  size_t bytes_in_ = 0;
};

class DynamoDbService final : public grpc::CallbackGenericService {
 public:
  explicit DynamoDbService(service::Engine& engine) : engine_(engine) {}
  grpc::ServerGenericBidiReactor* CreateReactor(grpc::GenericCallbackServerContext* ctx) override {
    // pogi gateway passes on the region of the request it forwards.
    std::string region;
    const auto& metadata = ctx->client_metadata();
    auto it =
        metadata.find(grpc::string_ref(service::kRegionMetadata.data(), service::kRegionMetadata.size()));
    if (it != metadata.end()) region.assign(it->second.data(), it->second.size());
    return new UnaryReactor(engine_, ctx->method(), std::move(region));
  }

 private:
  service::Engine& engine_;
};

// Status and Shutdown; the other Admin calls live in AdminRpcs.
class AdminService final : public AdminRpcs {
 public:
  AdminService(service::Engine& engine, std::function<void()> on_shutdown)
      : AdminRpcs(engine), engine_(engine), on_shutdown_(std::move(on_shutdown)) {}

  void SetInfo(const ServerInfo& info) {
    std::lock_guard lock(mu_);
    info_ = info;
  }

  grpc::ServerUnaryReactor* Status(grpc::CallbackServerContext* ctx, const v1::StatusRequest*,
                                   v1::StatusResponse* resp) override {
    auto* reactor = ctx->DefaultReactor();
    auto stats = engine_.Stats();
    if (!stats.ok()) {
      reactor->Finish(ToStatus(stats.error()));
      return reactor;
    }
    {
      std::lock_guard lock(mu_);
      resp->set_version(info_.version);
      resp->set_uptime_seconds(service::SystemClock().Now() - info_.started_at);  // wall time
      resp->set_data_dir(info_.data_dir);
      resp->set_in_memory(info_.in_memory);
      resp->set_http_port(info_.http_port);
      resp->set_grpc_port(info_.grpc_port);
    }
    resp->set_table_count(static_cast<int64_t>(stats->size()));
    int64_t items = 0;
    for (const auto& t : *stats) items += t.item_count;
    resp->set_item_count(items);
    int64_t running = 0;
    for (const char* kind : {"export", "import", "bulk"}) {
      auto jobs = engine_.ListJobs(kind);
      if (!jobs.ok()) continue;
      for (const auto& j : *jobs) {
        const std::string& s = j.has_export_()  ? j.export_().export_status()
                               : j.has_import() ? j.import().import_status()
                                                : j.bulk().bulk_operation_status();
        running += s == "IN_PROGRESS" || s == "CANCELLING";
      }
    }
    resp->set_jobs_in_progress(running);
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerUnaryReactor* CloseStreamShard(grpc::CallbackServerContext* ctx,
                                             const v1::CloseStreamShardRequest* req,
                                             v1::CloseStreamShardResponse* resp) override {
    auto* reactor = ctx->DefaultReactor();
    auto ids = engine_.CloseStreamShard(req->table_name());
    if (!ids.ok()) {
      reactor->Finish(ToStatus(ids.error()));
      return reactor;
    }
    resp->set_closed_shard_id(ids->first);
    resp->set_new_shard_id(ids->second);
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerWriteReactor<v1::ChangeEvent>* WatchChanges(grpc::CallbackServerContext* ctx,
                                                          const v1::WatchChangesRequest* req) override {
    return NewWatchReactor(engine_.change_feed(), req->table_name());
  }

  grpc::ServerUnaryReactor* Shutdown(grpc::CallbackServerContext* ctx, const v1::ShutdownRequest*,
                                     v1::ShutdownResponse*) override {
    auto* reactor = ctx->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    on_shutdown_();
    return reactor;
  }

 private:
  service::Engine& engine_;
  std::function<void()> on_shutdown_;
  std::mutex mu_;
  ServerInfo info_;
};

class GrpcServerImpl final : public GrpcServer {
 public:
  GrpcServerImpl(service::Engine& engine, std::function<void()> on_shutdown)
      : engine_(engine),
        dynamo_(engine),
        admin_(engine, std::move(on_shutdown)),
        // The generic service has no name of its own: reflection lists the
        // two services it serves by name.
        reflection_(NewReflectionService({std::string(v1::Admin::service_full_name()), "pogi.v1.DynamoDB",
                                          "pogi.v1.DynamoDBStreams", "grpc.health.v1.Health",
                                          "grpc.reflection.v1alpha.ServerReflection"})) {}

  Status Start(const std::string& host, uint16_t port) {
    // grpcurl and container probes: server reflection and grpc.health.v1
    // (gRPC's default health service: a callback service, no thread).
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    int selected = 0;
    std::string addr =
        (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
    builder.AddListeningPort(addr, grpc::InsecureServerCredentials(), &selected);
    builder.RegisterService(&admin_);
    builder.RegisterCallbackGenericService(&dynamo_);
    builder.RegisterService(reflection_.get());
    builder.SetMaxReceiveMessageSize(16 * 1024 * 1024 + 4096);
    // SO_REUSEPORT would let two servers share a port by accident.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    server_ = builder.BuildAndStart();
    if (!server_ || selected == 0) {
      return Error::Internal("cannot listen for gRPC on " + addr + " (address in use?)");
    }
    port_ = static_cast<uint16_t>(selected);
    return Status::Ok();
  }

  uint16_t port() const override { return port_; }
  void SetInfo(const ServerInfo& info) override { admin_.SetInfo(info); }
  void Shutdown() override {
    engine_.change_feed().Close();  // open WatchChanges streams end now
    if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  }

 private:
  service::Engine& engine_;
  DynamoDbService dynamo_;
  AdminService admin_;
  std::unique_ptr<grpc::Service> reflection_;
  std::unique_ptr<grpc::Server> server_;
  uint16_t port_ = 0;
};

}  // namespace

void SilenceGrpcLogging() {
  gpr_set_log_function([](gpr_log_func_args*) {});
}

GrpcError ToGrpcError(const Error& e) {
  v1::ErrorDetail detail;
  if (e.detail()) detail = *e.detail();
  detail.set_type(std::string(e.info().short_name));
  detail.set_message(e.message());
  return {e.info().grpc_code, std::string(e.info().short_name) + ": " + e.message(),
          detail.SerializeAsString()};
}

Result<std::unique_ptr<GrpcServer>> GrpcServer::Start(service::Engine& engine, const std::string& host,
                                                      uint16_t port, std::function<void()> on_shutdown) {
  auto server = std::make_unique<GrpcServerImpl>(engine, std::move(on_shutdown));
  POGI_RETURN_IF_ERROR(server->Start(host, port));
  return std::unique_ptr<GrpcServer>(std::move(server));
}

}  // namespace pogi::rpc
