// Backend: where the HTTP door sends the requests it decoded. `pogi start`
// runs them on the engine in its own process (LocalBackend); `pogi gateway`
// forwards each over gRPC to an engine in another process (grpc_backend.h).
#pragma once

#include <google/protobuf/message.h>

#include <memory>

#include "common/result.h"
#include "service/controls/request_observers.h"
#include "service/engine/engine.h"
#include "service/engine/operations.h"

namespace pogi::gateway {

class Backend {
 public:
  virtual ~Backend() = default;
  // Runs `op` on `request` (of op's request type): its response, or
  // DynamoDB's error.
  virtual Result<std::unique_ptr<google::protobuf::Message>> Invoke(
      const service::Operation& op, const google::protobuf::Message& request) = 0;
  // The engine when it runs in this process, else null. The door's own
  // paths (/_pogi/metrics, the console) and its fault rules are the
  // engine's: a door in front of an engine elsewhere answers those paths
  // 404, and the engine's gRPC door applies the fault rules.
  virtual service::Engine* local_engine() = 0;
  // Where the door tells of each request it answered (--log-requests).
  virtual service::RequestObservers& request_observers() = 0;
};

// The engine in this process.
class LocalBackend final : public Backend {
 public:
  explicit LocalBackend(service::Engine& engine) : engine_(engine) {}
  Result<std::unique_ptr<google::protobuf::Message>> Invoke(
      const service::Operation& op, const google::protobuf::Message& request) override {
    return op.invoke(engine_, request);
  }
  service::Engine* local_engine() override { return &engine_; }
  service::RequestObservers& request_observers() override { return engine_.request_observers(); }

 private:
  service::Engine& engine_;
};

}  // namespace pogi::gateway
