// TLS for https:// endpoints, over a connected non-blocking socket: OpenSSL
// (already linked for libpq), TLS 1.2 or later, the server's certificate
// checked against trusted CAs and against the endpoint's host name (SNI
// sent). Trusted CAs: $SSL_CERT_FILE / $SSL_CERT_DIR when set, else the
// first system bundle found (Debian/Ubuntu/Alpine, Fedora/RHEL, openSUSE
// paths), since a static binary cannot rely on the OpenSSL folder it was
// built with. Every wait is bounded by the caller's timeout. Not
// thread-safe: one stream, one caller.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::outbound {

class TlsStream {
 public:
  // Runs the handshake with `host` on `fd` (connected, O_NONBLOCK);
  // ServiceUnavailable with OpenSSL's reason (a certificate that does not
  // verify names it) when it fails or takes longer than `timeout_ms`.
  static Result<std::unique_ptr<TlsStream>> Handshake(int fd, const std::string& host, int timeout_ms);
  ~TlsStream();
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  // Sends all of `data`.
  Status Write(std::string_view data, int timeout_ms);
  // Reads at most `n` bytes into `buf`; 0 at the peer's end of stream.
  Result<size_t> Read(char* buf, size_t n, int timeout_ms);

 private:
  struct State;
  explicit TlsStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pogi::outbound
