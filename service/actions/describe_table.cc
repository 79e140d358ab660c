// DescribeTable: the table's description with its live item count and size.
#include "service/engine/engine.h"
#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"
#include "service/write/legacy_attributes.h"

namespace pogi::service {

Result<v1::DescribeTableResponse> Engine::DescribeTable(const v1::DescribeTableRequest& req) {
  POGI_RETURN_IF_ERROR(CheckTableNamePresent(req.has_table_name()));
  Constraints c;
  CheckTableNameOrArn(c, req.has_table_name() ? &req.table_name() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  POGI_ASSIGN_OR_RETURN(std::string name, ResolveTableName(req.table_name()));
  auto table = catalog_.FindNamed(name, req.table_name());
  if (!table) {
    return Error::ResourceNotFound("Requested resource not found: Table: " + req.table_name() + " not found");
  }
  POGI_ASSIGN_OR_RETURN(auto d, Describe(*table));
  // A legacy (2017.11.29) global table's member keeps its group in its
  // description for replication; DynamoDB's DescribeTable does not show it
  // (DescribeGlobalTable tells legacy tables apart).
  if (IsLegacyGlobalMember(d)) {
    d.clear_replicas();
    d.clear_global_table_version();
  }
  v1::DescribeTableResponse resp;
  *resp.mutable_table() = std::move(d);
  return resp;
}

}  // namespace pogi::service
