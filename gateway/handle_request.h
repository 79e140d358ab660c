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
  std::string_view host;  // Host header (DescribeEndpoints answers it)
};

struct ApiResponse {
  int status = 200;
  std::string body;
  std::string content_type = "application/x-amz-json-1.0";
  std::string_view error_type;  // DynamoDB's short __type when the answer is an error
};

// What a request was, for the request log and metrics.
struct RequestInfo {
  std::string_view operation;  // "" when the request named no known operation
  std::string table;           // the TableName it names, if any
};

// Answers `request`. With `info`, also says which operation and table it was
// (only then is the table name looked up).
ApiResponse HandleRequest(service::Engine& engine, const ApiRequest& request, RequestInfo* info = nullptr);

// The response for an error, in DynamoDB's JSON.
ApiResponse ErrorResponse(const Error& error);

}  // namespace pogi::gateway
