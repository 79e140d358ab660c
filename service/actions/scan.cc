// Scan: every item of a table or index in hash order, one page at a time,
// optionally one segment of a parallel scan.
#include "service/engine/engine.h"
#include "service/read/read_request.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"

namespace pogi::service {

namespace {

constexpr int64_t kMaxTotalSegments = 1000000;

// Segment s of n covers a contiguous slice of the partition-key hash space,
// so the segments are disjoint and together cover every item.
void SegmentRange(int64_t segment, int64_t total, storage::RangeRead* read) {
  using u128 = unsigned __int128;
  const u128 space = static_cast<u128>(storage::kMaxHash) + 1;
  read->hash_lo = static_cast<int64_t>(space * segment / total);
  read->hash_hi = static_cast<int64_t>(space * (segment + 1) / total - 1);
}

}  // namespace

Result<v1::ScanResponse> Engine::Scan(const v1::ScanRequest& req) {
  Constraints c;
  CheckReadMembers(
      c, IfPresent(req.has_table_name(), req.table_name()), IfPresent(req.has_index_name(), req.index_name()),
      IfPresent(req.has_select(), req.select()), req.has_limit() ? std::optional(req.limit()) : std::nullopt,
      IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
      IfPresent(req.has_conditional_operator(), req.conditional_operator()));
  c.AttributeNames(req.has_attributes_to_get() ? &req.attributes_to_get() : nullptr, "attributesToGet");
  c.AtLeast(req.has_segment() ? std::optional(req.segment()) : std::nullopt, 0, "segment");
  if (req.has_segment() && req.segment() > kMaxTotalSegments - 1) {
    c.Add("Value '" + std::to_string(req.segment()) +
          "' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999");
  }
  c.AtLeast(req.has_total_segments() ? std::optional(req.total_segments()) : std::nullopt, 1,
            "totalSegments");
  if (req.has_total_segments() && req.total_segments() > kMaxTotalSegments) {
    c.Add("Value '" + std::to_string(req.total_segments()) +
          "' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to "
          "1000000");
  }
  CheckLegacyMembers(c, req);
  POGI_RETURN_IF_ERROR(c.Finish());

  // DynamoDB's order: the mix of expression and legacy members,
  // AttributesToGet, ScanFilter, ExclusiveStartKey's values, Segment and
  // TotalSegments, the expression checks; then the table, the index and the
  // schema-dependent checks.
  ExpressionParams params;
  params.filter = IfPresent(req.has_filter_expression(), req.filter_expression());
  params.projection = IfPresent(req.has_projection_expression(), req.projection_expression());
  SetSubstitutions(params, req);
  params.value_expressions = "FilterExpression";
  // DynamoDB lists them in this order.
  if (req.has_attributes_to_get()) params.legacy.push_back("AttributesToGet");
  // {} is present (behaviours.md V1).
  if (Sent(req, v1::ScanRequest::kScanFilterFieldNumber, req.scan_filter_size()))
    params.legacy.push_back("ScanFilter");
  if (req.has_conditional_operator()) params.legacy.push_back("ConditionalOperator");
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  POGI_ASSIGN_OR_RETURN(auto projection,
                        LegacyProjection(req.has_attributes_to_get() ? &req.attributes_to_get() : nullptr));
  const std::string_view projection_param = projection ? "AttributesToGet" : "ProjectionExpression";
  POGI_ASSIGN_OR_RETURN(
      auto filter,
      LegacyFilter(req.scan_filter(), IfPresent(req.has_conditional_operator(), req.conditional_operator()),
                   "ScanFilter"));
  POGI_RETURN_IF_ERROR(ValidateStartKeyValues(req.exclusive_start_key()));
  if (req.has_segment() && !req.has_total_segments()) {
    return Error::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment parameter "
        "is present");
  }
  if (req.has_total_segments() && !req.has_segment()) {
    return Error::Validation(
        "The Segment parameter is required but was not present in the request when parameter TotalSegments "
        "is present");
  }
  if (req.has_segment() && req.segment() >= req.total_segments()) {
    return Error::Validation(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: " +
        std::to_string(req.segment()) +
        " is not less than TotalSegments: " + std::to_string(req.total_segments()));
  }

  POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
  if (parsed.filter) filter = std::move(parsed.filter);
  if (parsed.projection) projection = std::move(parsed.projection);

  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(
      const Index* index,
      FindIndexOf(*table, IfPresent(req.has_index_name(), req.index_name()), req.consistent_read()));
  if (projection) POGI_RETURN_IF_ERROR(CheckScalarKeyPaths(*table, index, projection->paths));
  storage::RangeRead read;
  read.id = index ? index->id : table->id;
  read.is_index = index != nullptr;
  if (req.has_segment()) SegmentRange(req.segment(), req.total_segments(), &read);
  // {} is present, and invalid (behaviours.md V1, V13).
  if (Sent(req, v1::ScanRequest::kExclusiveStartKeyFieldNumber, req.exclusive_start_key_size())) {
    POGI_ASSIGN_OR_RETURN(read.start_after, StartPosition(*table, index, req.exclusive_start_key()));
    int64_t hash = storage::PartitionHash(read.start_after->partition);
    if (req.has_segment() && (hash < read.hash_lo || hash > read.hash_hi)) {
      return Error::Validation(
          "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
          "ExclusiveStartKey with correct Segment. TotalSegments: " +
          std::to_string(req.total_segments()) + " Segment: " + std::to_string(req.segment()));
    }
  }
  POGI_ASSIGN_OR_RETURN(auto page_req,
                        MakePageRequest(*table, index, IfPresent(req.has_select(), req.select()),
                                        req.has_limit() ? std::optional(req.limit()) : std::nullopt,
                                        std::move(filter), std::move(projection), projection_param));
  return AnswerPage<v1::ScanRequest, v1::ScanResponse>(*storage_, read_lag_, read, page_req, index, req);
}

}  // namespace pogi::service
