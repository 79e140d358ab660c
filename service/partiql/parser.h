// Parser of DynamoDB's PartiQL statements into partiql::Statement, binding
// `?` parameters in order. Recursive descent over the tokens of lexer.h,
// bounded in depth and list sizes so hostile input fails at once with a
// ValidationException in DynamoDB's words.
#pragma once

#include <string_view>

#include "common/result.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "service/partiql/ast.h"

namespace pogi::partiql {

// Limits on what one statement may hold (DynamoDB's Statement is at most
// 8192 characters; these bound the work on it well below that).
inline constexpr size_t kMaxDepth = 150;     // parser recursion: parentheses, NOTs, literals
inline constexpr size_t kMaxInValues = 100;  // values in one IN list (as in expressions)

using Parameters = google::protobuf::RepeatedPtrField<expr::AttributeValue>;

// Parses `statement`; `parameters` are the request's Parameters, already
// checked (CheckParameters). Errors are DynamoDB's ValidationExceptions.
Result<Statement> Parse(std::string_view statement, const Parameters& parameters);

// DynamoDB's checks of the Parameters themselves, in document order: the
// nesting limit, and numbers it cannot convert ("The parameter cannot be
// converted to a numeric value: 1e99999999999"). Puts numbers in canonical form.
Status CheckParameters(Parameters* parameters);

// True for PartiQL's reserved words, which cannot name an attribute unquoted.
bool IsReserved(std::string_view lower_case_word);

}  // namespace pogi::partiql
