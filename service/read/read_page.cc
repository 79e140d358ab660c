// Page assembly for Query and Scan.
#include "service/read/read_page.h"

#include "service/expr/evaluator.h"
#include "service/expr/path_tree.h"
#include "service/expr/projection.h"
#include "service/validate/item_validation.h"
#include "service/value/key_tuple.h"
#include "service/write/item_write.h"

namespace pogi::service {
namespace {

// The attributes LastEvaluatedKey carries: the table's key, and the index's.
std::vector<const KeyAttribute*> PositionAttributes(const Table& table, const Index* index) {
  std::vector<const KeyAttribute*> attrs = {&table.hash};
  if (table.range) attrs.push_back(&*table.range);
  if (index) {
    for (const auto* part : {&index->keys.hash, &index->keys.range}) {
      for (const KeyAttribute& a : *part) {
        if (!table.IsTableKey(a.name)) attrs.push_back(&a);
      }
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
                                           const value::AttributeMap& start_key, bool query) {
  // DynamoDB's wording (behaviours.md V13): a Query, or a Scan of an index,
  // answers a wrong count or a missing attribute with "The provided starting
  // key is invalid" and a wrong type with the schema mismatch alone; a Scan
  // of the table prefixes every error with "The provided starting key is
  // invalid: ".
  const bool plain = query || index;
  auto invalid = [&](std::string message) {
    return Error::Validation(plain ? std::move(message) : "The provided starting key is invalid: " + message);
  };
  constexpr char kMismatch[] = "The provided key element does not match the schema";
  auto attrs = PositionAttributes(table, index);
  if (start_key.size() != attrs.size()) {
    return plain ? Error::Validation("The provided starting key is invalid") : invalid(kMismatch);
  }
  for (const KeyAttribute* a : attrs) {
    auto it = start_key.find(a->name);
    if (it == start_key.end()) {
      return plain ? Error::Validation("The provided starting key is invalid") : invalid(kMismatch);
    }
    if (value::TypeName(it->second) != a->type) return invalid(kMismatch);
  }
  for (const KeyAttribute* a : {&table.hash, table.range ? &*table.range : nullptr}) {
    if (!a) continue;
    if (Status s = CheckKeyValue(*a, start_key.at(a->name), a == &table.hash); !s.ok()) {
      return invalid(s.error().message());
    }
  }
  storage::RowPosition pos;
  pos.table_partition = value::EncodeKeyValue(start_key.at(table.hash.name));
  if (table.range) pos.table_sort = value::EncodeKeyValue(start_key.at(table.range->name));
  if (index) {
    // Encoded as the index's entries are (value/key_tuple.h).
    auto encode = [&](const std::vector<KeyAttribute>& keys) {
      std::vector<const v1::AttributeValue*> values;
      for (const KeyAttribute& k : keys) values.push_back(&start_key.at(k.name));
      return value::EncodeKeyTuple(values);
    };
    pos.partition = encode(index->keys.hash);
    if (!index->keys.range.empty()) pos.sort = encode(index->keys.range);
  } else {
    pos.partition = pos.table_partition;
    pos.sort = pos.table_sort;
  }
  return pos;
}

Result<Page> ReadPage(storage::ReadTxn& txn, const storage::RangeRead& read, const PageRequest& req) {
  Page page;
  std::optional<Error> failure;
  // An item that goes out as stored is never decoded: only a filter, a
  // projection, an LSI's fetch from the table, or the page's last key (its
  // LastEvaluatedKey) needs its attributes.
  const bool decode_each = req.filter || req.projection || req.fetch_from_table;
  // A projection's maps are ordered by its paths (value::PathTree).
  std::optional<value::PathTree> projected_paths;
  if (req.projection)
    projected_paths = expr::PathTreeOf(req.projection->paths, value::PathTree::End::kCopied);
  Status s = txn.ReadRange(read, [&](const storage::Row& row) {
    auto fail = [&](Error e) {
      failure = std::move(e);
      return false;
    };
    page.bytes_read += row.size;
    ++page.scanned_count;
    const bool last = (req.limit && page.scanned_count >= *req.limit) || page.bytes_read >= kMaxPageBytes;
    std::optional<value::AttributeMap> item;
    std::string_view stored = row.item;  // the item's stored form, whose order it keeps
    std::optional<std::string> fetched;
    if (decode_each || last) {
      auto decoded = value::DecodeItem(row.item);
      if (!decoded.ok()) return fail(decoded.error());
      item = std::move(*decoded->mutable_attributes());
      if (req.fetch_from_table) {
        // An LSI entry lacks attributes the request needs: read the item.
        storage::EncodedKey key{std::string(row.table_partition), std::string(row.table_sort)};
        auto full = txn.GetItem(req.table->id, key);
        if (!full.ok()) return fail(full.error());
        if (*full) {
          auto table_item = value::DecodeItem(**full);
          if (!table_item.ok()) return fail(table_item.error());
          item = std::move(*table_item->mutable_attributes());
          page.table_bytes_read += value::ItemSize(*item);
          fetched = std::move(**full);
          stored = *fetched;
        }
      }
    }
    bool matches = true;
    if (req.filter) {
      auto m = expr::Evaluate(*req.filter, *item);
      if (!m.ok()) return fail(m.error());
      matches = *m;
    }
    if (matches) ++page.count;
    if (matches && !req.count_only) {
      auto proto = value::StoredItemProto(stored);
      if (!proto.ok()) return fail(proto.error());
      if (req.projection) {
        value::AppendItemListEntry(
            value::ItemProto(req.select_list ? expr::ProjectSelectList(*req.projection, *item)
                                             : expr::Project(*req.projection, *item),
                             value::EntryOrigin::Along(*proto, &*projected_paths)),
            &page.items);
      } else {
        value::AppendItemListEntry(*proto, &page.items);
      }
    }
    if (last) {
      page.last_evaluated_key = KeyOf(*req.table, req.index, *item);
      return false;
    }
    return true;
  });
  POGI_RETURN_IF_ERROR(s);
  if (failure) return *failure;
  return page;
}

}  // namespace pogi::service
