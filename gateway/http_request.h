// HttpRequestReader: bytes from an HTTP/1 connection in, one parsed request
// (or the edge's refusal) out, with the limits of common/limits.h. The one
// reader of requests: the Beast session feeds it what the socket gives, the
// http fuzz target feeds it raw bytes. Beast stays out of this header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "gateway/handle_request.h"
#include "gateway/sigv4.h"

namespace pogi::gateway {

// What pogi keeps of one request, in buffers a connection reuses (Clear()
// keeps their capacity): no allocation per header or per request once a
// connection is warm.
struct HttpRequest {
  std::string method, target, amz_target, content_type, body;
  std::string host, authorization, content_encoding, origin;
  // The first Accept-Encoding header's value: DynamoDB ignores any other.
  std::string accept_encoding;
  std::string amz_date;                   // the X-Amz-Date header
  std::string cors_headers, cors_method;  // Access-Control-Request-*
  bool has_authorization = false, has_date = false, has_origin = false, has_accept_encoding = false;
  // Every header as (name, value), kept only when the reader keeps headers
  // (signatures are checked).
  std::vector<std::pair<std::string, std::string>> headers;
  size_t header_count = 0;  // headers[0, header_count) belong to this request
  unsigned version = 11;

  void Clear();
};

class HttpRequestReader {
 public:
  // With `keep_headers`, every header is kept in request().headers. With
  // `check_signature_dates` (--check-signatures), a signed request whose
  // X-Amz-Date is refused (SignatureDateError) is answered as soon as its
  // headers are read, before its body: see SignatureDateRefusal.
  explicit HttpRequestReader(bool keep_headers, bool check_signature_dates = false);
  ~HttpRequestReader();
  HttpRequestReader(const HttpRequestReader&) = delete;
  HttpRequestReader& operator=(const HttpRequestReader&) = delete;

  enum class State {
    kNeedMore,  // give it more bytes (Space, Received) or the end (ReceivedEnd)
    kRequest,   // request() is complete; keep_alive() says whether another may follow
    kRefused,   // refusal() is the answer; the connection cannot be reused
    kClosed,    // the client left before a whole request: nobody to answer
  };

  // Begins the next request (request() cleared) and parses what is
  // buffered already, a pipelined request's bytes.
  State Next();
  // Room for the bytes the connection receives next (at least 512).
  std::pair<char*, size_t> Space();
  // `n` bytes were written at Space(): parses them.
  State Received(size_t n);
  // The client closed its sending side.
  State ReceivedEnd();

  const HttpRequest& request() const;
  // After kRequest: whether the request lets the connection stay open.
  bool keep_alive() const;
  // After kRefused: 400 for a request line or header fields past their
  // limits or bytes that are not HTTP/1, 413 for a body past kMaxBodyBytes,
  // or the signature date's error (SignatureDateRefusal).
  const ApiResponse& refusal() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// DynamoDB checks a signature's time window before it reads the body and
// before it looks the access key up: the error for a POST (not to the
// console) whose Authorization header has SigV4's form and whose X-Amz-Date
// is malformed or more than 15 minutes from `now_unix`; nullopt otherwise,
// the request going on to HandleRequest. Needs only the headers.
std::optional<Error> SignatureDateRefusal(const HttpRequest& request, int64_t now_unix);

// The API call a complete request makes: its headers, and its body inflated
// into *inflated when Content-Encoding says it is compressed (the SDKs'
// request compression). An error is the answer (InflateBody's). The caller
// sets require_authorization and signature.
Result<ApiRequest> ToApiRequest(const HttpRequest& request, std::string* inflated);

// --check-signatures over the headers a reader kept, at the system clock's
// time (or at `now_unix` when it is set, for the fuzz target).
class HeaderSignatureCheck final : public SignatureCheck {
 public:
  HeaderSignatureCheck(const HttpRequest& request, const Credentials& credentials, int64_t now_unix = -1)
      : request_(request), credentials_(credentials), now_unix_(now_unix) {}
  Status Verify() const override;

 private:
  const HttpRequest& request_;
  const Credentials& credentials_;
  int64_t now_unix_;
};

}  // namespace pogi::gateway
