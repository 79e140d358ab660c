// The exact top K of a search: the K best scores seen, best first. Equal
// scores rank by the item's table key, ascending in DynamoDB's key order
// (partition key, then sort key), so the same data always gives the same
// answer (DynamoDB's order among equal scores varies from call to call).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "service/core/catalog.h"

namespace pogi::service {

struct Ranked {
  double score = 0;
  std::string table_partition, table_sort;  // the item's stored key
};

class TopK {
 public:
  TopK(size_t k, DistanceFunction f) : k_(k), lower_is_better_(f != DistanceFunction::kDotProduct) {}

  // Whether a row with `score` could enter: a cheap test before the key is copied.
  bool Admits(double score) const {
    if (heap_.size() < k_) return true;
    const Ranked& worst = heap_.front();
    return lower_is_better_ ? score <= worst.score : score >= worst.score;
  }
  void Offer(double score, std::string_view table_partition, std::string_view table_sort);
  // The ranked rows, best first (empties the collector).
  std::vector<Ranked> Take();

 private:
  // Whether `a` ranks before `b`.
  bool Better(const Ranked& a, const Ranked& b) const;
  size_t k_;
  bool lower_is_better_;
  std::vector<Ranked> heap_;  // worst at the front
};

}  // namespace pogi::service
