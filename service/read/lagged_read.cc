// The lagged read view: point reads answered from the overlay, range reads
// merged from the storage read (items changed since left out) and the
// overlay's versions in the read's own order.
#include "service/read/lagged_read.h"

#include <algorithm>

#include "service/write/index_entries.h"

namespace pogi::service {
namespace {

// A row the overlay contributes to a range read, owning its bytes.
struct OwnedRow {
  std::string partition, sort, table_partition, table_sort, item;
  int64_t size = 0;
  int64_t hash = 0;
};

struct KeyView {
  std::string_view partition, sort, table_partition, table_sort;
};

// Compares two rows in the storage order of `read` (storage.h RangeRead):
// a Query orders by sort key (then table key, for an index), a Scan by
// (hash, partition, sort[, table key]). Ascending; the caller flips it for
// a backward Query.
int Compare(const storage::RangeRead& read, const KeyView& a, int64_t hash_a, const KeyView& b,
            int64_t hash_b) {
  if (!read.partition) {
    if (hash_a != hash_b) return hash_a < hash_b ? -1 : 1;
    if (int c = a.partition.compare(b.partition)) return c;
  }
  if (int c = a.sort.compare(b.sort)) return c;
  if (!read.is_index) return 0;
  if (int c = a.table_partition.compare(b.table_partition)) return c;
  return a.table_sort.compare(b.table_sort);
}

KeyView ViewOf(const OwnedRow& r) { return {r.partition, r.sort, r.table_partition, r.table_sort}; }

// Whether an overlay row lies within what `read` visits.
bool InRange(const storage::RangeRead& read, const OwnedRow& r) {
  if (read.partition) {
    if (r.partition != *read.partition) return false;
    if (read.sort_lo && r.sort < *read.sort_lo) return false;
    if (read.sort_hi && r.sort > *read.sort_hi) return false;
    if ((read.exclude_lo && r.sort == *read.exclude_lo) || (read.exclude_hi && r.sort == *read.exclude_hi))
      return false;
  } else if (r.hash < read.hash_lo || r.hash > read.hash_hi) {
    return false;
  }
  if (!read.start_after) return true;
  const storage::RowPosition& s = *read.start_after;
  KeyView start{s.partition, s.sort, s.table_partition, s.table_sort};
  int c = Compare(read, ViewOf(r), r.hash, start, storage::PartitionHash(s.partition));
  return read.forward ? c > 0 : c < 0;
}

}  // namespace

Result<std::optional<std::string>> LaggedReadTxn::GetItem(int64_t table_id, const storage::EncodedKey& key) {
  if (table_id == table_.id) {
    auto it = overlay_.find(ReadLag::KeyId(key.partition, key.sort));
    if (it != overlay_.end()) return it->second.bytes;
  }
  return base_.GetItem(table_id, key);
}

Status LaggedReadTxn::ReadRange(const storage::RangeRead& read,
                                const std::function<bool(const storage::Row&)>& visit) {
  const Index* index = nullptr;
  if (read.is_index) {
    for (const Index& i : table_.indexes) {
      if (i.id == read.id) index = &i;
    }
    if (!index) return base_.ReadRange(read, visit);
  } else if (read.id != table_.id) {
    return base_.ReadRange(read, visit);
  }

  // The overlay's rows for this read: the old items, or their index entries.
  std::vector<OwnedRow> extra;
  for (const auto& [id, v] : overlay_) {
    if (!v.bytes) continue;  // did not exist then
    OwnedRow r;
    r.table_partition = v.partition;
    r.table_sort = v.sort;
    if (!index) {
      r.partition = v.partition;
      r.sort = v.sort;
      r.item = *v.bytes;
      r.size = v.size;
    } else {
      POGI_ASSIGN_OR_RETURN(auto decoded, value::DecodeItem(*v.bytes));
      const value::AttributeMap& item = decoded.attributes();
      auto index_key = IndexKeyOf(*index, item);
      if (!index_key) continue;  // not in this (sparse) index then
      value::AttributeMap projected = ProjectForIndex(table_, *index, item);
      r.partition = std::move(index_key->partition);
      r.sort = std::move(index_key->sort);
      r.item = value::EncodeItem(projected, value::EntryOrigin::Kept(std::string_view(*v.bytes).substr(1)));
      r.size = value::ItemSize(projected);
    }
    r.hash = storage::PartitionHash(r.partition);
    if (InRange(read, r)) extra.push_back(std::move(r));
  }
  int direction = read.forward ? 1 : -1;
  std::sort(extra.begin(), extra.end(), [&](const OwnedRow& a, const OwnedRow& b) {
    return direction * Compare(read, ViewOf(a), a.hash, ViewOf(b), b.hash) < 0;
  });

  size_t next = 0;
  bool stopped = false;
  auto emit = [&](const OwnedRow& r) {
    storage::Row row;
    row.partition = r.partition;
    row.sort = r.sort;
    row.table_partition = r.table_partition;
    row.table_sort = r.table_sort;
    row.item = r.item;
    row.size = r.size;
    if (!visit(row)) stopped = true;
    return !stopped;
  };
  storage::RangeRead keyed = read;
  keyed.with_keys = true;  // the merge needs every row's keys
  POGI_RETURN_IF_ERROR(base_.ReadRange(keyed, [&](const storage::Row& row) {
    if (next < extra.size()) {
      KeyView here{row.partition, row.sort, row.table_partition, row.table_sort};
      int64_t hash = read.partition ? 0 : storage::PartitionHash(row.partition);
      while (next < extra.size() &&
             direction * Compare(read, ViewOf(extra[next]), extra[next].hash, here, hash) < 0) {
        if (!emit(extra[next++])) return false;
      }
    }
    // An item changed within the lag shows as it was, from the overlay.
    if (overlay_.count(ReadLag::KeyId(row.table_partition, row.table_sort))) return true;
    if (!visit(row)) {
      stopped = true;
      return false;
    }
    return true;
  }));
  while (!stopped && next < extra.size()) emit(extra[next++]);
  return Status::Ok();
}

}  // namespace pogi::service
