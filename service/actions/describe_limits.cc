// DescribeLimits: DynamoDB's default capacity quotas of an account and a table.
#include "service/engine/engine.h"

namespace pogi::service {

Result<v1::DescribeLimitsResponse> Engine::DescribeLimits(const v1::DescribeLimitsRequest&) {
  // The defaults DynamoDB documents for a new account in a region.
  v1::DescribeLimitsResponse resp;
  resp.set_account_max_read_capacity_units(80000);
  resp.set_account_max_write_capacity_units(80000);
  resp.set_table_max_read_capacity_units(40000);
  resp.set_table_max_write_capacity_units(40000);
  return resp;
}

}  // namespace pogi::service
