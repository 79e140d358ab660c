// Amazon Ion text for DynamoDB's exports and imports (ExportFormat and
// InputFormat ION), the subset DynamoDB writes: an item is a struct of its
// attributes; S a string, N a decimal, B a blob, BOOL a bool, NULL null,
// M a struct, L a list, and the sets lists annotated $dynamodb_SS,
// $dynamodb_NS, $dynamodb_BS. Written by pogi itself: no Ion library is
// packaged for Debian 12 (docs/operations.md, "Exports and imports").
#pragma once

#include <string>

#include "service/value/item.h"

namespace pogi::jobs {

// Appends the Ion text of `item` (a struct) to `out`.
void AppendIonItem(const value::AttributeMap& item, std::string* out);
// Appends one attribute value's Ion text.
void AppendIonValue(const v1::AttributeValue& v, std::string* out);

}  // namespace pogi::jobs
