// ExpressionAttributeNames / ExpressionAttributeValues of one request, and
// which of them the request's expressions used.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

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
  // Names are checked first. Keys are listed in DynamoMapOrder.
  Status CheckAllUsed() const;

 private:
  const NameMap* names_;
  const AttributeMap* values_;
  std::set<std::string, std::less<>> used_names_;
  std::set<std::string, std::less<>> used_values_;
};

// The order in which DynamoDB lists the unused keys of
// ExpressionAttributeNames/Values: java.util.HashMap's iteration order
// (their values it checks in the document's order). Buckets by String.hashCode (over UTF-16 code units) with
// HashMap's spread (h ^ h >>> 16), a table of 16 doubled whenever it would
// pass 3/4 full, buckets walked from 0. Keys sharing a bucket keep byte order
// (DynamoDB keeps the document's, which the proto map no longer knows).
// On record: DynamoDB listed `keys: {:create_at_2_v1, :create_at_1_v1}` for
// a request that sent _1 first (awspilot/dynamodb-oop issue 29), and
// DynamoDB Local (2026-05-28) lists {:s, :one, :ns, :max} less :s as
// `{:one, :max, :ns}`, neither the document's order nor byte order.
std::vector<std::string> DynamoMapOrder(std::vector<std::string> keys);

}  // namespace pogi::expr
