// Query: the items of one partition of a table or index, in sort-key order,
// one page at a time, filtered and projected.
#include "service/engine/engine.h"
#include "service/expr/legacy.h"
#include "service/read/key_condition.h"
#include "service/read/read_request.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"

namespace pogi::service {
namespace {

// ExclusiveStartKey against the key condition (behaviours.md V14): with a
// range condition, its sort value must satisfy it, then a partition other
// than the condition's means the query could only ever return one row;
// without one, another partition is outside the query's boundaries.
// REQUIRES: `read` holds the condition's bounds, not yet narrowed to the start.
Status CheckStartInBounds(const storage::RangeRead& read, const storage::RowPosition& start) {
  const bool range_condition = read.sort_lo || read.sort_hi;
  if (range_condition) {
    const bool below =
        read.sort_lo && (start.sort < *read.sort_lo || (read.exclude_lo && start.sort == *read.exclude_lo));
    const bool above =
        read.sort_hi && (start.sort > *read.sort_hi || (read.exclude_hi && start.sort == *read.exclude_hi));
    if (below || above)
      return Error::Validation("The provided starting key does not match the range key predicate");
    if (start.partition != *read.partition) {
      return Error::Validation("The query can return at most one row and cannot be restarted");
    }
  }
  if (start.partition != *read.partition) {
    return Error::Validation(
        "The provided starting key is outside query boundaries based on provided conditions");
  }
  return Status::Ok();
}

}  // namespace

Result<v1::QueryResponse> Engine::Query(const v1::QueryRequest& req) {
  Constraints c;
  CheckReadMembers(
      c, IfPresent(req.has_table_name(), req.table_name()), IfPresent(req.has_index_name(), req.index_name()),
      IfPresent(req.has_select(), req.select()),
      /*limit=*/std::nullopt, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
      IfPresent(req.has_conditional_operator(), req.conditional_operator()));
  // Today's DynamoDB words Query's Limit in its newer form: no value, the
  // member capitalised (Scan keeps the older form of CheckReadMembers).
  if (req.has_limit() && req.limit() < 1) {
    c.Add("Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1");
  }
  c.AttributeNames(req.has_attributes_to_get() ? &req.attributes_to_get() : nullptr, "attributesToGet");
  CheckLegacyMembers(c, req);
  POGI_RETURN_IF_ERROR(c.Finish());

  // DynamoDB's order: the mix of expression and legacy members, QueryFilter,
  // AttributesToGet, ExclusiveStartKey's values, a key condition present,
  // the expression checks, KeyConditions (values, counts, types, then {}
  // is "of length 1 or 2 only"); then the table, the index, legacy
  // KeyConditions against the schema (non-indexable operators) and the
  // other schema-dependent checks.
  ExpressionParams params;
  params.key_condition = IfPresent(req.has_key_condition_expression(), req.key_condition_expression());
  params.filter = IfPresent(req.has_filter_expression(), req.filter_expression());
  params.projection = IfPresent(req.has_projection_expression(), req.projection_expression());
  SetSubstitutions(params, req);
  params.value_expressions = "FilterExpression and KeyConditionExpression";
  // DynamoDB lists them in this order. KeyConditions conflicts only with
  // KeyConditionExpression: it may go with ProjectionExpression or
  // FilterExpression.
  if (req.has_attributes_to_get()) params.legacy.push_back("AttributesToGet");
  if (Sent(req, v1::QueryRequest::kQueryFilterFieldNumber, req.query_filter_size()))
    params.legacy.push_back("QueryFilter");
  if (req.has_conditional_operator()) params.legacy.push_back("ConditionalOperator");
  // {} is present (behaviours.md V1): in the mix, and as no condition at all.
  const bool key_conditions_sent =
      Sent(req, v1::QueryRequest::kKeyConditionsFieldNumber, req.key_conditions_size());
  if (key_conditions_sent && req.has_key_condition_expression()) {
    params.legacy.push_back("KeyConditions");
  }
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  POGI_ASSIGN_OR_RETURN(
      auto filter,
      LegacyFilter(req.query_filter(), IfPresent(req.has_conditional_operator(), req.conditional_operator()),
                   "QueryFilter"));
  const bool legacy_filter = filter.has_value();
  POGI_ASSIGN_OR_RETURN(auto projection,
                        LegacyProjection(req.has_attributes_to_get() ? &req.attributes_to_get() : nullptr));
  const std::string_view projection_param = projection ? "AttributesToGet" : "ProjectionExpression";
  POGI_RETURN_IF_ERROR(ValidateStartKeyValues(req.exclusive_start_key()));
  if (!params.key_condition && !key_conditions_sent) {
    return Error::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
  }
  POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
  if (parsed.filter) filter = std::move(parsed.filter);
  if (parsed.projection) projection = std::move(parsed.projection);
  if (!parsed.key_condition) {
    POGI_ASSIGN_OR_RETURN(parsed.key_condition,
                          expr::ConvertFilter(req.key_conditions(), nullptr, "KeyConditions", &CheckValue));
    // After their values, counts and types, before the table (O1).
    if (req.key_conditions().empty()) return Error::Validation("Conditions can be of length 1 or 2 only");
  }

  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(
      const Index* index,
      FindIndexOf(*table, IfPresent(req.has_index_name(), req.index_name()), req.consistent_read()));
  const KeySchema keys = table->KeysOf(index);
  if (!req.has_key_condition_expression())
    POGI_RETURN_IF_ERROR(CheckLegacyKeyConditions(req.key_conditions(), keys));
  POGI_ASSIGN_OR_RETURN(storage::RangeRead read, CompileKeyCondition(*parsed.key_condition, keys));
  if (projection) POGI_RETURN_IF_ERROR(CheckScalarKeyPaths(*table, index, projection->paths));
  if (filter) POGI_RETURN_IF_ERROR(CheckFilterKeys(*filter, keys, legacy_filter));
  read.id = index ? index->id : table->id;
  read.is_index = index != nullptr;
  read.forward = !req.has_scan_index_forward() || req.scan_index_forward();
  // {} is present, and invalid (behaviours.md V1, V13).
  if (Sent(req, v1::QueryRequest::kExclusiveStartKeyFieldNumber, req.exclusive_start_key_size())) {
    POGI_ASSIGN_OR_RETURN(auto start,
                          StartPosition(*table, index, req.exclusive_start_key(), /*query=*/true));
    POGI_RETURN_IF_ERROR(CheckStartInBounds(read, start));
    // Continue right after the start: narrowing the bound keeps the read a
    // range seek instead of a walk from the beginning of the partition.
    if (read.forward) {
      if (!read.sort_lo || *read.sort_lo < start.sort) read.sort_lo = start.sort, read.exclude_lo.reset();
    } else {
      if (!read.sort_hi || *read.sort_hi > start.sort) read.sort_hi = start.sort, read.exclude_hi.reset();
    }
    read.start_after = std::move(start);
  }
  POGI_ASSIGN_OR_RETURN(auto page_req,
                        MakePageRequest(*table, index, IfPresent(req.has_select(), req.select()),
                                        req.has_limit() ? std::optional(req.limit()) : std::nullopt,
                                        std::move(filter), std::move(projection), projection_param));
  return AnswerPage<v1::QueryRequest, v1::QueryResponse>(*storage_, read_lag_, read, page_req, index, req);
}

}  // namespace pogi::service
