// The one wait of pogi's outbound sockets: poll(2) for `events` on `fd`,
// at most `timeout_ms`, EINTR retried. False on time-out.
#pragma once

#include <poll.h>

#include <cerrno>

namespace pogi::outbound {

inline bool WaitFor(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    int rc = poll(&p, 1, timeout_ms);
    if (rc < 0 && errno == EINTR) continue;
    return rc > 0;
  }
}

}  // namespace pogi::outbound
