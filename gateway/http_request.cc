// HttpRequestReader: Beast's HTTP/1 parser over a connection's buffer,
// writing into an HttpRequest, with pogi's exact request-line and header
// limits and its answers to what cannot be read.
#include "gateway/http_request.h"

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <limits>
#include <optional>

#include "common/limits.h"
#include "gateway/edge.h"

namespace pogi::gateway {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

// Beast's HTTP/1 parser, writing into an HttpRequest: Beast's own message
// type allocates a node per header and its serializer walks a buffer
// sequence per field, which measured a tenth of a GetItem's CPU.
class RequestParser final : public http::basic_parser<true> {
 public:
  RequestParser(HttpRequest& out, bool keep_headers, bool check_signature_dates)
      : out_(out), keep_headers_(keep_headers), check_signature_dates_(check_signature_dates) {
    out_.Clear();
    // Beast's own limit judges the bytes it has buffered, the request line
    // included, before any field is seen; it only has to let every request
    // within pogi's exact limits through (a little room for optional
    // whitespace), which on_request_impl and on_field_impl then judge.
    header_limit(static_cast<uint32_t>(limits::kMaxRequestLineBytes + limits::kMaxHeaderBytes + 1024));
    // Set in on_header_impl, after the signature's date is judged: a
    // Content-Length past the limit would otherwise be refused first.
    // (Not boost::none: Beast compares the Content-Length with it first.)
    body_limit(std::numeric_limits<uint64_t>::max());
    eager(true);  // a whole message per read, as http::read asks of a parser
  }

  // Whether the parse stopped at a request line over kMaxRequestLineBytes.
  bool request_line_too_long() const { return request_line_too_long_; }
  // Whether the parse stopped at header fields over kMaxHeaderBytes.
  bool headers_too_long() const { return headers_too_long_; }
  // Set when the parse stopped at the signature's date (SignatureDateRefusal).
  const std::optional<Error>& date_refusal() const { return date_refusal_; }

 private:
  void on_request_impl(http::verb, beast::string_view method, beast::string_view target, int version,
                       beast::error_code& ec) override {
    // method SP target SP HTTP/1.x: Beast hands the line over parsed.
    if (method.size() + target.size() + 10 > limits::kMaxRequestLineBytes) {
      request_line_too_long_ = true;
      ec = http::error::header_limit;
      return;
    }
    header_bytes_ = 0;
    out_.method.assign(method.data(), method.size());
    out_.target.assign(target.data(), target.size());
    out_.version = static_cast<unsigned>(version);
  }
  void on_response_impl(int, beast::string_view, int, beast::error_code&) override {}
  void on_field_impl(http::field name, beast::string_view name_string, beast::string_view value,
                     beast::error_code& ec) override {
    // Beast's own header_limit is approximate (it judges the bytes it has
    // buffered); this counts the fields exactly: "Name: value" CRLF each.
    header_bytes_ += name_string.size() + 2 + value.size() + 2;
    if (header_bytes_ > limits::kMaxHeaderBytes) {
      headers_too_long_ = true;
      ec = http::error::header_limit;
      return;
    }
    switch (name) {
      case http::field::content_type:
        out_.content_type.assign(value.data(), value.size());
        break;
      case http::field::host:
        out_.host.assign(value.data(), value.size());
        break;
      case http::field::authorization:
        out_.has_authorization = true;
        out_.authorization.assign(value.data(), value.size());
        break;
      case http::field::date:
        out_.has_date = true;
        break;
      case http::field::origin:
        out_.has_origin = true;
        out_.origin.assign(value.data(), value.size());
        break;
      case http::field::content_encoding:
        out_.content_encoding.assign(value.data(), value.size());
        break;
      case http::field::accept_encoding:
        // DynamoDB chooses from the first Accept-Encoding header only.
        if (!out_.has_accept_encoding) {
          out_.has_accept_encoding = true;
          out_.accept_encoding.assign(value.data(), value.size());
        }
        break;
      case http::field::access_control_request_headers:
        out_.cors_headers.assign(value.data(), value.size());
        break;
      case http::field::access_control_request_method:
        out_.cors_method.assign(value.data(), value.size());
        break;
      case http::field::unknown:
        if (beast::iequals(name_string, "X-Amz-Target")) {
          out_.amz_target.assign(value.data(), value.size());
        } else if (beast::iequals(name_string, "X-Amz-Date")) {
          out_.has_date = true;
          out_.amz_date.assign(value.data(), value.size());
        }
        break;
      default:
        break;
    }
    if (!keep_headers_) return;
    if (out_.header_count == out_.headers.size()) out_.headers.emplace_back();
    auto& [n, v] = out_.headers[out_.header_count++];
    n.assign(name_string.data(), name_string.size());
    v.assign(value.data(), value.size());
  }
  void on_header_impl(beast::error_code& ec) override {
    // DynamoDB judges the signature's date before it reads the body.
    if (check_signature_dates_) {
      int64_t now =
          static_cast<int64_t>(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()));
      date_refusal_ = SignatureDateRefusal(out_, now);
      if (date_refusal_) {
        ec = http::error::bad_field;
        return;
      }
    }
    // Then the body's size: a Content-Length past the limit at once, a
    // chunked body or one running to the end as it comes.
    if (content_length() && *content_length() > limits::kMaxBodyBytes) {
      ec = http::error::body_limit;
      return;
    }
    body_limit(limits::kMaxBodyBytes);
  }
  void on_body_init_impl(const boost::optional<uint64_t>& length, beast::error_code& ec) override {
    // Beast (1.74) goes on into the body after on_header_impl refused the
    // request when more bytes are buffered; the refusal is still in `ec`,
    // and the announced length is not to be trusted.
    if (ec) return;
    if (length && *length <= limits::kMaxBodyBytes) out_.body.reserve(*length);
  }
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

  HttpRequest& out_;
  bool keep_headers_;
  bool check_signature_dates_;
  bool request_line_too_long_ = false;
  bool headers_too_long_ = false;
  std::optional<Error> date_refusal_;
  size_t header_bytes_ = 0;  // of the header fields so far
};

}  // namespace

void HttpRequest::Clear() {
  method.clear();
  target.clear();
  amz_target.clear();
  content_type.clear();
  body.clear();
  host.clear();
  authorization.clear();
  content_encoding.clear();
  accept_encoding.clear();
  amz_date.clear();
  origin.clear();
  cors_headers.clear();
  cors_method.clear();
  has_authorization = has_date = has_origin = has_accept_encoding = false;
  header_count = 0;
}

struct HttpRequestReader::Impl {
  Impl(bool keep, bool dates) : keep_headers(keep), check_signature_dates(dates) {}

  // Parses what is buffered, as Beast's http::read does: put() until the
  // message is done or the parser needs bytes that have not come yet.
  State Parse() {
    beast::error_code ec;
    while (!parser->is_done()) {
      if (buffer.size() == 0) return State::kNeedMore;
      size_t used = parser->put(buffer.data(), ec);
      buffer.consume(used);
      if (ec == http::error::need_more) {
        if (used == 0) return State::kNeedMore;
        ec = {};
        continue;
      }
      if (ec) return Refuse(ec);
    }
    return State::kRequest;
  }

  // A parse error: 413 for a body over the limit, else 400 and the reason.
  // Front ends answer such requests with a short text body before DynamoDB
  // sees them; the 400 texts are pogi's.
  State Refuse(beast::error_code ec) {
    if (ec == http::error::partial_message) return State::kClosed;
    if (parser->date_refusal()) {
      refusal = ErrorResponse(*parser->date_refusal());
      // The answer carries the content type the client sent, as HandleRequest's.
      if (MediaType(request.content_type) == "application/json") refusal.content_type = "application/json";
      return State::kRefused;
    }
    if (ec == http::error::body_limit) {
      // DynamoDB refuses a body over 16 MB with 413.
      refusal =
          ErrorResponse(Error(ErrorCode::kRequestEntityTooLarge, "Request size exceeded 16777216 bytes"));
      return State::kRefused;
    }
    refusal = ApiResponse{};
    refusal.status = 400;
    refusal.content_type = "text/plain";
    if (parser->request_line_too_long()) {
      refusal.body = "Bad Request: the request line exceeds " + std::to_string(limits::kMaxRequestLineBytes) +
                     " bytes\n";
    } else if (parser->headers_too_long()) {
      refusal.body =
          "Bad Request: the request headers exceed " + std::to_string(limits::kMaxHeaderBytes) + " bytes\n";
    } else if (ec == http::error::header_limit) {  // Beast's own limit, on the bytes buffered
      refusal.body = "Bad Request: the request line and headers exceed " +
                     std::to_string(limits::kMaxRequestLineBytes + limits::kMaxHeaderBytes) + " bytes\n";
    } else {
      refusal.body = "Bad Request: malformed HTTP request\n";
    }
    return State::kRefused;
  }

  bool keep_headers;
  bool check_signature_dates;
  beast::flat_buffer buffer;  // received and not yet parsed
  HttpRequest request;
  std::optional<RequestParser> parser;
  ApiResponse refusal;
};

HttpRequestReader::HttpRequestReader(bool keep_headers, bool check_signature_dates)
    : impl_(std::make_unique<Impl>(keep_headers, check_signature_dates)) {}
HttpRequestReader::~HttpRequestReader() = default;

HttpRequestReader::State HttpRequestReader::Next() {
  impl_->parser.emplace(impl_->request, impl_->keep_headers, impl_->check_signature_dates);
  return impl_->Parse();
}

std::pair<char*, size_t> HttpRequestReader::Space() {
  // Beast's http::read sizes its reads the same way.
  auto space = impl_->buffer.prepare(beast::read_size(impl_->buffer, 65536));
  return {static_cast<char*>(space.data()), space.size()};
}

HttpRequestReader::State HttpRequestReader::Received(size_t n) {
  impl_->buffer.commit(n);
  return impl_->Parse();
}

HttpRequestReader::State HttpRequestReader::ReceivedEnd() {
  // Nothing of a request yet: the client is done. Part of one: it left
  // mid-request (put_eof completes only a body that runs to the end).
  if (!impl_->parser->got_some()) return State::kClosed;
  beast::error_code ec;
  impl_->parser->put_eof(ec);
  if (ec) return State::kClosed;
  return impl_->parser->is_done() ? State::kRequest : State::kClosed;
}

const HttpRequest& HttpRequestReader::request() const { return impl_->request; }

bool HttpRequestReader::keep_alive() const { return impl_->parser->keep_alive(); }

const ApiResponse& HttpRequestReader::refusal() const { return impl_->refusal; }

std::optional<Error> SignatureDateRefusal(const HttpRequest& request, int64_t now_unix) {
  if (request.method != "POST" || request.target.starts_with("/_pogi/") || !request.has_authorization ||
      request.amz_date.empty()) {
    return std::nullopt;
  }
  // Only a header of SigV4's form: a malformed one is answered as
  // HandleRequest answers it (IncompleteSignature, after the body's syntax).
  if (!std::string_view(request.authorization).starts_with("AWS4-HMAC-SHA256 ")) return std::nullopt;
  AuthView auth{true, request.authorization, request.has_date, request.target};
  if (AuthorizationFormError(auth)) return std::nullopt;
  return SignatureDateError(request.amz_date, now_unix);
}

Result<ApiRequest> ToApiRequest(const HttpRequest& request, std::string* inflated) {
  std::string_view body = request.body;
  // The SDKs' request compression; the signature covers the bytes sent.
  if (!request.content_encoding.empty() && !beast::iequals(request.content_encoding, "identity")) {
    POGI_RETURN_IF_ERROR(
        InflateBody(request.content_encoding, request.body, limits::kMaxBodyBytes, inflated));
    body = *inflated;
  }
  ApiRequest api{request.method, request.target, request.amz_target, request.content_type, body};
  api.host = request.host;
  api.has_authorization = request.has_authorization;
  api.authorization = request.authorization;
  api.has_date = request.has_date;
  return api;
}

Status HeaderSignatureCheck::Verify() const {
  SignedRequest signed_req{request_.method, request_.target, {}, request_.body};
  for (size_t i = 0; i < request_.header_count; ++i) {
    signed_req.headers.emplace_back(request_.headers[i].first, request_.headers[i].second);
  }
  int64_t now = now_unix_;
  if (now < 0)
    now = static_cast<int64_t>(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()));
  return VerifySignature(signed_req, credentials_, now);
}

}  // namespace pogi::gateway
