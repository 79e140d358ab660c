// The gateway's pure core: one DynamoDB HTTP request in, one response out,
// no sockets. Looks up the operation from X-Amz-Target, decodes the JSON into
// the engine's proto request, calls the engine in process, and encodes the
// response or DynamoDB's error.
#pragma once

#include <string>
#include <string_view>

#include "service/engine.h"

namespace pogi::gateway {

struct ApiRequest {
  std::string_view method;      // "POST"
  std::string_view target;      // request target, "/"
  std::string_view amz_target;  // X-Amz-Target header
  std::string_view content_type;
  std::string_view body;
};

struct ApiResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/x-amz-json-1.0";
  bool disconnect = false;  // a fault rule: close the connection, answer nothing
};

ApiResponse HandleRequest(service::Engine& engine, const ApiRequest& request);

// The response for an error, in DynamoDB's JSON.
ApiResponse ErrorResponse(const Error& error);

}  // namespace pogi::gateway
