// The syntax tree of one DynamoDB PartiQL statement, with `?` parameters
// already bound to their values: SELECT, INSERT, UPDATE, DELETE, and the
// EXISTS(SELECT ...) condition check of ExecuteTransaction.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::partiql {

// One expression of a WHERE clause, a SET value or a literal.
struct Expr {
  enum class Kind {
    kPath,       // an attribute path
    kLiteral,    // a value (literal or bound parameter)
    kCompare,    // args[0] <op> args[1]
    kAnd,        // args...
    kOr,         // args...
    kNot,        // args[0]
    kBetween,    // args[0] BETWEEN args[1] AND args[2]
    kIn,         // args[0] IN [args[1..]]
    kIsMissing,  // args[0] IS [NOT] MISSING (negated: NOT)
    kIsNull,     // args[0] IS [NOT] NULL
    kFunction,   // name(args...)
    kPlus,       // args[0] + args[1]
    kMinus,      // args[0] - args[1]
  };
  Kind kind = Kind::kLiteral;
  expr::Path path;
  expr::AttributeValue value;
  expr::Comparator op = expr::Comparator::kEq;
  bool negated = false;
  std::string function;  // lower case
  std::vector<Expr> args;
  size_t begin = 0, end = 0;  // where it was written, for messages
};

// RETURNING of UPDATE and DELETE, in UpdateItem's ReturnValues terms.
enum class Returning { kNone, kAllOld, kModifiedOld, kAllNew, kModifiedNew };

struct OrderBy {
  std::string name;
  bool descending = false;
};

struct SetAction {
  expr::Path target;
  Expr value;
  size_t begin = 0, end = 0;
};

struct Statement {
  enum class Kind { kSelect, kInsert, kUpdate, kDelete, kExists };
  Kind kind = Kind::kSelect;
  std::string table;
  std::optional<std::string> index;    // SELECT FROM "t"."index"
  std::vector<expr::Path> projection;  // SELECT a, b.c; empty: *
  std::optional<Expr> where;
  std::vector<OrderBy> order_by;
  expr::AttributeValue item;               // INSERT's VALUE (a map)
  std::vector<SetAction> sets;             // UPDATE
  std::vector<expr::Path> removes;         // UPDATE
  Returning returning = Returning::kNone;  // UPDATE, DELETE
  // The keys of each map literal, as written: INSERT's item keeps that
  // order (service/value/attribute_order.h).
  std::vector<std::vector<std::string>> map_orders;
};

}  // namespace pogi::partiql
