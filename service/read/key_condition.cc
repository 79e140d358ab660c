// Key condition analysis: which comparisons on which key attributes.
#include "service/read/key_condition.h"

#include <set>

#include "service/read/read_page.h"
#include "service/value/item.h"
#include "service/value/key_tuple.h"

namespace pogi::service {
namespace {

using expr::Condition;
using expr::Operand;

Error NotSupported() { return Error::Validation("Query key condition not supported"); }

// The top-level attribute an operand names, or null when it is not a plain path.
const std::string* AttributeOf(const Operand& o) {
  if (o.kind != Operand::Kind::kPath || o.path.size() != 1 || o.path[0].is_index) return nullptr;
  return &o.path[0].name;
}

const v1::AttributeValue* ValueOf(const Operand& o) {
  return o.kind == Operand::Kind::kValue ? &o.value : nullptr;
}

std::string OperatorName(const Condition& c) {
  switch (c.kind) {
    case Condition::Kind::kOr:
      return "OR";
    case Condition::Kind::kNot:
      return "NOT";
    case Condition::Kind::kIn:
      return "IN";
    case Condition::Kind::kAttributeExists:
      return "attribute_exists";
    case Condition::Kind::kAttributeNotExists:
      return "attribute_not_exists";
    case Condition::Kind::kAttributeType:
      return "attribute_type";
    case Condition::Kind::kContains:
      return "contains";
    case Condition::Kind::kCompare:
      return "<>";
    default:
      return "";
  }
}

// One condition on one key attribute.
struct Part {
  const Condition* condition;
  std::string attribute;
};

// "pk = :p AND :v < sk" is "sk > :v": DynamoDB accepts the value on either side.
Condition Normalized(const Condition& c) {
  if (c.kind != Condition::Kind::kCompare || c.operands.size() != 2 ||
      c.operands[0].kind != Operand::Kind::kValue || c.operands[1].kind != Operand::Kind::kPath) {
    return c;
  }
  Condition flipped = c;
  std::swap(flipped.operands[0], flipped.operands[1]);
  switch (c.op) {
    case expr::Comparator::kLt:
      flipped.op = expr::Comparator::kGt;
      break;
    case expr::Comparator::kLe:
      flipped.op = expr::Comparator::kGe;
      break;
    case expr::Comparator::kGt:
      flipped.op = expr::Comparator::kLt;
      break;
    case expr::Comparator::kGe:
      flipped.op = expr::Comparator::kLe;
      break;
    default:
      break;
  }
  return flipped;
}

Result<Part> Classify(const Condition& c) {
  bool supported = c.kind == Condition::Kind::kCompare || c.kind == Condition::Kind::kBetween ||
                   c.kind == Condition::Kind::kBeginsWith;
  if (c.kind == Condition::Kind::kCompare && c.op == expr::Comparator::kNe) supported = false;
  if (!supported) {
    std::string op = OperatorName(c);
    if (op.empty()) return NotSupported();
    return Error::Validation("Invalid operator used in KeyConditionExpression: " + op);
  }
  // DynamoDB's messages for a size() operand and for a path into a key
  // attribute (pk.a, sk[0]) rather than the attribute itself.
  int paths = 0;
  for (const Operand& o : c.operands) {
    if (o.kind == Operand::Kind::kSize) {
      return Error::Validation("KeyConditionExpressions cannot contain nested operations");
    }
    if (o.kind != Operand::Kind::kPath) continue;
    if (++paths > 1) {
      return Error::Validation(
          "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
    }
    if (o.path.size() > 1) {
      return Error::Validation("KeyConditionExpressions cannot have conditions on nested attributes");
    }
  }
  const std::string* attr = AttributeOf(c.operands[0]);
  if (!attr) return NotSupported();
  for (size_t i = 1; i < c.operands.size(); ++i) {
    if (!ValueOf(c.operands[i])) return NotSupported();
  }
  return Part{&c, *attr};
}

Status CheckType(const KeyAttribute& key, const v1::AttributeValue& v) {
  if (value::TypeName(v) != key.type) {
    return Error::InvalidParameter("Condition parameter type does not match schema type");
  }
  return Status::Ok();
}

}  // namespace

std::optional<std::string> PrefixEnd(std::string prefix) {
  while (!prefix.empty()) {
    unsigned char last = static_cast<unsigned char>(prefix.back());
    if (last != 0xFF) {
      prefix.back() = static_cast<char>(last + 1);
      return prefix;
    }
    prefix.pop_back();
  }
  return std::nullopt;
}

namespace {

// The operand checks of a condition on a sort-key attribute: value types,
// begins_with on a number, and BETWEEN's order.
Status CheckRangeOperands(const Condition& rc, const KeyAttribute& range) {
  for (size_t i = 1; i < rc.operands.size(); ++i)
    POGI_RETURN_IF_ERROR(CheckType(range, rc.operands[i].value));
  if (rc.kind == Condition::Kind::kBeginsWith && range.type == "N") {
    return Error::Validation(
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
        "function: begins_with, operand type: N");
  }
  if (rc.kind == Condition::Kind::kBetween &&
      value::EncodeKeyValue(rc.operands[1].value) > value::EncodeKeyValue(rc.operands[2].value)) {
    auto shown = [&](const v1::AttributeValue& v) { return range.type == "N" ? v.n() : v.s(); };
    return Error::Validation(
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
        "equal to lower bound; lower bound operand: AttributeValue: {" +
        range.type + ":" + shown(rc.operands[1].value) + "}, upper bound operand: AttributeValue: {" +
        range.type + ":" + shown(rc.operands[2].value) + "}");
  }
  return Status::Ok();
}

// The sort-key bounds of `rc` on a sort key of one attribute (stored as
// that value's encoding).
Status SingleSortBounds(const Condition& rc, const KeyAttribute& range, storage::RangeRead* read) {
  POGI_RETURN_IF_ERROR(CheckRangeOperands(rc, range));
  auto enc = [&](size_t i) { return value::EncodeKeyValue(rc.operands[i].value); };
  switch (rc.kind) {
    case Condition::Kind::kBetween:
      read->sort_lo = enc(1);
      read->sort_hi = enc(2);
      break;
    case Condition::Kind::kBeginsWith: {
      read->sort_lo = enc(1);
      auto end = PrefixEnd(*read->sort_lo);
      if (end) {
        read->sort_hi = *end;
        read->exclude_hi = *end;
      }
      break;
    }
    default:
      switch (rc.op) {
        case expr::Comparator::kEq:
          read->sort_lo = read->sort_hi = enc(1);
          break;
        case expr::Comparator::kLt:
          read->sort_hi = read->exclude_hi = enc(1);
          break;
        case expr::Comparator::kLe:
          read->sort_hi = enc(1);
          break;
        case expr::Comparator::kGt:
          read->sort_lo = read->exclude_lo = enc(1);
          break;
        case expr::Comparator::kGe:
          read->sort_lo = enc(1);
          break;
        case expr::Comparator::kNe:
          return NotSupported();
      }
  }
  return Status::Ok();
}

// Sets the read to the sort keys in [lo, hi): `lo` nullopt is unbounded
// below, `hi` nullopt unbounded above.
void HalfOpen(std::optional<std::string> lo, std::optional<std::string> hi, storage::RangeRead* read) {
  if (lo && !lo->empty()) read->sort_lo = std::move(*lo);
  if (hi) {
    read->sort_hi = *hi;
    read->exclude_hi = std::move(*hi);
  }
}

// The sort-key bounds of a multi-attribute sort key: `prefix` holds the
// elements of the equalities on the attributes before `range`, `rc` is the
// condition on `range` (value/key_tuple.h: the keys with a given element
// sequence are exactly those in [sequence, PrefixEnd(sequence)), and every
// element of a value below v sorts before v's element).
Status MultiSortBounds(const Condition& rc, const KeyAttribute& range, const std::string& prefix,
                       storage::RangeRead* read) {
  POGI_RETURN_IF_ERROR(CheckRangeOperands(rc, range));
  auto with = [&](size_t i) {
    std::string s = prefix;
    value::AppendKeyElement(value::EncodeKeyValue(rc.operands[i].value), &s);
    return s;
  };
  // The end of everything under the prefix (unbounded without one).
  std::optional<std::string> prefix_end = prefix.empty() ? std::nullopt : PrefixEnd(prefix);
  switch (rc.kind) {
    case Condition::Kind::kBetween:
      HalfOpen(with(1), PrefixEnd(with(2)), read);
      break;
    case Condition::Kind::kBeginsWith: {
      std::string start = prefix;
      value::AppendKeyElementPrefix(value::EncodeKeyValue(rc.operands[1].value), &start);
      auto end = PrefixEnd(start);
      HalfOpen(std::move(start), std::move(end), read);
      break;
    }
    default:
      switch (rc.op) {
        case expr::Comparator::kEq: {
          std::string start = with(1);
          auto end = PrefixEnd(start);
          HalfOpen(std::move(start), std::move(end), read);
          break;
        }
        case expr::Comparator::kLt:
          HalfOpen(prefix, with(1), read);
          break;
        case expr::Comparator::kLe:
          HalfOpen(prefix, PrefixEnd(with(1)), read);
          break;
        case expr::Comparator::kGt:
          HalfOpen(PrefixEnd(with(1)), prefix_end, read);
          break;
        case expr::Comparator::kGe:
          HalfOpen(with(1), prefix_end, read);
          break;
        case expr::Comparator::kNe:
          return NotSupported();
      }
  }
  return Status::Ok();
}

bool IsEquality(const Condition& c) {
  return c.kind == Condition::Kind::kCompare && c.op == expr::Comparator::kEq;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// A key schema of one partition-key attribute and at most one sort-key
// attribute: DynamoDB's classic rules and messages.
Result<storage::RangeRead> CompileSingle(const std::vector<Part>& parts, const KeyAttribute& hash,
                                         const std::optional<KeyAttribute>& range) {
  if (parts.size() > 2) return Error::Validation("Conditions can be of length 1 or 2 only");

  const Part* on_hash = nullptr;
  const Part* on_range = nullptr;
  for (const Part& p : parts) {
    if (p.attribute == hash.name && !on_hash) {
      on_hash = &p;
    } else if (range && p.attribute == range->name && !on_range) {
      on_range = &p;
    } else if (p.attribute != hash.name && (!range || p.attribute != range->name)) {
      // A condition on an attribute that is not a key of what is queried.
      return Error::Validation("Query condition missed key schema element: " +
                               (on_hash || parts.size() == 1 || !range ? hash.name : range->name));
    } else {
      return Error::Validation("KeyConditionExpressions must only contain one condition per key");
    }
  }
  if (!on_hash) return Error::Validation("Query condition missed key schema element: " + hash.name);
  const Condition& hc = *on_hash->condition;
  if (!IsEquality(hc)) return NotSupported();
  POGI_RETURN_IF_ERROR(CheckType(hash, hc.operands[1].value));

  storage::RangeRead read;
  read.partition = value::EncodeKeyValue(hc.operands[1].value);
  if (on_range) POGI_RETURN_IF_ERROR(SingleSortBounds(*on_range->condition, *range, &read));
  return read;
}

// A global index with multi-attribute keys: equality on every partition-key
// attribute; on the sort-key attributes, conditions from the first one on
// without a gap, every one but the last an equality. The messages are
// DynamoDB Local 3.3.1's (the service's own are not on record).
Result<storage::RangeRead> CompileMulti(const std::vector<Part>& parts, const KeySchema& keys) {
  if (parts.size() > keys.hash.size() + keys.range.size()) return NotSupported();
  std::vector<const Condition*> on_hash(keys.hash.size()), on_range(keys.range.size());
  bool unknown = false;
  for (const Part& p : parts) {
    const Condition** slot = nullptr;
    for (size_t i = 0; i < keys.hash.size(); ++i) {
      if (keys.hash[i].name == p.attribute) slot = &on_hash[i];
    }
    for (size_t i = 0; i < keys.range.size(); ++i) {
      if (keys.range[i].name == p.attribute) slot = &on_range[i];
    }
    if (!slot) {
      unknown = true;
      continue;
    }
    if (*slot) return Error::Validation("KeyConditionExpressions must only contain one condition per key");
    *slot = p.condition;
  }
  if (unknown) {
    // Named after the first key attribute left without a condition (the
    // single-attribute rule's choice); DynamoDB Local names none.
    std::string missed;
    for (size_t i = 0; i < keys.hash.size() && missed.empty(); ++i) {
      if (!on_hash[i]) missed = keys.hash[i].name;
    }
    for (size_t i = 0; i < keys.range.size() && missed.empty(); ++i) {
      if (!on_range[i]) missed = keys.range[i].name;
    }
    return Error::Validation("Query condition missed key schema element: " + missed);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < keys.hash.size(); ++i) {
    if (!on_hash[i] || !IsEquality(*on_hash[i])) missing.push_back(keys.hash[i].name);
  }
  if (!missing.empty()) {
    return Error::Validation("HASH key attributes " + JoinNames(missing) +
                             " must have equality conditions specified in the query");
  }
  int last = -1;
  for (size_t i = 0; i < keys.range.size(); ++i) {
    if (on_range[i]) last = static_cast<int>(i);
  }
  for (int i = 0; i < last; ++i) {
    if (!on_range[i] || !IsEquality(*on_range[i])) missing.push_back(keys.range[i].name);
  }
  if (!missing.empty()) {
    return Error::Validation("RANGE key attributes " + JoinNames(missing) +
                             " must have equality conditions specified in the query because a condition "
                             "is present on key attribute " +
                             keys.range[last].name);
  }
  std::vector<const v1::AttributeValue*> values;
  for (size_t i = 0; i < keys.hash.size(); ++i) {
    POGI_RETURN_IF_ERROR(CheckType(keys.hash[i], on_hash[i]->operands[1].value));
    values.push_back(&on_hash[i]->operands[1].value);
  }
  storage::RangeRead read;
  read.partition = value::EncodeKeyTuple(values);
  if (last < 0) return read;
  if (keys.range.size() == 1) {
    POGI_RETURN_IF_ERROR(SingleSortBounds(*on_range[0], keys.range[0], &read));
    return read;
  }
  std::string prefix;
  for (int i = 0; i < last; ++i) {
    POGI_RETURN_IF_ERROR(CheckType(keys.range[i], on_range[i]->operands[1].value));
    value::AppendKeyElement(value::EncodeKeyValue(on_range[i]->operands[1].value), &prefix);
  }
  POGI_RETURN_IF_ERROR(MultiSortBounds(*on_range[last], keys.range[last], prefix, &read));
  return read;
}

}  // namespace

Status CheckLegacyKeyConditions(const google::protobuf::Map<std::string, v1::Condition>& conditions,
                                const KeySchema& keys) {
  auto indexable = [](const std::string& op) {
    return op == "EQ" || op == "LE" || op == "LT" || op == "GE" || op == "GT" || op == "BEGINS_WITH" ||
           op == "BETWEEN";
  };
  if (keys.hash.size() != 1 || keys.range.size() > 1) return Status::Ok();
  std::vector<const KeyAttribute*> schema = {&keys.hash[0]};
  if (!keys.range.empty()) schema.push_back(&keys.range[0]);
  for (size_t i = 0; i < schema.size(); ++i) {
    const KeyAttribute& key = *schema[i];
    if (schema.size() == 1 && conditions.size() > 1) return NotSupported();
    auto it = conditions.find(key.name);
    if (it == conditions.end()) {
      if (i == 0 || conditions.size() == 2) {
        return Error::Validation("Query condition missed key schema element: " + key.name);
      }
      continue;
    }
    const std::string& op = it->second.comparison_operator();
    if (!indexable(op))
      return Error::Validation("Attempted conditional constraint is not an indexable operation");
    for (const auto& v : it->second.attribute_value_list()) POGI_RETURN_IF_ERROR(CheckType(key, v));
    if (i == 0 && op != "EQ") return NotSupported();
  }
  return Status::Ok();
}

Result<storage::RangeRead> CompileKeyCondition(const Condition& condition, const KeySchema& keys) {
  std::vector<const Condition*> leaves;
  if (condition.kind == Condition::Kind::kAnd) {
    for (const auto& child : condition.children) {
      if (child.kind == Condition::Kind::kAnd) {
        for (const auto& grandchild : child.children) leaves.push_back(&grandchild);
      } else {
        leaves.push_back(&child);
      }
    }
  } else {
    leaves.push_back(&condition);
  }
  std::vector<Condition> normalized;
  normalized.reserve(leaves.size());
  for (const Condition* leaf : leaves) normalized.push_back(Normalized(*leaf));
  std::vector<Part> parts;
  for (const Condition& leaf : normalized) {
    POGI_ASSIGN_OR_RETURN(auto part, Classify(leaf));
    parts.push_back(std::move(part));
  }
  if (keys.hash.size() == 1 && keys.range.size() <= 1) {
    return CompileSingle(parts, keys.hash[0],
                         keys.range.empty() ? std::nullopt : std::optional<KeyAttribute>(keys.range[0]));
  }
  return CompileMulti(parts, keys);
}

Status CheckFilterKeys(const expr::Condition& filter, const KeySchema& keys, bool legacy) {
  std::set<std::string> names;
  CollectNames(filter, &names);
  for (const auto* part : {&keys.hash, &keys.range}) {
    for (const KeyAttribute& key : *part) {
      if (names.count(key.name)) {
        return Error::Validation(
            std::string(legacy ? "QueryFilter can only contain non-key attributes"
                               : "Filter Expression can only contain non-primary key attributes") +
            ": Primary key attribute: " + key.name);
      }
    }
  }
  return Status::Ok();
}

}  // namespace pogi::service
