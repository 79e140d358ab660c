// The engine's in-memory view of the table catalog: each table's storage id,
// description and key schema, looked up by name on every request. Loaded from
// storage at start; updated by CreateTable/DeleteTable under their write.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

// One key attribute of a table or index: its name and type ("S", "N" or "B").
struct KeyAttribute {
  std::string name;
  std::string type;
};

struct Table {
  int64_t id = 0;
  v1::TableDescription description;  // without live counters
  KeyAttribute hash;
  std::optional<KeyAttribute> range;
};

class Catalog {
 public:
  std::shared_ptr<const Table> Find(const std::string& name) const;
  void Put(std::shared_ptr<const Table> table);
  void Remove(const std::string& name);
  // Every table, ordered by name.
  std::vector<std::shared_ptr<const Table>> All() const;

  // Builds a Table (key attributes resolved) from its stored description.
  static std::shared_ptr<const Table> Make(int64_t id, v1::TableDescription description);

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Table>> tables_;
};

}  // namespace pogi::service
