// libFuzzer target: the HTTP request path, raw bytes through Beast's HTTP/1
// parser (as gateway/http_server.cc drives it: a basic_parser keeping the
// fields pogi reads), body inflation, then HandleRequest on an in-memory
// engine, and the response's compression.
//
// The session code of http_server.cc lives with its sockets; the mapping
// below follows Session::OnRead step for step (keep the two in step). The
// engine holds one table "t" (pk S, sk N) and is reset every few thousand
// inputs so that what the fuzzer creates stays bounded.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "gateway/edge.h"
#include "gateway/handle_request.h"
#include "gateway/sigv4.h"
#include "service/clock.h"
#include "storage/storage.h"

namespace pogi {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

constexpr uint64_t kMaxBodyBytes = 16 * 1024 * 1024;

struct Request {
  std::string method, target, amz_target, content_type, body, host, authorization, content_encoding,
      accept_encoding;
  bool has_authorization = false, has_date = false, has_origin = false;
  std::vector<std::pair<std::string, std::string>> headers;
};

class RequestParser final : public http::basic_parser<true> {
 public:
  explicit RequestParser(Request& out) : out_(out) { body_limit(kMaxBodyBytes); }

 private:
  void on_request_impl(http::verb, beast::string_view method, beast::string_view target, int,
                       beast::error_code&) override {
    out_.method.assign(method.data(), method.size());
    out_.target.assign(target.data(), target.size());
  }
  void on_response_impl(int, beast::string_view, int, beast::error_code&) override {}
  void on_field_impl(http::field name, beast::string_view name_string, beast::string_view value,
                     beast::error_code&) override {
    std::string v(value.data(), value.size());
    switch (name) {
      case http::field::content_type:
        out_.content_type = v;
        break;
      case http::field::host:
        out_.host = v;
        break;
      case http::field::authorization:
        out_.has_authorization = true;
        out_.authorization = v;
        break;
      case http::field::date:
        out_.has_date = true;
        break;
      case http::field::origin:
        out_.has_origin = true;
        break;
      case http::field::content_encoding:
        out_.content_encoding = v;
        break;
      case http::field::accept_encoding:
        out_.accept_encoding = v;
        break;
      case http::field::unknown:
        if (beast::iequals(name_string, "X-Amz-Target")) {
          out_.amz_target = v;
        } else if (beast::iequals(name_string, "X-Amz-Date")) {
          out_.has_date = true;
        }
        break;
      default:
        break;
    }
    out_.headers.emplace_back(std::string(name_string.data(), name_string.size()), std::move(v));
  }
  void on_header_impl(beast::error_code&) override {}
  void on_body_init_impl(const boost::optional<uint64_t>&, beast::error_code&) override {}
  size_t on_body_impl(beast::string_view body, beast::error_code&) override {
    out_.body.append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(uint64_t, beast::string_view, beast::error_code&) override {}
  size_t on_chunk_body_impl(uint64_t, beast::string_view body, beast::error_code&) override {
    out_.body.append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(beast::error_code&) override {}

  Request& out_;
};

class Check final : public gateway::SignatureCheck {
 public:
  explicit Check(const Request& r) : r_(r) {}
  Status Verify() const override {
    gateway::SignedRequest s{r_.method, r_.target, {}, r_.body};
    for (const auto& [n, v] : r_.headers) s.headers.emplace_back(n, v);
    return gateway::VerifySignature(s, gateway::Credentials{"pogi", "pogisecret"}, 1767225600);
  }

 private:
  const Request& r_;
};

service::Engine& FuzzEngine() {
  static std::unique_ptr<service::Engine> engine;
  static int uses = 0;
  if (engine && ++uses % 4096 == 0) (void)engine->Reset({});
  if (!engine) {
    storage::Options options;
    options.in_memory = true;
    engine = std::move(service::Engine::Open(options, std::make_shared<service::SystemClock>())).value();
  }
  if (uses % 4096 == 0) {
    gateway::ApiRequest create{"POST", "/", "DynamoDB_20120810.CreateTable", "application/x-amz-json-1.0",
                               R"({"TableName":"t","AttributeDefinitions":[{"AttributeName":"pk",
      "AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],"KeySchema":[{"AttributeName":"pk",
      "KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"})"};
    (void)gateway::HandleRequest(*engine, create);
  }
  return *engine;
}

// Parses one request from the front of *rest (consuming it) and answers it
// as a session would; false when no complete request could be read.
bool OneRequest(std::string_view* rest, bool check_signatures, bool require_authorization) {
  Request req;
  RequestParser parser(req);
  parser.eager(true);
  beast::error_code ec;
  while (!parser.is_done()) {
    size_t used = parser.put(boost::asio::buffer(rest->data(), rest->size()), ec);
    rest->remove_prefix(std::min(used, rest->size()));
    if (ec == http::error::need_more) ec = {};
    if (ec) break;
    if (used == 0) {
      parser.put_eof(ec);  // the client closed the connection after what it sent
      break;
    }
  }
  if (ec && ec != http::error::body_limit) return false;
  gateway::ApiResponse response;
  if (ec == http::error::body_limit) {
    response = gateway::ErrorResponse(Error(ErrorCode::kRequestEntityTooLarge, "too large"));
  } else if (req.has_origin && req.method == "OPTIONS") {
    return parser.keep_alive();
  } else {
    std::string_view body = req.body;
    std::string inflated;
    if (!req.content_encoding.empty() && !beast::iequals(req.content_encoding, "identity")) {
      Status s = gateway::InflateBody(req.content_encoding, req.body, kMaxBodyBytes, &inflated);
      if (!s.ok()) return parser.keep_alive();
      body = inflated;
    }
    gateway::ApiRequest api{req.method, req.target, req.amz_target, req.content_type, body};
    api.host = req.host;
    api.has_authorization = req.has_authorization;
    api.authorization = req.authorization;
    api.has_date = req.has_date;
    api.require_authorization = require_authorization;
    Check check(req);
    if (check_signatures) api.signature = &check;
    gateway::RequestInfo info;
    response = gateway::HandleRequest(FuzzEngine(), api, &info);
  }
  if (!req.accept_encoding.empty()) {
    std::string compressed;
    gateway::Compression how = gateway::ChosenCompression(req.accept_encoding);
    if (how != gateway::Compression::kNone) (void)gateway::Compress(how, response.body, &compressed);
  }
  return parser.keep_alive();
}

}  // namespace
}  // namespace pogi

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte: whether signatures are checked (--check-signatures),
  // whether the Authorization header is required (not --allow-unsigned).
  bool check_signatures = data[0] & 1, require_authorization = data[0] & 2;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  // Up to four pipelined requests on one connection.
  for (int i = 0; i < 4 && !rest.empty(); ++i) {
    if (!pogi::OneRequest(&rest, check_signatures, require_authorization)) break;
  }
  return 0;
}
