// Sorting set members: one comparison per member type and writer.
#include "service/value/set_order.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "service/value/attribute_order.h"
#include "service/value/decimal.h"

namespace pogi::value {
namespace {

using Members = google::protobuf::RepeatedPtrField<std::string>;

template <typename Less>
void SortMembers(Members* members, Less less) {
  std::sort(members->begin(), members->end(), less);
}

bool SignedBytesLess(const std::string& a, const std::string& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return static_cast<signed char>(x) < static_cast<signed char>(y);
  });
}

// std::string compares by unsigned bytes (char_traits<char>::lt).
bool BytesLess(const std::string& a, const std::string& b) { return a < b; }

void SortNumbers(Members* members) {
  std::vector<Decimal> values;
  values.reserve(members->size());
  for (const std::string& n : *members) {
    auto d = Decimal::Parse(n);
    if (!d.ok()) return;  // not a set pogi stores: leave it alone
    values.push_back(std::move(*d));
  }
  std::vector<size_t> order(values.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  Members sorted;
  sorted.Reserve(members->size());
  for (size_t i : order) *sorted.Add() = std::move((*members)[static_cast<int>(i)]);
  members->Swap(&sorted);
}

}  // namespace

void SortAsWritten(v1::AttributeValue* set) {
  if (set->has_ss()) {
    SortMembers(set->mutable_ss()->mutable_values(),
                [](const std::string& a, const std::string& b) { return Utf16Less(a, b); });
  } else if (set->has_bs()) {
    SortMembers(set->mutable_bs()->mutable_values(), SignedBytesLess);
  } else if (set->has_ns()) {
    SortNumbers(set->mutable_ns()->mutable_values());
  }
}

void SortAsUnion(v1::AttributeValue* set) {
  if (set->has_ss()) {
    SortMembers(set->mutable_ss()->mutable_values(), BytesLess);
  } else if (set->has_bs()) {
    SortMembers(set->mutable_bs()->mutable_values(), BytesLess);
  } else if (set->has_ns()) {
    SortNumbers(set->mutable_ns()->mutable_values());
  }
}

}  // namespace pogi::value
