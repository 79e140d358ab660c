// The calling thread's EntryOrder.
#include "common/entry_order.h"

namespace pogi {
namespace {

thread_local const EntryOrder* current_order = nullptr;

}  // namespace

const EntryOrder* CurrentEntryOrder() { return current_order; }

bool ListedEntryOrder::Sort(std::vector<const std::string*>& names) const {
  std::vector<const std::string*> sorted(names);
  std::sort(sorted.begin(), sorted.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  const std::vector<std::string>* found = nullptr;
  for (const auto& listed : *maps_) {
    if (listed.size() != names.size()) continue;
    std::vector<std::string> listed_sorted(listed);
    std::sort(listed_sorted.begin(), listed_sorted.end());
    bool same = std::equal(listed_sorted.begin(), listed_sorted.end(), sorted.begin(),
                           [](const std::string& a, const std::string* b) { return a == *b; });
    if (!same) continue;
    if (found && *found != listed) return false;
    found = &listed;
  }
  if (!found) return outer_ && outer_->Sort(names);
  // `sorted` holds the names in byte order; `found` gives their positions.
  std::vector<std::string> by_name(*found);
  std::sort(by_name.begin(), by_name.end());
  for (size_t i = 0; i < found->size(); ++i) {
    auto at = std::lower_bound(by_name.begin(), by_name.end(), (*found)[i]) - by_name.begin();
    names[i] = sorted[static_cast<size_t>(at)];
  }
  return true;
}

EntryOrderScope::EntryOrderScope(const EntryOrder* order) : previous_(current_order) {
  current_order = order;
}

EntryOrderScope::~EntryOrderScope() { current_order = previous_; }

}  // namespace pogi
