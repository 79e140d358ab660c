// Application of a parsed update (UpdateExpression or legacy
// AttributeUpdates) to an item. Pure: no I/O.
#pragma once

#include <vector>

#include "common/result.h"
#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::expr {

// Applies `update` to *item (empty for an item that does not exist yet).
// Every operand is read from the item as it was before the update, as in
// DynamoDB ("SET a = b, b = a" swaps). On error *item is left unchanged.
// When `updated_paths` is not null it receives the paths the update wrote
// or removed, in the order written, for ReturnValues UPDATED_OLD /
// UPDATED_NEW (see projection.h ExtractPaths).
//
// DynamoDB's run-time errors (ValidationException):
//   "The provided expression refers to an attribute that does not exist in the item"
//   "The document path provided in the update expression is invalid for update"
//   "An operand in the update expression has an incorrect data type"
// and Decimal's overflow/precision errors for + - and ADD.
// REQUIRES: the caller checks key attributes, item size and index key types.
Status Apply(const Update& update, AttributeMap* item, std::vector<Path>* updated_paths);

}  // namespace pogi::expr
