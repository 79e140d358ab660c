// PartiQL statements in the engine's terms (conditions, updates, keys, reads).
#include "service/partiql/plan.h"

#include <algorithm>

#include "service/core/transitions.h"
#include "service/expr/value_ops.h"
#include "service/partiql/lexer.h"

namespace pogi::partiql {
namespace {

using expr::Condition;
using expr::Operand;
using K = Expr::Kind;

constexpr size_t kMaxPartitions = 50;

Error NeedsPath(const std::string& f) {
  return Error::Validation("Operator or function requires a document path; operator or function: " + f);
}
Error Arity(const std::string& f, size_t n) {
  return Error::Validation("Incorrect number of operands for operator or function; operator or function: " +
                           f + ", number of operands: " + std::to_string(n));
}
Error Unrecognized(const Expr& e, std::string_view text) {
  return Error::Validation("Unrecognized function: " + e.function + " at " + Position(text, e.begin, e.end));
}
Error NotBoolean() {
  return Error::Validation("WHERE clause must contain an expression that resolves to a boolean");
}

Operand PathOperand(const expr::Path& p) {
  Operand o;
  o.kind = Operand::Kind::kPath;
  o.path = p;
  return o;
}
Operand ValueOperand(const expr::AttributeValue& v) {
  Operand o;
  o.kind = Operand::Kind::kValue;
  o.value = v;
  return o;
}

// An operand of a condition.
Result<Operand> ConditionOperand(const Expr& e, std::string_view text) {
  switch (e.kind) {
    case K::kPath:
      return PathOperand(e.path);
    case K::kLiteral:
      return ValueOperand(e.value);
    case K::kFunction: {
      if (e.function != "size") {
        static const std::set<std::string> kBoolean = {"begins_with", "contains", "attribute_type",
                                                       "attribute_exists", "attribute_not_exists"};
        if (kBoolean.count(e.function)) return NotBoolean();
        return Unrecognized(e, text);
      }
      if (e.args.size() != 1) return Arity("size", e.args.size());
      if (e.args[0].kind != K::kPath) return NeedsPath("size");
      Operand o;
      o.kind = Operand::Kind::kSize;
      o.args.push_back(PathOperand(e.args[0].path));
      return o;
    }
    case K::kPlus:
    case K::kMinus:
      return Error::Validation(std::string("Unsupported operator in Condition Expression. Operator: ") +
                               (e.kind == K::kPlus ? "+" : "-"));
    default:
      return NotBoolean();
  }
}

Result<Condition> Function(const Expr& e, std::string_view text) {
  struct Spec {
    const char* name;
    Condition::Kind kind;
    size_t arity;
  };
  static const Spec kSpecs[] = {
      {"begins_with", Condition::Kind::kBeginsWith, 2},
      {"contains", Condition::Kind::kContains, 2},
      {"attribute_type", Condition::Kind::kAttributeType, 2},
      {"attribute_exists", Condition::Kind::kAttributeExists, 1},
      {"attribute_not_exists", Condition::Kind::kAttributeNotExists, 1},
  };
  for (const Spec& s : kSpecs) {
    if (e.function != s.name) continue;
    if (e.args.size() != s.arity) return Arity(s.name, e.args.size());
    if (e.args[0].kind != K::kPath) return NeedsPath(s.name);
    Condition c;
    c.kind = s.kind;
    for (const Expr& a : e.args) {
      POGI_ASSIGN_OR_RETURN(Operand o, ConditionOperand(a, text));
      c.operands.push_back(std::move(o));
    }
    return c;
  }
  if (e.function == "size") return NotBoolean();
  return Unrecognized(e, text);
}

// The conjuncts of a top-level AND (the expression itself otherwise).
std::vector<const Expr*> Conjuncts(const Expr* e) {
  std::vector<const Expr*> out;
  if (!e) return out;
  if (e->kind == K::kAnd) {
    for (const Expr& a : e->args) {
      auto inner = Conjuncts(&a);
      out.insert(out.end(), inner.begin(), inner.end());
    }
  } else {
    out.push_back(e);
  }
  return out;
}

bool IsAttribute(const Expr& e, const std::string& name) {
  return e.kind == K::kPath && e.path.size() == 1 && !e.path[0].is_index && e.path[0].name == name;
}

// The literal that `attr = literal` (either way round) compares with.
const expr::AttributeValue* EqualityOn(const Expr& e, const std::string& attr) {
  if (e.kind != K::kCompare || e.op != expr::Comparator::kEq) return nullptr;
  if (IsAttribute(e.args[0], attr) && e.args[1].kind == K::kLiteral) return &e.args[1].value;
  if (IsAttribute(e.args[1], attr) && e.args[0].kind == K::kLiteral) return &e.args[0].value;
  return nullptr;
}

// The partition values a conjunct fixes: pk = v, pk IN [...], or an OR of pk = v.
std::optional<std::vector<expr::AttributeValue>> PartitionValues(const Expr& e, const std::string& hash) {
  if (const auto* v = EqualityOn(e, hash)) return std::vector<expr::AttributeValue>{*v};
  if (e.kind == K::kIn && IsAttribute(e.args[0], hash)) {
    std::vector<expr::AttributeValue> out;
    for (size_t i = 1; i < e.args.size(); ++i) {
      if (e.args[i].kind != K::kLiteral) return std::nullopt;
      out.push_back(e.args[i].value);
    }
    return out;
  }
  if (e.kind == K::kOr) {
    std::vector<expr::AttributeValue> out;
    for (const Expr& d : e.args) {
      const auto* v = EqualityOn(d, hash);
      if (!v) return std::nullopt;
      out.push_back(*v);
    }
    return out;
  }
  return std::nullopt;
}

bool OfKeyType(const expr::AttributeValue& v, const std::string& type) { return expr::TypeName(v) == type; }

// A conjunct on the sort key that a range read can serve exactly.
bool IsSortRange(const Expr& e, const service::KeyAttribute& range) {
  auto literal_of_type = [&](const Expr& x) {
    return x.kind == K::kLiteral && OfKeyType(x.value, range.type);
  };
  switch (e.kind) {
    case K::kCompare:
      return e.op != expr::Comparator::kNe && IsAttribute(e.args[0], range.name) &&
             literal_of_type(e.args[1]);
    case K::kBetween:
      if (!(IsAttribute(e.args[0], range.name) && literal_of_type(e.args[1]) && literal_of_type(e.args[2])))
        return false;
      // A reversed range reads nothing; leave it to the filter rather than
      // have the key condition refuse it.
      return expr::CompareOrdered(e.args[1].value, e.args[2].value).value_or(1) <= 0;
    case K::kFunction:
      return e.function == "begins_with" && e.args.size() == 2 && IsAttribute(e.args[0], range.name) &&
             literal_of_type(e.args[1]) && range.type != "N";
    default:
      return false;
  }
}

Result<std::optional<Condition>> AndOf(const std::vector<const Expr*>& parts, std::string_view text) {
  if (parts.empty()) return std::optional<Condition>();
  if (parts.size() == 1) {
    POGI_ASSIGN_OR_RETURN(Condition c, ToCondition(*parts[0], text));
    return std::optional<Condition>(std::move(c));
  }
  Condition c;
  c.kind = Condition::Kind::kAnd;
  for (const Expr* p : parts) {
    POGI_ASSIGN_OR_RETURN(Condition child, ToCondition(*p, text));
    c.children.push_back(std::move(child));
  }
  return std::optional<Condition>(std::move(c));
}

Result<Operand> UpdateOperand(const Expr& e, std::string_view text) {
  switch (e.kind) {
    case K::kPath:
      return PathOperand(e.path);
    case K::kLiteral:
      return ValueOperand(e.value);
    case K::kPlus:
    case K::kMinus: {
      Operand o;
      o.kind = e.kind == K::kPlus ? Operand::Kind::kPlus : Operand::Kind::kMinus;
      for (const Expr& a : e.args) {
        POGI_ASSIGN_OR_RETURN(Operand x, UpdateOperand(a, text));
        o.args.push_back(std::move(x));
      }
      return o;
    }
    case K::kFunction: {
      Operand o;
      if (e.function == "list_append") {
        o.kind = Operand::Kind::kListAppend;
      } else if (e.function == "if_not_exists") {
        o.kind = Operand::Kind::kIfNotExists;
        if (!e.args.empty() && e.args[0].kind != K::kPath) return NeedsPath("if_not_exists");
      } else {
        return Unrecognized(e, text);
      }
      if (e.args.size() != 2) return Arity(e.function, e.args.size());
      for (const Expr& a : e.args) {
        POGI_ASSIGN_OR_RETURN(Operand x, UpdateOperand(a, text));
        o.args.push_back(std::move(x));
      }
      return o;
    }
    default:
      return Error::Validation("IS operator is not supported in update expressions");
  }
}

}  // namespace

Result<Condition> ToCondition(const Expr& e, std::string_view text) {
  Condition c;
  switch (e.kind) {
    case K::kAnd:
    case K::kOr:
      c.kind = e.kind == K::kAnd ? Condition::Kind::kAnd : Condition::Kind::kOr;
      for (const Expr& a : e.args) {
        POGI_ASSIGN_OR_RETURN(Condition child, ToCondition(a, text));
        c.children.push_back(std::move(child));
      }
      return c;
    case K::kNot: {
      c.kind = Condition::Kind::kNot;
      POGI_ASSIGN_OR_RETURN(Condition child, ToCondition(e.args[0], text));
      c.children.push_back(std::move(child));
      return c;
    }
    case K::kCompare:
    case K::kBetween:
    case K::kIn:
      c.kind = e.kind == K::kCompare   ? Condition::Kind::kCompare
               : e.kind == K::kBetween ? Condition::Kind::kBetween
                                       : Condition::Kind::kIn;
      c.op = e.op;
      for (const Expr& a : e.args) {
        POGI_ASSIGN_OR_RETURN(Operand o, ConditionOperand(a, text));
        c.operands.push_back(std::move(o));
      }
      return c;
    case K::kIsMissing:
    case K::kIsNull: {
      if (e.args[0].kind != K::kPath) {
        return Error::Validation(
            "The left hand side argument to IS must be a Variable Reference, Literal, or Path");
      }
      Condition missing;
      missing.kind = Condition::Kind::kAttributeNotExists;
      missing.operands.push_back(PathOperand(e.args[0].path));
      if (e.kind == K::kIsNull) {
        // PartiQL: a missing value IS NULL too.
        Condition null_type;
        null_type.kind = Condition::Kind::kAttributeType;
        null_type.operands.push_back(PathOperand(e.args[0].path));
        expr::AttributeValue t;
        t.set_s("NULL");
        null_type.operands.push_back(ValueOperand(t));
        Condition either;
        either.kind = Condition::Kind::kOr;
        either.children.push_back(std::move(missing));
        either.children.push_back(std::move(null_type));
        missing = std::move(either);
      }
      if (!e.negated) return missing;
      c.kind = Condition::Kind::kNot;
      c.children.push_back(std::move(missing));
      return c;
    }
    case K::kFunction:
      return Function(e, text);
    default:
      return NotBoolean();
  }
}

Result<expr::Update> ToUpdate(const Statement& st, std::string_view text) {
  expr::Update u;
  for (const SetAction& a : st.sets) {
    const Expr& v = a.value;
    if (v.kind == K::kFunction && (v.function == "set_add" || v.function == "set_delete")) {
      std::string upper = v.function == "set_add" ? "SET_ADD" : "SET_DELETE";
      std::string at = " at " + Position(text, v.begin, v.end);
      if (v.args.size() != 2) return Error::Validation(upper + " must have exactly two arguments" + at);
      if (v.args[0].kind != K::kPath || v.args[0].path != a.target) {
        return Error::Validation("The first argument to " + upper + " must equal the assignment value" + at);
      }
      const Expr& second = v.args[1];
      if (second.kind != K::kLiteral || !expr::IsSet(second.value)) {
        return Error::Validation("The second argument to " + upper + " must be a value with type SET at " +
                                 Position(text, v.args[0].begin, v.args[0].end));
      }
      (v.function == "set_add" ? u.adds : u.deletes).push_back({a.target, second.value});
      continue;
    }
    POGI_ASSIGN_OR_RETURN(Operand o, UpdateOperand(v, text));
    u.sets.push_back({a.target, std::move(o)});
  }
  u.removes = st.removes;
  return u;
}

Result<KeyedTarget> ToKeyedTarget(const Statement& st, const service::Table& table, std::string_view text) {
  KeyedTarget t;
  std::vector<const Expr*> rest;
  std::vector<const service::KeyAttribute*> keys = {&table.hash};
  if (table.range) keys.push_back(&*table.range);
  for (const Expr* c : Conjuncts(st.where ? &*st.where : nullptr)) {
    bool used = false;
    for (const auto* k : keys) {
      const auto* v = EqualityOn(*c, k->name);
      if (!v) continue;
      if (t.key.count(k->name)) {
        return Error::Validation("Multiple conditions on same key " + k->name +
                                 ". Only single item Update/Insert/Delete are supported");
      }
      t.key[k->name] = *v;
      used = true;
    }
    if (!used) rest.push_back(c);
  }
  for (const auto* k : keys) {
    if (!t.key.count(k->name)) {
      return Error::Validation("Where clause does not contain a mandatory equality on all key attributes");
    }
  }
  POGI_ASSIGN_OR_RETURN(t.condition, AndOf(rest, text));
  return t;
}

namespace {

// The read of an index with multi-attribute keys: a Query when the WHERE
// fixes every partition-key attribute by an equality (one value each; IN
// lists are left to a Scan), its key condition those equalities and the
// sort-key conjuncts a range read serves exactly (equalities left to right,
// then at most one range); else a Scan. The conjuncts not used go to `rest`.
Status PlanMultiAttribute(const std::vector<const Expr*>& conjuncts, const service::KeySchema& keys,
                          std::string_view text, ReadPlan* plan, std::vector<const Expr*>* rest) {
  std::vector<bool> used(conjuncts.size());
  std::vector<size_t> picked;
  auto equality = [&](const service::KeyAttribute& k) -> std::optional<size_t> {
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      const auto* v = used[i] ? nullptr : EqualityOn(*conjuncts[i], k.name);
      if (v && OfKeyType(*v, k.type)) return i;
    }
    return std::nullopt;
  };
  for (const auto& k : keys.hash) {
    auto i = equality(k);
    if (!i) {
      picked.clear();
      break;
    }
    used[*i] = true;
    picked.push_back(*i);
  }
  if (!picked.empty()) {
    for (const auto& k : keys.range) {
      if (auto i = equality(k)) {
        used[*i] = true;
        picked.push_back(*i);
        continue;
      }
      for (size_t i = 0; i < conjuncts.size(); ++i) {
        if (!used[i] && IsSortRange(*conjuncts[i], k)) {
          used[i] = true;
          picked.push_back(i);
          break;
        }
      }
      break;
    }
    Condition key;
    key.kind = Condition::Kind::kAnd;
    for (size_t i : picked) {
      POGI_ASSIGN_OR_RETURN(Condition c, ToCondition(*conjuncts[i], text));
      key.children.push_back(std::move(c));
    }
    plan->query = true;
    plan->key_condition = std::move(key);
  } else {
    std::fill(used.begin(), used.end(), false);
  }
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (!used[i]) rest->push_back(conjuncts[i]);
  }
  return Status::Ok();
}

}  // namespace

Result<ReadPlan> PlanSelect(const Statement& st, const service::Table& table, bool consistent_read,
                            std::string_view text) {
  ReadPlan plan;
  if (st.index) {
    plan.index = table.FindIndex(*st.index);
    if (!plan.index) return Error::Validation("The table does not have the specified index: " + *st.index);
    if (!plan.index->readable) return service::IndexNotReadable(*st.index);  // still being created
    if (plan.index->global && consistent_read) {
      return Error::Validation("Consistent reads are not supported on global secondary indexes");
    }
  }
  const service::KeySchema keys = table.KeysOf(plan.index);
  const service::KeyAttribute& hash = keys.hash[0];
  const std::optional<service::KeyAttribute> range =
      keys.range.empty() ? std::nullopt : std::optional(keys.range[0]);
  const bool multi_attribute = keys.hash.size() > 1 || keys.range.size() > 1;
  std::vector<const Expr*> conjuncts = Conjuncts(st.where ? &*st.where : nullptr);
  std::vector<const Expr*> rest;
  if (multi_attribute) POGI_RETURN_IF_ERROR(PlanMultiAttribute(conjuncts, keys, text, &plan, &rest));
  const Expr* sort_conjunct = nullptr;
  for (const Expr* c : multi_attribute ? std::vector<const Expr*>() : conjuncts) {
    if (!plan.query) {
      if (auto values = PartitionValues(*c, hash.name)) {
        plan.query = true;
        // A value of another type than the key's matches no partition.
        for (auto& v : *values) {
          if (!OfKeyType(v, hash.type)) continue;
          bool seen = std::any_of(plan.partitions.begin(), plan.partitions.end(),
                                  [&](const auto& p) { return expr::ValuesEqual(p, v); });
          if (!seen) plan.partitions.push_back(std::move(v));
        }
        continue;
      }
    }
    if (!sort_conjunct && range && IsSortRange(*c, *range)) {
      sort_conjunct = c;
      continue;
    }
    rest.push_back(c);
  }
  if (!plan.query && sort_conjunct) rest.push_back(sort_conjunct), sort_conjunct = nullptr;
  // DynamoDB reads at most 50 partitions for one statement (its PartiQL
  // operators page: "at max 50 hash attribute values").
  if (plan.partitions.size() > kMaxPartitions) {
    return Error::Validation("Too many decomposed read operations for a given query.");
  }
  if (sort_conjunct) {
    POGI_ASSIGN_OR_RETURN(Condition c, ToCondition(*sort_conjunct, text));
    plan.sort_range = std::move(c);
  }
  POGI_ASSIGN_OR_RETURN(plan.filter, AndOf(rest, text));
  if (!st.projection.empty()) plan.projection = expr::Projection{st.projection};

  // ORDER BY: only over a Query, and only by the key attributes.
  bool by_hash_seen = false;
  for (size_t i = 0; i < st.order_by.size(); ++i) {
    const OrderBy& o = st.order_by[i];
    if (!st.where)
      return Error::Validation("Must have WHERE clause in the statement when using ORDER BY clause.");
    if (!plan.query) {
      return Error::Validation(
          "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY "
          "clause.");
    }
    if (o.name == hash.name) {
      by_hash_seen = true;
      auto less = [](const expr::AttributeValue& a, const expr::AttributeValue& b) {
        return expr::CompareOrdered(a, b).value_or(0) < 0;
      };
      std::stable_sort(plan.partitions.begin(), plan.partitions.end(), less);
      if (o.descending) std::reverse(plan.partitions.begin(), plan.partitions.end());
    } else if (range && o.name == range->name) {
      if (plan.partitions.size() > 1 && !by_hash_seen) {
        return Error::Validation(
            "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE "
            "clause.");
      }
      plan.forward = !o.descending;
    } else {
      return Error::Validation("Variable reference " + o.name +
                               " in ORDER BY clause must be part of the primary key");
    }
  }
  return plan;
}

}  // namespace pogi::partiql
