// The gRPC front door: pogi.v1.DynamoDB (every operation of the engine's
// operation table) and pogi.v1.Admin, on one port. gRPC headers stay out of
// this header.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/result.h"
#include "service/engine/engine.h"

namespace pogi::rpc {

// What the Admin service reports about the running server.
struct ServerInfo {
  std::string version;
  std::string data_dir;  // empty in memory
  bool in_memory = false;
  int http_port = 0;
  int grpc_port = 0;
  double started_at = 0;  // seconds since the epoch
};

class GrpcServer {
 public:
  // Binds host:port (0 picks a free port) and starts serving at once.
  // `on_shutdown` is called when an admin asks the server to stop.
  static Result<std::unique_ptr<GrpcServer>> Start(service::Engine& engine, const std::string& host,
                                                   uint16_t port, std::function<void()> on_shutdown);
  virtual ~GrpcServer() = default;
  virtual uint16_t port() const = 0;
  // Admin.Status reads this; set it once the HTTP port is known.
  virtual void SetInfo(const ServerInfo& info) = 0;
  // Stops accepting calls and waits for those in flight.
  virtual void Shutdown() = 0;
};

// gRPC's own log lines would break the one-line error promise of the CLI:
// pogi reports failures itself. Call once, early.
void SilenceGrpcLogging();

// The gRPC status code and message for a pogi::Error ("Type: message"),
// and the serialized pogi.v1.ErrorDetail carried as the status details.
struct GrpcError {
  int code;
  std::string message;
  std::string details;
};
GrpcError ToGrpcError(const Error& error);

}  // namespace pogi::rpc
