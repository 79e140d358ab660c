// The UpdateExpression grammar: SET / REMOVE / ADD / DELETE sections, SET's
// values (operand, operand + operand, operand - operand) and the update
// functions, with their parse-time checks.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "service/expr/parser_internal.h"
#include "service/expr/value_ops.h"

namespace pogi::expr::internal {

void Parser::CheckUpdateFunction(const PExpr& call) {
  size_t arity = 0;
  if (call.name == "if_not_exists" || call.name == "list_append" || call.name == "+" || call.name == "-") {
    arity = 2;
  }
  if (arity == 0) {
    Note(kUnknownFunction, "Invalid function name; function: " + call.name);
    return;
  }
  if (call.args.size() != arity) {
    Note(kFunction,
         "Incorrect number of operands for operator or function; operator or "
         "function: " +
             call.name + ", number of operands: " + std::to_string(call.args.size()));
    return;
  }
  if (call.name == "if_not_exists") {
    if (call.args[0].k != PExpr::K::kPath) {
      Note(kFunction, "Operator or function requires a document path; operator or function: " + call.name);
    }
    return;
  }
  const char* want = call.name == "list_append" ? "L" : "N";
  for (const PExpr& arg : call.args) {
    if (arg.k == PExpr::K::kValue && arg.value && TypeName(*arg.value) != want) {
      OperandTypeError(call.name, std::string(TypeName(*arg.value)));
      return;
    }
  }
}

// The right side of SET: operand, or operand + operand, or operand - operand,
// optionally in one pair of parentheses.
bool Parser::ParseSetValue(PExpr* out) {
  bool parenthesized = false;
  if (Peek().kind == TokenKind::kLParen && match_[pos_] != kNoMatch) {
    // "(x + y)" is the value in parentheses; "(x) + y" starts with an operand.
    size_t close = match_[pos_];
    const Token& after = tokens_[close + 1 < tokens_.size() ? close + 1 : close];
    if (after.kind != TokenKind::kPlus && after.kind != TokenKind::kMinus) {
      // Either "(x + y)" or "(x)"; both parse as a parenthesized set value.
      parenthesized = true;
      ++pos_;
    }
  }
  PExpr first;
  if (!ParseOperand(&first, 1)) return false;
  if (Peek().kind == TokenKind::kPlus || Peek().kind == TokenKind::kMinus) {
    std::string op(Peek().text);
    ++pos_;
    PExpr second;
    if (!ParseOperand(&second, 1)) return false;
    out->k = PExpr::K::kCall;
    out->name = op;
    out->args.push_back(std::move(first));
    out->args.push_back(std::move(second));
    CheckUpdateFunction(*out);
  } else {
    *out = std::move(first);
  }
  if (parenthesized) return Expect(TokenKind::kRParen);
  return true;
}

bool Parser::ParseSections(Update* u) {
  std::vector<Path> paths;  // every path written, for overlap checks
  std::array<bool, 4> seen = {false, false, false, false};
  static constexpr std::array<std::string_view, 4> kSections = {"SET", "REMOVE", "ADD", "DELETE"};
  do {
    int section = -1;
    for (int i = 0; i < 4; ++i) {
      if (PeekKeyword(kSections[i])) section = i;
    }
    if (section < 0) return SyntaxError();
    ++pos_;
    while (true) {
      Path path;
      if (!ParsePath(&path)) return false;
      CheckPathAgainst(paths, path);
      paths.push_back(path);
      if (section == 0) {
        if (!Expect(TokenKind::kEq)) return false;
        PExpr value;
        if (!ParseSetValue(&value)) return false;
        u->sets.push_back({std::move(path), ToOperand(std::move(value))});
      } else if (section == 1) {
        u->removes.push_back(std::move(path));
      } else {
        const Token& t = Peek();
        if (t.kind != TokenKind::kValueRef) return SyntaxError();
        ++pos_;
        PExpr value;
        ResolveValue(t, &value);
        const char* action = section == 2 ? "ADD" : "DELETE";
        if (value.value) {
          std::string_view type = LongTypeName(*value.value);
          if (!type.empty() && !(section == 2 && value.value->has_n())) {
            Note(kOperand, "Incorrect operand type for operator or function; operator: " +
                               std::string(action) + ", operand type: " + std::string(type));
          }
        }
        Update::AddOrDelete action_value{std::move(path), value.value ? *value.value : AttributeValue()};
        (section == 2 ? u->adds : u->deletes).push_back(std::move(action_value));
      }
      if (Peek().kind != TokenKind::kComma) break;
      ++pos_;
    }
    if (seen[section]) {
      Note(kSection, "The \"" + std::string(kSections[section]) +
                         "\" section can only be used once in an update expression;");
    }
    seen[section] = true;
  } while (Peek().kind != TokenKind::kEof);
  return true;
}

}  // namespace pogi::expr::internal
