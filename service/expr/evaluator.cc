// Evaluation of conditions (ConditionExpression, FilterExpression, legacy
// Expected/QueryFilter/ScanFilter) against one item.
#include "service/expr/evaluator.h"

#include <string>

#include "service/expr/value_ops.h"

namespace pogi::expr {

const AttributeValue* FindPath(const AttributeMap& item, const Path& path) {
  if (path.empty() || path[0].is_index) return nullptr;
  auto it = item.find(path[0].name);
  if (it == item.end()) return nullptr;
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < path.size(); ++i) {
    if (path[i].is_index) {
      if (!v->has_l() || path[i].index >= static_cast<uint32_t>(v->l().values_size())) {
        return nullptr;
      }
      v = &v->l().values(static_cast<int>(path[i].index));
    } else {
      if (!v->has_m()) return nullptr;
      auto f = v->m().fields().find(path[i].name);
      if (f == v->m().fields().end()) return nullptr;
      v = &f->second;
    }
  }
  return v;
}

namespace {

// A condition operand's value: a pointer into the item or the AST, or a
// computed size(). Empty when the operand has no value.
struct Value {
  const AttributeValue* ptr = nullptr;
  AttributeValue computed;
  const AttributeValue* get() const { return ptr; }
};

void Resolve(const Operand& op, const AttributeMap& item, Value* out) {
  switch (op.kind) {
    case Operand::Kind::kPath:
      out->ptr = FindPath(item, op.path);
      return;
    case Operand::Kind::kValue:
      out->ptr = &op.value;
      return;
    case Operand::Kind::kSize: {
      Value inner;
      Resolve(op.args[0], item, &inner);
      if (inner.get() == nullptr) return;
      auto size = SizeOf(*inner.get());
      if (!size) return;  // size() of N, BOOL, NULL: no value, so false
      out->computed = NumberValue(std::to_string(*size));
      out->ptr = &out->computed;
      return;
    }
    default:
      return;  // update-only functions never reach a condition
  }
}

bool Compare(Comparator op, const AttributeValue* a, const AttributeValue* b) {
  if (op == Comparator::kNe) {
    // DynamoDB: a missing attribute is "not equal" to any value.
    if (a == nullptr || b == nullptr) return true;
    return !ValuesEqual(*a, *b);
  }
  if (a == nullptr || b == nullptr) return false;
  if (op == Comparator::kEq) return ValuesEqual(*a, *b);
  auto order = CompareOrdered(*a, *b);
  if (!order) return false;
  switch (op) {
    case Comparator::kLt:
      return *order < 0;
    case Comparator::kLe:
      return *order <= 0;
    case Comparator::kGt:
      return *order > 0;
    case Comparator::kGe:
      return *order >= 0;
    default:
      return false;
  }
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.value_case()) {
    case AttributeValue::kS:
      return needle.has_s() && haystack.s().find(needle.s()) != std::string::npos;
    case AttributeValue::kB:
      return needle.has_b() && haystack.b().find(needle.b()) != std::string::npos;
    case AttributeValue::kSs:
      if (!needle.has_s()) return false;
      for (const auto& s : haystack.ss().values()) {
        if (s == needle.s()) return true;
      }
      return false;
    case AttributeValue::kNs:
      if (!needle.has_n()) return false;
      for (const auto& n : haystack.ns().values()) {
        if (ValuesEqual(NumberValue(n), needle)) return true;
      }
      return false;
    case AttributeValue::kBs:
      if (!needle.has_b()) return false;
      for (const auto& b : haystack.bs().values()) {
        if (b == needle.b()) return true;
      }
      return false;
    case AttributeValue::kL:
      for (const auto& element : haystack.l().values()) {
        if (ValuesEqual(element, needle)) return true;
      }
      return false;
    default:
      return false;
  }
}

bool Eval(const Condition& c, const AttributeMap& item) {
  switch (c.kind) {
    case Condition::Kind::kTrue:
      return true;
    case Condition::Kind::kAnd:
      for (const auto& child : c.children) {
        if (!Eval(child, item)) return false;
      }
      return true;
    case Condition::Kind::kOr:
      for (const auto& child : c.children) {
        if (Eval(child, item)) return true;
      }
      return false;
    case Condition::Kind::kNot:
      return !Eval(c.children[0], item);
    case Condition::Kind::kAttributeExists:
      return FindPath(item, c.operands[0].path) != nullptr;
    case Condition::Kind::kAttributeNotExists:
      return FindPath(item, c.operands[0].path) == nullptr;
    default:
      break;
  }
  // Leaves over values.
  std::vector<Value> values(c.operands.size());
  for (size_t i = 0; i < c.operands.size(); ++i) Resolve(c.operands[i], item, &values[i]);
  switch (c.kind) {
    case Condition::Kind::kCompare:
      return Compare(c.op, values[0].get(), values[1].get());
    case Condition::Kind::kBetween: {
      const AttributeValue *x = values[0].get(), *lo = values[1].get(), *hi = values[2].get();
      if (!x || !lo || !hi) return false;
      auto a = CompareOrdered(*lo, *x);
      auto b = CompareOrdered(*x, *hi);
      return a && b && *a <= 0 && *b <= 0;
    }
    case Condition::Kind::kIn:
      if (values[0].get() == nullptr) return false;
      for (size_t i = 1; i < values.size(); ++i) {
        if (values[i].get() && ValuesEqual(*values[0].get(), *values[i].get())) return true;
      }
      return false;
    case Condition::Kind::kAttributeType: {
      const AttributeValue *v = values[0].get(), *t = values[1].get();
      return v && t && t->has_s() && TypeName(*v) == t->s();
    }
    case Condition::Kind::kBeginsWith: {
      const AttributeValue *v = values[0].get(), *p = values[1].get();
      if (!v || !p) return false;
      if (v->has_s() && p->has_s()) return v->s().starts_with(p->s());
      if (v->has_b() && p->has_b()) return v->b().starts_with(p->b());
      return false;
    }
    case Condition::Kind::kContains: {
      const AttributeValue *v = values[0].get(), *n = values[1].get();
      return v && n && Contains(*v, *n);
    }
    default:
      return false;
  }
}

}  // namespace

Result<bool> Evaluate(const Condition& condition, const AttributeMap& item) { return Eval(condition, item); }

}  // namespace pogi::expr
