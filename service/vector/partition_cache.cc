// VectorCache: slots of index partitions in memory, checked against their
// generations on every search.
#include "service/vector/partition_cache.h"

#include "service/vector/distance.h"
#include "service/vector/vector_values.h"

namespace pogi::service {

size_t VectorRows::Bytes() const {
  size_t b = sizeof(*this) + vectors.size() * sizeof(float) + norms2.size() * sizeof(double) +
             sizes.size() * sizeof(int64_t);
  for (const auto* strings : {&table_partitions, &table_sorts, &filters}) {
    for (const auto& s : *strings) b += sizeof(s) + s.capacity();
  }
  return b;
}

Result<std::shared_ptr<VectorRows>> LoadVectorSlot(storage::ReadTxn& txn, const VectorIndex& index,
                                                   const std::string& partition, int slot,
                                                   int64_t generation) {
  auto rows = std::make_shared<VectorRows>();
  rows->generation = generation;
  rows->dims = static_cast<size_t>(index.dimensions);
  const size_t bytes = rows->dims * sizeof(float);
  std::optional<Error> bad;
  POGI_RETURN_IF_ERROR(txn.ReadVectorSlot(index.id, partition, slot, [&](const storage::VectorEntry& e) {
    if (e.vector.size() != bytes) {
      bad = Error::Internal("vector index " + index.name + " holds an entry of another size");
      return false;
    }
    size_t at = rows->vectors.size();
    rows->vectors.resize(at + rows->dims);
    CopyFloats(e.vector, rows->vectors.data() + at);
    rows->norms2.push_back(SquaredNorm(rows->vectors.data() + at, rows->dims));
    rows->table_partitions.emplace_back(e.table_partition);
    rows->table_sorts.emplace_back(e.table_sort);
    rows->filters.emplace_back(e.filters);
    rows->sizes.push_back(e.size);
    return true;
  }));
  if (bad) return *bad;
  return rows;
}

Status VectorCache::ForEachSlot(storage::ReadTxn& txn, const VectorIndex& index, const std::string& partition,
                                const std::function<void(const VectorRows&)>& visit) {
  storage::VectorGenerations generations;
  POGI_RETURN_IF_ERROR(txn.ReadVectorGenerations(index.id, partition, &generations));
  const Key key{index.id, partition};
  std::vector<std::shared_ptr<const VectorRows>> held(storage::kVectorSlots);
  {
    std::lock_guard lock(mu_);
    auto it = partitions_.find(key);
    if (it != partitions_.end()) {
      held = it->second.slots;
      lru_.splice(lru_.begin(), lru_, it->second.lru);
    }
  }
  for (int slot = 0; slot < storage::kVectorSlots; ++slot) {
    if (generations[slot] == 0) continue;  // never written
    std::shared_ptr<const VectorRows> rows = held[slot];
    if (!rows || rows->generation != generations[slot]) {
      POGI_ASSIGN_OR_RETURN(auto loaded, LoadVectorSlot(txn, index, partition, slot, generations[slot]));
      rows = std::move(loaded);
      std::lock_guard lock(mu_);
      // Kept when it fits (a newer generation loaded by a concurrent search
      // stays).
      auto it = partitions_.find(key);
      if (it == partitions_.end()) {
        lru_.push_front(key);
        it = partitions_.emplace(key, Partition{}).first;
        it->second.slots.resize(storage::kVectorSlots);
        it->second.lru = lru_.begin();
      }
      auto& kept = it->second.slots[slot];
      if (!kept || kept->generation < rows->generation) {
        // A stale copy goes in any case; the new one is kept when other
        // partitions can make room for it.
        if (kept) {
          it->second.bytes -= kept->Bytes();
          bytes_ -= kept->Bytes();
          kept.reset();
        }
        size_t add = rows->Bytes();
        MakeRoomLocked(key, add);
        if (bytes_ + add <= budget_) {
          it->second.bytes += add;
          bytes_ += add;
          kept = rows;
        }
      }
    }
    if (rows->rows() > 0) visit(*rows);
  }
  return Status::Ok();
}

void VectorCache::MakeRoomLocked(const Key& keep, size_t add) {
  auto victim = lru_.end();
  while (bytes_ + add > budget_ && victim != lru_.begin()) {
    --victim;
    if (*victim == keep) continue;
    auto it = partitions_.find(*victim);
    bytes_ -= it->second.bytes;
    partitions_.erase(it);
    victim = lru_.erase(victim);
  }
}

void VectorCache::Forget(int64_t index_id) {
  std::lock_guard lock(mu_);
  for (auto it = partitions_.begin(); it != partitions_.end();) {
    if (it->first.first == index_id) {
      bytes_ -= it->second.bytes;
      lru_.erase(it->second.lru);
      it = partitions_.erase(it);
    } else {
      ++it;
    }
  }
}

void VectorCache::Clear() {
  std::lock_guard lock(mu_);
  partitions_.clear();
  lru_.clear();
  bytes_ = 0;
}

size_t VectorCache::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

void VectorCache::set_budget(size_t bytes) {
  std::lock_guard lock(mu_);
  budget_ = bytes;
  MakeRoomLocked({-1, ""}, 0);
}

}  // namespace pogi::service
