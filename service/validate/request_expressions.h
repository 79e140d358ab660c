// The expression parameters of one item request, checked and parsed once:
// ExpressionAttributeNames/Values (their own rules), the condition, update
// and projection, and the "unused substitution" check across all of them.
// Also the rule that expression and legacy parameters cannot be mixed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/expr/ast.h"
#include "service/expr/types.h"
#include "service/validate/member_presence.h"

namespace pogi::service {

// What a request carries, as pointers into the proto (null: absent).
struct ExpressionParams {
  const std::string* condition = nullptr;         // ConditionExpression
  const std::string* update = nullptr;            // UpdateExpression
  const std::string* projection = nullptr;        // ProjectionExpression
  const std::string* key_condition = nullptr;     // KeyConditionExpression
  const std::string* filter = nullptr;            // FilterExpression
  const std::string* search_condition = nullptr;  // SearchConditionExpression
  const v1::NameMap* names = nullptr;             // ExpressionAttributeNames
  const expr::AttributeMap* values = nullptr;     // ExpressionAttributeValues
  // Legacy parameters present in the request, by DynamoDB name ("Expected", ...).
  std::vector<std::string_view> legacy;
  // The operation's expressions that take values, as DynamoDB names them
  // when ExpressionAttributeValues come without any: "ConditionExpression"
  // (PutItem, DeleteItem), "UpdateExpression and ConditionExpression"
  // (UpdateItem), "FilterExpression and KeyConditionExpression" (Query),
  // "FilterExpression" (Scan).
  std::string_view value_expressions;
};

struct ParsedExpressions {
  std::optional<expr::Condition> condition;
  std::optional<expr::Update> update;
  std::optional<expr::Projection> projection;
  std::optional<expr::Condition> key_condition;
  std::optional<expr::Condition> filter;
  std::optional<expr::Condition> search_condition;
};

// "Can not use both expression and non-expression parameters ...", then
// "ExpressionAttributeNames (or Values) can only be specified when using
// expressions": the first of an item operation's own checks, before any
// attribute value.
Status CheckNotMixed(const ExpressionParams& params);

// Validates and parses (CheckNotMixed included), in DynamoDB's order: the
// ExpressionAttributeNames/Values maps, the values, each expression, unused
// names and values. Errors are DynamoDB's ValidationExceptions.
Result<ParsedExpressions> ParseExpressions(const ExpressionParams& params);

// Points `p` at a request's ExpressionAttributeNames/Values when present.
template <typename Request>
void SetSubstitutions(ExpressionParams& p, const Request& req) {
  if (req.has_expression_attribute_names()) p.names = &req.expression_attribute_names();
  if constexpr (requires { req.has_expression_attribute_values(); }) {
    if (req.has_expression_attribute_values()) p.values = &req.expression_attribute_values().attributes();
  }
}

// The string member when the request has it, else null.
inline const std::string* IfPresent(bool has, const std::string& s) { return has ? &s : nullptr; }

// The legacy Expected (with ConditionalOperator) as a condition, its values
// checked first: none when both are absent.
Result<std::optional<expr::Condition>> ExpectedCondition(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected,
    const std::string* conditional_operator);

// The expression parameters of a PutItem or DeleteItem.
template <typename Request>
ExpressionParams WriteConditionParams(const Request& req) {
  ExpressionParams params;
  params.condition = IfPresent(req.has_condition_expression(), req.condition_expression());
  SetSubstitutions(params, req);
  params.value_expressions = "ConditionExpression";
  // {} is present (behaviours.md V1).
  if (Sent(req, Request::kExpectedFieldNumber, req.expected_size())) params.legacy.push_back("Expected");
  return params;
}

// The condition of a write whose attribute values have been checked:
// Expected (when there is no ConditionExpression), then the expression
// checks, DynamoDB's order. `parsed` receives the parsed expressions.
template <typename Request>
Result<std::optional<expr::Condition>> WriteCondition(const Request& req, const ExpressionParams& params,
                                                      ParsedExpressions& parsed) {
  std::optional<expr::Condition> condition;
  if (!params.condition) {
    POGI_ASSIGN_OR_RETURN(
        condition, ExpectedCondition(req.expected(),
                                     IfPresent(req.has_conditional_operator(), req.conditional_operator())));
  }
  POGI_ASSIGN_OR_RETURN(parsed, ParseExpressions(params));
  if (parsed.condition) condition = std::move(parsed.condition);
  return condition;
}

// OK when there is no condition or `old` (null: no item) satisfies it; else
// ConditionalCheckFailedException (see ConditionFailed).
Status CheckCondition(const std::optional<expr::Condition>& condition, const expr::AttributeMap* old,
                      const std::string& return_on_failure);

// DynamoDB refuses an update that touches a key attribute.
Status CheckNoKeyUpdate(const Table& table, const expr::Update& update);

// DynamoDB refuses a nested path (x.y or x[n]) whose top is a key attribute
// of the table ("Key attributes must be scalars; ... Key: x") or of the
// index read (index: null for the table; "... IndexKey: x"). Checked after
// the table lookup.
Status CheckScalarKeyPaths(const Table& table, const Index* index, const std::vector<expr::Path>& paths);

// The error of a failed condition; carries the old item when
// ReturnValuesOnConditionCheckFailure is ALL_OLD.
Error ConditionFailed(const std::string& return_on_failure, const expr::AttributeMap* old_item);

}  // namespace pogi::service
