// Expression text of conditions and updates, with substitutions.
#include "service/partiql/render.h"

namespace pogi::partiql {

std::string Renderer::Path(const expr::Path& p) {
  std::string out;
  for (const auto& e : p) {
    if (e.is_index) {
      out += "[" + std::to_string(e.index) + "]";
      continue;
    }
    auto it = name_refs_.find(e.name);
    if (it == name_refs_.end()) {
      std::string ref = "#n" + std::to_string(name_refs_.size());
      it = name_refs_.emplace(e.name, ref).first;
      names_[ref] = e.name;
    }
    if (!out.empty()) out.push_back('.');
    out += it->second;
  }
  return out;
}

std::string Renderer::Value(const expr::AttributeValue& v) {
  std::string ref = ":v" + std::to_string(values_.size());
  values_[ref] = v;
  return ref;
}

std::string Renderer::Operand(const expr::Operand& o) {
  using Kind = expr::Operand::Kind;
  switch (o.kind) {
    case Kind::kPath:
      return Path(o.path);
    case Kind::kValue:
      return Value(o.value);
    case Kind::kSize:
      return "size(" + Operand(o.args[0]) + ")";
    case Kind::kIfNotExists:
      return "if_not_exists(" + Operand(o.args[0]) + ", " + Operand(o.args[1]) + ")";
    case Kind::kListAppend:
      return "list_append(" + Operand(o.args[0]) + ", " + Operand(o.args[1]) + ")";
    case Kind::kPlus:
      return Operand(o.args[0]) + " + " + Operand(o.args[1]);
    case Kind::kMinus:
      return Operand(o.args[0]) + " - " + Operand(o.args[1]);
  }
  return "";
}

std::string Renderer::Condition(const expr::Condition& c) {
  using Kind = expr::Condition::Kind;
  auto call = [&](const char* f) {
    std::string s = std::string(f) + "(";
    for (size_t i = 0; i < c.operands.size(); ++i) s += (i ? ", " : "") + Operand(c.operands[i]);
    return s + ")";
  };
  switch (c.kind) {
    case Kind::kAnd:
    case Kind::kOr: {
      std::string s = "(";
      for (size_t i = 0; i < c.children.size(); ++i) {
        if (i) s += c.kind == Kind::kAnd ? " AND " : " OR ";
        s += Condition(c.children[i]);
      }
      return s + ")";
    }
    case Kind::kNot:
      return "(NOT " + Condition(c.children[0]) + ")";
    case Kind::kCompare: {
      static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
      std::string left = Operand(c.operands[0]);
      return left + " " + kOps[static_cast<int>(c.op)] + " " + Operand(c.operands[1]);
    }
    case Kind::kBetween: {
      std::string a = Operand(c.operands[0]);
      std::string b = Operand(c.operands[1]);
      return a + " BETWEEN " + b + " AND " + Operand(c.operands[2]);
    }
    case Kind::kIn: {
      std::string s = Operand(c.operands[0]) + " IN (";
      for (size_t i = 1; i < c.operands.size(); ++i) s += (i > 1 ? ", " : "") + Operand(c.operands[i]);
      return s + ")";
    }
    case Kind::kAttributeExists:
      return call("attribute_exists");
    case Kind::kAttributeNotExists:
      return call("attribute_not_exists");
    case Kind::kAttributeType:
      return call("attribute_type");
    case Kind::kBeginsWith:
      return call("begins_with");
    case Kind::kContains:
      return call("contains");
    case Kind::kTrue:
      break;
  }
  return "";
}

std::string Renderer::Update(const expr::Update& u) {
  std::string out;
  auto clause = [&](const char* word, auto&& items) {
    if (items.empty()) return;
    out += (out.empty() ? "" : " ") + std::string(word) + " ";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  };
  std::vector<std::string> sets, removes, adds, deletes;
  for (const auto& s : u.sets) {
    std::string target = Path(s.path);
    sets.push_back(target + " = " + Operand(s.value));
  }
  for (const auto& r : u.removes) removes.push_back(Path(r));
  for (const auto& a : u.adds) {
    std::string target = Path(a.path);
    adds.push_back(target + " " + Value(a.value));
  }
  for (const auto& d : u.deletes) {
    std::string target = Path(d.path);
    deletes.push_back(target + " " + Value(d.value));
  }
  clause("SET", sets);
  clause("REMOVE", removes);
  clause("ADD", adds);
  clause("DELETE", deletes);
  return out;
}

}  // namespace pogi::partiql
