// SearchConditionExpression's rules. The messages are DynamoDB's answers as
// recorded (their grammar included): in August and September 2026 the
// service accepted `=` joined by AND only, refusing <, <=, >, >= and <> as an
// "Invalid comparator" and BETWEEN and IN as an "Invalid operator". The
// developer guide's SearchConditionExpression reference has since described
// IN, BETWEEN and OR on INLINE_FILTER attributes, but no answer of a service
// that takes them is on record, so pogi keeps the recorded rules.
#include "service/vector/search_condition.h"

#include <set>

#include "service/value/item.h"
#include "service/vector/vector_values.h"

namespace pogi::service {
namespace {

using C = expr::Condition;
using O = expr::Operand;

Error InvalidComparator() {
  return Error::Validation(
      "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression");
}

// BETWEEN and IN as recorded; OR, NOT and the functions get the same words
// (refused on record, their text not kept).
Error InvalidOperator() {
  return Error::Validation(
      "Invalid SearchConditionExpression: Invalid operator used in SearchConditionExpression");
}

Status Collect(const C& c, std::vector<SearchEquality>* out) {
  if (c.kind == C::Kind::kAnd) {
    for (const C& child : c.children) POGI_RETURN_IF_ERROR(Collect(child, out));
    return Status::Ok();
  }
  if (c.kind != C::Kind::kCompare) return InvalidOperator();
  if (c.op != expr::Comparator::kEq || c.operands.size() != 2) return InvalidComparator();
  const O& a = c.operands[0];
  const O& b = c.operands[1];
  if (a.kind == O::Kind::kSize || b.kind == O::Kind::kSize) return InvalidOperator();
  const O* path = a.kind == O::Kind::kPath ? &a : b.kind == O::Kind::kPath ? &b : nullptr;
  const O* value = a.kind == O::Kind::kValue ? &a : b.kind == O::Kind::kValue ? &b : nullptr;
  if (!path || !value || path->path.empty() || path->path.front().is_index) return InvalidComparator();
  out->push_back({path->path, value->value});
  return Status::Ok();
}

}  // namespace

Result<std::vector<SearchEquality>> SearchEqualities(const expr::Condition& condition) {
  std::vector<SearchEquality> out;
  POGI_RETURN_IF_ERROR(Collect(condition, &out));
  return out;
}

Result<SearchScope> ScopeOf(const VectorIndex& index, const std::vector<SearchEquality>& equalities) {
  auto schema_type = [&](const std::string& name) -> const KeyAttribute* {
    if (index.hash && index.hash->name == name) return &*index.hash;
    for (const KeyAttribute& f : index.filters) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  for (const SearchEquality& e : equalities) {
    if (!schema_type(e.path.front().name)) {
      return Error::Validation(
          "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
          "attribute: " +
          e.path.front().name);
    }
  }
  std::set<std::string> seen;
  for (const SearchEquality& e : equalities) {
    if (e.path.size() > 1) {
      return Error::Validation(
          "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested "
          "attributes");
    }
    if (!seen.insert(e.path.front().name).second) {
      return Error::Validation(
          "Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per "
          "attribute");
    }
  }
  if (index.hash && !seen.count(index.hash->name)) {
    return Error::Validation("SearchConditionExpression must be provided when SearchSchema has a HASH key");
  }
  SearchScope scope;
  scope.filters.resize(index.filters.size());
  for (const SearchEquality& e : equalities) {
    const std::string& name = e.path.front().name;
    const KeyAttribute* attr = schema_type(name);
    std::string_view type = value::TypeName(e.value);
    // DynamoDB's words for the HASH attribute; an INLINE_FILTER value of
    // another type gets the same (its own are not on record).
    if (type != attr->type) {
      return Error::Validation("Type of '" + name + "' attribute in SearchConditionExpression (" +
                               std::string(type) + ") does not match type in search schema (" + attr->type +
                               ")");
    }
    if (index.hash && name == index.hash->name) {
      bool empty = (e.value.value_case() == v1::AttributeValue::kS && e.value.s().empty()) ||
                   (e.value.value_case() == v1::AttributeValue::kB && e.value.b().empty());
      if (empty) {
        return Error::Validation(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
            "contain "
            "an empty " +
            std::string(e.value.value_case() == v1::AttributeValue::kS ? "string" : "binary") +
            " value. Key: " + name);
      }
      scope.partition = value::EncodeKeyValue(e.value);
      continue;
    }
    for (size_t i = 0; i < index.filters.size(); ++i) {
      if (index.filters[i].name != name) continue;
      scope.filters[i] = value::EncodeKeyValue(e.value);
    }
  }
  return scope;
}

}  // namespace pogi::service
