// Evaluation of a parsed condition against an item. Pure: no I/O.
#pragma once

#include "common/result.h"
#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::expr {

// The value at `path` in `item`, or null when any step is missing or of the
// wrong type (a name step into a non-map, an index into a non-list).
const AttributeValue* FindPath(const AttributeMap& item, const Path& path);

// Whether `item` (possibly empty: no item) satisfies `condition`, with
// DynamoDB's rules: comparisons of different types, of missing attributes,
// and functions on unsupported types are false, not errors; `a <> :v` is
// true when a is missing. Never fails today; Result leaves room for
// DynamoDB's run-time errors.
Result<bool> Evaluate(const Condition& condition, const AttributeMap& item);

}  // namespace pogi::expr
