// The request log: RequestRecord -> one structured log line.
#include "service/controls/request_log.h"

#include "common/log.h"

namespace pogi::service {

void LogRequests(RequestObservers& observers) {
  observers.Add([](const RequestRecord& r) {
    bool http = r.door == "http";
    log::Info("request", {{"door", r.door},
                          {"operation", r.operation},
                          {"table", r.table},
                          {http ? "status" : "grpc_code", r.status},
                          {"error", r.error_type},
                          {"latency_us", r.latency_us},
                          {"request_id", r.request_id},
                          {"bytes_in", static_cast<int64_t>(r.bytes_in)},
                          {"bytes_out", static_cast<int64_t>(r.bytes_out)}});
  });
}

}  // namespace pogi::service
