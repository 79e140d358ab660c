// Key condition analysis: which comparisons on which key attributes.
#include "service/key_condition.h"

#include "service/value/item.h"

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

Result<storage::RangeRead> CompileKeyCondition(const Condition& condition, const KeyAttribute& hash,
                                               const std::optional<KeyAttribute>& range) {
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
  if (hc.kind != Condition::Kind::kCompare || hc.op != expr::Comparator::kEq) return NotSupported();
  POGI_RETURN_IF_ERROR(CheckType(hash, hc.operands[1].value));

  storage::RangeRead read;
  read.partition = value::EncodeKeyValue(hc.operands[1].value);
  if (!on_range) return read;

  const Condition& rc = *on_range->condition;
  for (size_t i = 1; i < rc.operands.size(); ++i)
    POGI_RETURN_IF_ERROR(CheckType(*range, rc.operands[i].value));
  auto enc = [&](size_t i) { return value::EncodeKeyValue(rc.operands[i].value); };
  switch (rc.kind) {
    case Condition::Kind::kBetween:
      read.sort_lo = enc(1);
      read.sort_hi = enc(2);
      if (*read.sort_lo > *read.sort_hi) {
        return Error::Validation(
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
            "equal to lower bound; lower bound operand: AttributeValue: {" +
            range->type + ":" + (range->type == "N" ? rc.operands[1].value.n() : rc.operands[1].value.s()) +
            "}, upper bound operand: AttributeValue: {" + range->type + ":" +
            (range->type == "N" ? rc.operands[2].value.n() : rc.operands[2].value.s()) + "}");
      }
      break;
    case Condition::Kind::kBeginsWith: {
      if (range->type == "N") {
        return Error::Validation(
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
            "function: begins_with, operand type: N");
      }
      read.sort_lo = enc(1);
      auto end = PrefixEnd(*read.sort_lo);
      if (end) {
        read.sort_hi = *end;
        read.exclude_hi = *end;
      }
      break;
    }
    default:
      switch (rc.op) {
        case expr::Comparator::kEq:
          read.sort_lo = read.sort_hi = enc(1);
          break;
        case expr::Comparator::kLt:
          read.sort_hi = read.exclude_hi = enc(1);
          break;
        case expr::Comparator::kLe:
          read.sort_hi = enc(1);
          break;
        case expr::Comparator::kGt:
          read.sort_lo = read.exclude_lo = enc(1);
          break;
        case expr::Comparator::kGe:
          read.sort_lo = enc(1);
          break;
        case expr::Comparator::kNe:
          return NotSupported();
      }
  }
  return read;
}

}  // namespace pogi::service
