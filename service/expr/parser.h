// Parsers of DynamoDB's expression languages: condition (ConditionExpression,
// FilterExpression, KeyConditionExpression), UpdateExpression and
// ProjectionExpression. Hand-written recursive descent over service/expr/lexer.h;
// #names and :values are substituted while parsing and their use recorded in
// `subs`. Work is linear in the text; nesting is bounded so hostile input
// cannot exhaust the stack.
//
// Errors are ValidationExceptions with DynamoDB's text, prefixed
// "Invalid <KindName>: ". As in DynamoDB, a syntax error wins over every
// other error; otherwise the first error of the highest-ranked class is
// reported (conditions: redundant parentheses, unknown function, misused
// function, reserved word, then per-condition errors; updates: reserved word,
// unknown function, repeated section, undefined name, undefined value, path
// overlap, path conflict, operand type, function misuse; projections:
// reserved word, undefined name, path overlap, path conflict).
#pragma once

#include <string_view>

#include "common/limits.h"
#include "common/result.h"
#include "service/expr/ast.h"
#include "service/expr/substitutions.h"
#include "service/expr/types.h"

namespace pogi::expr {

// Limits on every expression, defined with the other request limits.
inline constexpr size_t kMaxExpressionBytes = limits::kMaxExpressionBytes;
inline constexpr size_t kMaxPathDepth = limits::kMaxPathDepth;
inline constexpr size_t kMaxInOperands = limits::kMaxInOperands;
inline constexpr size_t kMaxOperators = limits::kMaxOperators;
inline constexpr size_t kMaxNesting = limits::kMaxExpressionNesting;

// `kind` is kCondition, kFilter, kKeyCondition or kSearchCondition (it only names the
// parameter in messages; KeyConditionExpression's extra rules are the
// engine's). The result holds copies of the substituted values.
Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind, Substitutions& subs);

// SET / REMOVE / ADD / DELETE clauses, in any order, each at most once.
Result<Update> ParseUpdate(std::string_view text, Substitutions& subs);

// Comma-separated document paths.
Result<Projection> ParseProjection(std::string_view text, Substitutions& subs);

}  // namespace pogi::expr
