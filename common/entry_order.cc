// The calling thread's EntryOrder.
#include "common/entry_order.h"

namespace pogi {
namespace {

thread_local const EntryOrder* current_order = nullptr;

}  // namespace

const EntryOrder* CurrentEntryOrder() { return current_order; }

EntryOrderScope::EntryOrderScope(const EntryOrder* order) : previous_(current_order) {
  current_order = order;
}

EntryOrderScope::~EntryOrderScope() { current_order = previous_; }

}  // namespace pogi
