// The admin subcommands: gRPC clients of a running pogi.
#include <grpcpp/grpcpp.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/flags.h"
#include "gateway/json_codec.h"
#include "pogi/v1/admin.grpc.pb.h"
#include "pogi/v1/dynamodb.grpc.pb.h"

namespace pogi::cli {
namespace {

// Prints why a call failed, in one line, and returns the exit code.
int CallFailed(const grpc::Status& s, const std::string& address) {
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
      s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    std::fprintf(stderr, "pogi: no pogi is running at %s (start one with `pogi start`)\n", address.c_str());
  } else {
    std::fprintf(stderr, "pogi: %s\n", s.error_message().c_str());
  }
  return 1;
}

void SetDeadline(grpc::ClientContext* ctx) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
}

}  // namespace

int Admin(const std::string& command, const std::vector<std::string>& args) {
  Flags flags({"host", "grpc-port"}, {});
  std::string error;
  if (!flags.Parse(args, &error)) {
    std::fprintf(stderr, "pogi: %s (see pogi help %s)\n", error.c_str(), command.c_str());
    return 2;
  }
  uint16_t port = kDefaultGrpcPort;
  if (auto p = flags.Get("grpc-port"); p && !ParsePort(*p, &port)) {
    std::fprintf(stderr, "pogi: invalid --grpc-port %s\n", p->c_str());
    return 2;
  }
  size_t want_args = command == "describe" ? 1 : 0;
  if (flags.positional().size() != want_args) {
    std::fprintf(stderr, "pogi: %s\n", want_args ? "describe needs one TABLE name" : "unexpected argument");
    return 2;
  }
  std::string address = flags.Get("host").value_or("127.0.0.1") + ":" + std::to_string(port);
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto admin = v1::Admin::NewStub(channel);
  grpc::ClientContext ctx;
  SetDeadline(&ctx);

  if (command == "status") {
    v1::StatusResponse resp;
    grpc::Status s = admin->Status(&ctx, v1::StatusRequest(), &resp);
    if (!s.ok()) return CallFailed(s, address);
    std::printf(
        "version   %s\nuptime    %.1f s\nhttp      %d\ngrpc      %d\nstorage   %s\ntables    %lld\nitems     "
        "%lld\njobs      %lld in progress (pogi jobs)\n",
        resp.version().c_str(), resp.uptime_seconds(), resp.http_port(), resp.grpc_port(),
        resp.in_memory() ? "in memory" : resp.data_dir().c_str(), static_cast<long long>(resp.table_count()),
        static_cast<long long>(resp.item_count()), static_cast<long long>(resp.jobs_in_progress()));
    return 0;
  }
  if (command == "tables") {
    v1::ListTablesSummaryResponse resp;
    grpc::Status s = admin->Tables(&ctx, v1::ListTablesSummaryRequest(), &resp);
    if (!s.ok()) return CallFailed(s, address);
    std::printf("%-40s %12s %14s  %s\n", "TABLE", "ITEMS", "BYTES", "STATUS");
    for (const auto& t : resp.tables()) {
      std::printf("%-40s %12lld %14lld  %s\n", t.table_name().c_str(), static_cast<long long>(t.item_count()),
                  static_cast<long long>(t.size_bytes()), t.status().c_str());
    }
    return 0;
  }
  if (command == "describe") {
    auto dynamo = v1::DynamoDB::NewStub(channel);
    v1::DescribeTableRequest req;
    req.set_table_name(flags.positional()[0]);
    v1::DescribeTableResponse resp;
    grpc::Status s = dynamo->DescribeTable(&ctx, req, &resp);
    if (!s.ok()) return CallFailed(s, address);
    std::string json;
    gateway::MessageToJson(resp, &json);
    std::printf("%s\n", nlohmann::json::parse(json).dump(2).c_str());
    return 0;
  }
  // stop
  v1::ShutdownResponse resp;
  grpc::Status s = admin->Shutdown(&ctx, v1::ShutdownRequest(), &resp);
  if (!s.ok()) return CallFailed(s, address);
  std::printf("pogi at %s is stopping\n", address.c_str());
  return 0;
}

}  // namespace pogi::cli
