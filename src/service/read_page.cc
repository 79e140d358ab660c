// Page assembly for Query and Scan.
#include "service/read_page.h"

#include "expr/evaluator.h"
#include "expr/projection.h"
#include "service/item_validation.h"
#include "service/item_write.h"

namespace pogi::service {
namespace {

// The attributes LastEvaluatedKey carries: the table's key, and the index's.
std::vector<const KeyAttribute*> PositionAttributes(const Table& table, const Index* index) {
  std::vector<const KeyAttribute*> attrs = {&table.hash};
  if (table.range) attrs.push_back(&*table.range);
  if (index) {
    for (const KeyAttribute* a : {&index->hash, index->range ? &*index->range : nullptr}) {
      if (a && !table.IsTableKey(a->name)) attrs.push_back(a);
    }
  }
  return attrs;
}

value::AttributeMap KeyOf(const Table& table, const Index* index, const value::AttributeMap& item) {
  value::AttributeMap key;
  for (const KeyAttribute* a : PositionAttributes(table, index)) {
    auto it = item.find(a->name);
    if (it != item.end()) key[a->name] = it->second;
  }
  return key;
}

void CollectOperand(const expr::Operand& o, std::set<std::string>* names) {
  if (o.kind == expr::Operand::Kind::kPath && !o.path.empty()) names->insert(o.path[0].name);
  for (const auto& a : o.args) CollectOperand(a, names);
}

}  // namespace

void CollectNames(const expr::Condition& c, std::set<std::string>* names) {
  for (const auto& o : c.operands) CollectOperand(o, names);
  for (const auto& child : c.children) CollectNames(child, names);
}

void CollectNames(const expr::Projection& p, std::set<std::string>* names) {
  for (const auto& path : p.paths) {
    if (!path.empty()) names->insert(path[0].name);
  }
}

Result<storage::RowPosition> StartPosition(const Table& table, const Index* index,
                                           const value::AttributeMap& start_key) {
  auto invalid = [] {
    return Error::Validation(
        "The provided starting key is invalid: The provided key element does not match the schema");
  };
  auto attrs = PositionAttributes(table, index);
  if (start_key.size() != attrs.size()) return invalid();
  for (const KeyAttribute* a : attrs) {
    auto it = start_key.find(a->name);
    if (it == start_key.end() || value::TypeName(it->second) != a->type) return invalid();
  }
  storage::RowPosition pos;
  pos.table_partition = value::EncodeKeyValue(start_key.at(table.hash.name));
  if (table.range) pos.table_sort = value::EncodeKeyValue(start_key.at(table.range->name));
  if (index) {
    pos.partition = value::EncodeKeyValue(start_key.at(index->hash.name));
    if (index->range) pos.sort = value::EncodeKeyValue(start_key.at(index->range->name));
  } else {
    pos.partition = pos.table_partition;
    pos.sort = pos.table_sort;
  }
  return pos;
}

Result<Page> ReadPage(storage::ReadTxn& txn, const storage::RangeRead& read, const PageRequest& req) {
  Page page;
  static const expr::AttributeMap kEmpty;
  std::optional<Error> failure;
  std::optional<value::AttributeMap> last;
  bool stopped = false;
  Status s = txn.ReadRange(read, [&](const storage::Row& row) {
    auto decoded = value::DecodeItem(row.item);
    if (!decoded.ok()) {
      failure = decoded.error();
      return false;
    }
    value::AttributeMap item = std::move(*decoded->mutable_attributes());
    page.bytes_read += row.size;
    if (req.fetch_from_table) {
      // An LSI entry lacks attributes the request needs: read the item.
      storage::EncodedKey key{std::string(row.table_partition), std::string(row.table_sort)};
      auto full = ReadItem(txn, *req.table, key);
      if (!full.ok()) {
        failure = full.error();
        return false;
      }
      if (*full) item = std::move(**full);
    }
    ++page.scanned_count;
    bool matches = true;
    if (req.filter) {
      auto m = expr::Evaluate(*req.filter, item);
      if (!m.ok()) {
        failure = m.error();
        return false;
      }
      matches = *m;
    }
    if (matches) {
      ++page.count;
      if (!req.count_only) {
        page.items.push_back(req.projection ? expr::Project(*req.projection, item) : std::move(item));
      }
    }
    if ((req.limit && page.scanned_count >= *req.limit) || page.bytes_read >= kMaxPageBytes) {
      last = KeyOf(*req.table, req.index,
                   matches && !req.count_only && !req.projection ? page.items.back() : item);
      stopped = true;
      return false;
    }
    return true;
  });
  POGI_RETURN_IF_ERROR(s);
  if (failure) return *failure;
  if (stopped) page.last_evaluated_key = std::move(last);
  return page;
}

}  // namespace pogi::service
