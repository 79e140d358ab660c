// libFuzzer target: the HTTP request path, raw bytes through the session's
// own request reader (gateway/http_request.h: Beast's HTTP/1 parser, the
// limits, the refusals), body inflation, then HandleRequest on an in-memory
// engine, and the response's compression.
//
// What the session does with a request once read (gateway/http_server.cc,
// Session::OnRequest) is mirrored below: the CORS preflight, ToApiRequest,
// the signature check. The engine holds one table "t" (pk S, sk N) and is
// reset every few thousand inputs so that what the fuzzer creates stays
// bounded.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "gateway/edge.h"
#include "gateway/handle_request.h"
#include "gateway/http_request.h"
#include "gateway/sigv4.h"
#include "service/core/clock.h"
#include "storage/storage.h"

namespace pogi {
namespace {

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
    gateway::LocalBackend backend(*engine);
    (void)gateway::HandleRequest(backend, create);
  }
  return *engine;
}

// Feeds the connection's bytes to the reader in pieces of `chunk` bytes (as
// a socket might deliver them) until it has a request or a refusal, then
// answers it as a session would; false when the connection cannot go on.
bool OneRequest(gateway::HttpRequestReader& reader, std::string_view* rest, size_t chunk,
                bool check_signatures, bool require_authorization) {
  using State = gateway::HttpRequestReader::State;
  State state = reader.Next();
  while (state == State::kNeedMore) {
    if (rest->empty()) {
      state = reader.ReceivedEnd();  // the client closed the connection after what it sent
      break;
    }
    auto [space, room] = reader.Space();
    size_t n = std::min({room, chunk, rest->size()});
    std::memcpy(space, rest->data(), n);
    rest->remove_prefix(n);
    state = reader.Received(n);
  }
  if (state == State::kClosed) return false;
  const gateway::HttpRequest& req = reader.request();
  gateway::ApiResponse response;
  if (state == State::kRefused) {
    response = reader.refusal();
  } else if (req.has_origin && req.method == "OPTIONS") {
    return reader.keep_alive();
  } else {
    std::string inflated;
    Result<gateway::ApiRequest> api = gateway::ToApiRequest(req, &inflated);
    if (!api.ok()) return reader.keep_alive();
    api->require_authorization = require_authorization;
    // A fixed clock: 2026-01-01, the date of the corpus's signed requests.
    gateway::Credentials credentials{"pogi", "pogisecret"};
    gateway::HeaderSignatureCheck check(req, credentials, 1767225600);
    if (check_signatures) api->signature = &check;
    gateway::RequestInfo info;
    gateway::LocalBackend backend(FuzzEngine());
    response = gateway::HandleRequest(backend, *api, &info);
  }
  if (!req.accept_encoding.empty()) {
    std::string compressed;
    gateway::Compression how = gateway::ChosenCompression(req.accept_encoding);
    if (how != gateway::Compression::kNone) (void)gateway::Compress(how, response.body, &compressed);
  }
  return state == State::kRequest && reader.keep_alive();
}

}  // namespace
}  // namespace pogi

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte: whether signatures are checked (--check-signatures),
  // whether the Authorization header is required (not --allow-unsigned),
  // and in its high bits the size of the pieces the bytes arrive in (0:
  // all at once).
  bool check_signatures = data[0] & 1, require_authorization = data[0] & 2;
  size_t chunk = data[0] >> 2;
  if (chunk == 0) chunk = size;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  // The headers are kept, and the signature's date judged before the body,
  // when signatures are checked, as the session does.
  pogi::gateway::HttpRequestReader reader(check_signatures, check_signatures);
  // Up to four pipelined requests on one connection.
  for (int i = 0; i < 4; ++i) {
    if (!pogi::OneRequest(reader, &rest, chunk, check_signatures, require_authorization)) break;
  }
  return 0;
}
