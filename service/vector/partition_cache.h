// The vectors SearchVectors scans, kept in memory as contiguous float32
// rows per slot of an index partition (storage::VectorSlot), and kept exact
// against storage: each search reads the partition's slot generations in
// its own read transaction and reads again only the slots whose generation
// moved since they were loaded, whichever process wrote them (several pogi
// processes on one PostgreSQL database). So a search never parses an item
// or a number, and a write costs the next search one slot's reload.
//
// Memory: at most `budget_bytes` of rows are kept (least recently searched
// partitions go first); a partition larger than the budget is scanned from
// storage one slot at a time and not kept. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// The entries of one slot of an index partition, as one search reads them.
struct VectorRows {
  int64_t generation = 0;
  size_t dims = 0;
  std::vector<float> vectors;  // rows × dims
  std::vector<double> norms2;  // each row's squared length
  std::vector<std::string> table_partitions, table_sorts, filters;
  std::vector<int64_t> sizes;  // what each entry's search is charged
  size_t rows() const { return sizes.size(); }
  size_t Bytes() const;
};

class VectorCache {
 public:
  explicit VectorCache(size_t budget_bytes) : budget_(budget_bytes) {}

  // Calls `visit` with every non-empty slot of `partition` of `index` as
  // `txn` sees it. Fails when storage does.
  Status ForEachSlot(storage::ReadTxn& txn, const VectorIndex& index, const std::string& partition,
                     const std::function<void(const VectorRows&)>& visit);

  // Forgets what it holds of an index (dropped: its id may be given again)
  // or of everything (a snapshot restore, a catalog reload).
  void Forget(int64_t index_id);
  void Clear();

  size_t bytes() const;
  void set_budget(size_t bytes);

 private:
  struct Partition {
    std::vector<std::shared_ptr<const VectorRows>> slots;  // kVectorSlots; null: not held
    size_t bytes = 0;
    std::list<std::pair<int64_t, std::string>>::iterator lru;
  };
  using Key = std::pair<int64_t, std::string>;
  // Under mu_: forgets least recently used partitions other than `keep`
  // until `add` more bytes fit in the budget (or only `keep` is left).
  void MakeRoomLocked(const Key& keep, size_t add);

  mutable std::mutex mu_;
  size_t budget_;
  size_t bytes_ = 0;
  std::map<Key, Partition> partitions_;
  std::list<Key> lru_;  // most recently used first
};

// Reads one slot's entries from storage into rows.
Result<std::shared_ptr<VectorRows>> LoadVectorSlot(storage::ReadTxn& txn, const VectorIndex& index,
                                                   const std::string& partition, int slot,
                                                   int64_t generation);

}  // namespace pogi::service
