// Recursive-descent parsers of DynamoDB's condition, update and projection
// expressions: the Parser's set-up, prechecks and errors, document paths and
// operands, and the three entry points. Conditions are in condition_parser.cc,
// update sections in update_parser.cc. See parser.h for the contract and the
// order of errors.
#include "service/expr/parser.h"

#include <optional>
#include <string>
#include <vector>

#include "service/expr/lexer.h"
#include "service/expr/parser_internal.h"
#include "service/expr/reserved_words.h"
#include "service/expr/value_ops.h"

namespace pogi::expr {

std::string_view KindName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::kCondition:
      return "ConditionExpression";
    case ExpressionKind::kFilter:
      return "FilterExpression";
    case ExpressionKind::kKeyCondition:
      return "KeyConditionExpression";
    case ExpressionKind::kUpdate:
      return "UpdateExpression";
    case ExpressionKind::kProjection:
      return "ProjectionExpression";
    case ExpressionKind::kSearchCondition:
      return "SearchConditionExpression";
  }
  return "";
}

std::string PathToString(const Path& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += ", ";
    if (path[i].is_index) {
      out += "[" + std::to_string(path[i].index) + "]";
    } else {
      out += path[i].name;
    }
  }
  return out + "]";
}

namespace internal {

Parser::Parser(std::string_view text, ExpressionKind kind, Substitutions& subs)
    : text_(text), kind_(kind), subs_(subs), tokens_(Tokenize(text)) {
  // Matching parentheses, so that a '(' can be classified (group of
  // conditions or parenthesized operand) in O(1).
  match_.assign(tokens_.size(), kNoMatch);
  std::vector<size_t> stack;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    if (tokens_[i].kind == TokenKind::kLParen) {
      stack.push_back(i);
    } else if (tokens_[i].kind == TokenKind::kRParen && !stack.empty()) {
      match_[stack.back()] = i;
      stack.pop_back();
    }
  }
}

// Checks common to every expression kind, before any parsing.
std::optional<Error> Parser::Precheck() const {
  if (text_.empty()) return Invalid("The expression can not be empty;");
  if (text_.size() > kMaxExpressionBytes) {
    return Invalid("Expression size has exceeded the maximum allowed size; expression size: " +
                   std::to_string(text_.size()));
  }
  return std::nullopt;
}

// DynamoDB allows 300 operators and functions per expression and reports
// the count at which it stopped: "operator count: 301".
std::optional<Error> Parser::CheckOperatorCount() const {
  size_t count = 0;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const Token& t = tokens_[i];
    bool is_operator = false;
    switch (t.kind) {
      case TokenKind::kEq:
      case TokenKind::kNe:
      case TokenKind::kLt:
      case TokenKind::kLe:
      case TokenKind::kGt:
      case TokenKind::kGe:
      case TokenKind::kPlus:
      case TokenKind::kMinus:
        is_operator = true;
        break;
      case TokenKind::kIdentifier: {
        bool call = i + 1 < tokens_.size() && tokens_[i + 1].kind == TokenKind::kLParen;
        is_operator = call || EqualsIgnoreCase(t.text, "AND") || EqualsIgnoreCase(t.text, "OR") ||
                      EqualsIgnoreCase(t.text, "NOT") || EqualsIgnoreCase(t.text, "BETWEEN") ||
                      EqualsIgnoreCase(t.text, "IN");
        break;
      }
      default:
        break;
    }
    if (is_operator && ++count > kMaxOperators) {
      return Invalid("The expression contains too many operators; operator count: " + std::to_string(count));
    }
  }
  return std::nullopt;
}

Result<Condition> Parser::ParseConditionTop() {
  if (auto e = Precheck()) return *e;
  Condition c;
  if (!ParseOr(&c, 0)) return *fatal_;
  if (!ExpectEof()) return *fatal_;
  if (auto e = CheckOperatorCount()) return *e;
  if (auto e = Report({kParens, kUnknownFunction, kMisusedFunction, kReserved, kConditionLeaf})) {
    return *e;
  }
  return c;
}

Result<Update> Parser::ParseUpdateTop() {
  if (auto e = Precheck()) return *e;
  Update u;
  if (!ParseSections(&u)) return *fatal_;
  if (auto e = CheckOperatorCount()) return *e;
  if (auto e = Report({kReserved, kUnknownFunction, kSection, kAttrName, kAttrVal, kOverlap, kConflict,
                       kOperand, kFunction})) {
    return *e;
  }
  return u;
}

Result<Projection> Parser::ParseProjectionTop() {
  if (auto e = Precheck()) return *e;
  Projection p;
  while (true) {
    Path path;
    if (!ParsePath(&path)) return *fatal_;
    CheckPathAgainst(p.paths, path);
    p.paths.push_back(std::move(path));
    if (Peek().kind != TokenKind::kComma) break;
    ++pos_;
  }
  if (!ExpectEof()) return *fatal_;
  if (auto e = Report({kReserved, kAttrNameVal, kOverlap, kConflict})) return *e;
  return p;
}

// DynamoDB's syntax error at the current token: the token, and "near" the
// source text from the token before it to the token after it.
bool Parser::SyntaxError() {
  const Token& t = tokens_[pos_];
  size_t begin = pos_ > 0 ? tokens_[pos_ - 1].begin : t.begin;
  size_t end = t.kind == TokenKind::kEof   ? text_.size()
               : pos_ + 1 < tokens_.size() ? tokens_[pos_ + 1].end
                                           : t.end;
  std::string message = "Syntax error; token: \"" + std::string(t.text) + "\", near: \"" +
                        std::string(text_.substr(begin, end - begin)) + "\"";
  fatal_ = Invalid(message);
  return false;
}

std::optional<Error> Parser::Report(std::initializer_list<Slot> order) const {
  for (Slot s : order) {
    if (errors_[s]) return Invalid(*errors_[s]);
  }
  return std::nullopt;
}

// DynamoDB settles the per-condition errors at the first leaf condition
// that has any: undefined substitution, operand count, distinctness, then
// function/operand checks.
void Parser::PromoteLeafErrors() {
  if (errors_[kConditionLeaf]) return;
  for (Slot s : {kAttrNameVal, kOperand, kDistinct, kFunction}) {
    if (errors_[s]) {
      errors_[kConditionLeaf] = errors_[s];
      return;
    }
  }
}

// Words that are grammar keywords in this kind of expression and so can
// never start a path.
bool Parser::IsGrammarKeyword(std::string_view word) const {
  if (IsConditionKind()) {
    for (std::string_view k : {"AND", "OR", "NOT", "BETWEEN", "IN"}) {
      if (EqualsIgnoreCase(word, k)) return true;
    }
  } else if (kind_ == ExpressionKind::kUpdate) {
    for (std::string_view k : {"SET", "REMOVE", "ADD", "DELETE"}) {
      if (EqualsIgnoreCase(word, k)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------- paths

// One name step: identifier (reserved words are an error) or #name.
bool Parser::ParseName(Path* path) {
  const Token& t = Peek();
  if (t.kind == TokenKind::kIdentifier && !IsGrammarKeyword(t.text)) {
    if (IsReservedWord(t.text)) {
      Note(kReserved, "Attribute name is a reserved keyword; reserved keyword: " + std::string(t.text));
    }
    path->push_back({false, std::string(t.text), 0});
  } else if (t.kind == TokenKind::kNameRef) {
    const std::string* name = nullptr;
    Slot slot = kind_ == ExpressionKind::kUpdate ? kAttrName : kAttrNameVal;
    if (!errors_[slot]) {
      name = subs_.Name(t.text);
      if (name == nullptr) {
        Note(slot,
             "An expression attribute name used in the document path is not defined; "
             "attribute name: " +
                 std::string(t.text));
      }
    }
    path->push_back({false, name ? *name : std::string(t.text), 0});
  } else {
    return SyntaxError();
  }
  ++pos_;
  return true;
}

bool Parser::ParsePath(Path* path) {
  if (!ParseName(path)) return false;
  while (true) {
    if (Peek().kind == TokenKind::kDot) {
      ++pos_;
      if (!ParseName(path)) return false;
    } else if (Peek().kind == TokenKind::kLBracket) {
      ++pos_;
      const Token& t = Peek();
      if (t.kind != TokenKind::kNumber) return SyntaxError();
      uint64_t index = 0;
      for (char c : t.text) {
        index = index * 10 + static_cast<uint64_t>(c - '0');
        if (index > 0x7fffffff) {
          // Not an int32: DynamoDB's own message (an index within range but
          // past the list's end only finds nothing).
          fatal_ =
              Invalid("List index is not within the allowable range; index: [" + std::string(t.text) + "]");
          return false;
        }
      }
      ++pos_;
      if (!Expect(TokenKind::kRBracket)) return false;
      path->push_back({true, {}, static_cast<uint32_t>(index)});
    } else {
      break;
    }
    if (path->size() > kMaxPathDepth) {
      // DynamoDB counts the levels of the whole path; report them all.
      size_t levels = path->size();
      while (Peek().kind == TokenKind::kDot || Peek().kind == TokenKind::kLBracket) {
        pos_ += Peek().kind == TokenKind::kDot ? 2 : 3;
        ++levels;
      }
      return Fatal("The document path has too many nesting levels; nesting levels: " +
                   std::to_string(levels));
    }
  }
  return true;
}

// Records DynamoDB's overlap (one path a prefix of another) and conflict
// (a name where the other has an index) errors of `path` against earlier ones.
void Parser::CheckPathAgainst(const std::vector<Path>& earlier, const Path& path) {
  if (errors_[kOverlap]) return;
  for (const Path& other : earlier) {
    size_t n = std::min(other.size(), path.size());
    bool related = true;
    for (size_t i = 0; i < n; ++i) {
      if (other[i].is_index != path[i].is_index) {
        Note(kConflict,
             "Two document paths conflict with each other; must remove or rewrite "
             "one of these paths; path one: " +
                 PathToString(other) + ", path two: " + PathToString(path));
        related = false;
        break;
      }
      if (!(other[i] == path[i])) {
        related = false;
        break;
      }
    }
    if (related) {
      Note(kOverlap,
           "Two document paths overlap with each other; must remove or rewrite one "
           "of these paths; path one: " +
               PathToString(other) + ", path two: " + PathToString(path));
      return;
    }
  }
}

// ------------------------------------------------- operands and their checks

bool Parser::ResolveValue(const Token& t, PExpr* out) {
  out->k = PExpr::K::kValue;
  Slot slot = kind_ == ExpressionKind::kUpdate ? kAttrVal : kAttrNameVal;
  if (errors_[slot]) return true;
  out->value = subs_.Value(t.text);
  if (out->value == nullptr) {
    Note(slot,
         "An expression attribute value used in expression is not defined; "
         "attribute value: " +
             std::string(t.text));
  }
  return true;
}

// operand := '(' operand ')' | name '(' args ')' | :value | path
bool Parser::ParseOperand(PExpr* out, size_t depth) {
  if (depth > kMaxNesting) return SyntaxError();
  const Token& t = Peek();
  if (t.kind == TokenKind::kLParen) {
    if (IsConditionKind() && Peek(1).kind == TokenKind::kLParen && match_[pos_] != kNoMatch &&
        match_[pos_ + 1] == match_[pos_] - 1) {
      Note(kParens, "The expression has redundant parentheses;");
    }
    ++pos_;
    if (!ParseOperand(out, depth + 1)) return false;
    return Expect(TokenKind::kRParen);
  }
  if (t.kind == TokenKind::kValueRef) {
    ++pos_;
    return ResolveValue(t, out);
  }
  if (t.kind == TokenKind::kIdentifier && Peek(1).kind == TokenKind::kLParen && !IsGrammarKeyword(t.text)) {
    out->k = PExpr::K::kCall;
    out->name = std::string(t.text);
    pos_ += 2;
    while (true) {
      PExpr arg;
      if (!ParseOperand(&arg, depth + 1)) return false;
      out->args.push_back(std::move(arg));
      if (Peek().kind != TokenKind::kComma) break;
      ++pos_;
    }
    if (!Expect(TokenKind::kRParen)) return false;
    if (IsConditionKind()) {
      CheckMisused(out->args);
      CheckConditionFunction(*out);
    } else {
      CheckUpdateFunction(*out);
    }
    return true;
  }
  out->k = PExpr::K::kPath;
  return ParsePath(&out->path);
}

// The type DynamoDB knows at parse time: a literal's, "N" for size(), "BOOL"
// for other calls, "" for paths.
std::string Parser::TypeAtParse(const PExpr& e) {
  if (e.k == PExpr::K::kValue) return e.value ? std::string(TypeName(*e.value)) : "";
  if (e.k == PExpr::K::kCall) return e.name == "size" ? "N" : "BOOL";
  return "";
}

// A boolean function used where a value is expected.
void Parser::CheckMisused(const std::vector<PExpr>& operands) {
  for (const PExpr& e : operands) {
    if (e.k == PExpr::K::kCall && e.name != "size") {
      Note(kMisusedFunction,
           "The function is not allowed to be used this way in an expression; function: " + e.name);
      return;
    }
  }
}

void Parser::CheckDistinct(std::string_view op, const PExpr& a, const PExpr& b) {
  if (a.k == PExpr::K::kPath && b.k == PExpr::K::kPath && a.path == b.path) {
    Note(kDistinct,
         "The first operand must be distinct from the remaining operands for this "
         "operator or function; operator: " +
             std::string(op) + ", first operand: " + PathToString(a.path));
  }
}

void Parser::OperandTypeError(const std::string& function, const std::string& type) {
  Note(kFunction, "Incorrect operand type for operator or function; operator or function: " + function +
                      ", operand type: " + type);
}

// Converts a parsed operand to the AST (after its checks were recorded).
Operand Parser::ToOperand(PExpr e) {
  Operand op;
  switch (e.k) {
    case PExpr::K::kPath:
      op.kind = Operand::Kind::kPath;
      op.path = std::move(e.path);
      break;
    case PExpr::K::kValue:
      op.kind = Operand::Kind::kValue;
      if (e.value) op.value = *e.value;
      break;
    case PExpr::K::kCall:
      op.kind = e.name == "size"            ? Operand::Kind::kSize
                : e.name == "if_not_exists" ? Operand::Kind::kIfNotExists
                : e.name == "list_append"   ? Operand::Kind::kListAppend
                : e.name == "+"             ? Operand::Kind::kPlus
                : e.name == "-"             ? Operand::Kind::kMinus
                                            : Operand::Kind::kSize;
      for (PExpr& arg : e.args) op.args.push_back(ToOperand(std::move(arg)));
      break;
  }
  return op;
}

}  // namespace internal

Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind, Substitutions& subs) {
  return internal::Parser(text, kind, subs).ParseConditionTop();
}

Result<Update> ParseUpdate(std::string_view text, Substitutions& subs) {
  return internal::Parser(text, ExpressionKind::kUpdate, subs).ParseUpdateTop();
}

Result<Projection> ParseProjection(std::string_view text, Substitutions& subs) {
  return internal::Parser(text, ExpressionKind::kProjection, subs).ParseProjectionTop();
}

}  // namespace pogi::expr
