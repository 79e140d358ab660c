// FilterSpecification: parsed with the expression rules every request
// follows (substitutions used, limits, DynamoDB's syntax messages), the key
// condition compiled as Query compiles it so that its errors are Query's.
#include "service/read/export_filter.h"

#include "service/expr/evaluator.h"
#include "service/expr/projection.h"
#include "service/read/key_condition.h"
#include "service/validate/request_expressions.h"

namespace pogi::service {

Result<ExportFilter> ExportFilter::Make(const v1::FilterSpecification& spec, const Table& table) {
  ExpressionParams params;
  params.key_condition = IfPresent(spec.has_key_condition_expression(), spec.key_condition_expression());
  params.filter = IfPresent(spec.has_filter_expression(), spec.filter_expression());
  params.projection = IfPresent(spec.has_projection_expression(), spec.projection_expression());
  SetSubstitutions(params, spec);
  params.value_expressions = "FilterExpression and KeyConditionExpression";
  POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
  const KeySchema keys = table.KeysOf(nullptr);
  if (parsed.key_condition) {
    auto read = CompileKeyCondition(*parsed.key_condition, keys);
    if (!read.ok()) return std::move(read).error();
    if (parsed.filter) POGI_RETURN_IF_ERROR(CheckFilterKeys(*parsed.filter, keys, /*legacy=*/false));
  }
  ExportFilter f;
  f.key_condition_ = std::move(parsed.key_condition);
  f.filter_ = std::move(parsed.filter);
  f.projection_ = std::move(parsed.projection);
  return f;
}

Result<bool> ExportFilter::Selects(const value::AttributeMap& item) const {
  // The key condition holds for exactly the items of the range Query would
  // read, so it is evaluated as a condition on the item.
  for (const auto* c : {&key_condition_, &filter_}) {
    if (!*c) continue;
    POGI_ASSIGN_OR_RETURN(bool ok, expr::Evaluate(**c, item));
    if (!ok) return false;
  }
  return true;
}

value::AttributeMap ExportFilter::Project(const value::AttributeMap& item) const {
  return projection_ ? expr::Project(*projection_, item) : item;
}

}  // namespace pogi::service
