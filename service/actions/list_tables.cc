// ListTables: table names in order, paged by Limit and ExclusiveStartTableName.
#include "service/engine/engine.h"
#include "service/validate/constraints.h"

namespace pogi::service {

Result<v1::ListTablesResponse> Engine::ListTables(const v1::ListTablesRequest& req) {
  Constraints c;
  if (req.has_exclusive_start_table_name()) {
    CheckTableName(c, &req.exclusive_start_table_name(), "exclusiveStartTableName");
  }
  if (req.has_limit()) {
    c.AtLeast(req.limit(), 1, "limit");
    if (req.limit() > 100) {
      c.Add("Value '" + std::to_string(req.limit()) +
            "' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100");
    }
  }
  POGI_RETURN_IF_ERROR(c.Finish());
  size_t limit = req.has_limit() ? static_cast<size_t>(req.limit()) : 100;
  v1::ListTablesResponse resp;
  for (const auto& t : catalog_.Visible()) {  // the tables of the request's region
    const std::string& name = t->description.table_name();
    if (req.has_exclusive_start_table_name() && name <= req.exclusive_start_table_name()) continue;
    if (static_cast<size_t>(resp.table_names_size()) == limit) {
      resp.set_last_evaluated_table_name(resp.table_names(resp.table_names_size() - 1));
      break;
    }
    resp.add_table_names(name);
  }
  return resp;
}

}  // namespace pogi::service
