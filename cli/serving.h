// What `pogi start` and `pogi gateway` share: the stop signals, the log from
// the flags, and the flags of an HTTP door.
#pragma once

#include <signal.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cli/commands.h"
#include "cli/flags.h"
#include "common/result.h"
#include "gateway/http_server.h"
#include "gateway/sigv4.h"

namespace pogi::cli {

// A refused start: one log line; returns exit status 1.
int Refuse(const std::string& message);

// Blocks SIGINT and SIGTERM in this thread and every thread started after
// it; call before any thread exists, then StopOnSignal.
sigset_t BlockStopSignals();
// Runs `stop` on a thread of its own when one of `signals` arrives.
void StopOnSignal(sigset_t signals, std::function<void()> stop);

// Sets the log up from --log-level, --log-format and --log-file.
Status StartLog(const Flags& flags);

// The flags of an HTTP door: --host, --port, --threads, --max-connections,
// --idle-timeout, --check-signatures (with --access-key-id and
// --secret-access-key) and --allow-unsigned.
struct HttpDoor {
  std::string host;
  uint16_t port = kDefaultHttpPort;
  int threads = 1;
  gateway::ConnectionLimits limits;
  std::optional<gateway::Credentials> credentials;  // set: every request's signature is checked
  bool allow_unsigned = false;                      // no Authorization presence check
};

// Reads the door's flags; `threads` is --threads' default. Logs a warning
// for an address beyond loopback without --check-signatures (except in
// pogi's container image) and when the open-files limit caps the
// connections. A refusal names the flag.
Result<HttpDoor> ReadHttpDoor(const Flags& flags, int threads);

}  // namespace pogi::cli
