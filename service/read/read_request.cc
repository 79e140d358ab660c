// The shared parts of Query and Scan.
#include "service/read/read_request.h"

#include "service/core/transitions.h"
#include "service/expr/legacy.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/write/index_entries.h"

namespace pogi::service {

void CheckReadMembers(Constraints& c, const std::string* table_name, const std::string* index_name,
                      const std::string* select, std::optional<int64_t> limit, const std::string* consumed,
                      const std::string* conditional_operator) {
  CheckItemTableName(c, table_name);
  if (index_name) {
    c.NamePattern(index_name, "indexName");
    c.Length(index_name, 3, 255, "indexName");
  }
  // DynamoDB lists the enumeration in this order.
  c.OneOf(select, {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"}, "select");
  c.AtLeast(limit, 1, "limit");
  CheckReturnOptions(c, consumed, nullptr);
  CheckConditionalOperator(c, conditional_operator);
}

Result<const Index*> FindIndexOf(const Table& table, const std::string* index_name, bool consistent_read) {
  if (!index_name) return static_cast<const Index*>(nullptr);
  const Index* index = table.FindIndex(*index_name);
  if (!index) return Error::Validation("The table does not have the specified index: " + *index_name);
  if (!index->readable) return IndexNotReadable(*index_name);  // still being created
  if (index->global && consistent_read) {
    return Error::Validation("Consistent reads are not supported on global secondary indexes");
  }
  return index;
}

Result<std::optional<expr::Condition>> LegacyFilter(
    const google::protobuf::Map<std::string, v1::Condition>& filter, const std::string* conditional_operator,
    std::string_view filter_name) {
  if (filter.empty() && !conditional_operator) return std::optional<expr::Condition>();
  POGI_ASSIGN_OR_RETURN(auto condition,
                        expr::ConvertFilter(filter, conditional_operator, filter_name, &CheckValue));
  return std::optional<expr::Condition>(std::move(condition));
}

Result<std::optional<expr::Projection>> LegacyProjection(const v1::AttributeNameList* attributes_to_get) {
  if (!attributes_to_get || attributes_to_get->values().empty()) return std::optional<expr::Projection>();
  POGI_ASSIGN_OR_RETURN(auto projection, expr::ConvertAttributesToGet(attributes_to_get->values()));
  return std::optional<expr::Projection>(std::move(projection));
}

Result<PageRequest> MakePageRequest(const Table& table, const Index* index, const std::string* select,
                                    std::optional<int64_t> limit, std::optional<expr::Condition> filter,
                                    std::optional<expr::Projection> projection,
                                    std::string_view projection_param) {
  std::string chosen = select       ? *select
                       : projection ? "SPECIFIC_ATTRIBUTES"
                       : index      ? "ALL_PROJECTED_ATTRIBUTES"
                                    : "ALL_ATTRIBUTES";
  if (projection && chosen != "SPECIFIC_ATTRIBUTES") {
    return Error::Validation("Cannot specify the " + std::string(projection_param) +
                             " when choosing to get " +
                             (chosen == "COUNT" ? std::string("only the Count") : chosen));
  }
  if (chosen == "SPECIFIC_ATTRIBUTES" && !projection) {
    return Error::Validation(
        "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
        "SPECIFIC_ATTRIBUTES");
  }
  if (chosen == "ALL_PROJECTED_ATTRIBUTES" && !index) {
    return Error::Validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  if (chosen == "ALL_ATTRIBUTES" && index && index->global && index->projection_type != "ALL") {
    return Error::InvalidParameter("Select type ALL_ATTRIBUTES is not supported for global secondary index " +
                                   index->name + " because its projection type is not ALL");
  }
  // A global index has only what it projects.
  if (index && index->global && projection) {
    std::set<std::string> names;
    CollectNames(*projection, &names);
    std::string missing;
    for (const auto& name : names) {
      if (!IndexHolds(table, *index, name)) missing += (missing.empty() ? "" : ", ") + name;
    }
    if (!missing.empty()) {
      return Error::InvalidParameter("Global secondary index " + index->name + " does not project [" +
                                     missing + "]");
    }
  }
  PageRequest req;
  req.table = &table;
  req.index = index;
  req.limit = limit;
  req.count_only = chosen == "COUNT";
  // A local index reads from its table what it does not hold.
  if (index && !index->global && index->projection_type != "ALL") {
    std::set<std::string> needed;
    if (filter) CollectNames(*filter, &needed);
    if (projection) CollectNames(*projection, &needed);
    req.fetch_from_table = chosen == "ALL_ATTRIBUTES";
    for (const auto& name : needed) {
      if (!IndexHolds(table, *index, name)) req.fetch_from_table = true;
    }
  }
  req.filter = std::move(filter);
  req.projection = std::move(projection);
  return req;
}

}  // namespace pogi::service
