// HandleRequest: X-Amz-Target dispatch through the operation table.
#include "gateway/handle_request.h"

#include <memory>

#include "gateway/json_codec.h"
#include "service/operations.h"

namespace pogi::gateway {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";

bool IsAmzJson(std::string_view ct) {
  return ct.starts_with("application/x-amz-json-1.0") || ct.starts_with("application/x-amz-json-1.1");
}

ApiResponse Dispatch(service::Engine& engine, const ApiRequest& req);

}  // namespace

ApiResponse ErrorResponse(const Error& error) {
  ApiResponse r;
  r.status = error.info().http_status;
  r.body = ErrorToJson(error);
  return r;
}

ApiResponse HandleRequest(service::Engine& engine, const ApiRequest& req) {
  // One bad request must never take the server down.
  try {
    return Dispatch(engine, req);
  } catch (const std::exception& e) {
    return ErrorResponse(Error::Internal(std::string("internal error: ") + e.what()));
  }
}

namespace {

ApiResponse Dispatch(service::Engine& engine, const ApiRequest& req) {
  // DynamoDB answers a plain GET of its endpoint with a health line.
  if (req.method == "GET" && req.target == "/_pogi/metrics") {
    ApiResponse r;
    r.body = engine.metrics().PrometheusText();
    r.content_type = "text/plain; version=0.0.4";
    return r;
  }
  if (req.method == "GET") {
    ApiResponse r;
    r.body = "healthy: dynamodb.us-east-1.amazonaws.com ";
    r.content_type = "text/plain";
    return r;
  }
  const service::Operation* op = nullptr;
  if (req.amz_target.starts_with(kTargetPrefix) && IsAmzJson(req.content_type)) {
    op = service::FindOperation(req.amz_target.substr(kTargetPrefix.size()));
  }
  if (!op) return ErrorResponse(Error(ErrorCode::kUnknownOperation, ""));

  std::unique_ptr<google::protobuf::Message> request(op->request_prototype->New());
  if (Status s = JsonToMessage(req.body, request.get()); !s.ok()) return ErrorResponse(s.error());
  if (engine.faults().active()) {
    if (auto fault = engine.faults().Check(engine, "http", op->name, *request)) {
      if (fault->error) return ErrorResponse(*fault->error);
      ApiResponse cut;
      cut.disconnect = true;
      return cut;
    }
  }
  auto result = op->invoke(engine, *request);
  if (!result.ok()) return ErrorResponse(result.error());
  ApiResponse r;
  // JSON is about as long as the proto encoding; reserving avoids regrowth
  // for large pages.
  r.body.reserve((*result)->ByteSizeLong() * 5 / 4 + 64);
  MessageToJson(**result, &r.body);
  return r;
}

}  // namespace

}  // namespace pogi::gateway
