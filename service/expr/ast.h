// The syntax trees of DynamoDB expressions, after #name/:value substitution.
// Conditions (ConditionExpression, FilterExpression, KeyConditionExpression,
// and the legacy Expected/QueryFilter/ScanFilter), updates (UpdateExpression
// and legacy AttributeUpdates) and projections (ProjectionExpression and
// legacy AttributesToGet) all share these shapes, so one evaluator serves all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "service/expr/types.h"

namespace pogi::expr {

// One step of a document path: a map key / top-level attribute name, or a
// list index ("a.b[2].c" is name a, name b, index 2, name c).
struct PathElement {
  bool is_index = false;
  std::string name;    // when !is_index; may contain any character (via #name)
  uint32_t index = 0;  // when is_index
  bool operator==(const PathElement&) const = default;
};
using Path = std::vector<PathElement>;

// DynamoDB's rendering of a path in messages: "[a, b, [2], c]".
std::string PathToString(const Path& path);

// Something that yields a value when evaluated against an item.
struct Operand {
  enum class Kind {
    kPath,         // the value at `path` (absent when the item lacks it)
    kValue,        // the literal `value` (an ExpressionAttributeValue)
    kSize,         // size(args[0])                      (conditions)
    kIfNotExists,  // if_not_exists(args[0], args[1])    (updates)
    kListAppend,   // list_append(args[0], args[1])      (updates)
    kPlus,         // args[0] + args[1]                  (updates)
    kMinus,        // args[0] - args[1]                  (updates)
  };
  Kind kind = Kind::kPath;
  Path path;
  AttributeValue value;
  std::vector<Operand> args;
};

enum class Comparator { kEq, kNe, kLt, kLe, kGt, kGe };

// A boolean condition.
struct Condition {
  enum class Kind {
    kAnd,
    kOr,
    kNot,                 // over `children`
    kCompare,             // operands[0] <op> operands[1]
    kBetween,             // operands[0] BETWEEN operands[1] AND operands[2]
    kIn,                  // operands[0] IN (operands[1..])
    kAttributeExists,     // attribute_exists(operands[0])
    kAttributeNotExists,  // attribute_not_exists(operands[0])
    kAttributeType,       // attribute_type(operands[0], operands[1])
    kBeginsWith,          // begins_with(operands[0], operands[1])
    kContains,            // contains(operands[0], operands[1])
    kTrue,                // an empty legacy condition (no Expected entries)
  };
  Kind kind = Kind::kTrue;
  Comparator op = Comparator::kEq;
  std::vector<Condition> children;
  std::vector<Operand> operands;
};

// A parsed update. Every operand reads the item as it was before the update.
struct Update {
  struct Set {
    Path path;
    Operand value;
  };
  struct AddOrDelete {
    Path path;
    AttributeValue value;
  };
  std::vector<Set> sets;
  std::vector<Path> removes;
  std::vector<AddOrDelete> adds;
  std::vector<AddOrDelete> deletes;
  // A legacy AttributeUpdates ADD puts a set's new members after its old
  // ones and its DELETE keeps the order of the rest; an UpdateExpression's
  // ADD or DELETE that changes a set sorts it by bytes (value/set_order.h).
  bool legacy_set_order = false;
};

// A parsed projection: the paths to keep, in the order written.
struct Projection {
  std::vector<Path> paths;
};

}  // namespace pogi::expr
