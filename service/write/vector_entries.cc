// Vector index entries kept with every item change.
#include "service/write/vector_entries.h"

#include <algorithm>

#include "service/expr/value_ops.h"
#include "service/vector/vector_values.h"

namespace pogi::service {
namespace {

// Whether `a` and `b` hold the same value of `name` (both absent counts).
bool SameAttribute(const value::AttributeMap& a, const value::AttributeMap& b, const std::string& name) {
  auto x = a.find(name), y = b.find(name);
  if (x == a.end() || y == b.end()) return (x == a.end()) == (y == b.end());
  return expr::ValuesEqual(x->second, y->second);
}

// Whether a change leaves everything `index` holds of the item as it was.
bool Unchanged(const VectorIndex& index, const value::AttributeMap& old_item,
               const value::AttributeMap& new_item) {
  if (!SameAttribute(old_item, new_item, index.attribute)) return false;
  if (index.hash && !SameAttribute(old_item, new_item, index.hash->name)) return false;
  return std::all_of(index.filters.begin(), index.filters.end(),
                     [&](const KeyAttribute& f) { return SameAttribute(old_item, new_item, f.name); });
}

// The partition an item stored before may have an entry in: it has the
// vector attribute and (for an index with one) the HASH value. Its vector
// was checked when it was written, so it is not parsed again; an item the
// backfill left out gets a removal that finds nothing.
std::optional<std::string> StoredPartition(const VectorIndex& index, const value::AttributeMap& item) {
  if (!item.contains(index.attribute)) return std::nullopt;
  if (!index.hash) return std::string();
  auto it = item.find(index.hash->name);
  if (it == item.end() || value::TypeName(it->second) != index.hash->type) return std::nullopt;
  return value::EncodeKeyValue(it->second);
}

void Charge(std::vector<IndexCapacity>* index_units, const VectorIndex& index, int64_t size) {
  if (!index_units) return;
  IndexCapacity c{index.name, true, 0};
  c.vector_bytes = std::max(size, kMinVectorRequestBytes);
  index_units->push_back(std::move(c));
}

}  // namespace

Status UpdateVectorIndexes(storage::WriteTxn& txn, const Table& table, const storage::EncodedKey& key,
                           const value::AttributeMap* old_item, const value::AttributeMap* new_item,
                           std::vector<IndexCapacity>* index_units) {
  for (const VectorIndex& index : table.vector_indexes) {
    if (old_item && new_item && Unchanged(index, *old_item, *new_item)) continue;
    std::optional<VectorEntryData> entry;
    if (new_item) {
      POGI_ASSIGN_OR_RETURN(entry, VectorEntryOf(table, index, *new_item));
    }
    std::optional<std::string> old_partition = old_item ? StoredPartition(index, *old_item) : std::nullopt;
    if (old_partition && (!entry || entry->partition != *old_partition)) {
      POGI_RETURN_IF_ERROR(txn.DeleteVectorEntry(index.id, *old_partition, key));
      if (!entry) Charge(index_units, index, 0);
    }
    if (entry) {
      POGI_RETURN_IF_ERROR(
          txn.PutVectorEntry(index.id, entry->partition, key, entry->vector, entry->filters, entry->size));
      Charge(index_units, index, entry->size);
    }
  }
  return Status::Ok();
}

Status CheckVectorValues(const Table& table, const value::AttributeMap* old_item,
                         const value::AttributeMap& new_item) {
  for (const VectorIndex& index : table.vector_indexes) {
    if (old_item && Unchanged(index, *old_item, new_item)) continue;
    auto entry = VectorEntryOf(table, index, new_item);
    if (!entry.ok()) return entry.error();
  }
  return Status::Ok();
}

Status BackfillVectorIndex(storage::WriteTxn& txn, const Table& table, const VectorIndex& index) {
  storage::RangeRead all;
  all.id = table.id;
  std::optional<Error> failure;
  POGI_RETURN_IF_ERROR(txn.ReadRange(all, [&](const storage::Row& row) {
    auto item = value::DecodeItem(row.item);
    if (!item.ok()) {
      failure = item.error();
      return false;
    }
    auto entry = VectorEntryOf(table, index, item->attributes());
    if (!entry.ok() || !*entry) return true;  // refused or not in the index: left out
    storage::EncodedKey key{std::string(row.partition), std::string(row.sort)};
    Status put = txn.PutVectorEntry(index.id, (*entry)->partition, key, (*entry)->vector, (*entry)->filters,
                                    (*entry)->size);
    if (!put.ok()) failure = put.error();
    return put.ok();
  }));
  if (failure) return *failure;
  return Status::Ok();
}

}  // namespace pogi::service
