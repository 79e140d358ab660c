// Paths into an item as the tree the item writer orders the maps of what
// it writes by (value::PathTree): an update's, a projection's.
#pragma once

#include <vector>

#include "service/expr/ast.h"
#include "service/value/item_encoding.h"

namespace pogi::expr {

// `paths`, each ending in `end`.
value::PathTree PathTreeOf(const std::vector<Path>& paths, value::PathTree::End end);

}  // namespace pogi::expr
