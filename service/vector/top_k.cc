// TopK: a bounded heap with the worst kept row at its front.
#include "service/vector/top_k.h"

#include <algorithm>

namespace pogi::service {

bool TopK::Better(const Ranked& a, const Ranked& b) const {
  if (a.score != b.score) return lower_is_better_ ? a.score < b.score : a.score > b.score;
  if (a.table_partition != b.table_partition) return a.table_partition < b.table_partition;
  return a.table_sort < b.table_sort;
}

void TopK::Offer(double score, std::string_view table_partition, std::string_view table_sort) {
  if (k_ == 0 || !Admits(score)) return;
  auto worse = [this](const Ranked& a, const Ranked& b) { return Better(a, b); };
  Ranked r{score, std::string(table_partition), std::string(table_sort)};
  if (heap_.size() < k_) {
    heap_.push_back(std::move(r));
    std::push_heap(heap_.begin(), heap_.end(), worse);
    return;
  }
  if (!Better(r, heap_.front())) return;  // an equal score with a later key
  std::pop_heap(heap_.begin(), heap_.end(), worse);
  heap_.back() = std::move(r);
  std::push_heap(heap_.begin(), heap_.end(), worse);
}

std::vector<Ranked> TopK::Take() {
  std::vector<Ranked> out = std::move(heap_);
  heap_.clear();
  std::sort(out.begin(), out.end(), [this](const Ranked& a, const Ranked& b) { return Better(a, b); });
  return out;
}

}  // namespace pogi::service
