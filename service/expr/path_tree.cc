// Paths into the tree of the places they reach.
#include "service/expr/path_tree.h"

namespace pogi::expr {

value::PathTree PathTreeOf(const std::vector<Path>& paths, value::PathTree::End end) {
  value::PathTree root;
  for (const Path& path : paths) {
    value::PathTree* node = &root;
    for (const PathElement& e : path) {
      node = e.is_index ? &node->indexes[e.index] : &node->names[e.name];
    }
    if (node != &root) node->end = end;
  }
  return root;
}

}  // namespace pogi::expr
