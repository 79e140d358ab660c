// GrpcBackend: the door of `pogi gateway`, in front of an engine in another
// process or on another host. Each decoded request goes, as the same
// protobuf message the engine's own HTTP door would hand it, over one gRPC
// channel (HTTP/2: every request multiplexed on one connection) to the
// engine's pogi.v1.DynamoDB or pogi.v1.DynamoDBStreams service. The engine's
// error comes back whole in the status details (a pogi.v1.ErrorDetail: its
// type, message and payload such as CancellationReasons), so the HTTP answer
// is the one the engine's own door gives.
#pragma once

#include <grpcpp/channel.h>
#include <grpcpp/generic/generic_stub.h>

#include <chrono>
#include <memory>
#include <string>

#include "gateway/backend.h"

namespace pogi::gateway {

class GrpcBackend final : public Backend {
 public:
  // `engine`: HOST:PORT of the engine's gRPC door. The channel connects at
  // the first request, and again by itself after the engine went away.
  explicit GrpcBackend(const std::string& engine);

  Result<std::unique_ptr<google::protobuf::Message>> Invoke(
      const service::Operation& op, const google::protobuf::Message& request) override;
  service::Engine* local_engine() override { return nullptr; }
  service::RequestObservers& request_observers() override { return observers_; }

  // How long a forwarded call may take: past the engine's own longest wait
  // (a statement over a whole table on PostgreSQL, 10 minutes).
  static constexpr std::chrono::seconds kCallDeadline{660};

 private:
  std::string engine_;
  std::shared_ptr<grpc::Channel> channel_;
  grpc::GenericStub stub_;
  service::RequestObservers observers_;
};

// The error a failed call's status stands for: the engine's own (from the
// details), or, when the engine could not be reached or did not answer in
// time, ServiceUnavailable or InternalServerError naming `engine`.
Error ErrorOfStatus(const grpc::Status& status, const std::string& engine);

}  // namespace pogi::gateway
