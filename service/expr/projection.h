// ProjectionExpression / AttributesToGet applied to an item, and the
// extraction of updated paths for ReturnValues UPDATED_OLD / UPDATED_NEW.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::expr {

// The parts of `item` named by `projection`, in DynamoDB's shape: nested
// maps keep their structure with only the projected keys; projected list
// elements form a list of the existing ones in index order (a[1], a[3] of a
// 5-element list gives [a[1], a[3]]). Paths that do not exist contribute
// nothing, and a map or list left with nothing projected is omitted.
AttributeMap Project(const Projection& projection, const AttributeMap& item);

// Project's answer as the serialized Item a read carries, its maps in
// DynamoDB Local's order: rebuilt along the projected paths, the values at
// their ends as `stored_proto` (the item's stored form) has them.
std::string ProjectedItemProto(const Projection& projection, const AttributeMap& item,
                               std::string_view stored_proto);

// PartiQL's SELECT list: the value at each path under the name of the
// path's last named element, as DynamoDB answers `SELECT m.nested` with
// {"nested": ...} (a top-level path keeps its name, as in Project). A path
// that does not exist contributes nothing; of two paths ending in one name,
// the later one's value is kept.
AttributeMap ProjectSelectList(const Projection& projection, const AttributeMap& item);

// The values at `paths` (as reported by Apply) in projection shape: what
// DynamoDB returns for UPDATED_OLD (from the old item) and UPDATED_NEW
// (from the new item). Overlapping paths are allowed here.
AttributeMap ExtractPaths(const std::vector<Path>& paths, const AttributeMap& item);

}  // namespace pogi::expr
