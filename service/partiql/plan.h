// From a parsed PartiQL statement to the engine's own terms: WHERE clauses
// as expr::Condition (so the one evaluator decides them), SET/REMOVE as
// expr::Update, the key a write names, and how a SELECT reads (a Query of
// the partitions its WHERE fixes, else a Scan).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "service/partiql/ast.h"
#include "service/value/item.h"

namespace pogi::partiql {

// A WHERE clause (or any boolean expression) as a condition. `text` is the
// statement, for positions in messages.
Result<expr::Condition> ToCondition(const Expr& e, std::string_view text);

// The SET and REMOVE clauses of an UPDATE as one update.
Result<expr::Update> ToUpdate(const Statement& st, std::string_view text);

// What an UPDATE, DELETE, EXISTS or single-item SELECT addresses: the full
// key from the WHERE's equalities on the key attributes, and the rest of
// the WHERE as a condition on the item (none when nothing is left).
struct KeyedTarget {
  value::AttributeMap key;
  std::optional<expr::Condition> condition;
};
Result<KeyedTarget> ToKeyedTarget(const Statement& st, const service::Table& table, std::string_view text);

// How a SELECT reads.
struct ReadPlan {
  const service::Index* index = nullptr;  // null: the table
  bool query = false;                     // a Query of `partitions`, else a Scan
  std::vector<expr::AttributeValue> partitions;
  std::optional<expr::Condition> sort_range;  // on the sort key, compiled to the range read
  // An index with multi-attribute keys: the whole key condition of its one
  // Query (partitions and sort_range unused).
  std::optional<expr::Condition> key_condition;
  std::optional<expr::Condition> filter;  // the rest of the WHERE
  std::optional<expr::Projection> projection;
  bool forward = true;
};
Result<ReadPlan> PlanSelect(const Statement& st, const service::Table& table, bool consistent_read,
                            std::string_view text);

}  // namespace pogi::partiql
