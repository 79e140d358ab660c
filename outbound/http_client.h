// A small HTTP/1.1 client for pogi's own requests to other services (S3,
// Kinesis): connect with a deadline, send one request at a time with its
// body, read the answer's head, then its body as a stream (Content-Length
// or chunked), so that an object of any size passes through bounded
// memory. http:// or https:// (tls_stream.h). Retries are the caller's: a failed call
// leaves the connection unusable. Not thread-safe: one connection, one
// caller at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace pogi::outbound {

class TlsStream;

// Where a server listens: "http[s]://host[:port][/base/path]".
struct Endpoint {
  std::string host;  // a name or an IP literal (IPv6 without brackets)
  int port = 80;
  std::string base_path;  // "" or "/base", no trailing '/'
  bool tls = false;       // https://
  // "host" or "host:port" as the Host header names it.
  std::string HostHeader() const;
};

// Parses an endpoint URL; ValidationException with a one-line reason when
// it is not http[s]://HOST[:PORT][/PATH] (default ports 80 and 443).
Result<Endpoint> ParseEndpoint(std::string_view url);

using Headers = std::vector<std::pair<std::string, std::string>>;

// The value of header `name` (any case), or "".
std::string_view FindHeader(const Headers& headers, std::string_view name);

struct HttpRequest {
  std::string method = "GET";
  std::string target = "/";  // path and query, already encoded
  Headers headers;           // Host and Content-Length are added when missing
  std::string_view body;
};

struct HttpResponse {
  int status = 0;
  Headers headers;
};

struct HttpTimeouts {
  int connect_ms = 5000;
  int io_ms = 30000;  // the longest wait for any one read or write
};

class HttpConnection {
 public:
  // Resolves and connects to `endpoint` (with TLS's handshake for
  // https); ServiceUnavailable naming the address when no connection is
  // made within the timeout, or saying why TLS failed.
  static Result<std::unique_ptr<HttpConnection>> Connect(const Endpoint& endpoint,
                                                         const HttpTimeouts& timeouts = {});
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Sends `request` and reads the answer's status line and headers. The
  // previous answer's body must have been read to its end.
  Result<HttpResponse> Send(const HttpRequest& request);
  // Reads up to `n` bytes of the current answer's body; 0 at its end.
  Result<size_t> ReadBody(char* buf, size_t n);
  // Reads the rest of the body; an error past `limit` bytes.
  Result<std::string> ReadAll(size_t limit = 16 << 20);
  // Whether another request may follow on this connection.
  bool reusable() const { return reusable_; }

 private:
  HttpConnection(int fd, const Endpoint& endpoint, const HttpTimeouts& timeouts);
  Status WriteAll(std::string_view data);
  // Reads more bytes into buf_; false at the peer's end of stream.
  Result<bool> Fill();
  Result<std::string> ReadLine();
  Status StartChunk();

  int fd_;
  std::unique_ptr<TlsStream> tls_;  // https only
  Endpoint endpoint_;
  HttpTimeouts timeouts_;
  std::string buf_;  // received, not yet consumed
  size_t pos_ = 0;
  // The body being read: a known length left, chunks, or up to the end.
  enum class BodyMode { kNone, kLength, kChunked, kUntilClose } mode_ = BodyMode::kNone;
  uint64_t left_ = 0;  // bytes left of the body (kLength) or of the chunk (kChunked)
  bool chunks_done_ = false;
  bool reusable_ = true;
};

}  // namespace pogi::outbound
