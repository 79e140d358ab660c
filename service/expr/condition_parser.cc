// The condition grammar of DynamoDB's expressions (ConditionExpression,
// FilterExpression, KeyConditionExpression): OR / AND / NOT, comparisons,
// BETWEEN, IN and the condition functions, with their parse-time checks.
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "service/expr/parser_internal.h"
#include "service/expr/value_ops.h"

namespace pogi::expr::internal {

void Parser::CheckConditionFunction(const PExpr& call) {
  static constexpr std::array<std::pair<std::string_view, size_t>, 6> kFunctions = {
      {{"attribute_exists", 1},
       {"attribute_not_exists", 1},
       {"attribute_type", 2},
       {"begins_with", 2},
       {"contains", 2},
       {"size", 1}}};
  size_t arity = 0;
  for (const auto& [name, n] : kFunctions) {
    if (call.name == name) arity = n;
  }
  if (arity == 0) {
    // The update functions are known, but not here.
    bool update_function = call.name == "if_not_exists" || call.name == "list_append";
    Note(kUnknownFunction,
         update_function ? "The function is not allowed in a condition expression; function: " + call.name
                         : "Invalid function name; function: " + call.name);
    return;
  }
  if (call.args.size() != arity) {
    Note(kOperand,
         "Incorrect number of operands for operator or function; operator or "
         "function: " +
             call.name + ", number of operands: " + std::to_string(call.args.size()));
    return;
  }
  if (arity == 2) CheckDistinct(call.name, call.args[0], call.args[1]);
  const std::string& name = call.name;
  if (name == "attribute_exists" || name == "attribute_not_exists") {
    if (call.args[0].k != PExpr::K::kPath) {
      Note(kFunction, "Operator or function requires a document path; operator or function: " + name);
    }
  } else if (name == "begins_with") {
    for (const PExpr& arg : call.args) {
      std::string type = TypeAtParse(arg);
      if (!type.empty() && type != "S" && type != "B") return OperandTypeError(name, type);
    }
  } else if (name == "attribute_type") {
    std::string type = TypeAtParse(call.args[1]);
    if (type != "S") {
      return OperandTypeError(name, type.empty() ? "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}" : type);
    }
    static constexpr std::array<std::string_view, 10> kTypes = {"S",    "N", "B",  "NULL", "SS",
                                                                "BOOL", "L", "BS", "NS",   "M"};
    const std::string& s = call.args[1].value->s();
    if (std::find(kTypes.begin(), kTypes.end(), s) == kTypes.end()) {
      Note(kFunction,
           "Invalid attribute type name found; type: " + s + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
    }
  } else if (name == "size") {
    std::string type = TypeAtParse(call.args[0]);
    if (type == "N" || type == "BOOL" || type == "NULL") OperandTypeError(name, type);
  }
}

// ---------------------------------------------------------- conditions

bool Parser::ParseOr(Condition* out, size_t depth) {
  Condition first;
  if (!ParseAnd(&first, depth)) return false;
  if (!PeekKeyword("OR")) {
    *out = std::move(first);
    return true;
  }
  out->kind = Condition::Kind::kOr;
  out->children.push_back(std::move(first));
  while (PeekKeyword("OR")) {
    ++pos_;
    Condition next;
    if (!ParseAnd(&next, depth)) return false;
    out->children.push_back(std::move(next));
  }
  return true;
}

bool Parser::ParseAnd(Condition* out, size_t depth) {
  Condition first;
  if (!ParseNot(&first, depth)) return false;
  if (!PeekKeyword("AND")) {
    *out = std::move(first);
    return true;
  }
  out->kind = Condition::Kind::kAnd;
  out->children.push_back(std::move(first));
  while (PeekKeyword("AND")) {
    ++pos_;
    Condition next;
    if (!ParseNot(&next, depth)) return false;
    out->children.push_back(std::move(next));
  }
  return true;
}

bool Parser::ParseNot(Condition* out, size_t depth) {
  // NOT NOT ... is iterated, not recursed; the nesting bound still applies.
  size_t nots = 0;
  while (PeekKeyword("NOT")) {
    ++pos_;
    if (++nots + depth > kMaxNesting) return SyntaxError();
  }
  Condition inner;
  if (!ParsePrimary(&inner, depth + nots)) return false;
  if (nots % 2 == 1) {
    out->kind = Condition::Kind::kNot;
    out->children.push_back(std::move(inner));
  } else {
    *out = std::move(inner);
  }
  return true;
}

bool Parser::ParsePrimary(Condition* out, size_t depth) {
  if (depth > kMaxNesting) return SyntaxError();
  if (Peek().kind == TokenKind::kLParen) {
    size_t close = match_[pos_];
    bool operand_group = false;
    if (close != kNoMatch && close + 1 < tokens_.size()) {
      const Token& after = tokens_[close + 1];
      // A path going on after the group, "(b.c).d", makes it an operand
      // too: the syntax error is then on the "." (DynamoDB Local 3.3.1).
      operand_group = IsComparator(after.kind) || after.kind == TokenKind::kDot ||
                      after.kind == TokenKind::kLBracket ||
                      (after.kind == TokenKind::kIdentifier &&
                       (EqualsIgnoreCase(after.text, "BETWEEN") || EqualsIgnoreCase(after.text, "IN")));
    }
    if (!operand_group) {
      if (Peek(1).kind == TokenKind::kLParen && close != kNoMatch && match_[pos_ + 1] == close - 1) {
        Note(kParens, "The expression has redundant parentheses;");
      }
      ++pos_;
      if (!ParseOr(out, depth + 1)) return false;
      return Expect(TokenKind::kRParen);
    }
  }
  PExpr left;
  if (!ParseOperand(&left, depth + 1)) return false;
  const Token& t = Peek();
  if (IsComparator(t.kind)) {
    ++pos_;
    PExpr right;
    if (!ParseOperand(&right, depth + 1)) return false;
    CheckMisused({left, right});
    CheckDistinct(t.text, left, right);
    // An ordering comparison with a constant it cannot order (a list, map,
    // set, boolean or null) is refused at parse time; the same type coming
    // from the item only makes the comparison false. The text follows
    // DynamoDB's operand-type message for functions.
    if (t.kind == TokenKind::kLt || t.kind == TokenKind::kLe || t.kind == TokenKind::kGt ||
        t.kind == TokenKind::kGe) {
      for (const PExpr* e : {&left, &right}) {
        if (e->k != PExpr::K::kValue) continue;
        std::string type = TypeAtParse(*e);
        if (!type.empty() && type != "N" && type != "S" && type != "B") {
          OperandTypeError(std::string(t.text), type);
          break;
        }
      }
    }
    out->kind = Condition::Kind::kCompare;
    out->op = t.kind == TokenKind::kEq   ? Comparator::kEq
              : t.kind == TokenKind::kNe ? Comparator::kNe
              : t.kind == TokenKind::kLt ? Comparator::kLt
              : t.kind == TokenKind::kLe ? Comparator::kLe
              : t.kind == TokenKind::kGt ? Comparator::kGt
                                         : Comparator::kGe;
    out->operands.push_back(ToOperand(std::move(left)));
    out->operands.push_back(ToOperand(std::move(right)));
  } else if (PeekKeyword("BETWEEN")) {
    ++pos_;
    PExpr low, high;
    if (!ParseOperand(&low, depth + 1)) return false;
    if (!PeekKeyword("AND")) return SyntaxError();
    ++pos_;
    if (!ParseOperand(&high, depth + 1)) return false;
    CheckMisused({left, low, high});
    // A constant BETWEEN cannot order (a list, map, set, boolean or null) is
    // refused at parse time, before the bounds are compared (behaviours.md
    // V30 [now]; the text is DynamoDB Local 2026-05-28's, as for "<" above).
    bool typed = true;
    for (const PExpr* e : {&left, &low, &high}) {
      if (e->k != PExpr::K::kValue) continue;
      std::string type = TypeAtParse(*e);
      if (!type.empty() && type != "N" && type != "S" && type != "B") {
        OperandTypeError("BETWEEN", type);
        typed = false;
        break;
      }
    }
    if (typed) CheckBetweenBounds(low, high);
    out->kind = Condition::Kind::kBetween;
    out->operands.push_back(ToOperand(std::move(left)));
    out->operands.push_back(ToOperand(std::move(low)));
    out->operands.push_back(ToOperand(std::move(high)));
  } else if (PeekKeyword("IN")) {
    ++pos_;
    if (!Expect(TokenKind::kLParen)) return false;
    std::vector<PExpr> list;
    list.push_back(std::move(left));
    while (true) {
      PExpr item;
      if (!ParseOperand(&item, depth + 1)) return false;
      list.push_back(std::move(item));
      if (Peek().kind != TokenKind::kComma) break;
      ++pos_;
    }
    if (!Expect(TokenKind::kRParen)) return false;
    if (list.size() - 1 > kMaxInOperands) {
      return Fatal("The IN operator is provided with too many operands; number of operands: " +
                   std::to_string(list.size() - 1));
    }
    CheckMisused(list);
    out->kind = Condition::Kind::kIn;
    for (PExpr& e : list) out->operands.push_back(ToOperand(std::move(e)));
  } else if (left.k == PExpr::K::kCall) {
    if (left.name == "size") {
      Note(kMisusedFunction,
           "The function is not allowed to be used this way in an expression; function: size");
    }
    out->kind = left.name == "attribute_exists"       ? Condition::Kind::kAttributeExists
                : left.name == "attribute_not_exists" ? Condition::Kind::kAttributeNotExists
                : left.name == "attribute_type"       ? Condition::Kind::kAttributeType
                : left.name == "begins_with"          ? Condition::Kind::kBeginsWith
                                                      : Condition::Kind::kContains;
    for (PExpr& e : left.args) out->operands.push_back(ToOperand(std::move(e)));
  } else {
    return SyntaxError();
  }
  PromoteLeafErrors();
  return true;
}

void Parser::CheckBetweenBounds(const PExpr& low, const PExpr& high) {
  if (low.k != PExpr::K::kValue || high.k != PExpr::K::kValue || !low.value || !high.value) {
    return;
  }
  std::string bounds = "lower bound operand: " + DescribeForMessage(*low.value) +
                       ", upper bound operand: " + DescribeForMessage(*high.value);
  if (low.value->value_case() != high.value->value_case()) {
    Note(kFunction, "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
    return;
  }
  auto order = CompareOrdered(*low.value, *high.value);
  if (order && *order > 0) {
    Note(kFunction,
         "The BETWEEN operator requires upper bound to be greater than or equal to "
         "lower bound; " +
             bounds);
  }
}

}  // namespace pogi::expr::internal
