// The recursive-descent Parser shared by parser.cc (set-up, errors, paths,
// operands, entry points), condition_parser.cc and update_parser.cc. Private
// to service/expr/: include only from those three files; the public contract
// is parser.h.
#pragma once

#include <array>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/result.h"
#include "service/expr/ast.h"
#include "service/expr/lexer.h"
#include "service/expr/parser.h"
#include "service/expr/substitutions.h"
#include "service/expr/types.h"

namespace pogi::expr::internal {

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

// One parse of one expression. Methods returning bool return false after a
// fatal (syntax or limit) error, which is then in fatal_; other errors are
// noted in their slot and parsing goes on.
class Parser {
 public:
  Parser(std::string_view text, ExpressionKind kind, Substitutions& subs);

  // The three entry points (parser.cc).
  Result<Condition> ParseConditionTop();
  Result<Update> ParseUpdateTop();
  Result<Projection> ParseProjectionTop();

 private:
  static constexpr size_t kNoMatch = static_cast<size_t>(-1);

  // `b` is upper case.
  static bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
    }
    return true;
  }

  // ------------------------------------------- prechecks, tokens, errors (parser.cc)
  std::optional<Error> Precheck() const;
  std::optional<Error> CheckOperatorCount() const;

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

  bool SyntaxError();
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
  std::optional<Error> Report(std::initializer_list<Slot> order) const;
  void PromoteLeafErrors();

  bool IsConditionKind() const {
    return kind_ == ExpressionKind::kCondition || kind_ == ExpressionKind::kFilter ||
           kind_ == ExpressionKind::kKeyCondition || kind_ == ExpressionKind::kSearchCondition;
  }
  bool IsGrammarKeyword(std::string_view word) const;

  // ----------------------------------------------- paths and operands (parser.cc)
  bool ParseName(Path* path);
  bool ParsePath(Path* path);
  void CheckPathAgainst(const std::vector<Path>& earlier, const Path& path);
  bool ResolveValue(const Token& t, PExpr* out);
  bool ParseOperand(PExpr* out, size_t depth);
  static std::string TypeAtParse(const PExpr& e);
  void CheckMisused(const std::vector<PExpr>& operands);
  void CheckDistinct(std::string_view op, const PExpr& a, const PExpr& b);
  void OperandTypeError(const std::string& function, const std::string& type);
  static Operand ToOperand(PExpr e);

  // ------------------------------------------------ conditions (condition_parser.cc)
  void CheckConditionFunction(const PExpr& call);
  bool ParseOr(Condition* out, size_t depth);
  bool ParseAnd(Condition* out, size_t depth);
  bool ParseNot(Condition* out, size_t depth);
  static bool IsComparator(TokenKind k) {
    return k == TokenKind::kEq || k == TokenKind::kNe || k == TokenKind::kLt || k == TokenKind::kLe ||
           k == TokenKind::kGt || k == TokenKind::kGe;
  }
  bool ParsePrimary(Condition* out, size_t depth);
  void CheckBetweenBounds(const PExpr& low, const PExpr& high);

  // ---------------------------------------------------- updates (update_parser.cc)
  void CheckUpdateFunction(const PExpr& call);
  bool ParseSetValue(PExpr* out);
  bool ParseSections(Update* u);

  std::string_view text_;
  ExpressionKind kind_;
  Substitutions& subs_;
  std::vector<Token> tokens_;
  std::vector<size_t> match_;
  size_t pos_ = 0;
  std::optional<Error> fatal_;
  std::array<std::optional<std::string>, kSlotCount> errors_;
};

}  // namespace pogi::expr::internal
