// The PartiQL parser: tokens to a Statement, parameters bound as `?` is met.
//
// Messages: DynamoDB wraps what its PartiQL parser reports in "Statement
// wasn't well formed, can't be processed: <detail>". Details pinned against
// DynamoDB: "Expected data manipulation" (a statement that starts with no
// DML keyword), "Unexpected token after expression" (a token left over),
// "Unexpected keyword", "Invalid path dot component"; a literal the lexer
// cannot read has no detail. Where DynamoDB's detail is not known pogi uses
// the PartiQL parser's own wording ("Unexpected term", "Expected expression").
#include "service/partiql/parser.h"

#include <algorithm>
#include <set>

#include "service/partiql/lexer.h"
#include "service/validate/item_validation.h"
#include "service/value/decimal.h"
#include "service/write/multi_item.h"

namespace pogi::partiql {
namespace {

using TK = TokenKind;
using V = expr::AttributeValue;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens, const Parameters& params)
      : text_(text), tokens_(std::move(tokens)), params_(params) {}

  // The keys of each map literal met, as written.
  std::vector<std::vector<std::string>> TakeMapOrders() { return std::move(map_orders_); }

  Result<Statement> ParseStatement() {
    Statement st;
    const Token& first = Peek();
    std::string word = first.kind == TK::kIdentifier ? Lower(first.text) : "";
    Status s;
    if (word == "select") {
      s = ParseSelect(&st);
    } else if (word == "insert") {
      s = ParseInsert(&st);
    } else if (word == "update") {
      s = ParseUpdate(&st);
    } else if (word == "delete") {
      s = ParseDelete(&st);
    } else if (word == "exists") {
      s = ParseExists(&st);
    } else {
      return Malformed("Expected data manipulation");
    }
    POGI_RETURN_IF_ERROR(s);
    if (Peek().kind == TK::kSemicolon) Next();
    if (Peek().kind != TK::kEof) return Malformed("Unexpected token after expression");
    // DynamoDB refuses a statement with fewer Parameters than `?`s and,
    // like DynamoDB Local, ignores extra ones.
    return st;
  }

 private:
  const Token& Peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& Next() {
    const Token& t = Peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool IsWord(const Token& t, std::string_view w) const {
    return t.kind == TK::kIdentifier && Lower(t.text) == w;
  }
  bool AcceptWord(std::string_view w) {
    if (!IsWord(Peek(), w)) return false;
    Next();
    return true;
  }
  bool Accept(TK k) {
    if (Peek().kind != k) return false;
    Next();
    return true;
  }
  // The error for an unexpected token.
  Error Unexpected() const {
    const Token& t = Peek();
    if (t.kind == TK::kEof) return Malformed("Unexpected end of statement");
    if (t.kind == TK::kIdentifier && IsReserved(Lower(t.text))) return Malformed("Unexpected keyword");
    return Malformed("Unexpected term");
  }
  Status ExpectWord(std::string_view w) {
    if (!AcceptWord(w)) return Unexpected();
    return Status::Ok();
  }
  Status Expect(TK k) {
    if (!Accept(k)) return Unexpected();
    return Status::Ok();
  }

  // A table, index or attribute name: quoted, or an unreserved identifier.
  Result<std::string> Name() {
    const Token& t = Peek();
    if (t.kind == TK::kQuoted) return Next().text;
    if (t.kind == TK::kIdentifier && !IsReserved(Lower(t.text))) return Next().text;
    return Unexpected();
  }

  // FROM "table"["index"]; an alias after it is refused in DynamoDB's words.
  Status TableRef(Statement* st, bool allow_index) {
    POGI_ASSIGN_OR_RETURN(st->table, Name());
    if (Peek().kind == TK::kDot) {
      Next();
      POGI_ASSIGN_OR_RETURN(std::string index, Name());
      if (Peek().kind == TK::kDot) {
        return Error::Validation("A path may contain at most 2 components in the FROM clause");
      }
      if (!allow_index) return Error::Validation("This operation is not supported on an index");
      st->index = std::move(index);
    }
    const Token& t = Peek();
    if (IsWord(t, "as") || t.kind == TK::kQuoted ||
        (t.kind == TK::kIdentifier && !IsReserved(Lower(t.text)))) {
      return Error::Validation("Aliasing is not supported");
    }
    return Status::Ok();
  }

  Status ParseSelect(Statement* st) {
    st->kind = Statement::Kind::kSelect;
    Next();  // SELECT
    if (IsWord(Peek(), "value") || IsWord(Peek(), "pivot")) {
      return Error::Validation("Select projection doesn't support value or pivot keywords");
    }
    bool star = false;
    do {
      if (Peek().kind == TK::kStar) {
        Next();
        star = true;
        continue;
      }
      const Token& t = Peek();
      if (t.kind == TK::kIdentifier && Peek(1).kind == TK::kLParen) {
        return Error::Validation("Unexpected path component at " + Position(text_, t.begin, t.end));
      }
      POGI_ASSIGN_OR_RETURN(expr::Path p, ParsePath());
      st->projection.push_back(std::move(p));
    } while (Accept(TK::kComma));
    if (star && !st->projection.empty()) {
      return Error::Validation("Other attributes should not be present in the projection when '*' is used.");
    }
    POGI_RETURN_IF_ERROR(ExpectWord("from"));
    POGI_RETURN_IF_ERROR(TableRef(st, /*allow_index=*/true));
    if (AcceptWord("where")) {
      POGI_ASSIGN_OR_RETURN(st->where, ParseOr(0));
    }
    if (AcceptWord("order")) {
      POGI_RETURN_IF_ERROR(ExpectWord("by"));
      do {
        OrderBy o;
        POGI_ASSIGN_OR_RETURN(o.name, Name());
        if (AcceptWord("desc")) {
          o.descending = true;
        } else {
          AcceptWord("asc");
        }
        st->order_by.push_back(std::move(o));
      } while (Accept(TK::kComma));
    }
    return Status::Ok();
  }

  Status ParseExists(Statement* st) {
    Next();  // EXISTS
    POGI_RETURN_IF_ERROR(Expect(TK::kLParen));
    if (!IsWord(Peek(), "select")) return Unexpected();
    POGI_RETURN_IF_ERROR(ParseSelect(st));
    POGI_RETURN_IF_ERROR(Expect(TK::kRParen));
    st->kind = Statement::Kind::kExists;
    return Status::Ok();
  }

  Status ParseInsert(Statement* st) {
    st->kind = Statement::Kind::kInsert;
    Next();  // INSERT
    POGI_RETURN_IF_ERROR(ExpectWord("into"));
    POGI_ASSIGN_OR_RETURN(st->table, Name());
    if (Peek().kind == TK::kDot) return Error::Validation("This operation is not supported on an index");
    if (IsWord(Peek(), "values")) {
      return Error::Validation(
          "Unsupported operation: Inserting multiple items in a single statement is not supported, use "
          "\"INSERT INTO tableName VALUE item\" instead");
    }
    // An alias (or anything else) where VALUE belongs is a token left over.
    if (!AcceptWord("value")) return Malformed("Unexpected token after expression");
    POGI_ASSIGN_OR_RETURN(st->item, ParseValue(0, "root", /*item_root=*/true));
    if (st->item.value_case() != V::kM) {
      return Error::Validation(
          "Unsupported format in item expression. Please use struct format {...} to express item values "
          "for insert statement.");
    }
    if (IsWord(Peek(), "returning")) return Error::Validation("RETURNING is not supported in INSERT");
    return Status::Ok();
  }

  Status ParseReturning(Statement* st) {
    if (!AcceptWord("returning")) return Status::Ok();
    bool all;
    if (AcceptWord("all")) {
      all = true;
    } else if (AcceptWord("modified")) {
      all = false;
    } else {
      return Unexpected();
    }
    bool old;
    if (AcceptWord("old")) {
      old = true;
    } else if (AcceptWord("new")) {
      old = false;
    } else {
      return Unexpected();
    }
    if (!Accept(TK::kStar)) {
      return Error::Validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
    }
    if (Peek().kind == TK::kComma) {
      return Error::Validation("Invalid syntax with multiple returning elements in RETURNING clause");
    }
    st->returning = all ? (old ? Returning::kAllOld : Returning::kAllNew)
                        : (old ? Returning::kModifiedOld : Returning::kModifiedNew);
    return Status::Ok();
  }

  Status ParseUpdate(Statement* st) {
    st->kind = Statement::Kind::kUpdate;
    Next();  // UPDATE
    POGI_RETURN_IF_ERROR(TableRef(st, /*allow_index=*/false));
    bool any = false;
    while (true) {
      if (AcceptWord("set")) {
        do {
          SetAction a;
          a.begin = Peek().begin;
          POGI_ASSIGN_OR_RETURN(a.target, ParsePath());
          POGI_RETURN_IF_ERROR(Expect(TK::kEq));
          POGI_ASSIGN_OR_RETURN(a.value, ParseAdditive(0));
          a.end = tokens_[pos_ - 1].end;
          st->sets.push_back(std::move(a));
        } while (Accept(TK::kComma));
        any = true;
      } else if (AcceptWord("remove")) {
        do {
          POGI_ASSIGN_OR_RETURN(expr::Path p, ParsePath());
          st->removes.push_back(std::move(p));
        } while (Accept(TK::kComma));
        any = true;
      } else {
        break;
      }
    }
    if (!any) {
      if (IsWord(Peek(), "add") || IsWord(Peek(), "delete")) {
        return Error::Validation("Only SET and REMOVE are supported in update expressions at this time");
      }
      return Unexpected();
    }
    POGI_RETURN_IF_ERROR(ExpectWord("where"));
    POGI_ASSIGN_OR_RETURN(st->where, ParseOr(0));
    return ParseReturning(st);
  }

  Status ParseDelete(Statement* st) {
    st->kind = Statement::Kind::kDelete;
    Next();  // DELETE
    POGI_RETURN_IF_ERROR(ExpectWord("from"));
    POGI_RETURN_IF_ERROR(TableRef(st, /*allow_index=*/false));
    POGI_RETURN_IF_ERROR(ExpectWord("where"));
    POGI_ASSIGN_OR_RETURN(st->where, ParseOr(0));
    size_t begin = Peek().begin;
    POGI_RETURN_IF_ERROR(ParseReturning(st));
    if (st->returning != Returning::kNone && st->returning != Returning::kAllOld) {
      std::string clause(text_.substr(begin, tokens_[pos_ - 1].end - begin));
      clause = clause.substr(clause.find_first_of(" \t\r\n") + 1);
      return Error::Validation("Invalid returning clause: RETURNING " + clause +
                               ". Only RETURNING ALL OLD * is allowed in DELETE statements.");
    }
    return Status::Ok();
  }

  // ------------------------------------------------------------ paths

  Result<expr::Path> ParsePath() {
    expr::Path path;
    POGI_ASSIGN_OR_RETURN(std::string first, Name());
    path.push_back({false, std::move(first), 0});
    while (true) {
      if (Peek().kind == TK::kDot) {
        Next();
        const Token& t = Peek();
        if (t.kind == TK::kQuoted || (t.kind == TK::kIdentifier && !IsReserved(Lower(t.text)))) {
          path.push_back({false, Next().text, 0});
          continue;
        }
        return Malformed("Invalid path dot component");
      }
      if (Peek().kind == TK::kLBracket) {
        Next();
        const Token& t = Peek();
        if (t.kind == TK::kString) {
          path.push_back({false, Next().text, 0});
        } else if (t.kind == TK::kNumber && t.text.find_first_not_of("0123456789") == std::string::npos) {
          // Index bounds as in expressions: an index beyond 2^31 is refused.
          if (t.text.size() > 10 || std::stoull(t.text) > INT32_MAX) {
            return Error::Validation("List index is not within the allowable range; index: [" + t.text + "]");
          }
          path.push_back({true, "", static_cast<uint32_t>(std::stoul(Next().text))});
        } else {
          return Unexpected();
        }
        POGI_RETURN_IF_ERROR(Expect(TK::kRBracket));
        continue;
      }
      return path;
    }
  }

  // ------------------------------------------------------------ conditions

  Status Deeper(size_t depth) const {
    if (depth > kMaxDepth) return Malformed("Statement nesting exceeds the supported depth");  // pogi's words
    return Status::Ok();
  }

  Expr Node(Expr::Kind kind, size_t begin) {
    Expr e;
    e.kind = kind;
    e.begin = begin;
    e.end = tokens_[pos_ > 0 ? pos_ - 1 : 0].end;
    return e;
  }

  Result<Expr> ParseOr(size_t depth) {
    POGI_RETURN_IF_ERROR(Deeper(depth));
    size_t begin = Peek().begin;
    POGI_ASSIGN_OR_RETURN(Expr first, ParseAnd(depth));
    if (!IsWord(Peek(), "or")) return first;
    Expr e = Node(Expr::Kind::kOr, begin);
    e.args.push_back(std::move(first));
    while (AcceptWord("or")) {
      POGI_ASSIGN_OR_RETURN(Expr next, ParseAnd(depth));
      e.args.push_back(std::move(next));
    }
    e.end = tokens_[pos_ - 1].end;
    return e;
  }

  Result<Expr> ParseAnd(size_t depth) {
    size_t begin = Peek().begin;
    POGI_ASSIGN_OR_RETURN(Expr first, ParseNot(depth));
    if (!IsWord(Peek(), "and")) return first;
    Expr e = Node(Expr::Kind::kAnd, begin);
    e.args.push_back(std::move(first));
    while (AcceptWord("and")) {
      POGI_ASSIGN_OR_RETURN(Expr next, ParseNot(depth));
      e.args.push_back(std::move(next));
    }
    e.end = tokens_[pos_ - 1].end;
    return e;
  }

  Result<Expr> ParseNot(size_t depth) {
    POGI_RETURN_IF_ERROR(Deeper(depth));
    size_t begin = Peek().begin;
    if (AcceptWord("not")) {
      POGI_ASSIGN_OR_RETURN(Expr inner, ParseNot(depth + 1));
      Expr e = Node(Expr::Kind::kNot, begin);
      e.args.push_back(std::move(inner));
      return e;
    }
    return ParsePredicate(depth);
  }

  Result<expr::Comparator> Comparator(TK k) {
    switch (k) {
      case TK::kEq:
        return expr::Comparator::kEq;
      case TK::kNe:
        return expr::Comparator::kNe;
      case TK::kLt:
        return expr::Comparator::kLt;
      case TK::kLe:
        return expr::Comparator::kLe;
      case TK::kGt:
        return expr::Comparator::kGt;
      default:
        return expr::Comparator::kGe;
    }
  }

  Result<Expr> ParsePredicate(size_t depth) {
    size_t begin = Peek().begin;
    POGI_ASSIGN_OR_RETURN(Expr left, ParseAdditive(depth + 1));
    TK k = Peek().kind;
    if (k == TK::kEq || k == TK::kNe || k == TK::kLt || k == TK::kLe || k == TK::kGt || k == TK::kGe) {
      Next();
      POGI_ASSIGN_OR_RETURN(Expr right, ParseAdditive(depth + 1));
      Expr e = Node(Expr::Kind::kCompare, begin);
      POGI_ASSIGN_OR_RETURN(e.op, Comparator(k));
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      return e;
    }
    bool negated = false;
    if (IsWord(Peek(), "not") && (IsWord(Peek(1), "between") || IsWord(Peek(1), "in"))) {
      Next();
      negated = true;
    }
    Expr e;
    if (AcceptWord("between")) {
      POGI_ASSIGN_OR_RETURN(Expr lo, ParseAdditive(depth + 1));
      POGI_RETURN_IF_ERROR(ExpectWord("and"));
      POGI_ASSIGN_OR_RETURN(Expr hi, ParseAdditive(depth + 1));
      e = Node(Expr::Kind::kBetween, begin);
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(lo));
      e.args.push_back(std::move(hi));
    } else if (AcceptWord("in")) {
      e = Node(Expr::Kind::kIn, begin);
      e.args.push_back(std::move(left));
      TK close;
      if (Accept(TK::kLBracket)) {
        close = TK::kRBracket;
      } else if (Accept(TK::kLParen)) {
        close = TK::kRParen;
      } else {
        return Error::Validation(
            "IN operator must have a left hand argument of type Variable Reference and right hand argument "
            "of type Seq with at least one member");
      }
      if (Peek().kind != close) {
        do {
          if (e.args.size() > kMaxInValues) {
            // pogi's words: DynamoDB bounds IN as its expressions do, at 100 values.
            return Error::Validation("Too many values in the IN list; the limit is " +
                                     std::to_string(kMaxInValues));
          }
          POGI_ASSIGN_OR_RETURN(Expr v, ParseAdditive(depth + 1));
          e.args.push_back(std::move(v));
        } while (Accept(TK::kComma));
      }
      POGI_RETURN_IF_ERROR(Expect(close));
      if (e.args.size() < 2) {
        return Error::Validation(
            "IN operator must have a left hand argument of type Variable Reference and right hand argument "
            "of type Seq with at least one member");
      }
      e.end = tokens_[pos_ - 1].end;
    } else if (AcceptWord("is")) {
      bool is_not = AcceptWord("not");
      if (AcceptWord("missing")) {
        e = Node(Expr::Kind::kIsMissing, begin);
      } else if (AcceptWord("null")) {
        e = Node(Expr::Kind::kIsNull, begin);
      } else {
        const Token& t = Peek();
        return Error::Validation("Unsupported data type for IS operator: " + t.text +
                                 ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, "
                                 "STRUCT, TUPLE, LIST]");
      }
      e.negated = is_not;
      e.args.push_back(std::move(left));
      return e;
    } else {
      return left;
    }
    if (!negated) return e;
    Expr n = Node(Expr::Kind::kNot, begin);
    n.args.push_back(std::move(e));
    return n;
  }

  Result<Expr> ParseAdditive(size_t depth) {
    POGI_RETURN_IF_ERROR(Deeper(depth));
    size_t begin = Peek().begin;
    POGI_ASSIGN_OR_RETURN(Expr left, ParsePrimary(depth + 1));
    while (Peek().kind == TK::kPlus || Peek().kind == TK::kMinus) {
      bool plus = Next().kind == TK::kPlus;
      POGI_ASSIGN_OR_RETURN(Expr right, ParsePrimary(depth + 1));
      Expr e = Node(plus ? Expr::Kind::kPlus : Expr::Kind::kMinus, begin);
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      left = std::move(e);
    }
    return left;
  }

  Result<Expr> ParsePrimary(size_t depth) {
    POGI_RETURN_IF_ERROR(Deeper(depth));
    const Token& t = Peek();
    size_t begin = t.begin;
    if (t.kind == TK::kLParen) {
      Next();
      POGI_ASSIGN_OR_RETURN(Expr inner, ParseOr(depth + 1));
      POGI_RETURN_IF_ERROR(Expect(TK::kRParen));
      return inner;
    }
    if (t.kind == TK::kIdentifier && Peek(1).kind == TK::kLParen) {
      Expr e;
      e.kind = Expr::Kind::kFunction;
      e.function = Lower(t.text);
      e.begin = t.begin;
      e.end = t.end;  // messages point at the function's name
      Next();
      Next();
      if (Peek().kind != TK::kRParen) {
        do {
          if (e.args.size() >= 8) return Malformed("Unexpected term");  // no function takes more
          POGI_ASSIGN_OR_RETURN(Expr arg, ParseAdditive(depth + 1));
          e.args.push_back(std::move(arg));
        } while (Accept(TK::kComma));
      }
      POGI_RETURN_IF_ERROR(Expect(TK::kRParen));
      return e;
    }
    if (t.kind == TK::kQuoted || (t.kind == TK::kIdentifier && !IsReserved(Lower(t.text)))) {
      Expr e;
      e.kind = Expr::Kind::kPath;
      e.begin = begin;
      POGI_ASSIGN_OR_RETURN(e.path, ParsePath());
      e.end = tokens_[pos_ - 1].end;
      return e;
    }
    if (IsWord(t, "missing")) return Error::Validation("MISSING must be compared using IS operator");
    Expr e;
    e.kind = Expr::Kind::kLiteral;
    POGI_ASSIGN_OR_RETURN(e.value, ParseValue(depth + 1, "root"));
    e.begin = begin;
    e.end = tokens_[pos_ - 1].end;
    return e;
  }

  // ------------------------------------------------------------ literals

  Error NumberError(const Error& e, const std::string& where) {
    return Error::Validation(e.message() + " under " + where);
  }

  // Counts the lists and maps a literal is inside of while it is parsed.
  struct Level {
    explicit Level(int* n) : n_(n) { ++*n_; }
    ~Level() { --*n_; }
    int* n_;
  };
  static Error Nested() { return service::TransactionValidation(Error::Validation(service::kNestingError)); }

  // A literal value (or bound parameter). `where` names its place in
  // messages: "root", "root.x", "root[1]".
  Result<V> ParseValue(size_t depth, const std::string& where, bool item_root = false) {
    POGI_RETURN_IF_ERROR(Deeper(depth));
    const Token& t = Peek();
    V v;
    switch (t.kind) {
      case TK::kString:
        v.set_s(Next().text);
        return v;
      case TK::kNumber:
      case TK::kMinus:
      case TK::kPlus: {
        bool negative = false;
        if (t.kind != TK::kNumber) {
          negative = Next().kind == TK::kMinus;
          if (Peek().kind != TK::kNumber) return Unexpected();
        }
        auto d = value::Decimal::Parse((negative ? "-" : "") + Next().text);
        if (!d.ok()) return NumberError(d.error(), where);
        v.set_n(d->ToString());
        return v;
      }
      case TK::kQuestion: {
        Next();
        if (next_param_ >= static_cast<size_t>(params_.size())) {
          return Error::Validation("Number of parameters in request and statement don't match.");
        }
        return params_[static_cast<int>(next_param_++)];
      }
      case TK::kLBracket: {
        // Literals nest as deep as attribute values may, and no deeper.
        Level level(&literal_level_);
        if (literal_level_ > service::kMaxNestingDepth) return Nested();
        Next();
        auto* list = v.mutable_l();
        if (Peek().kind != TK::kRBracket) {
          do {
            std::string at = where + "[" + std::to_string(list->values_size()) + "]";
            POGI_ASSIGN_OR_RETURN(*list->add_values(), ParseValue(depth + 1, at));
          } while (Accept(TK::kComma));
        }
        POGI_RETURN_IF_ERROR(Expect(TK::kRBracket));
        return v;
      }
      case TK::kLBrace: {
        // Literals nest as deep as attribute values may, and no deeper.
        Level level(&literal_level_);
        if (literal_level_ > service::kMaxNestingDepth) return Nested();
        Next();
        auto* fields = v.mutable_m()->mutable_fields();
        std::vector<std::string> order;  // the keys as written
        if (Peek().kind != TK::kRBrace) {
          do {
            const Token& key = Peek();
            if (key.kind != TK::kString) {
              if (key.kind == TK::kNumber) {
                return Error::Validation("Tuple keys must be of type String. Actual type: DECIMAL under " +
                                         where);
              }
              return Unexpected();
            }
            std::string name = Next().text;
            POGI_RETURN_IF_ERROR(Expect(TK::kColon));
            // The attributes of an INSERT's item are each a "root" of their own.
            std::string at = item_root ? "root" : where + "." + name;
            POGI_ASSIGN_OR_RETURN(V field, ParseValue(depth + 1, at));
            if (fields->count(name)) {
              return Error::Validation("Duplicate keys in tuple. Key: " + name + " under " + where);
            }
            order.push_back(name);
            (*fields)[name] = std::move(field);
          } while (Accept(TK::kComma));
        }
        POGI_RETURN_IF_ERROR(Expect(TK::kRBrace));
        map_orders_.push_back(std::move(order));
        return v;
      }
      case TK::kLBag: {
        Next();
        std::vector<V> members;
        if (Peek().kind != TK::kRBag) {
          do {
            POGI_ASSIGN_OR_RETURN(V m, ParseValue(depth + 1, where));
            members.push_back(std::move(m));
          } while (Accept(TK::kComma));
        }
        POGI_RETURN_IF_ERROR(Expect(TK::kRBag));
        return MakeSet(members);
      }
      case TK::kIdentifier: {
        std::string w = Lower(t.text);
        if (w == "true" || w == "false") {
          Next();
          v.set_bool_value(w == "true");
          return v;
        }
        if (w == "null") {
          Next();
          v.set_null_value(true);
          return v;
        }
        if (Peek(1).kind == TK::kLParen) {
          return Error::Validation("Unsupported data type: " + w + " under key " + where + " at " +
                                   Position(text_, t.begin, t.end));
        }
        return Unexpected();
      }
      default:
        return Unexpected();
    }
  }

  // <<...>>: a string, number or binary set, as its members are.
  Result<V> MakeSet(const std::vector<V>& members) {
    if (members.empty()) return Error::Validation("Empty bags are not supported");
    V v;
    auto kind = members[0].value_case();
    for (const V& m : members) {
      if (m.value_case() != kind || (kind != V::kS && kind != V::kN && kind != V::kB)) {
        return Error::Validation(
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
      }
      if (kind == V::kS) v.mutable_ss()->add_values(m.s());
      if (kind == V::kN) v.mutable_ns()->add_values(m.n());
      if (kind == V::kB) v.mutable_bs()->add_values(m.b());
    }
    // Duplicates are refused as for any set value.
    POGI_RETURN_IF_ERROR(service::ValidateValue(&v));
    return v;
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  const Parameters& params_;
  size_t pos_ = 0;
  size_t next_param_ = 0;
  int literal_level_ = 0;
  std::vector<std::vector<std::string>> map_orders_;  // Statement::map_orders
};

}  // namespace

Result<Statement> Parse(std::string_view statement, const Parameters& parameters) {
  POGI_ASSIGN_OR_RETURN(auto tokens, Tokenize(statement));
  Parser p(statement, std::move(tokens), parameters);
  POGI_ASSIGN_OR_RETURN(Statement st, p.ParseStatement());
  st.map_orders = p.TakeMapOrders();
  return st;
}

namespace {

// A number parameter is read as a Java BigDecimal: one whose exponent does
// not fit a 32-bit integer cannot be converted at all. Nothing is wrong
// when the text is not of that shape; ValidateValue then has its say.
Status CheckExponents(const expr::AttributeValue& v, int depth) {
  auto check = [](const std::string& n) -> Status {
    size_t e = n.find_first_of("eE");
    if (e == std::string::npos) return Status::Ok();
    std::string_view exp = std::string_view(n).substr(e + 1);
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
    while (!exp.empty() && exp[0] == '0') exp.remove_prefix(1);
    if (exp.empty() || exp.find_first_not_of("0123456789") != std::string_view::npos) return Status::Ok();
    if (exp.size() > 10 || std::stoll(std::string(exp)) > INT32_MAX) {
      return Error::Validation("The parameter cannot be converted to a numeric value: " + n);
    }
    return Status::Ok();
  };
  if (depth > service::kMaxNestingDepth) return Status::Ok();  // ValidateValue reports the depth
  switch (v.value_case()) {
    case V::kN:
      return check(v.n());
    case V::kNs:
      for (const auto& n : v.ns().values()) POGI_RETURN_IF_ERROR(check(n));
      return Status::Ok();
    case V::kL:
      for (const auto& e : v.l().values()) POGI_RETURN_IF_ERROR(CheckExponents(e, depth + 1));
      return Status::Ok();
    case V::kM:
      for (const auto& [k, e] : v.m().fields()) POGI_RETURN_IF_ERROR(CheckExponents(e, depth + 1));
      return Status::Ok();
    default:
      return Status::Ok();
  }
}

}  // namespace

Status CheckParameters(Parameters* parameters) {
  for (auto& p : *parameters) {
    POGI_RETURN_IF_ERROR(CheckExponents(p, 1));
    if (Status s = service::ValidateValue(&p); !s.ok())
      return service::TransactionValidation(std::move(s).error());
  }
  return Status::Ok();
}

}  // namespace pogi::partiql
