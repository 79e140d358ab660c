// The web console built into pogi: its static page under /_pogi/ and its
// small JSON API under /_pogi/api/ (DynamoDB operations through the one
// operation table, Admin calls through service/admin/admin_calls.h, the live
// change feed and request tail). Kept apart from the DynamoDB path: the
// HTTP server routes here by path prefix before any other work.
#pragma once

#include <string_view>

#include "gateway/console_live.h"
#include "gateway/handle_request.h"
#include "gateway/sigv4.h"
#include "service/engine/engine.h"

namespace pogi::gateway {

// Whether `target` belongs to the console: under /_pogi/ but not the
// metrics, which answer whether or not the console is on.
inline bool IsConsoleTarget(std::string_view target) {
  return target.starts_with("/_pogi/") && !target.starts_with("/_pogi/metrics");
}

struct ConsoleRequest {
  std::string_view method;
  std::string_view target;  // with its query string
  std::string_view body;
  std::string_view host;  // Host header
  bool has_origin = false;
  std::string_view origin{};  // Origin header, sent by browsers on cross-site and POST requests
  // With --check-signatures: the configured credentials, and what the page
  // sent in X-Pogi-Access-Key-Id and X-Pogi-Secret-Access-Key.
  const Credentials* credentials = nullptr;
  std::string_view access_key_id{}, secret_access_key{};
};

// Answers one console request: an asset, an API call, or DynamoDB's 404.
// API errors are DynamoDB's JSON error bodies. Thread-safe.
ApiResponse HandleConsole(service::Engine& engine, ConsoleLive& live, const ConsoleRequest& request);

}  // namespace pogi::gateway
