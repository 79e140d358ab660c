// Recursive-descent parsers of DynamoDB's condition, update and projection
// expressions. See parser.h for the contract and the order of errors.
#include "service/expr/parser.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "service/expr/lexer.h"
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

namespace {

// Classes of non-syntax errors; the first error of each class is kept and
// the highest-ranked class (per expression kind) is reported.
enum Slot {
  kParens,
  kUnknownFunction,
  kMisusedFunction,
  kReserved,
  kSection,
  kAttrNameVal,  // conditions/projections: undefined #name or :value, first one
  kAttrName,
  kAttrVal,  // updates keep the two apart
  kOperand,
  kDistinct,
  kFunction,
  kOverlap,
  kConflict,
  kConditionLeaf,  // conditions: first leaf's error, see PromoteLeafErrors
  kSlotCount,
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'a' && x <= 'z') x -= 32;
    if (y >= 'a' && y <= 'z') y -= 32;
    if (x != y) return false;
  }
  return true;
}

// An operand as parsed, before it is known where it is used: a path, a
// literal, or a function call (which may turn out to be a condition).
struct PExpr {
  enum class K { kPath, kValue, kCall } k = K::kPath;
  Path path;
  const AttributeValue* value = nullptr;  // null when the :value is undefined
  std::string name;                       // function name
  std::vector<PExpr> args;
  // For update "+"/"-": args hold the two operands and name is "+" or "-".
};

class Parser {
 public:
  Parser(std::string_view text, ExpressionKind kind, Substitutions& subs)
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
  std::optional<Error> Precheck() const {
    if (text_.empty()) return Invalid("The expression can not be empty;");
    if (text_.size() > kMaxExpressionBytes) {
      return Invalid("Expression size has exceeded the maximum allowed size; expression size: " +
                     std::to_string(text_.size()));
    }
    return std::nullopt;
  }

  // DynamoDB allows 300 operators and functions per expression and reports
  // the count at which it stopped: "operator count: 301".
  std::optional<Error> CheckOperatorCount() const {
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
        return Invalid("The expression contains too many operators; operator count: " +
                       std::to_string(count));
      }
    }
    return std::nullopt;
  }

  static bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
    }
    return true;
  }

  Result<Condition> ParseConditionTop() {
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

  Result<Update> ParseUpdateTop() {
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

  Result<Projection> ParseProjectionTop() {
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

 private:
  static constexpr size_t kNoMatch = static_cast<size_t>(-1);

  Error Invalid(std::string_view message) const {
    return Error::Validation("Invalid " + std::string(KindName(kind_)) + ": " + std::string(message));
  }

  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return tokens_[i < tokens_.size() ? i : tokens_.size() - 1];
  }
  bool PeekKeyword(std::string_view word, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == TokenKind::kIdentifier && EqualsIgnoreCase(t.text, word);
  }

  // DynamoDB's syntax error at the current token: the token, and "near" the
  // source text from the token before it to the token after it.
  bool SyntaxError() {
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
  bool Fatal(std::string message) {
    fatal_ = Invalid(message);
    return false;
  }
  bool Expect(TokenKind kind) {
    if (Peek().kind != kind) return SyntaxError();
    ++pos_;
    return true;
  }
  bool ExpectEof() { return Peek().kind == TokenKind::kEof || SyntaxError(); }

  void Note(Slot slot, std::string message) {
    if (!errors_[slot]) errors_[slot] = std::move(message);
  }
  std::optional<Error> Report(std::initializer_list<Slot> order) const {
    for (Slot s : order) {
      if (errors_[s]) return Invalid(*errors_[s]);
    }
    return std::nullopt;
  }
  // DynamoDB settles the per-condition errors at the first leaf condition
  // that has any: undefined substitution, operand count, distinctness, then
  // function/operand checks.
  void PromoteLeafErrors() {
    if (errors_[kConditionLeaf]) return;
    for (Slot s : {kAttrNameVal, kOperand, kDistinct, kFunction}) {
      if (errors_[s]) {
        errors_[kConditionLeaf] = errors_[s];
        return;
      }
    }
  }

  bool IsConditionKind() const {
    return kind_ == ExpressionKind::kCondition || kind_ == ExpressionKind::kFilter ||
           kind_ == ExpressionKind::kKeyCondition;
  }
  // Words that are grammar keywords in this kind of expression and so can
  // never start a path.
  bool IsGrammarKeyword(std::string_view word) const {
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
  bool ParseName(Path* path) {
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

  bool ParsePath(Path* path) {
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
          if (index > 0x7fffffff) return SyntaxError();  // not an int32 index
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
  void CheckPathAgainst(const std::vector<Path>& earlier, const Path& path) {
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

  // ------------------------------------------------------------- operands

  bool ResolveValue(const Token& t, PExpr* out) {
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
  bool ParseOperand(PExpr* out, size_t depth) {
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

  // ------------------------------------------------------- condition checks

  // The type DynamoDB knows at parse time: a literal's, "N" for size(), "BOOL"
  // for other calls, "" for paths.
  static std::string TypeAtParse(const PExpr& e) {
    if (e.k == PExpr::K::kValue) return e.value ? std::string(TypeName(*e.value)) : "";
    if (e.k == PExpr::K::kCall) return e.name == "size" ? "N" : "BOOL";
    return "";
  }

  // A boolean function used where a value is expected.
  void CheckMisused(const std::vector<PExpr>& operands) {
    for (const PExpr& e : operands) {
      if (e.k == PExpr::K::kCall && e.name != "size") {
        Note(kMisusedFunction,
             "The function is not allowed to be used this way in an expression; function: " + e.name);
        return;
      }
    }
  }

  void CheckDistinct(std::string_view op, const PExpr& a, const PExpr& b) {
    if (a.k == PExpr::K::kPath && b.k == PExpr::K::kPath && a.path == b.path) {
      Note(kDistinct,
           "The first operand must be distinct from the remaining operands for this "
           "operator or function; operator: " +
               std::string(op) + ", first operand: " + PathToString(a.path));
    }
  }

  void OperandTypeError(const std::string& function, const std::string& type) {
    Note(kFunction, "Incorrect operand type for operator or function; operator or function: " + function +
                        ", operand type: " + type);
  }

  void CheckConditionFunction(const PExpr& call) {
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
      Note(kUnknownFunction, "Invalid function name; function: " + call.name);
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
        Note(kFunction, "Invalid attribute type name found; type: " + s +
                            ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
      }
    } else if (name == "size") {
      std::string type = TypeAtParse(call.args[0]);
      if (type == "N" || type == "BOOL" || type == "NULL") OperandTypeError(name, type);
    }
  }

  // ---------------------------------------------------------- conditions

  bool ParseOr(Condition* out, size_t depth) {
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

  bool ParseAnd(Condition* out, size_t depth) {
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

  bool ParseNot(Condition* out, size_t depth) {
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

  static bool IsComparator(TokenKind k) {
    return k == TokenKind::kEq || k == TokenKind::kNe || k == TokenKind::kLt || k == TokenKind::kLe ||
           k == TokenKind::kGt || k == TokenKind::kGe;
  }

  bool ParsePrimary(Condition* out, size_t depth) {
    if (depth > kMaxNesting) return SyntaxError();
    if (Peek().kind == TokenKind::kLParen) {
      size_t close = match_[pos_];
      bool operand_group = false;
      if (close != kNoMatch && close + 1 < tokens_.size()) {
        const Token& after = tokens_[close + 1];
        operand_group = IsComparator(after.kind) ||
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
      CheckBetweenBounds(low, high);
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

  void CheckBetweenBounds(const PExpr& low, const PExpr& high) {
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

  // Converts a parsed operand to the AST (after its checks were recorded).
  static Operand ToOperand(PExpr e) {
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

  // ------------------------------------------------------------- updates

  void CheckUpdateFunction(const PExpr& call) {
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
  bool ParseSetValue(PExpr* out) {
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

  bool ParseSections(Update* u) {
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

  std::string_view text_;
  ExpressionKind kind_;
  Substitutions& subs_;
  std::vector<Token> tokens_;
  std::vector<size_t> match_;
  size_t pos_ = 0;
  std::optional<Error> fatal_;
  std::array<std::optional<std::string>, kSlotCount> errors_;
};

}  // namespace

Result<Condition> ParseCondition(std::string_view text, ExpressionKind kind, Substitutions& subs) {
  return Parser(text, kind, subs).ParseConditionTop();
}

Result<Update> ParseUpdate(std::string_view text, Substitutions& subs) {
  return Parser(text, ExpressionKind::kUpdate, subs).ParseUpdateTop();
}

Result<Projection> ParseProjection(std::string_view text, Substitutions& subs) {
  return Parser(text, ExpressionKind::kProjection, subs).ParseProjectionTop();
}

}  // namespace pogi::expr
