// Forwarding decoded requests to an engine's gRPC door, and its errors back.
#include "gateway/grpc_backend.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/channel_arguments.h>

#include <condition_variable>
#include <mutex>

#include "gateway/ordered_answer.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/region.h"

namespace pogi::gateway {
namespace {

std::string MethodOf(const service::Operation& op) {
  std::string method = op.api == service::Api::kStreams ? "/pogi.v1.DynamoDBStreams/" : "/pogi.v1.DynamoDB/";
  return method.append(op.name);
}

std::shared_ptr<grpc::Channel> ChannelTo(const std::string& engine) {
  grpc::ChannelArguments args;
  // Answers as large as the engine gives (a BatchGetItem page is up to 16 MB).
  args.SetMaxReceiveMessageSize(-1);
  // An error's details travel in the trailers: with the item a failed
  // condition returns (up to 400 KB) they outgrow gRPC's 8 KB default.
  args.SetInt(GRPC_ARG_MAX_METADATA_SIZE, 16 * 1024 * 1024);
  return grpc::CreateCustomChannel(engine, grpc::InsecureChannelCredentials(), args);
}

}  // namespace

GrpcBackend::GrpcBackend(const std::string& engine)
    : engine_(engine), channel_(ChannelTo(engine)), stub_(channel_) {}

Result<std::unique_ptr<google::protobuf::Message>> GrpcBackend::Invoke(
    const service::Operation& op, const google::protobuf::Message& request) {
  std::string bytes = request.SerializeAsString();
  grpc::Slice slice(bytes);
  grpc::ByteBuffer sent(&slice, 1), received;
  grpc::ClientContext ctx;
  // Not wait-for-ready: while the engine is down a call fails at once
  // (ServiceUnavailable), and the channel reconnects in the background.
  ctx.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
  // The request's region (its credential scope's) goes with it.
  if (service::InOtherRegion())
    ctx.AddMetadata(std::string(service::kRegionMetadata), service::RequestRegion());

  // The HTTP door's threads answer one request each at a time: wait here.
  std::mutex mu;
  std::condition_variable done_cv;
  bool done = false;
  grpc::Status status;
  stub_.UnaryCall(&ctx, MethodOf(op), grpc::StubOptions(), &sent, &received, [&](grpc::Status s) {
    std::lock_guard lock(mu);
    status = std::move(s);
    done = true;
    done_cv.notify_one();
  });
  {
    std::unique_lock lock(mu);
    done_cv.wait(lock, [&] { return done; });
  }
  if (!status.ok()) return ErrorOfStatus(status, engine_);
  std::unique_ptr<google::protobuf::Message> response(op.response_prototype->New());
  std::vector<grpc::Slice> slices;
  std::string answer;
  if (received.Dump(&slices).ok()) {
    for (const auto& s : slices) answer.append(reinterpret_cast<const char*>(s.begin()), s.size());
  }
  if (!ParseKeepingOrder(answer, response.get())) {
    return Error::Internal("the engine at " + engine_ + " answered " + std::string(op.name) +
                           " with bytes that are not a " + response->GetTypeName());
  }
  return response;
}

Error ErrorOfStatus(const grpc::Status& status, const std::string& engine) {
  v1::ErrorDetail detail;
  if (!status.error_details().empty() && ParseKeepingOrder(status.error_details(), &detail)) {
    if (auto code = ErrorCodeOf(detail.type())) {
      Error e(*code, detail.message());
      detail.clear_type();
      detail.clear_message();
      // Only a payload (CancellationReasons, the item of a failed condition)
      // goes on as the error's detail, as the engine's door has it.
      if (detail.ByteSizeLong() > 0) e.set_detail(std::make_shared<v1::ErrorDetail>(std::move(detail)));
      return e;
    }
  }
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
      return Error(ErrorCode::kServiceUnavailable, "the pogi engine at " + engine + " is not reachable");
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return Error::Internal("the pogi engine at " + engine + " did not answer in time");
    default:
      return Error::Internal("the pogi engine at " + engine + " failed the call: " + status.error_message());
  }
}

}  // namespace pogi::gateway
