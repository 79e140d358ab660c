// DynamoDB's reserved words, which cannot appear bare as attribute names in an
// expression.
#pragma once

#include <string_view>

namespace pogi::expr {

// True when `name` is one of DynamoDB's reserved words, case-insensitively
// ("abOrt" is reserved). Binary search over a static sorted table.
bool IsReservedWord(std::string_view name);

}  // namespace pogi::expr
