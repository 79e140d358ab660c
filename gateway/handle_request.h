// The gateway's pure core: one DynamoDB HTTP request in, one response out,
// no sockets. Refuses what is not an API call as DynamoDB does (404), looks up
// the operation from X-Amz-Target, checks the Authorization header's form,
// decodes the JSON into the engine's proto request, runs it on the backend
// (the engine in this process, or one over gRPC), and encodes the response or
// DynamoDB's error.
#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "gateway/backend.h"

namespace pogi::gateway {

// Verifies a request's signature (--check-signatures); the HTTP server
// implements it over the headers it kept.
class SignatureCheck {
 public:
  virtual ~SignatureCheck() = default;
  virtual Status Verify() const = 0;
};

struct ApiRequest {
  std::string_view method;      // "POST"
  std::string_view target;      // request target, "/" (with its query string)
  std::string_view amz_target;  // X-Amz-Target header
  std::string_view content_type;
  std::string_view body;    // inflated already when it came compressed
  std::string_view host{};  // Host header, for DescribeEndpoints
  bool has_authorization = false;
  std::string_view authorization{};  // Authorization header
  bool has_date = false;             // X-Amz-Date or Date header present
  // Whether the Authorization header must be present (everything but
  // `pogi start --allow-unsigned`); its form is checked whenever it is sent.
  bool require_authorization = false;
  // Set with --check-signatures: run after the form check.
  const SignatureCheck* signature = nullptr;
};

struct ApiResponse {
  int status = 200;
  std::string body;
  std::string_view content_type = "application/x-amz-json-1.0";  // a literal
  std::string_view error_type;  // DynamoDB's short __type when the answer is an error
  bool disconnect = false;      // a fault rule: close the connection, answer nothing
};

// What a request was, for the request log and metrics.
struct RequestInfo {
  std::string_view operation;  // "" when the request named no known operation
  std::string table;           // the TableName it names, if any
};

// Answers `request`. With `info`, also says which operation and table it was
// (only then is the table name looked up).
ApiResponse HandleRequest(Backend& backend, const ApiRequest& request, RequestInfo* info = nullptr);

// The response for an error, in DynamoDB's JSON.
ApiResponse ErrorResponse(const Error& error);

// DynamoDB's answer to an HTTP request that is not an API call: 404 with an
// <UnknownOperationException/> body.
ApiResponse NotAnApiCall();

}  // namespace pogi::gateway
