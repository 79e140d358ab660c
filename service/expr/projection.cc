// Projection of items by document paths.
#include "service/expr/projection.h"

#include <algorithm>
#include <map>
#include <memory>

#include "service/expr/evaluator.h"
#include "service/expr/path_tree.h"
#include "service/value/item.h"

namespace pogi::expr {
namespace {

// The projected paths as a tree: a node either takes its whole value or
// selects map keys / list indexes below it.
struct Node {
  bool whole = false;
  std::map<std::string, Node> names;
  std::map<uint32_t, Node> indexes;
};

void Insert(Node* root, const Path& path) {
  Node* n = root;
  for (const auto& step : path) {
    if (n->whole) return;  // an ancestor is already taken whole
    n = step.is_index ? &n->indexes[step.index] : &n->names[step.name];
  }
  n->whole = true;
  n->names.clear();
  n->indexes.clear();
}

// Projects `value` through `node`; false when nothing of it is selected.
bool ProjectValue(const Node& node, const AttributeValue& value, AttributeValue* out) {
  if (node.whole) {
    *out = value;
    return true;
  }
  if (value.has_m() && !node.names.empty()) {
    auto* fields = out->mutable_m()->mutable_fields();
    for (const auto& [name, child] : node.names) {
      auto it = value.m().fields().find(name);
      if (it == value.m().fields().end()) continue;
      AttributeValue projected;
      if (ProjectValue(child, it->second, &projected)) (*fields)[name] = std::move(projected);
    }
    if (fields->empty()) {
      out->Clear();
      return false;
    }
    return true;
  }
  if (value.has_l() && !node.indexes.empty()) {
    auto* values = out->mutable_l()->mutable_values();
    for (const auto& [index, child] : node.indexes) {
      if (index >= static_cast<uint32_t>(value.l().values_size())) break;
      AttributeValue projected;
      if (ProjectValue(child, value.l().values(static_cast<int>(index)), &projected)) {
        *values->Add() = std::move(projected);
      }
    }
    if (values->empty()) {
      out->Clear();
      return false;
    }
    return true;
  }
  return false;
}

AttributeMap ProjectTree(const Node& root, const AttributeMap& item) {
  AttributeMap out;
  for (const auto& [name, child] : root.names) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    AttributeValue projected;
    if (ProjectValue(child, it->second, &projected)) out[name] = std::move(projected);
  }
  return out;
}

}  // namespace

AttributeMap Project(const Projection& projection, const AttributeMap& item) {
  return ExtractPaths(projection.paths, item);
}

AttributeMap ProjectSelectList(const Projection& projection, const AttributeMap& item) {
  AttributeMap out;
  for (const Path& path : projection.paths) {
    const AttributeValue* v = FindPath(item, path);
    if (!v) continue;
    auto last = std::find_if(path.rbegin(), path.rend(), [](const PathElement& e) { return !e.is_index; });
    out[last->name] = *v;  // a path starts with a name
  }
  return out;
}

AttributeMap ExtractPaths(const std::vector<Path>& paths, const AttributeMap& item) {
  Node root;
  for (const auto& path : paths) {
    if (!path.empty() && !path[0].is_index) Insert(&root, path);
  }
  return ProjectTree(root, item);
}

std::string ProjectedItemProto(const Projection& projection, const AttributeMap& item,
                               std::string_view stored_proto) {
  value::PathTree paths = PathTreeOf(projection.paths, value::PathTree::End::kCopied);
  return value::ItemProto(Project(projection, item), value::EntryOrigin::Along(stored_proto, &paths));
}

}  // namespace pogi::expr
