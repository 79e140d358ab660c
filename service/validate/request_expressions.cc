// Parsing the expression parameters of a request, with DynamoDB's rules.
#include "service/validate/request_expressions.h"

#include "common/entry_order.h"
#include "service/expr/evaluator.h"
#include "service/expr/legacy.h"
#include "service/expr/parser.h"
#include "service/expr/substitutions.h"
#include "service/validate/item_validation.h"

namespace pogi::service {
namespace {

// DynamoDB's "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}".
Status CheckMix(const ExpressionParams& p) {
  std::vector<std::string_view> used;
  if (p.update) used.push_back("UpdateExpression");
  if (p.condition) used.push_back("ConditionExpression");
  if (p.projection) used.push_back("ProjectionExpression");
  if (p.filter) used.push_back("FilterExpression");
  if (p.key_condition) used.push_back("KeyConditionExpression");
  if (used.empty()) return Status::Ok();
  auto join = [](const std::vector<std::string_view>& v) {
    std::string s;
    for (auto x : v) s += (s.empty() ? "" : ", ") + std::string(x);
    return s;
  };
  return Error::Validation(
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {" +
      join(p.legacy) + "} Expression parameters: {" + join(used) + "}");
}

// ExpressionAttributeNames/Values in a request without the expressions that
// use them.
Status CheckSubstitutionsHaveExpressions(const ExpressionParams& p) {
  bool any_expression =
      p.condition || p.update || p.projection || p.key_condition || p.filter || p.search_condition;
  if (p.names && !any_expression) {
    return Error::Validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  if (p.values && !p.condition && !p.update && !p.key_condition && !p.filter && !p.search_condition) {
    // DynamoDB names the operation's expressions that were null.
    std::string m = "ExpressionAttributeValues can only be specified when using expressions";
    if (!p.value_expressions.empty()) {
      m.append(": ").append(p.value_expressions);
      m.append(p.value_expressions.find(" and ") == std::string_view::npos ? " is null" : " are null");
    }
    return Error::Validation(m);
  }
  return Status::Ok();
}

Status CheckSubstitutionMaps(const ExpressionParams& p) {
  if (p.names) {
    if (p.names->names().empty()) return Error::Validation("ExpressionAttributeNames must not be empty");
    for (const auto& [k, v] : p.names->names()) {
      if (k.size() < 2 || k[0] != '#') {
        return Error::Validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + k +
                                 "\"");
      }
    }
  }
  if (p.values) {
    if (p.values->empty()) return Error::Validation("ExpressionAttributeValues must not be empty");
    for (const auto& [k, v] : *p.values) {
      if (k.size() < 2 || k[0] != ':') {
        return Error::Validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + k +
                                 "\"");
      }
    }
  }
  return Status::Ok();
}

// The names' values, after ExpressionAttributeValues' (DynamoDB Local
// 2026-05-28 answers a bad value before a null or empty name).
Status CheckNameValues(const v1::NameMap& name_map) {
  const expr::NameMap& names = name_map.names();
  auto check = [&](const std::string& k, const std::string& v) -> Status {
    if (v.empty() && NameSentNull(name_map, k))
      return Error::Validation("ExpressionAttributeNames contains invalid value: null for key " + k);
    // DynamoDB's text for an empty name (quoted by SDK users); the one for
    // a name over 65,535 bytes is not on record and follows it.
    if (v.empty()) {
      return Error::Validation(
          "ExpressionAttributeNames contains invalid value: Empty attribute name for key " + k);
    }
    if (v.size() > value::kMaxAttributeNameBytes) {
      return Error::Validation(
          "ExpressionAttributeNames contains invalid value: Attribute name exceeds the "
          "maximum size of " +
          std::to_string(value::kMaxAttributeNameBytes) + " bytes for key " + k);
    }
    return Status::Ok();
  };
  for (const auto& [k, v] : names) {
    Status s = check(k, v);
    if (s.ok()) continue;
    // Several bad names: the one the client wrote first.
    return FirstFailureInClientOrder(names, std::move(s).error(),
                                     [&](const std::string& k) { return check(k, names.at(k)); });
  }
  return Status::Ok();
}

}  // namespace

Status CheckNotMixed(const ExpressionParams& p) {
  if (!p.legacy.empty()) POGI_RETURN_IF_ERROR(CheckMix(p));  // no work in the common case
  return CheckSubstitutionsHaveExpressions(p);
}

Result<ParsedExpressions> ParseExpressions(const ExpressionParams& p) {
  POGI_RETURN_IF_ERROR(CheckNotMixed(p));
  POGI_RETURN_IF_ERROR(CheckSubstitutionMaps(p));
  // Values are validated (and their numbers made canonical) before use.
  std::optional<expr::AttributeMap> values;
  if (p.values) {
    values = *p.values;
    for (auto& [k, v] : *values) {
      Status first = ValidateValue(&v);
      if (first.ok()) continue;
      // With several bad values, the one the client wrote first (see
      // ValidateAttributes); only an invalid request pays for finding it.
      return FirstFailureInClientOrder(
          *values, std::move(first).error(), [&](const std::string& name) -> Status {
            if (Status s = CheckValue(values->at(name)); !s.ok()) {
              return Error::Validation("ExpressionAttributeValues contains invalid value: " +
                                       s.error().message() + " for key " + name);
            }
            return Status::Ok();
          });
    }
  }
  if (p.names) POGI_RETURN_IF_ERROR(CheckNameValues(*p.names));
  expr::Substitutions subs(p.names ? &p.names->names() : nullptr, values ? &*values : nullptr);
  ParsedExpressions out;
  if (p.update) {
    POGI_ASSIGN_OR_RETURN(out.update, expr::ParseUpdate(*p.update, subs));
  }
  if (p.condition) {
    POGI_ASSIGN_OR_RETURN(out.condition,
                          expr::ParseCondition(*p.condition, expr::ExpressionKind::kCondition, subs));
  }
  if (p.key_condition) {
    POGI_ASSIGN_OR_RETURN(out.key_condition,
                          expr::ParseCondition(*p.key_condition, expr::ExpressionKind::kKeyCondition, subs));
  }
  if (p.filter) {
    POGI_ASSIGN_OR_RETURN(out.filter, expr::ParseCondition(*p.filter, expr::ExpressionKind::kFilter, subs));
  }
  if (p.search_condition) {
    POGI_ASSIGN_OR_RETURN(
        out.search_condition,
        expr::ParseCondition(*p.search_condition, expr::ExpressionKind::kSearchCondition, subs));
  }
  if (p.projection) {
    POGI_ASSIGN_OR_RETURN(out.projection, expr::ParseProjection(*p.projection, subs));
  }
  POGI_RETURN_IF_ERROR(subs.CheckAllUsed());
  return out;
}

namespace {

Error NestedKeyPath(std::string_view which, const std::string& name) {
  return Error::Validation(
      "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: " +
      std::string(which) + ": " + name);
}

bool IsTableKey(const Table& table, const std::string& name) {
  return name == table.hash.name || (table.range && name == table.range->name);
}

}  // namespace

Status CheckScalarKeyPaths(const Table& table, const Index* index, const std::vector<expr::Path>& paths) {
  for (const expr::Path& path : paths) {
    if (path.size() < 2) continue;  // the common case: a top-level name
    const std::string& top = path.front().name;
    if (IsTableKey(table, top)) return NestedKeyPath("Key", top);
    if (index && index->keys.Has(top)) return NestedKeyPath("IndexKey", top);
  }
  return Status::Ok();
}

Status CheckNoKeyUpdate(const Table& table, const expr::Update& update) {
  auto check = [&](const expr::Path& path) -> Status {
    const std::string& top = path.front().name;
    if (path.size() > 1 && IsTableKey(table, top)) return NestedKeyPath("Key", top);
    if (IsTableKey(table, top)) {
      return Error::InvalidParameter("Cannot update attribute " + top +
                                     ". This attribute is part of the key");
    }
    return Status::Ok();
  };
  for (const auto& s : update.sets) POGI_RETURN_IF_ERROR(check(s.path));
  for (const auto& r : update.removes) POGI_RETURN_IF_ERROR(check(r));
  for (const auto& a : update.adds) POGI_RETURN_IF_ERROR(check(a.path));
  for (const auto& d : update.deletes) POGI_RETURN_IF_ERROR(check(d.path));
  return Status::Ok();
}

namespace {

bool AttributeValueListSent(const v1::ExpectedAttributeValue& e) {
  return Sent(e, v1::ExpectedAttributeValue::kAttributeValueListFieldNumber, e.attribute_value_list_size());
}

}  // namespace

Result<std::optional<expr::Condition>> ExpectedCondition(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected,
    const std::string* conditional_operator) {
  if (expected.empty() && !conditional_operator) return std::optional<expr::Condition>();
  POGI_ASSIGN_OR_RETURN(auto condition, expr::ConvertExpected(expected, conditional_operator, &CheckValue,
                                                              &AttributeValueListSent));
  return std::optional<expr::Condition>(std::move(condition));
}

Status CheckCondition(const std::optional<expr::Condition>& condition, const expr::AttributeMap* old,
                      const std::string& return_on_failure) {
  if (!condition) return Status::Ok();
  static const expr::AttributeMap kNoItem;
  POGI_ASSIGN_OR_RETURN(bool holds, expr::Evaluate(*condition, old ? *old : kNoItem));
  if (!holds) return ConditionFailed(return_on_failure, old);
  return Status::Ok();
}

Error ConditionFailed(const std::string& return_on_failure, const expr::AttributeMap* old_item) {
  Error e = Error::ConditionalCheckFailed();
  if (return_on_failure == "ALL_OLD" && old_item) {
    auto detail = std::make_shared<v1::ErrorDetail>();
    *detail->mutable_item()->mutable_attributes() = *old_item;
    e.set_detail(std::move(detail));
  }
  return e;
}

}  // namespace pogi::service
