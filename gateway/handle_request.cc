// HandleRequest: X-Amz-Target dispatch through the operation table.
#include "gateway/handle_request.h"

#include <memory>

#include "gateway/json_codec.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/operations.h"

namespace pogi::gateway {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTargetPrefix = "DynamoDBStreams_20120810.";

bool IsAmzJson(std::string_view ct) {
  return ct.starts_with("application/x-amz-json-1.0") || ct.starts_with("application/x-amz-json-1.1");
}

ApiResponse Dispatch(service::Engine& engine, const ApiRequest& req, RequestInfo* info);

}  // namespace

ApiResponse ErrorResponse(const Error& error) {
  ApiResponse r;
  r.status = error.info().http_status;
  r.body = ErrorToJson(error);
  r.error_type = error.info().short_name;
  return r;
}

ApiResponse HandleRequest(service::Engine& engine, const ApiRequest& req, RequestInfo* info) {
  // One bad request must never take the server down.
  try {
    return Dispatch(engine, req, info);
  } catch (const std::exception& e) {
    return ErrorResponse(Error::Internal(std::string("internal error: ") + e.what()));
  }
}

namespace {

ApiResponse Dispatch(service::Engine& engine, const ApiRequest& req, RequestInfo* info) {
  // DynamoDB answers a plain GET of its endpoint with a health line.
  if (req.method == "GET") {
    ApiResponse r;
    r.body = "healthy: dynamodb.us-east-1.amazonaws.com ";
    r.content_type = "text/plain";
    return r;
  }
  const service::Operation* op = nullptr;
  if (req.amz_target.starts_with(kTargetPrefix) && IsAmzJson(req.content_type)) {
    op = service::FindOperation(req.amz_target.substr(kTargetPrefix.size()));
  } else if (req.amz_target.starts_with(kStreamsTargetPrefix) && IsAmzJson(req.content_type)) {
    op = service::FindOperation(service::Api::kStreams, req.amz_target.substr(kStreamsTargetPrefix.size()));
  }
  if (!op) return ErrorResponse(Error(ErrorCode::kUnknownOperation, ""));
  if (info) info->operation = op->name;

  std::unique_ptr<google::protobuf::Message> request(op->request_prototype->New());
  if (Status s = JsonToMessage(req.body, request.get()); !s.ok()) return ErrorResponse(s.error());
  if (info) info->table = service::TableNameOf(*request);
  // The engine knows no HTTP: DescribeEndpoints answers the address the
  // client used, which only this door sees.
  if (op->name == "DescribeEndpoints") {
    auto* d = static_cast<v1::DescribeEndpointsRequest*>(request.get());
    if (req.host.empty()) {
      d->clear_pogi_host();
    } else {
      d->set_pogi_host(std::string(req.host));
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
