// The request log (`pogi start --log-requests`): one log line per answered
// request, from either door, through the request observers.
#pragma once

#include "service/controls/request_observers.h"

namespace pogi::service {

// Registers the observer that logs each request at info level: operation,
// table, HTTP status (or gRPC code), __type on errors, latency in
// microseconds, request id, bytes in and out, and the door.
void LogRequests(RequestObservers& observers);

}  // namespace pogi::service
