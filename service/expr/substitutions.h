// ExpressionAttributeNames / ExpressionAttributeValues of one request, and
// which of them the request's expressions used.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "common/result.h"
#include "service/expr/types.h"

namespace pogi::expr {

class Substitutions {
 public:
  // Either map may be null (parameter absent). Both must outlive this object.
  // Keys are not validated here (the engine checks "#..."/":..." forms and
  // emptiness before parsing, with DynamoDB's messages).
  Substitutions(const NameMap* names, const AttributeMap* values) : names_(names), values_(values) {}

  // The attribute name "#n" stands for, marking "#n" used; null if undefined.
  const std::string* Name(std::string_view ref);
  // The value ":v" stands for, marking ":v" used; null if undefined.
  const AttributeValue* Value(std::string_view ref);

  // After every expression of the request has been parsed: DynamoDB's error
  // for names or values that no expression used:
  //   "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"
  //   "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"
  // Names are checked first. Keys are listed in sorted order.
  Status CheckAllUsed() const;

 private:
  const NameMap* names_;
  const AttributeMap* values_;
  std::set<std::string, std::less<>> used_names_;
  std::set<std::string, std::less<>> used_values_;
};

}  // namespace pogi::expr
