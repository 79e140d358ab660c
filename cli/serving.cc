// What `pogi start` and `pogi gateway` share.
#include "cli/serving.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "common/limits.h"
#include "common/log.h"
#include "service/core/clock.h"

namespace pogi::cli {
namespace {

// Whether `host` (an IP literal) is a loopback address: 127.0.0.0/8 or ::1.
bool IsLoopback(const std::string& host) {
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

// Raises the open-files limit to its hard ceiling (each HTTP connection is
// a descriptor; distributions default the soft limit to 1024) and returns
// the connections that fit under it beside pogi's other files.
int ConnectionsThatFit(int wanted) {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return wanted;
  if (files.rlim_cur < files.rlim_max) {
    rlimit raised = files;
    raised.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) files = raised;
  }
  if (files.rlim_cur == RLIM_INFINITY) return wanted;
  long long room = static_cast<long long>(files.rlim_cur) - limits::kReservedFiles;
  return static_cast<int>(std::max(1LL, std::min<long long>(wanted, room)));
}

// A whole number in [lo, hi], or nullopt.
std::optional<long> Whole(const std::string& text, long lo, long hi) {
  char* end = nullptr;
  long parsed = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || parsed < lo || parsed > hi) return std::nullopt;
  return parsed;
}

}  // namespace

int Refuse(const std::string& message) {
  log::Error(message);
  return 1;
}

sigset_t BlockStopSignals() {
  // Only the dedicated waiter of StopOnSignal receives them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

void StopOnSignal(sigset_t signals, std::function<void()> stop) {
  std::thread([signals, stop = std::move(stop)] {
    int sig = 0;
    sigwait(&signals, &sig);
    stop();
  }).detach();
}

Status StartLog(const Flags& flags) {
  log::Options options;
  std::string level = flags.Get("log-level").value_or("info");
  if (!log::ParseLevel(level, &options.level)) {
    return Error::Validation("invalid --log-level " + level + " (error, warn, info or debug)");
  }
  std::string format = flags.Get("log-format").value_or("text");
  if (!log::ParseFormat(format, &options.format)) {
    return Error::Validation("invalid --log-format " + format + " (text or json)");
  }
  options.file = flags.Get("log-file").value_or("");
  return log::Init(options);
}

Result<HttpDoor> ReadHttpDoor(const Flags& flags, int threads) {
  HttpDoor door;
  // In pogi's container image (POGI_CONTAINER=1) the default address is
  // every interface, and listening there is not warned about: the
  // container's own network is the boundary, and its port mapping decides
  // who reaches pogi. Everywhere else the default is loopback only.
  const char* container = std::getenv("POGI_CONTAINER");
  const bool in_container = container && std::string(container) == "1";
  door.host = flags.Get("host").value_or(in_container ? "0.0.0.0" : "127.0.0.1");
  if (auto p = flags.Get("port"); p && !ParsePort(*p, &door.port))
    return Error::Validation("invalid --port " + *p);
  door.threads = threads;
  if (auto v = flags.Get("threads")) {
    auto parsed = Whole(*v, 1, 256);
    if (!parsed) return Error::Validation("invalid --threads " + *v);
    door.threads = static_cast<int>(*parsed);
  }
  if (auto v = flags.Get("max-connections")) {
    auto parsed = Whole(*v, 1, limits::kMaxConnections);
    if (!parsed) {
      return Error::Validation("invalid --max-connections " + *v + " (1 to " +
                               std::to_string(limits::kMaxConnections) + ")");
    }
    door.limits.max_connections = static_cast<int>(*parsed);
  }
  if (int fit = ConnectionsThatFit(door.limits.max_connections); fit < door.limits.max_connections) {
    log::Warn("the open-files limit allows " + std::to_string(fit) + " HTTP connections, not " +
              std::to_string(door.limits.max_connections));
    door.limits.max_connections = fit;
  }
  if (auto v = flags.Get("idle-timeout")) {
    auto d = service::ParseDuration(*v);
    if (!d || *d <= 0)
      return Error::Validation("invalid --idle-timeout " + *v + " (for example 60s or 500ms)");
    door.limits.idle_timeout = std::chrono::milliseconds(static_cast<int64_t>(*d * 1000));
  }
  if (!IsLoopback(door.host) && !flags.Has("check-signatures") && !in_container) {
    log::Warn(
        "listening on " + door.host +
        " without --check-signatures: anyone who can reach this address can read and change every table");
  }
  if (flags.Has("check-signatures")) {
    // The defaults are what `pogi env` exports.
    door.credentials = gateway::Credentials{flags.Get("access-key-id").value_or("pogi"),
                                            flags.Get("secret-access-key").value_or("pogi")};
  }
  // --allow-unsigned lifts DynamoDB's Authorization presence check, for
  // requests made by hand (curl).
  door.allow_unsigned = flags.Has("allow-unsigned");
  return door;
}

}  // namespace pogi::cli
