// Conversion of the legacy Expected / QueryFilter / ScanFilter /
// KeyConditions / AttributeUpdates / AttributesToGet parameters to the
// expression AST, with DynamoDB's validation.
//
// Sources for behaviour and messages: the API reference pages Condition,
// ExpectedAttributeValue and AttributeValueUpdate ("Legacy conditional
// parameters"); ScyllaDB's test/alternator/test_expected.py (run against
// DynamoDB: NOT_CONTAINS on a missing attribute is false while NE is true;
// BEGINS_WITH with a number argument is a ValidationException, a number
// attribute just fails; IN needs one type); dynalite's tests (message texts,
// "Type mismatch for attribute to update"); DynamoDB Local's validator for the
// order of checks within an entry.
#include "service/expr/legacy.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

#include "common/entry_order.h"
#include "service/expr/update.h"
#include "service/expr/value_ops.h"
#include "service/value/item.h"
#include "service/value/set_order.h"

namespace pogi::expr {
namespace {

// DynamoDB lists enum values in its own (unsorted) order; these are copied
// from its answers.
constexpr std::string_view kComparisonOperatorSet =
    "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]";
constexpr std::string_view kConditionalOperatorSet = "[OR, AND]";
constexpr std::string_view kActionSet = "[ADD, PUT, DELETE]";

enum class Op {
  kEq,
  kNe,
  kLe,
  kLt,
  kGe,
  kGt,
  kIn,
  kBetween,
  kNotNull,
  kNull,
  kContains,
  kNotContains,
  kBeginsWith,
};

std::optional<Op> ParseOp(std::string_view s) {
  static constexpr std::pair<std::string_view, Op> kOps[] = {
      {"EQ", Op::kEq},
      {"NE", Op::kNe},
      {"LE", Op::kLe},
      {"LT", Op::kLt},
      {"GE", Op::kGe},
      {"GT", Op::kGt},
      {"IN", Op::kIn},
      {"BETWEEN", Op::kBetween},
      {"NOT_NULL", Op::kNotNull},
      {"NULL", Op::kNull},
      {"CONTAINS", Op::kContains},
      {"NOT_CONTAINS", Op::kNotContains},
      {"BEGINS_WITH", Op::kBeginsWith},
  };
  for (const auto& [name, op] : kOps) {
    if (name == s) return op;
  }
  return std::nullopt;
}

bool ArgumentCountOk(Op op, size_t n) {
  switch (op) {
    case Op::kNull:
    case Op::kNotNull:
      return n == 0;
    case Op::kBetween:
      return n == 2;
    case Op::kIn:
      return n >= 1;
    default:
      return n == 1;
  }
}

// Which AttributeValue types each operator accepts as an argument.
bool TypeAllowed(Op op, const AttributeValue& v) {
  const bool scalar = v.has_s() || v.has_n() || v.has_b();
  switch (op) {
    case Op::kEq:
    case Op::kNe:
      return v.value_case() != AttributeValue::VALUE_NOT_SET;
    case Op::kBeginsWith:
      return v.has_s() || v.has_b();
    case Op::kContains:
    case Op::kNotContains:
      return scalar || v.has_bool_value() || v.has_null_value();
    default:
      return scalar;
  }
}

// Member-constraint failures, reported together as DynamoDB does.
class ShapeErrors {
 public:
  void NotNull(const std::string& path) {
    errors_.push_back("Value null at '" + path + "' failed to satisfy constraint: Member must not be null");
  }
  void NotInEnum(const std::string& value, const std::string& path, std::string_view set) {
    errors_.push_back(
        "Value '" + value + "' at '" + path +
        "' failed to satisfy constraint: Member must satisfy enum value set: " + std::string(set));
  }
  std::vector<std::string> Take() { return std::move(errors_); }
  void AddAll(std::vector<std::string> messages) {
    for (auto& m : messages) errors_.push_back(std::move(m));
  }
  Status Finish() const {
    if (errors_.empty()) return Status::Ok();
    std::string m = std::to_string(errors_.size()) +
                    (errors_.size() == 1 ? " validation error detected: " : " validation errors detected: ");
    for (size_t i = 0; i < errors_.size(); ++i) {
      if (i) m += "; ";
      m += errors_[i];
    }
    return Error::Validation(std::move(m));
  }

 private:
  std::vector<std::string> errors_;
};

void CheckConditionalOperatorEnum(const std::string* op, ShapeErrors& shape) {
  if (op != nullptr && *op != "AND" && *op != "OR") {
    shape.NotInEnum(*op, "conditionalOperator", kConditionalOperatorSet);
  }
}

// DynamoDB refuses a ConditionalOperator that has nothing to combine.
Status CheckConditionalOperatorUse(const std::string* op, size_t entries) {
  if (op == nullptr) return Status::Ok();
  if (entries == 0) {
    return Error::Validation("ConditionalOperator cannot be used without Filter or Expected");
  }
  if (entries == 1) {
    return Error::Validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  return Status::Ok();
}

// The map's keys in name order: one order for the constraints listed and the
// conditions built, whatever the proto map's own (with a bad entry, the one
// the client wrote first answers: FirstFailureInClientOrder).
template <typename MapT>
std::vector<const std::string*> SortedKeys(const MapT& map) {
  std::vector<const std::string*> keys;
  keys.reserve(map.size());
  for (const auto& entry : map) keys.push_back(&entry.first);
  std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  return keys;
}

// The request-member spelling of a parameter name: "ScanFilter" -> "scanFilter".
std::string MemberName(std::string_view parameter_name) {
  std::string s(parameter_name);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

Status ValidateArguments(std::string_view op_name, Op op, const std::vector<const AttributeValue*>& values) {
  if (!ArgumentCountOk(op, values.size())) {
    return Error::InvalidParameter("Invalid number of argument(s) for the " + std::string(op_name) +
                                   " ComparisonOperator");
  }
  // DynamoDB compares the types with each other before it checks them
  // against the operator.
  for (const AttributeValue* v : values) {
    if (v->value_case() != values[0]->value_case()) {
      return Error::InvalidParameter("AttributeValues inside AttributeValueList must be of same type");
    }
  }
  for (const AttributeValue* v : values) {
    if (!TypeAllowed(op, *v)) {
      return Error::InvalidParameter("ComparisonOperator " + std::string(op_name) + " is not valid for " +
                                     std::string(TypeName(*v)) + " AttributeValue type");
    }
  }
  if (op == Op::kBetween) {
    auto order = CompareOrdered(*values[0], *values[1]);
    if (order && *order > 0) {
      return Error::Validation(
          "The BETWEEN condition was provided a range where the lower bound is greater than "
          "the upper bound");
    }
  }
  return Status::Ok();
}

Operand AttributeOperand(const std::string& name) {
  Operand o;
  o.kind = Operand::Kind::kPath;
  PathElement e;
  e.name = name;
  o.path.push_back(std::move(e));
  return o;
}

Operand ValueOperand(const AttributeValue& v) {
  Operand o;
  o.kind = Operand::Kind::kValue;
  o.value = v;
  return o;
}

Condition Leaf(Condition::Kind kind, const std::string& name,
               const std::vector<const AttributeValue*>& values) {
  Condition c;
  c.kind = kind;
  c.operands.push_back(AttributeOperand(name));
  for (const AttributeValue* v : values) c.operands.push_back(ValueOperand(*v));
  return c;
}

Condition Compare(Comparator op, const std::string& name, const AttributeValue& v) {
  Condition c = Leaf(Condition::Kind::kCompare, name, {&v});
  c.op = op;
  return c;
}

// The condition for one legacy comparison. REQUIRES: ValidateArguments passed.
Condition Build(Op op, const std::string& name, const std::vector<const AttributeValue*>& values) {
  switch (op) {
    case Op::kEq:
      return Compare(Comparator::kEq, name, *values[0]);
    case Op::kNe:
      return Compare(Comparator::kNe, name, *values[0]);
    case Op::kLe:
      return Compare(Comparator::kLe, name, *values[0]);
    case Op::kLt:
      return Compare(Comparator::kLt, name, *values[0]);
    case Op::kGe:
      return Compare(Comparator::kGe, name, *values[0]);
    case Op::kGt:
      return Compare(Comparator::kGt, name, *values[0]);
    case Op::kIn:
      return Leaf(Condition::Kind::kIn, name, values);
    case Op::kBetween:
      return Leaf(Condition::Kind::kBetween, name, values);
    case Op::kNull:
      return Leaf(Condition::Kind::kAttributeNotExists, name, {});
    case Op::kNotNull:
      return Leaf(Condition::Kind::kAttributeExists, name, {});
    case Op::kContains:
      return Leaf(Condition::Kind::kContains, name, values);
    case Op::kBeginsWith:
      return Leaf(Condition::Kind::kBeginsWith, name, values);
    case Op::kNotContains: {
      // DynamoDB: NOT_CONTAINS on a missing attribute is false (so both
      // CONTAINS and NOT_CONTAINS fail), which NOT contains() alone is not.
      Condition negated;
      negated.kind = Condition::Kind::kNot;
      negated.children.push_back(Leaf(Condition::Kind::kContains, name, values));
      Condition both;
      both.kind = Condition::Kind::kAnd;
      both.children.push_back(Leaf(Condition::Kind::kAttributeExists, name, {}));
      both.children.push_back(std::move(negated));
      return both;
    }
  }
  return Condition{};
}

Condition Combine(std::vector<Condition> children, bool use_or) {
  if (children.empty()) return Condition{};  // kTrue
  if (children.size() == 1) return std::move(children[0]);
  Condition c;
  c.kind = use_or ? Condition::Kind::kOr : Condition::Kind::kAnd;
  c.children = std::move(children);
  return c;
}

std::string ForAttribute(const std::string& name) { return " for Attribute: " + name; }

// The values of one entry, each by the caller's rule (none: taken as valid).
Status CheckValues(ValueCheck check_value, const AttributeValue* value,
                   const google::protobuf::RepeatedPtrField<AttributeValue>& list) {
  if (!check_value) return Status::Ok();
  if (value) POGI_RETURN_IF_ERROR(check_value(*value));
  for (const auto& v : list) POGI_RETURN_IF_ERROR(check_value(v));
  return Status::Ok();
}

}  // namespace

bool SentNull(const google::protobuf::Message& entry) {
  const auto& unknown = entry.GetReflection()->GetUnknownFields(entry);
  for (int i = 0; i < unknown.field_count(); ++i) {
    if (unknown.field(i).number() == kSentNullField) return true;
  }
  return false;
}

std::vector<std::string> ExpectedConstraints(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected) {
  ShapeErrors shape;
  for (const std::string* name : SortedKeys(expected)) {
    const auto& e = expected.at(*name);
    if (SentNull(e)) continue;  // refused in its turn
    if (e.has_comparison_operator() && !ParseOp(e.comparison_operator())) {
      shape.NotInEnum(e.comparison_operator(), "expected." + *name + ".member.comparisonOperator",
                      kComparisonOperatorSet);
    }
  }
  return shape.Take();
}

std::vector<std::string> FilterConstraints(const google::protobuf::Map<std::string, v1::Condition>& filter,
                                           std::string_view parameter_name) {
  const std::string member = MemberName(parameter_name);
  ShapeErrors shape;
  for (const std::string* name : SortedKeys(filter)) {
    const auto& c = filter.at(*name);
    if (SentNull(c)) continue;  // refused in its turn
    const std::string path = member + "." + *name + ".member.comparisonOperator";
    if (!c.has_comparison_operator()) {
      shape.NotNull(path);
    } else if (!ParseOp(c.comparison_operator())) {
      shape.NotInEnum(c.comparison_operator(), path, kComparisonOperatorSet);
    }
  }
  return shape.Take();
}

std::vector<std::string> UpdateConstraints(
    const google::protobuf::Map<std::string, v1::AttributeValueUpdate>& updates) {
  ShapeErrors shape;
  for (const std::string* name : SortedKeys(updates)) {
    const auto& u = updates.at(*name);
    if (u.has_action() && u.action() != "ADD" && u.action() != "PUT" && u.action() != "DELETE") {
      shape.NotInEnum(u.action(), "attributeUpdates." + *name + ".member.action", kActionSet);
    }
  }
  return shape.Take();
}

namespace {

// One attribute of Expected: sent as null, its shape (O3), its values, their
// count and types, and its condition appended to `children`.
Status ConvertExpectedEntry(const std::string& name, const v1::ExpectedAttributeValue& e,
                            ValueCheck check_value, ListSent list_sent, std::vector<Condition>* children) {
  POGI_RETURN_IF_ERROR(value::CheckAttributeName(name));
  if (SentNull(e))
    return Error::InvalidParameter("ExpectedAttributeValue must not be null" + ForAttribute(name));
  const bool has_op = e.has_comparison_operator();
  const bool has_exists = e.has_exists();
  const bool has_value = e.has_value();
  const bool has_list = e.attribute_value_list_size() > 0 || (list_sent && list_sent(e));
  if (has_exists && has_op) {
    return Error::InvalidParameter("Exists and ComparisonOperator cannot be used together" +
                                   ForAttribute(name));
  }
  if (has_value && has_list) {
    return Error::InvalidParameter("Value and AttributeValueList cannot be used together" +
                                   ForAttribute(name));
  }
  if (has_list && !has_op) {
    return Error::InvalidParameter("AttributeValueList can only be used with a ComparisonOperator" +
                                   ForAttribute(name));
  }
  if (has_exists && !e.exists() && has_value) {
    return Error::InvalidParameter("Value cannot be used when Exists is false" + ForAttribute(name));
  }
  if (!has_value && !has_list) {
    if (has_op) {
      Op op = *ParseOp(e.comparison_operator());
      if (op != Op::kNull && op != Op::kNotNull) {
        return Error::InvalidParameter("Value or AttributeValueList must be used with ComparisonOperator: " +
                                       e.comparison_operator() + ForAttribute(name));
      }
    } else if (!has_exists) {
      return Error::InvalidParameter("Value must be provided when Exists is null" + ForAttribute(name));
    } else if (e.exists()) {
      return Error::InvalidParameter("Value must be provided when Exists is true" + ForAttribute(name));
    }
  }
  // The entry's shape (O3) before its values, its values before their
  // count and types (O2): DynamoDB Local 2026-05-28 and dynalite agree.
  POGI_RETURN_IF_ERROR(CheckValues(check_value, has_value ? &e.value() : nullptr, e.attribute_value_list()));

  if (has_op) {
    Op op = *ParseOp(e.comparison_operator());
    std::vector<const AttributeValue*> values;
    if (has_value) {
      values.push_back(&e.value());
    } else {
      for (const auto& v : e.attribute_value_list()) values.push_back(&v);
    }
    POGI_RETURN_IF_ERROR(ValidateArguments(e.comparison_operator(), op, values));
    children->push_back(Build(op, name, values));
  } else if (has_value) {
    children->push_back(Compare(Comparator::kEq, name, e.value()));  // Exists true or null
  } else {
    children->push_back(Build(Op::kNull, name, {}));  // Exists false
  }
  return Status::Ok();
}

}  // namespace

Result<Condition> ConvertExpected(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected,
    const std::string* conditional_operator, ValueCheck check_value, ListSent list_sent) {
  const std::vector<const std::string*> names = SortedKeys(expected);
  ShapeErrors shape;
  shape.AddAll(ExpectedConstraints(expected));
  CheckConditionalOperatorEnum(conditional_operator, shape);
  POGI_RETURN_IF_ERROR(shape.Finish());

  std::vector<Condition> children;
  for (const std::string* name : names) {
    Status s = ConvertExpectedEntry(*name, expected.at(*name), check_value, list_sent, &children);
    if (!s.ok()) {
      // Several bad attributes: the one the client wrote first.
      return FirstFailureInClientOrder(expected, std::move(s).error(), [&](const std::string& n) {
        std::vector<Condition> scratch;
        return ConvertExpectedEntry(n, expected.at(n), check_value, list_sent, &scratch);
      });
    }
  }
  POGI_RETURN_IF_ERROR(CheckConditionalOperatorUse(conditional_operator, expected.size()));
  return Combine(std::move(children), conditional_operator != nullptr && *conditional_operator == "OR");
}

Result<Condition> ConvertFilter(const google::protobuf::Map<std::string, v1::Condition>& filter,
                                const std::string* conditional_operator, std::string_view parameter_name,
                                ValueCheck check_value) {
  const bool key_conditions = parameter_name == "KeyConditions";
  if (key_conditions) conditional_operator = nullptr;
  const std::vector<const std::string*> names = SortedKeys(filter);
  ShapeErrors shape;
  shape.AddAll(FilterConstraints(filter, parameter_name));
  CheckConditionalOperatorEnum(conditional_operator, shape);
  POGI_RETURN_IF_ERROR(shape.Finish());

  // One condition: its values, then its arguments (O2), then its leaf.
  auto convert = [&](const std::string& name, std::vector<Condition>* out) -> Status {
    POGI_RETURN_IF_ERROR(value::CheckAttributeName(name));
    const auto& c = filter.at(name);
    if (SentNull(c))
      return Error::Validation("The filter condition for an attribute cannot be null: " + name);
    POGI_RETURN_IF_ERROR(CheckValues(check_value, nullptr, c.attribute_value_list()));
    Op op = *ParseOp(c.comparison_operator());
    std::vector<const AttributeValue*> values;
    for (const auto& v : c.attribute_value_list()) values.push_back(&v);
    POGI_RETURN_IF_ERROR(ValidateArguments(c.comparison_operator(), op, values));
    out->push_back(Build(op, name, values));
    return Status::Ok();
  };
  std::vector<Condition> children;
  for (const std::string* name : names) {
    Status s = convert(*name, &children);
    if (s.ok()) continue;
    // Several bad conditions: the one the client wrote first.
    return FirstFailureInClientOrder(filter, std::move(s).error(), [&](const std::string& n) {
      std::vector<Condition> scratch;
      return convert(n, &scratch);
    });
  }
  POGI_RETURN_IF_ERROR(CheckConditionalOperatorUse(conditional_operator, filter.size()));
  return Combine(std::move(children), conditional_operator != nullptr && *conditional_operator == "OR");
}

namespace {

// One attribute of AttributeUpdates: its value, its action's rules, and its
// change added to `update`.
Status ConvertAttributeUpdate(const std::string& name, const v1::AttributeValueUpdate& u,
                              ValueCheck check_value, Update* update) {
  POGI_RETURN_IF_ERROR(value::CheckAttributeName(name));
  if (check_value && u.has_value()) POGI_RETURN_IF_ERROR(check_value(u.value()));
  const std::string action = u.has_action() ? u.action() : "PUT";
  const Path path = AttributeOperand(name).path;
  if (!u.has_value()) {
    if (action != "DELETE") {
      return Error::InvalidParameter("Only DELETE action is allowed when no attribute value is specified");
    }
    update->removes.push_back(path);
    return Status::Ok();
  }
  // The value's set members in the order of a set written whole (its
  // numbers stay as given: CheckValue only looks).
  AttributeValue v = u.value();
  value::SortAsWritten(&v);
  if (action == "PUT") {
    update->sets.push_back({path, ValueOperand(v)});
  } else if (action == "DELETE") {
    if (!IsSet(v)) {
      return Error::InvalidParameter("DELETE action with value is not supported for the type " +
                                     std::string(TypeName(v)));
    }
    update->deletes.push_back({path, v});
  } else if (v.has_l()) {
    // Legacy ADD of a list appends to the existing list (or starts one);
    // UpdateExpression's ADD has no list form, so express it as SET.
    AttributeValue empty_list;
    empty_list.mutable_l();
    Operand existing;
    existing.kind = Operand::Kind::kIfNotExists;
    existing.args.push_back(AttributeOperand(name));
    existing.args.push_back(ValueOperand(empty_list));
    Operand append;
    append.kind = Operand::Kind::kListAppend;
    append.args.push_back(std::move(existing));
    append.args.push_back(ValueOperand(v));
    update->sets.push_back({path, std::move(append)});
  } else if (v.has_n() || IsSet(v)) {
    update->adds.push_back({path, v});
  } else {
    return Error::InvalidParameter("ADD action is not supported for the type " + std::string(TypeName(v)));
  }
  return Status::Ok();
}

}  // namespace

Result<Update> ConvertAttributeUpdates(
    const google::protobuf::Map<std::string, v1::AttributeValueUpdate>& updates, ValueCheck check_value) {
  const std::vector<const std::string*> names = SortedKeys(updates);
  ShapeErrors shape;
  shape.AddAll(UpdateConstraints(updates));
  POGI_RETURN_IF_ERROR(shape.Finish());

  Update update;
  update.legacy_set_order = true;
  for (const std::string* name : names) {
    Status s = ConvertAttributeUpdate(*name, updates.at(*name), check_value, &update);
    if (s.ok()) continue;
    // Several bad attributes: the one the client wrote first.
    return FirstFailureInClientOrder(updates, std::move(s).error(), [&](const std::string& n) {
      Update scratch;
      return ConvertAttributeUpdate(n, updates.at(n), check_value, &scratch);
    });
  }
  return update;
}

Status ApplyAttributeUpdates(const Update& update, AttributeMap* item, std::vector<Path>* updated_paths) {
  Status s = Apply(update, item, updated_paths);
  if (!s.ok() && s.error().code() == ErrorCode::kValidation &&
      s.error().message() == "An operand in the update expression has an incorrect data type") {
    return Error::Validation("Type mismatch for attribute to update");
  }
  return s;
}

Result<Projection> ConvertAttributesToGet(const google::protobuf::RepeatedPtrField<std::string>& names) {
  Projection projection;
  std::unordered_set<std::string_view> seen;
  for (const std::string& name : names) {
    POGI_RETURN_IF_ERROR(value::CheckAttributeName(name));
    if (!seen.insert(name).second) {
      return Error::InvalidParameter("Duplicate value in attribute name: " + name);
    }
    projection.paths.push_back(AttributeOperand(name).path);
  }
  return projection;
}

}  // namespace pogi::expr
