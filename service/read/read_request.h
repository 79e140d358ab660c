// What Query and Scan share before and after their range read: the index
// named by IndexName, the Select rules, the page request, and filling the
// response.
#pragma once

#include <string>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/read/lagged_read.h"
#include "service/read/read_page.h"
#include "service/validate/constraints.h"
#include "service/validate/request_expressions.h"

namespace pogi::service {

// The member constraints Query and Scan share.
void CheckReadMembers(Constraints& c, const std::string* table_name, const std::string* index_name,
                      const std::string* select, std::optional<int64_t> limit, const std::string* consumed,
                      const std::string* conditional_operator);

// The index named `index_name` (null when absent), or DynamoDB's error.
Result<const Index*> FindIndexOf(const Table& table, const std::string* index_name, bool consistent_read);

// The legacy filter (QueryFilter/ScanFilter, with ConditionalOperator) as a
// condition, its values checked first; none when both are absent.
// REQUIRES: CheckNotMixed passed (so no FilterExpression comes with them).
Result<std::optional<expr::Condition>> LegacyFilter(
    const google::protobuf::Map<std::string, v1::Condition>& filter, const std::string* conditional_operator,
    std::string_view filter_name);

// AttributesToGet as a projection; none when absent.
Result<std::optional<expr::Projection>> LegacyProjection(const v1::AttributeNameList* attributes_to_get);

// Resolves Select against the projection and the index, and decides whether
// an LSI read must fetch attributes from the table. `projection_param` names
// the projection parameter used ("ProjectionExpression"/"AttributesToGet").
Result<PageRequest> MakePageRequest(const Table& table, const Index* index, const std::string* select,
                                    std::optional<int64_t> limit, std::optional<expr::Condition> filter,
                                    std::optional<expr::Projection> projection,
                                    std::string_view projection_param);

// Items, Count, ScannedCount, LastEvaluatedKey and ConsumedCapacity (which
// names the table as the request did: by name or ARN).
template <typename Response>
void FillResponse(Page page, const std::string& table_name, const Index* index, bool consistent,
                  const std::string& capacity_mode, bool count_only, Response* resp);

// Reads one page in a snapshot and answers it: the end both Query and Scan
// share once the range and the page rules are known. An eventually
// consistent read, and any read of a global index, sees the table as
// `lag` delays it.
template <typename Request, typename Response>
Result<Response> AnswerPage(storage::Storage& storage, const ReadLag& lag, storage::RangeRead read,
                            const PageRequest& page_req, const Index* index, const Request& req) {
  read.with_keys = page_req.fetch_from_table;  // only an LSI's fetch from the table needs them
  bool eventual = !req.consistent_read() || (index && index->global);
  std::optional<Page> page;
  POGI_RETURN_IF_ERROR(storage.Read([&](storage::ReadTxn& txn) -> Status {
    std::optional<LaggedReadTxn> lagged;
    storage::ReadTxn& view = ReadView(txn, lag, *page_req.table, eventual, lagged);
    POGI_ASSIGN_OR_RETURN(page, ReadPage(view, read, page_req));
    return Status::Ok();
  }));
  Response resp;
  FillResponse(std::move(*page), req.table_name(), index, req.consistent_read(),
               req.return_consumed_capacity(), page_req.count_only, &resp);
  return resp;
}

}  // namespace pogi::service

#include "service/validate/capacity.h"

namespace pogi::service {

template <typename Response>
void FillResponse(Page page, const std::string& table_name, const Index* index, bool consistent,
                  const std::string& capacity_mode, bool count_only, Response* resp) {
  if (!count_only) value::CarryItemList(resp, Response::kItemsFieldNumber, std::move(page.items));
  resp->set_count(page.count);
  resp->set_scanned_count(page.scanned_count);
  if (page.last_evaluated_key) *resp->mutable_last_evaluated_key() = std::move(*page.last_evaluated_key);
  if (WantsCapacity(capacity_mode)) {
    double units = ReadUnits(page.bytes_read, consistent);
    if (index) {
      double table_units = page.table_bytes_read > 0 ? ReadUnits(page.table_bytes_read, consistent) : 0;
      FillIndexReadConsumed(capacity_mode, table_name, {index->name, index->global, units}, table_units,
                            resp->mutable_consumed_capacity());
    } else {
      FillConsumed(capacity_mode, table_name, units, resp->mutable_consumed_capacity());
    }
  }
}

}  // namespace pogi::service
