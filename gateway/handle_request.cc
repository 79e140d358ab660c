// HandleRequest: DynamoDB's edge checks in DynamoDB's order (not an API call,
// JSON syntax, target, Authorization form), then X-Amz-Target dispatch
// through the operation table.
#include "gateway/handle_request.h"

#include <memory>

#include "gateway/edge.h"
#include "gateway/json_codec.h"
#include "gateway/json_doc.h"
#include "gateway/json_entry_order.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/region.h"
#include "service/engine/operations.h"

namespace pogi::gateway {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTargetPrefix = "DynamoDBStreams_20120810.";

constexpr std::string_view kAmzJson = "application/x-amz-json-1.0";
constexpr std::string_view kJson = "application/json";

ApiResponse Dispatch(Backend& backend, const ApiRequest& req, RequestInfo* info);

}  // namespace

ApiResponse ErrorResponse(const Error& error) {
  ApiResponse r;
  r.status = error.info().http_status;
  r.body = ErrorToJson(error);
  r.error_type = error.info().short_name;
  return r;
}

ApiResponse NotAnApiCall() {
  ApiResponse r;
  r.status = 404;
  r.body = "<UnknownOperationException/>\n";
  r.content_type = "application/xml";
  r.error_type = "UnknownOperationException";
  return r;
}

ApiResponse HandleRequest(Backend& backend, const ApiRequest& req, RequestInfo* info) {
  // One bad request must never take the server down.
  try {
    return Dispatch(backend, req, info);
  } catch (const std::exception& e) {
    return ErrorResponse(Error::Internal(std::string("internal error: ") + e.what()));
  }
}

namespace {

// DynamoDB judges a body's JSON syntax before its target and signature: a
// request refused for either with a body that is not JSON is a
// SerializationException. Only refused requests pay for this parse.
ApiResponse RefusedBefore(const Error& error, const ApiRequest& req, std::string_view content_type) {
  if (!req.body.empty()) {
    JsonDoc doc;
    if (!doc.Parse(req.body)) {
      ApiResponse r = ErrorResponse(Error(ErrorCode::kSerialization, ""));
      r.content_type = content_type;
      return r;
    }
  }
  ApiResponse r = ErrorResponse(error);
  r.content_type = content_type;
  return r;
}

ApiResponse Dispatch(Backend& backend, const ApiRequest& req, RequestInfo* info) {
  service::Engine* engine = backend.local_engine();  // null in front of an engine elsewhere
  // pogi's own paths live under /_pogi/, which DynamoDB never answers.
  if (engine && req.method == "GET" && req.target == "/_pogi/metrics") {
    ApiResponse r;
    r.body = engine->metrics().PrometheusText();
    r.content_type = "text/plain; version=0.0.4";
    return r;
  }
  if (req.method == "GET") {
    // DynamoDB answers a GET of its endpoint with a health line naming its
    // regional endpoint, whatever host the client used (note the trailing
    // space); no other path is served. A 200 here is also pogi's readiness
    // signal (docs/flags.md, docs/admin.md).
    std::string_view path = req.target.substr(0, req.target.find('?'));
    if (path != "/") return NotAnApiCall();
    ApiResponse r;
    r.body = "healthy: dynamodb.";
    r.body.append(service::Region()).append(".amazonaws.com ");
    r.content_type = "text/plain";
    return r;
  }
  std::string_view media = MediaType(req.content_type);
  if (req.method != "POST" || (!req.body.empty() && media != kJson && media != kAmzJson)) {
    return NotAnApiCall();
  }
  // The answer carries the content type the client sent.
  std::string_view content_type = media == kAmzJson ? kAmzJson : kJson;
  const service::Operation* op = nullptr;
  if (req.amz_target.starts_with(kTargetPrefix)) {
    op = service::FindOperation(req.amz_target.substr(kTargetPrefix.size()));
  } else if (req.amz_target.starts_with(kStreamsTargetPrefix)) {
    op = service::FindOperation(service::Api::kStreams, req.amz_target.substr(kStreamsTargetPrefix.size()));
  }
  if (!op) return RefusedBefore(Error(ErrorCode::kUnknownOperation, ""), req, content_type);
  if (info) info->operation = op->name;
  // --allow-unsigned lifts only the presence check: a header that is sent
  // must still have DynamoDB's form.
  std::string_view credential;  // names the request's region
  if (req.require_authorization || req.signature || req.has_authorization) {
    AuthView auth{req.has_authorization, req.authorization, req.has_date, req.target};
    if (std::optional<Error> e = AuthorizationFormError(auth, &credential)) {
      return RefusedBefore(*e, req, content_type);
    }
  }
  if (req.signature) {
    if (Status s = req.signature->Verify(); !s.ok()) return RefusedBefore(s.error(), req, content_type);
  }

  std::unique_ptr<google::protobuf::Message> request(op->request_prototype->New());
  MapKeyOrders attribute_maps;  // the order of the request's items (JsonEntryOrder)
  if (Status s = JsonToMessage(req.body, request.get(), &attribute_maps); !s.ok()) {
    ApiResponse r = ErrorResponse(s.error());
    r.content_type = content_type;
    return r;
  }
  // Fault rules (pogi faults): one relaxed load when there are none.
  if (engine && engine->faults().active()) {
    if (auto fault = engine->CheckFaults("http", op->name, *request)) {
      if (fault->error) {
        ApiResponse r = ErrorResponse(*fault->error);
        r.content_type = content_type;
        return r;
      }
      ApiResponse cut;
      cut.disconnect = true;
      return cut;
    }
  }
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
  // The request's region is its credential scope's (service/core/region.h):
  // worked out when it can matter, or for an engine elsewhere.
  service::RequestRegionScope region(
      !engine || service::RegionsMatter() ? service::CredentialRegion(credential) : std::string_view());
  // Validation may ask which of a map's bad entries the client wrote first.
  JsonEntryOrder entry_order(req.body, &attribute_maps);
  EntryOrderScope entry_order_scope(&entry_order);
  auto result = backend.Invoke(*op, *request);
  if (!result.ok()) {
    ApiResponse r = ErrorResponse(result.error());
    r.content_type = content_type;
    return r;
  }
  ApiResponse r;
  r.content_type = content_type;
  // DynamoDB answers these two with an empty body (Content-Length 0), not {}.
  if (op->name == "TagResource" || op->name == "UntagResource") return r;
  // JSON is about as long as the proto encoding; reserving avoids regrowth
  // for large pages.
  r.body.reserve((*result)->ByteSizeLong() * 5 / 4 + 64);
  MessageToJson(**result, &r.body);
  return r;
}

}  // namespace

}  // namespace pogi::gateway
