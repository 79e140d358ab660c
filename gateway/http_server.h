// HttpServer: the Boost.Beast listener and sessions in front of
// HandleRequest. HTTP/1.1 keep-alive, HTTP/1.0 close-after-response,
// the limits of common/limits.h (connections, header, 16 MB body, idle
// timeout), x-amzn-RequestId, x-amz-crc32 and Date
// headers, CORS, compressed requests and answers.
// Beast stays out of this header so that few files pay for its compile time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/limits.h"
#include "common/result.h"
#include "gateway/backend.h"
#include "gateway/sigv4.h"

namespace pogi::gateway {

// Bounds on connections, defaulting to the ones in common/limits.h.
struct ConnectionLimits {
  int max_connections = limits::kMaxConnections;
  std::chrono::milliseconds idle_timeout = limits::kIdleTimeout;
};

class HttpServer {
 public:
  // Binds host:port (port 0 picks a free one). Does not serve until Run().
  // With `credentials`, every request must be SigV4-signed with them.
  // Otherwise the Authorization header's presence and form are still checked
  // as DynamoDB does, unless `allow_unsigned`. With `console` and an engine
  // in this process, the web console answers under /_pogi/
  // (gateway/console.h). `backend` outlives the server.
  static Result<std::unique_ptr<HttpServer>> Bind(Backend& backend, const std::string& host, uint16_t port,
                                                  int threads,
                                                  std::optional<Credentials> credentials = std::nullopt,
                                                  bool allow_unsigned = false, bool console = true,
                                                  ConnectionLimits limits = {});
  virtual ~HttpServer() = default;

  virtual uint16_t port() const = 0;
  // Serves on the configured threads; returns after Stop() and the drain.
  virtual void Run() = 0;
  // Stops accepting, lets requests in flight finish (up to a grace period),
  // then makes Run() return. Safe from any thread.
  virtual void Stop() = 0;
};

}  // namespace pogi::gateway
