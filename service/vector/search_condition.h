// SearchConditionExpression: equalities joined by AND, on the attributes of
// the index's SearchSchema only, the HASH attribute's required; checked
// with DynamoDB's messages and turned into what a search compares: the
// partition to read and the INLINE_FILTER values each entry must hold.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/expr/ast.h"

namespace pogi::service {

// One `attribute = :value` of a condition.
struct SearchEquality {
  expr::Path path;
  v1::AttributeValue value;
};

// The equalities of a parsed condition. Another comparator (or two paths,
// or two values) is DynamoDB's "Invalid comparator" refusal; BETWEEN, IN,
// OR, NOT or a function its "Invalid operator" one, whichever comes first
// in the expression. Needs no index: checked before the table is read.
Result<std::vector<SearchEquality>> SearchEqualities(const expr::Condition& condition);

// What a search of `index` reads: one partition, and for each INLINE_FILTER
// element (in SearchSchema order) the value an entry must hold (nullopt:
// any), as its key encoding (what SplitFilterValues gives of an entry).
struct SearchScope {
  std::string partition;
  std::vector<std::optional<std::string>> filters;
};

// The scope of `equalities` (empty: no SearchConditionExpression) against
// `index`'s SearchSchema, with DynamoDB's refusals: an attribute not in the
// schema, a nested path, two conditions on one attribute, no HASH equality
// when the schema has one, a value of another type than the schema's, an
// empty HASH value.
Result<SearchScope> ScopeOf(const VectorIndex& index, const std::vector<SearchEquality>& equalities);

}  // namespace pogi::service
