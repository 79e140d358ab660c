// DescribeEndpoints: the address the client reached pogi at, cached for a day.
#include "service/engine/engine.h"

namespace pogi::service {

Result<v1::DescribeEndpointsResponse> Engine::DescribeEndpoints(const v1::DescribeEndpointsRequest& req) {
  // The HTTP door fills pogi_host from the Host header. Without it (a gRPC
  // caller that did not set it) the engine cannot know the address, and
  // says so rather than invent one an SDK would then call.
  if (!req.has_pogi_host() || req.pogi_host().empty()) {
    return Error::Validation("DescribeEndpoints needs the address the client used (PogiHost over gRPC)");
  }
  v1::DescribeEndpointsResponse resp;
  auto* e = resp.add_endpoints();
  e->set_address(req.pogi_host());
  e->set_cache_period_in_minutes(1440);
  return resp;
}

}  // namespace pogi::service
