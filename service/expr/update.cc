// UpdateExpression semantics: SET (with + - if_not_exists list_append),
// REMOVE, ADD and DELETE over document paths.
#include "service/expr/update.h"

#include <algorithm>
#include <unordered_set>

#include "service/expr/evaluator.h"
#include "service/expr/value_ops.h"
#include "service/value/decimal.h"
#include "service/value/set_order.h"

namespace pogi::expr {
namespace {

using value::Decimal;

Error MissingAttribute() {
  return Error::Validation("The provided expression refers to an attribute that does not exist in the item");
}
Error InvalidPath() {
  return Error::Validation("The document path provided in the update expression is invalid for update");
}
Error WrongType() {
  return Error::Validation("An operand in the update expression has an incorrect data type");
}

// Evaluates a SET operand against the pre-image.
Result<AttributeValue> Compute(const Operand& op, const AttributeMap& old) {
  switch (op.kind) {
    case Operand::Kind::kValue:
      return op.value;
    case Operand::Kind::kPath: {
      const AttributeValue* v = FindPath(old, op.path);
      if (v == nullptr) return MissingAttribute();
      return *v;
    }
    case Operand::Kind::kIfNotExists: {
      const AttributeValue* v = FindPath(old, op.args[0].path);
      if (v != nullptr) return *v;
      return Compute(op.args[1], old);
    }
    case Operand::Kind::kListAppend: {
      POGI_ASSIGN_OR_RETURN(AttributeValue a, Compute(op.args[0], old));
      POGI_ASSIGN_OR_RETURN(AttributeValue b, Compute(op.args[1], old));
      if (!a.has_l() || !b.has_l()) return WrongType();
      for (auto& element : *b.mutable_l()->mutable_values()) {
        *a.mutable_l()->add_values() = std::move(element);
      }
      return a;
    }
    case Operand::Kind::kPlus:
    case Operand::Kind::kMinus: {
      POGI_ASSIGN_OR_RETURN(AttributeValue a, Compute(op.args[0], old));
      POGI_ASSIGN_OR_RETURN(AttributeValue b, Compute(op.args[1], old));
      if (!a.has_n() || !b.has_n()) return WrongType();
      POGI_ASSIGN_OR_RETURN(Decimal x, Decimal::Parse(a.n()));
      POGI_ASSIGN_OR_RETURN(Decimal y, Decimal::Parse(b.n()));
      POGI_ASSIGN_OR_RETURN(Decimal r,
                            op.kind == Operand::Kind::kPlus ? Decimal::Add(x, y) : Decimal::Subtract(x, y));
      return NumberValue(r.ToString());
    }
    case Operand::Kind::kSize:
      break;
  }
  return WrongType();
}

// The parent container of the last step of `path`, creating nothing.
// Null (invalid path) when a parent is missing or of the wrong type.
AttributeValue* FindMutable(AttributeMap* item, const Path& path, size_t steps) {
  auto it = item->find(path[0].name);
  if (it == item->end()) return nullptr;
  AttributeValue* v = &it->second;
  for (size_t i = 1; i < steps; ++i) {
    if (path[i].is_index) {
      if (!v->has_l() || path[i].index >= static_cast<uint32_t>(v->l().values_size())) {
        return nullptr;
      }
      v = v->mutable_l()->mutable_values(static_cast<int>(path[i].index));
    } else {
      if (!v->has_m()) return nullptr;
      auto f = v->mutable_m()->mutable_fields()->find(path[i].name);
      if (f == v->mutable_m()->mutable_fields()->end()) return nullptr;
      v = &f->second;
    }
  }
  return v;
}

// Writes `value` at `path`. A list index past the end appends.
Status SetAt(AttributeMap* item, const Path& path, AttributeValue value) {
  if (path.size() == 1) {
    (*item)[path[0].name] = std::move(value);
    return Status::Ok();
  }
  AttributeValue* parent = FindMutable(item, path, path.size() - 1);
  if (parent == nullptr) return InvalidPath();
  const PathElement& last = path.back();
  if (last.is_index) {
    if (!parent->has_l()) return InvalidPath();
    auto* values = parent->mutable_l()->mutable_values();
    if (last.index >= static_cast<uint32_t>(values->size())) {
      *values->Add() = std::move(value);
    } else {
      (*values)[static_cast<int>(last.index)] = std::move(value);
    }
  } else {
    if (!parent->has_m()) return InvalidPath();
    (*parent->mutable_m()->mutable_fields())[last.name] = std::move(value);
  }
  return Status::Ok();
}

// Removes `path`; a missing attribute, key or index is a no-op, a missing or
// wrongly typed parent is an invalid path.
Status RemoveAt(AttributeMap* item, const Path& path) {
  if (path.size() == 1) {
    item->erase(path[0].name);
    return Status::Ok();
  }
  AttributeValue* parent = FindMutable(item, path, path.size() - 1);
  if (parent == nullptr) return InvalidPath();
  const PathElement& last = path.back();
  if (last.is_index) {
    if (!parent->has_l()) return InvalidPath();
    auto* values = parent->mutable_l()->mutable_values();
    if (last.index < static_cast<uint32_t>(values->size())) {
      values->erase(values->begin() + last.index);
    }
  } else {
    if (!parent->has_m()) return InvalidPath();
    parent->mutable_m()->mutable_fields()->erase(last.name);
  }
  return Status::Ok();
}

// ADD: a number's sum, or the union of two sets: sorted (UpdateExpression's
// ADD) or the old members then the new (a legacy AttributeUpdates ADD), as
// DynamoDB Local orders them (value/set_order.h); a set that gains nothing
// keeps its order.
Result<AttributeValue> AddValues(const AttributeValue& existing, const AttributeValue& add, bool legacy) {
  if (existing.value_case() != add.value_case()) return WrongType();
  AttributeValue out = existing;
  if (add.has_n()) {
    POGI_ASSIGN_OR_RETURN(Decimal x, Decimal::Parse(existing.n()));
    POGI_ASSIGN_OR_RETURN(Decimal y, Decimal::Parse(add.n()));
    POGI_ASSIGN_OR_RETURN(Decimal r, Decimal::Add(x, y));
    return NumberValue(r.ToString());
  }
  if (add.has_ns()) {
    for (const auto& n : add.ns().values()) {
      bool present = false;
      for (const auto& m : existing.ns().values()) {
        if (ValuesEqual(NumberValue(m), NumberValue(n))) present = true;
      }
      if (!present) out.mutable_ns()->add_values(n);
    }
    if (!legacy && out.ns().values_size() != existing.ns().values_size()) value::SortAsUnion(&out);
    return out;
  }
  if (add.has_ss() || add.has_bs()) {
    const auto& have = add.has_ss() ? existing.ss().values() : existing.bs().values();
    auto* into = add.has_ss() ? out.mutable_ss() : nullptr;
    auto* into_b = add.has_bs() ? out.mutable_bs() : nullptr;
    std::unordered_set<std::string_view> seen(have.begin(), have.end());
    for (const auto& s : add.has_ss() ? add.ss().values() : add.bs().values()) {
      if (seen.insert(s).second) {
        if (into) into->add_values(s);
        if (into_b) into_b->add_values(s);
      }
    }
    if (!legacy && static_cast<int>(seen.size()) != have.size()) value::SortAsUnion(&out);
    return out;
  }
  return WrongType();
}

// The members of `existing` that `del` does not name, in their order; an
// empty set when none stay (DynamoDB then removes the attribute).
Result<AttributeValue> SetDifference(const AttributeValue& existing, const AttributeValue& del) {
  if (existing.value_case() != del.value_case() || !IsSet(del)) return WrongType();
  AttributeValue out;
  if (del.has_ns()) {
    auto* ns = out.mutable_ns();
    for (const auto& m : existing.ns().values()) {
      bool removed = false;
      for (const auto& n : del.ns().values()) {
        if (ValuesEqual(NumberValue(m), NumberValue(n))) removed = true;
      }
      if (!removed) ns->add_values(m);
    }
    return out;
  }
  const auto& gone = del.has_ss() ? del.ss().values() : del.bs().values();
  std::unordered_set<std::string_view> drop(gone.begin(), gone.end());
  const auto& have = del.has_ss() ? existing.ss().values() : existing.bs().values();
  if (del.has_ss()) {
    out.mutable_ss();
  } else {
    out.mutable_bs();
  }
  for (const auto& s : have) {
    if (drop.contains(s)) continue;
    if (del.has_ss()) {
      out.mutable_ss()->add_values(s);
    } else {
      out.mutable_bs()->add_values(s);
    }
  }
  return out;
}

int SetSize(const AttributeValue& v) {
  return v.has_ss() ? v.ss().values_size() : v.has_ns() ? v.ns().values_size() : v.bs().values_size();
}

// DELETE: the set difference. What stays keeps its order, but an
// UpdateExpression's DELETE that removed something sorts it by bytes
// (value/set_order.h).
Result<AttributeValue> DeleteValues(const AttributeValue& existing, const AttributeValue& del, bool legacy) {
  POGI_ASSIGN_OR_RETURN(AttributeValue out, SetDifference(existing, del));
  if (!legacy && SetSize(out) != SetSize(existing)) value::SortAsUnion(&out);
  return out;
}

bool IsEmptySet(const AttributeValue& v) {
  return (v.has_ss() && v.ss().values_size() == 0) || (v.has_ns() && v.ns().values_size() == 0) ||
         (v.has_bs() && v.bs().values_size() == 0);
}

// Order in which REMOVEs of list elements are applied: higher indexes of the
// same list first, so every index refers to the pre-image.
bool RemoveOrder(const Path& a, const Path& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    if (a[i].is_index && b[i].is_index) return a[i].index > b[i].index;
    if (a[i].is_index != b[i].is_index) return a[i].is_index;
    return a[i].name < b[i].name;
  }
  return a.size() > b.size();
}

}  // namespace

Status Apply(const Update& update, AttributeMap* item, std::vector<Path>* updated_paths) {
  const AttributeMap& old = *item;
  // 1. Every SET value from the pre-image.
  std::vector<AttributeValue> set_values;
  set_values.reserve(update.sets.size());
  for (const auto& set : update.sets) {
    POGI_ASSIGN_OR_RETURN(AttributeValue v, Compute(set.value, old));
    set_values.push_back(std::move(v));
  }
  // 2. ADD / DELETE results from the pre-image.
  std::vector<AttributeValue> add_values;
  for (const auto& add : update.adds) {
    const AttributeValue* existing = FindPath(old, add.path);
    if (existing == nullptr) {
      add_values.push_back(add.value);
    } else {
      POGI_ASSIGN_OR_RETURN(AttributeValue v, AddValues(*existing, add.value, update.legacy_set_order));
      add_values.push_back(std::move(v));
    }
  }
  std::vector<std::optional<AttributeValue>> delete_values;
  for (const auto& del : update.deletes) {
    const AttributeValue* existing = FindPath(old, del.path);
    if (existing == nullptr) {
      delete_values.push_back(std::nullopt);
    } else {
      POGI_ASSIGN_OR_RETURN(AttributeValue v, DeleteValues(*existing, del.value, update.legacy_set_order));
      delete_values.push_back(std::move(v));
    }
  }
  // 3. Write into a copy, so that an error leaves *item unchanged.
  AttributeMap next = old;
  // SETs whose list index is past the end append in index order.
  std::vector<size_t> set_order(update.sets.size());
  for (size_t i = 0; i < set_order.size(); ++i) set_order[i] = i;
  std::stable_sort(set_order.begin(), set_order.end(), [&](size_t a, size_t b) {
    const Path& x = update.sets[a].path;
    const Path& y = update.sets[b].path;
    if (x.size() != y.size() || x.empty() || !x.back().is_index || !y.back().is_index) {
      return false;
    }
    return x.back().index < y.back().index;
  });
  for (size_t i : set_order) {
    POGI_RETURN_IF_ERROR(SetAt(&next, update.sets[i].path, std::move(set_values[i])));
  }
  for (size_t i = 0; i < update.adds.size(); ++i) {
    POGI_RETURN_IF_ERROR(SetAt(&next, update.adds[i].path, std::move(add_values[i])));
  }
  for (size_t i = 0; i < update.deletes.size(); ++i) {
    const Path& path = update.deletes[i].path;
    if (!delete_values[i]) {
      // Nothing to delete from; the parent must still be valid.
      if (path.size() > 1 && FindMutable(&next, path, path.size() - 1) == nullptr) {
        return InvalidPath();
      }
      continue;
    }
    if (IsEmptySet(*delete_values[i])) {
      POGI_RETURN_IF_ERROR(RemoveAt(&next, path));
    } else {
      POGI_RETURN_IF_ERROR(SetAt(&next, path, std::move(*delete_values[i])));
    }
  }
  std::vector<const Path*> removes;
  for (const auto& path : update.removes) removes.push_back(&path);
  std::sort(removes.begin(), removes.end(), [](const Path* a, const Path* b) { return RemoveOrder(*a, *b); });
  for (const Path* path : removes) POGI_RETURN_IF_ERROR(RemoveAt(&next, *path));

  *item = std::move(next);
  if (updated_paths != nullptr) {
    updated_paths->clear();
    for (const auto& s : update.sets) updated_paths->push_back(s.path);
    for (const auto& p : update.removes) updated_paths->push_back(p);
    for (const auto& a : update.adds) updated_paths->push_back(a.path);
    for (const auto& d : update.deletes) updated_paths->push_back(d.path);
  }
  return Status::Ok();
}

}  // namespace pogi::expr
