// Catalog: the name -> table map behind every request.
#include "service/catalog.h"

namespace pogi::service {

std::shared_ptr<const Table> Catalog::Find(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

void Catalog::Put(std::shared_ptr<const Table> table) {
  std::lock_guard lock(mu_);
  tables_[table->description.table_name()] = std::move(table);
}

void Catalog::Remove(const std::string& name) {
  std::lock_guard lock(mu_);
  tables_.erase(name);
}

std::vector<std::shared_ptr<const Table>> Catalog::All() const {
  std::lock_guard lock(mu_);
  std::vector<std::shared_ptr<const Table>> out;
  out.reserve(tables_.size());
  for (const auto& [name, t] : tables_) out.push_back(t);
  return out;
}

std::shared_ptr<const Table> Catalog::Make(int64_t id, v1::TableDescription description) {
  auto t = std::make_shared<Table>();
  t->id = id;
  auto type_of = [&](const std::string& name) {
    for (const auto& def : description.attribute_definitions()) {
      if (def.attribute_name() == name) return def.attribute_type();
    }
    return std::string();
  };
  for (const auto& k : description.key_schema()) {
    KeyAttribute attr{k.attribute_name(), type_of(k.attribute_name())};
    if (k.key_type() == "HASH") {
      t->hash = attr;
    } else {
      t->range = attr;
    }
  }
  t->description = std::move(description);
  return t;
}

}  // namespace pogi::service
