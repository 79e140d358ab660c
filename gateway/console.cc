// HandleConsole: the console's assets and its JSON API. Every data call goes
// through what the other doors use — the DynamoDB operation table with the
// DynamoDB JSON codec, and the Admin calls of service/admin/admin_calls.h — so the
// page sees exactly DynamoDB's answers and errors.
#include "gateway/console.h"

#include <charconv>
#include <memory>

#include "gateway/console_assets.h"
#include "gateway/json_codec.h"
#include "service/admin/admin_calls.h"
#include "service/engine/operations.h"

namespace pogi::gateway {
namespace {

constexpr std::string_view kPrefix = "/_pogi/";
constexpr std::string_view kApi = "/_pogi/api/";
constexpr std::string_view kJson = "application/json";

ApiResponse JsonError(const Error& error) {
  ApiResponse r = ErrorResponse(error);
  r.content_type = kJson;
  return r;
}

ApiResponse Json(std::string body) {
  ApiResponse r;
  r.body = std::move(body);
  r.content_type = kJson;
  return r;
}

// Compares without stopping at the first difference, so that the time taken
// says nothing of how much of the secret was right.
bool SameSecret(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < given.size(); ++i) diff |= given[i] ^ expected[i];
  return diff == 0;
}

// With --check-signatures the console is no way around them: the page must
// send the configured access key id and secret (it asks for them).
std::optional<Error> CredentialsError(const ConsoleRequest& req) {
  if (!req.credentials) return std::nullopt;
  // pogi's own messages: DynamoDB has no console.
  if (req.access_key_id.empty() || req.secret_access_key.empty()) {
    return Error(ErrorCode::kMissingAuthenticationToken,
                 "pogi runs with --check-signatures: the console needs the access key id and secret "
                 "access key it was started with");
  }
  if (req.access_key_id != req.credentials->access_key_id) {
    return Error(ErrorCode::kUnrecognizedClient, "The security token included in the request is invalid.");
  }
  if (!SameSecret(req.secret_access_key, req.credentials->secret_access_key)) {
    return Error(ErrorCode::kInvalidSignature, "The secret access key given to the console is not pogi's.");
  }
  return std::nullopt;
}

// Whether `host` (a Host header) names this machine by a loopback name or an
// IP literal. A page of another site that a DNS name rebinds to pogi's
// address sends its own name, and is refused.
bool HostIsAddress(std::string_view host) {
  if (host.starts_with('[')) return true;  // [::1]:7644
  std::string_view name = host.substr(0, host.rfind(':'));
  if (name == "localhost") return true;
  if (name.empty()) return false;
  for (char c : name) {
    if (!(c == '.' || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// The API answers only its own page: a request another site's page makes
// (its Origin differs from the address used) is refused, so a web page
// cannot reset or read a developer's tables through the browser.
std::optional<Error> OriginError(const ConsoleRequest& req) {
  if (!HostIsAddress(req.host)) {
    return Error(ErrorCode::kAccessDenied,
                 "the console API answers requests to a loopback name or an IP address only");
  }
  if (!req.has_origin) return std::nullopt;
  std::string_view origin = req.origin;
  if (origin.starts_with("http://") && origin.substr(7) == req.host) return std::nullopt;
  return Error(ErrorCode::kAccessDenied, "the console API refuses requests from other origins");
}

// ?after=N of a poll; 0 when absent or malformed.
uint64_t AfterParameter(std::string_view target) {
  size_t at = target.find("after=");
  if (at == std::string_view::npos) return 0;
  std::string_view v = target.substr(at + 6);
  uint64_t n = 0;
  std::from_chars(v.data(), v.data() + v.size(), n);
  return n;
}

// POST /_pogi/api/dynamodb/<Operation>: DynamoDB JSON in, DynamoDB JSON out.
// Fault rules are left out: they simulate failures for the application, and
// the console is how a developer looks at what really is.
ApiResponse CallOperation(service::Engine& engine, std::string_view name, std::string_view body) {
  const service::Operation* op = service::FindOperation(name);
  if (!op) op = service::FindOperation(service::Api::kStreams, name);
  if (!op)
    return JsonError(Error(ErrorCode::kUnknownOperation, "no DynamoDB operation " + std::string(name)));
  std::unique_ptr<google::protobuf::Message> request(op->request_prototype->New());
  if (Status s = JsonToMessage(body.empty() ? "{}" : body, request.get()); !s.ok())
    return JsonError(s.error());
  auto result = op->invoke(engine, *request);
  if (!result.ok()) return JsonError(result.error());
  ApiResponse r = Json("");
  MessageToJson(**result, &r.body);
  return r;
}

// POST /_pogi/api/admin/<Call>: the Admin call's request and answer in the
// same mechanical JSON (field json_name, capitalized) as DynamoDB's shapes.
ApiResponse CallAdmin(service::Engine& engine, std::string_view name, std::string_view body) {
  const service::AdminCall* call = service::FindAdminCall(name);
  if (!call) return JsonError(Error(ErrorCode::kUnknownOperation, "no admin call " + std::string(name)));
  std::unique_ptr<google::protobuf::Message> request(call->request_prototype->New());
  if (Status s = JsonToMessage(body.empty() ? "{}" : body, request.get()); !s.ok())
    return JsonError(s.error());
  auto result = call->invoke(engine, *request);
  if (!result.ok()) return JsonError(result.error());
  ApiResponse r = Json("");
  MessageToJson(**result, &r.body);
  return r;
}

ApiResponse Api(service::Engine& engine, ConsoleLive& live, const ConsoleRequest& req,
                std::string_view call) {
  if (auto e = OriginError(req)) return JsonError(*e);
  if (auto e = CredentialsError(req)) return JsonError(*e);
  std::string_view path = call.substr(0, call.find('?'));
  if (req.method == "GET" && path == "changes") return Json(live.ChangesAfter(AfterParameter(call)));
  if (req.method == "GET" && path == "requests") return Json(live.RequestsAfter(AfterParameter(call)));
  if (req.method == "POST" && path.starts_with("dynamodb/"))
    return CallOperation(engine, path.substr(9), req.body);
  if (req.method == "POST" && path.starts_with("admin/")) return CallAdmin(engine, path.substr(6), req.body);
  ApiResponse r = JsonError(Error(ErrorCode::kUnknownOperation, "no console API " + std::string(req.method) +
                                                                    " /_pogi/api/" + std::string(path)));
  r.status = 404;
  return r;
}

ApiResponse Dispatch(service::Engine& engine, ConsoleLive& live, const ConsoleRequest& req) {
  if (req.target.starts_with(kApi)) return Api(engine, live, req, req.target.substr(kApi.size()));
  if (req.method != "GET") return NotAnApiCall();
  std::string_view name = req.target.substr(kPrefix.size());
  name = name.substr(0, name.find('?'));
  const ConsoleAsset* asset = FindConsoleAsset(name);
  if (!asset) return NotAnApiCall();
  ApiResponse r;
  r.body.assign(reinterpret_cast<const char*>(asset->data), asset->size);
  r.content_type = asset->content_type;
  return r;
}

}  // namespace

ApiResponse HandleConsole(service::Engine& engine, ConsoleLive& live, const ConsoleRequest& request) {
  // One bad request must never take the server down.
  try {
    return Dispatch(engine, live, request);
  } catch (const std::exception& e) {
    return JsonError(Error::Internal(std::string("internal error: ") + e.what()));
  }
}

}  // namespace pogi::gateway
