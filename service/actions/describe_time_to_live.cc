// DescribeTimeToLive: the table's TimeToLiveDescription (DISABLED, with no
// attribute, until TTL is enabled).
#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"

namespace pogi::service {

Result<v1::DescribeTimeToLiveResponse> Engine::DescribeTimeToLive(const v1::DescribeTimeToLiveRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  auto table = catalog_.FindNamed(name, req.table_name());
  if (!table) {
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  v1::DescribeTimeToLiveResponse resp;
  auto* d = resp.mutable_time_to_live_description();
  *d = table->description.pogi_time_to_live();
  if (!d->has_time_to_live_status()) d->set_time_to_live_status("DISABLED");
  return resp;
}

}  // namespace pogi::service
