// TLS through OpenSSL's non-blocking calls, each want-read/want-write
// waited for with poll(2) so that no wait outlasts the caller's timeout.
#include "outbound/tls_stream.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "outbound/poll_wait.h"

namespace pogi::outbound {
namespace {

// Where distributions keep their bundle of trusted CAs.
constexpr const char* kSystemBundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Alpine
    "/etc/pki/tls/certs/ca-bundle.crt",    // Fedora, RHEL
    "/etc/ssl/ca-bundle.pem",              // openSUSE
    "/etc/ssl/cert.pem",                   // Alpine, the BSDs
};

Error Unavailable(const std::string& what) { return Error(ErrorCode::kServiceUnavailable, what); }

// OpenSSL's oldest queued error as text, the queue emptied.
std::string OpenSslReason() {
  unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "unknown error";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof(buf));
  return buf;
}

struct Context {
  SSL_CTX* ctx = nullptr;
  std::string problem;  // why no connection can be made, or ""
};

// One context for the process (OpenSSL's contexts are thread-safe once set
// up), made at the first https connection.
const Context& SharedContext() {
  static const Context context = [] {
    Context c;
    c.ctx = SSL_CTX_new(TLS_client_method());
    if (!c.ctx) {
      c.problem = "cannot set up TLS: " + OpenSslReason();
      return c;
    }
    SSL_CTX_set_min_proto_version(c.ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(c.ctx, SSL_VERIFY_PEER, nullptr);
    // A server that closes without close_notify ends the stream as a
    // clean close would (HTTP frames its own bodies).
    SSL_CTX_set_options(c.ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    const char* file = std::getenv("SSL_CERT_FILE");
    const char* dir = std::getenv("SSL_CERT_DIR");
    bool loaded = false;
    if (file || dir) {
      loaded = SSL_CTX_load_verify_locations(c.ctx, file, dir) == 1;
      if (!loaded)
        c.problem = "cannot load the CA certificates of SSL_CERT_FILE/SSL_CERT_DIR: " + OpenSslReason();
      return c;
    }
    for (const char* bundle : kSystemBundles) {
      if (access(bundle, R_OK) == 0 && SSL_CTX_load_verify_locations(c.ctx, bundle, nullptr) == 1) {
        loaded = true;
        break;
      }
    }
    ERR_clear_error();
    if (!loaded) c.problem = "no trusted CA certificates found; set SSL_CERT_FILE to a PEM bundle";
    return c;
  }();
  return context;
}

using Clock = std::chrono::steady_clock;

int MillisLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

}  // namespace

struct TlsStream::State {
  SSL* ssl = nullptr;
  int fd = -1;
  std::string host;
  ~State() {
    if (ssl) SSL_free(ssl);
  }
  // Waits for what OpenSSL asked for after a call that returned `rc`:
  // Ok to call again, or the error that ends the stream.
  Status Await(int rc, Clock::time_point deadline, const char* doing) {
    int err = SSL_get_error(ssl, rc);
    short events = err == SSL_ERROR_WANT_READ ? POLLIN : err == SSL_ERROR_WANT_WRITE ? POLLOUT : 0;
    if (events == 0) {
      std::string reason = err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0
                               ? std::string(errno ? std::strerror(errno) : "connection closed")
                               : OpenSslReason();
      return Unavailable("TLS " + std::string(doing) + " " + host + " failed: " + reason);
    }
    if (!WaitFor(fd, events, MillisLeft(deadline))) {
      return Unavailable("timed out in TLS " + std::string(doing) + " " + host);
    }
    return Status::Ok();
  }
};

TlsStream::TlsStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
TlsStream::~TlsStream() = default;

Result<std::unique_ptr<TlsStream>> TlsStream::Handshake(int fd, const std::string& host, int timeout_ms) {
  const Context& context = SharedContext();
  if (!context.problem.empty()) return Unavailable("TLS to " + host + ": " + context.problem);
  auto state = std::make_unique<State>();
  state->fd = fd;
  state->host = host;
  state->ssl = SSL_new(context.ctx);
  if (!state->ssl || SSL_set_fd(state->ssl, fd) != 1)
    return Unavailable("TLS to " + host + ": " + OpenSslReason());
  // The certificate must name the host: an IP literal as an IP address, a
  // name as a DNS name (sent as SNI too).
  in6_addr ip;
  bool is_ip = inet_pton(AF_INET, host.c_str(), &ip) == 1 || inet_pton(AF_INET6, host.c_str(), &ip) == 1;
  if (is_ip) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(state->ssl), host.c_str());
  } else {
    SSL_set_tlsext_host_name(state->ssl, host.c_str());
    SSL_set1_host(state->ssl, host.c_str());
  }
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    ERR_clear_error();
    int rc = SSL_connect(state->ssl);
    if (rc == 1) break;
    long verify = SSL_get_verify_result(state->ssl);
    if (verify != X509_V_OK) {
      ERR_clear_error();
      return Unavailable("TLS to " + host + ": the server's certificate does not verify: " +
                         X509_verify_cert_error_string(verify));
    }
    POGI_RETURN_IF_ERROR(state->Await(rc, deadline, "handshake with"));
  }
  return std::unique_ptr<TlsStream>(new TlsStream(std::move(state)));
}

Status TlsStream::Write(std::string_view data, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!data.empty()) {
    ERR_clear_error();
    size_t written = 0;
    int rc = SSL_write_ex(state_->ssl, data.data(), data.size(), &written);
    if (rc == 1) {
      data.remove_prefix(written);
      continue;
    }
    POGI_RETURN_IF_ERROR(state_->Await(rc, deadline, "write to"));
  }
  return Status::Ok();
}

Result<size_t> TlsStream::Read(char* buf, size_t n, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    ERR_clear_error();
    size_t got = 0;
    int rc = SSL_read_ex(state_->ssl, buf, n, &got);
    if (rc == 1) return got;
    if (SSL_get_error(state_->ssl, rc) == SSL_ERROR_ZERO_RETURN) return size_t{0};
    POGI_RETURN_IF_ERROR(state_->Await(rc, deadline, "read from"));
  }
}

}  // namespace pogi::outbound
