// HTTP/1.1 over a blocking socket whose every wait is bounded by poll(2).
#include "outbound/http_client.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "outbound/poll_wait.h"
#include "outbound/tls_stream.h"

namespace pogi::outbound {
namespace {

constexpr size_t kMaxHeadBytes = 64 << 10;  // an answer's status line and headers
constexpr size_t kReadChunk = 64 << 10;

Error Unavailable(const std::string& what) { return Error(ErrorCode::kServiceUnavailable, what); }
Error Protocol(const std::string& what) { return Error::Internal("bad HTTP answer: " + what); }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return tolower(static_cast<unsigned char>(x)) == tolower(static_cast<unsigned char>(y));
         });
}

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

// One non-blocking connect to `ai`, waited for at most `timeout_ms`.
int ConnectOne(const addrinfo* ai, int timeout_ms) {
  int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
  if (fd < 0) return -1;
  int flags = fcntl(fd, F_GETFL, 0);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
  if (rc != 0 && errno == EINPROGRESS) {
    if (WaitFor(fd, POLLOUT, timeout_ms)) {
      int err = 0;
      socklen_t len = sizeof(err);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      rc = err == 0 ? 0 : -1;
    }
  }
  if (rc != 0) {
    close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

}  // namespace

std::string Endpoint::HostHeader() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return port == (tls ? 443 : 80) ? h : h + ":" + std::to_string(port);
}

Result<Endpoint> ParseEndpoint(std::string_view url) {
  auto bad = [&](const std::string& why) {
    return Error::Validation("endpoint " + std::string(url) + ": " + why);
  };
  Endpoint e;
  e.tls = url.starts_with("https://");
  if (!e.tls && !url.starts_with("http://")) return bad("expected http://HOST[:PORT] or https://HOST[:PORT]");
  if (e.tls) e.port = 443;
  std::string_view rest = url.substr(e.tls ? 8 : 7);
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    e.base_path = std::string(rest.substr(slash));
    while (!e.base_path.empty() && e.base_path.back() == '/') e.base_path.pop_back();
  }
  std::string_view port_text;
  if (authority.starts_with("[")) {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unclosed [ in the host");
    e.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return bad("expected :PORT after the host");
      port_text = after.substr(1);
    }
  } else {
    size_t colon = authority.rfind(':');
    e.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (e.host.empty()) return bad("no host");
  if (!port_text.empty()) {
    int port = 0;
    auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || port < 1 || port > 65535) {
      return bad("the port is not a number from 1 to 65535");
    }
    e.port = port;
  }
  return e;
}

std::string_view FindHeader(const Headers& headers, std::string_view name) {
  for (const auto& [k, v] : headers) {
    if (EqualsIgnoreCase(k, name)) return v;
  }
  return {};
}

Result<std::unique_ptr<HttpConnection>> HttpConnection::Connect(const Endpoint& endpoint,
                                                                const HttpTimeouts& timeouts) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::string port = std::to_string(endpoint.port);
  int rc = getaddrinfo(endpoint.host.c_str(), port.c_str(), &hints, &found);
  if (rc != 0) {
    return Unavailable("cannot resolve " + endpoint.host + ": " + gai_strerror(rc));
  }
  int fd = -1;
  for (addrinfo* ai = found; ai && fd < 0; ai = ai->ai_next) fd = ConnectOne(ai, timeouts.connect_ms);
  freeaddrinfo(found);
  if (fd < 0) {
    return Unavailable("cannot connect to " + endpoint.HostHeader() + ": " +
                       (errno ? std::strerror(errno) : "timed out"));
  }
  std::unique_ptr<HttpConnection> conn(new HttpConnection(fd, endpoint, timeouts));
  if (endpoint.tls) {
    POGI_ASSIGN_OR_RETURN(conn->tls_, TlsStream::Handshake(fd, endpoint.host, timeouts.connect_ms));
  }
  return conn;
}

HttpConnection::HttpConnection(int fd, const Endpoint& endpoint, const HttpTimeouts& timeouts)
    : fd_(fd), endpoint_(endpoint), timeouts_(timeouts) {}

HttpConnection::~HttpConnection() {
  tls_.reset();  // before the socket it reads
  close(fd_);
}

Status HttpConnection::WriteAll(std::string_view data) {
  if (tls_) {
    Status s = tls_->Write(data, timeouts_.io_ms);
    if (!s.ok()) reusable_ = false;
    return s;
  }
  while (!data.empty()) {
    ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!WaitFor(fd_, POLLOUT, timeouts_.io_ms)) {
        reusable_ = false;
        return Unavailable("timed out sending to " + endpoint_.HostHeader());
      }
      continue;
    }
    reusable_ = false;
    return Unavailable("connection to " + endpoint_.HostHeader() +
                       " lost while sending: " + std::strerror(errno));
  }
  return Status::Ok();
}

Result<bool> HttpConnection::Fill() {
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  }
  size_t old = buf_.size();
  buf_.resize(old + kReadChunk);
  if (tls_) {
    Result<size_t> n = tls_->Read(buf_.data() + old, kReadChunk, timeouts_.io_ms);
    buf_.resize(old + (n.ok() ? *n : 0));
    if (!n.ok()) {
      reusable_ = false;
      return n.error();
    }
    return *n > 0;
  }
  for (;;) {
    ssize_t n = recv(fd_, buf_.data() + old, kReadChunk, 0);
    if (n > 0) {
      buf_.resize(old + static_cast<size_t>(n));
      return true;
    }
    if (n == 0) {
      buf_.resize(old);
      return false;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (WaitFor(fd_, POLLIN, timeouts_.io_ms)) continue;
      buf_.resize(old);
      reusable_ = false;
      return Unavailable("timed out waiting for " + endpoint_.HostHeader());
    }
    buf_.resize(old);
    reusable_ = false;
    return Unavailable("connection to " + endpoint_.HostHeader() + " lost: " + std::strerror(errno));
  }
}

Result<std::string> HttpConnection::ReadLine() {
  for (;;) {
    size_t eol = buf_.find("\r\n", pos_);
    if (eol != std::string::npos) {
      std::string line = buf_.substr(pos_, eol - pos_);
      pos_ = eol + 2;
      return line;
    }
    if (buf_.size() - pos_ > kMaxHeadBytes) return Protocol("a line longer than 64 KB");
    POGI_ASSIGN_OR_RETURN(bool more, Fill());
    if (!more) {
      reusable_ = false;
      return Unavailable(endpoint_.HostHeader() + " closed the connection before answering");
    }
  }
}

Result<HttpResponse> HttpConnection::Send(const HttpRequest& request) {
  if (!reusable_) return Error::Internal("HTTP connection is not usable after a failure");
  if (mode_ != BodyMode::kNone) return Error::Internal("HTTP connection: the last answer's body is unread");
  std::string head = request.method + " " + endpoint_.base_path + request.target + " HTTP/1.1\r\n";
  bool has_host = false, has_length = false;
  for (const auto& [k, v] : request.headers) {
    has_host |= EqualsIgnoreCase(k, "host");
    has_length |= EqualsIgnoreCase(k, "content-length");
    head.append(k).append(": ").append(v).append("\r\n");
  }
  if (!has_host) head.append("Host: ").append(endpoint_.HostHeader()).append("\r\n");
  if (!has_length && (!request.body.empty() || request.method == "PUT" || request.method == "POST")) {
    head.append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n");
  }
  head.append("\r\n");
  POGI_RETURN_IF_ERROR(WriteAll(head));
  POGI_RETURN_IF_ERROR(WriteAll(request.body));

  HttpResponse resp;
  for (;;) {  // 1xx answers (100 Continue) come before the real one
    POGI_ASSIGN_OR_RETURN(std::string status_line, ReadLine());
    // HTTP/1.1 200 OK
    if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12) {
      reusable_ = false;
      return Protocol("status line '" + status_line.substr(0, 80) + "'");
    }
    int status = 0;
    auto [p, ec] = std::from_chars(status_line.data() + 9, status_line.data() + 12, status);
    if (ec != std::errc() || status < 100 || status > 599) {
      reusable_ = false;
      return Protocol("status line '" + status_line.substr(0, 80) + "'");
    }
    resp.status = status;
    resp.headers.clear();
    size_t head_bytes = 0;
    for (;;) {
      POGI_ASSIGN_OR_RETURN(std::string line, ReadLine());
      if (line.empty()) break;
      head_bytes += line.size();
      if (head_bytes > kMaxHeadBytes) {
        reusable_ = false;
        return Protocol("headers longer than 64 KB");
      }
      size_t colon = line.find(':');
      if (colon == std::string::npos) {
        reusable_ = false;
        return Protocol("header line without ':'");
      }
      resp.headers.emplace_back(line.substr(0, colon), Trim(line.substr(colon + 1)));
    }
    if (status >= 200) break;
  }
  if (EqualsIgnoreCase(FindHeader(resp.headers, "connection"), "close")) reusable_ = false;
  std::string_view te = FindHeader(resp.headers, "transfer-encoding");
  std::string_view length = FindHeader(resp.headers, "content-length");
  chunks_done_ = false;
  if (request.method == "HEAD" || resp.status == 204 || resp.status == 304) {
    mode_ = BodyMode::kNone;
  } else if (!te.empty() && !EqualsIgnoreCase(te, "identity")) {
    mode_ = BodyMode::kChunked;
    left_ = 0;
  } else if (!length.empty()) {
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(length.data(), length.data() + length.size(), n);
    if (ec != std::errc() || p != length.data() + length.size()) {
      reusable_ = false;
      return Protocol("Content-Length '" + std::string(length) + "'");
    }
    mode_ = n ? BodyMode::kLength : BodyMode::kNone;
    left_ = n;
  } else {
    mode_ = BodyMode::kUntilClose;
    reusable_ = false;
  }
  return resp;
}

Status HttpConnection::StartChunk() {
  // chunk-size [; ext] CRLF ... data CRLF; the last chunk is 0, then
  // trailers up to an empty line.
  POGI_ASSIGN_OR_RETURN(std::string line, ReadLine());
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), n, 16);
  if (ec != std::errc()) {
    reusable_ = false;
    return Protocol("chunk size '" + line.substr(0, 40) + "'");
  }
  if (n == 0) {
    for (;;) {
      POGI_ASSIGN_OR_RETURN(std::string trailer, ReadLine());
      if (trailer.empty()) break;
    }
    chunks_done_ = true;
  }
  left_ = n;
  return Status::Ok();
}

Result<size_t> HttpConnection::ReadBody(char* out, size_t n) {
  if (n == 0) return size_t{0};
  for (;;) {
    switch (mode_) {
      case BodyMode::kNone:
        return size_t{0};
      case BodyMode::kChunked:
        if (left_ == 0) {
          if (chunks_done_) {
            mode_ = BodyMode::kNone;
            return size_t{0};
          }
          POGI_RETURN_IF_ERROR(StartChunk());
          if (chunks_done_) {
            mode_ = BodyMode::kNone;
            return size_t{0};
          }
        }
        break;
      case BodyMode::kLength:
      case BodyMode::kUntilClose:
        break;
    }
    if (pos_ == buf_.size()) {
      POGI_ASSIGN_OR_RETURN(bool more, Fill());
      if (!more) {
        if (mode_ == BodyMode::kUntilClose) {
          mode_ = BodyMode::kNone;
          return size_t{0};
        }
        reusable_ = false;
        mode_ = BodyMode::kNone;
        return Unavailable(endpoint_.HostHeader() + " closed the connection in the middle of an answer");
      }
    }
    size_t take = std::min(n, buf_.size() - pos_);
    if (mode_ != BodyMode::kUntilClose) take = static_cast<size_t>(std::min<uint64_t>(take, left_));
    std::memcpy(out, buf_.data() + pos_, take);
    pos_ += take;
    if (mode_ != BodyMode::kUntilClose) left_ -= take;
    if (mode_ == BodyMode::kLength && left_ == 0) mode_ = BodyMode::kNone;
    if (mode_ == BodyMode::kChunked && left_ == 0) {
      POGI_ASSIGN_OR_RETURN(std::string crlf, ReadLine());  // the CRLF after a chunk's data
      if (!crlf.empty()) {
        reusable_ = false;
        return Protocol("no CRLF after a chunk");
      }
    }
    return take;
  }
}

Result<std::string> HttpConnection::ReadAll(size_t limit) {
  std::string out;
  char chunk[16384];
  for (;;) {
    POGI_ASSIGN_OR_RETURN(size_t n, ReadBody(chunk, sizeof(chunk)));
    if (n == 0) return out;
    if (out.size() + n > limit) {
      reusable_ = false;
      return Error::Internal("HTTP answer longer than " + std::to_string(limit) + " bytes");
    }
    out.append(chunk, n);
  }
}

}  // namespace pogi::outbound
