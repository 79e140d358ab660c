// Capacity unit arithmetic and the ConsumedCapacity shape.
#include "service/capacity.h"

namespace pogi::service {

double ReadUnits(int64_t item_bytes, bool consistent) {
  int64_t units = item_bytes <= 0 ? 1 : (item_bytes + 4095) / 4096;
  return consistent ? static_cast<double>(units) : units / 2.0;
}

double WriteUnits(int64_t item_bytes) {
  return static_cast<double>(item_bytes <= 0 ? 1 : (item_bytes + 1023) / 1024);
}

bool WantsCapacity(const std::string& mode) { return mode == "TOTAL" || mode == "INDEXES"; }

void FillConsumed(const std::string& mode, const std::string& table, double units,
                  v1::ConsumedCapacity* out) {
  out->set_table_name(table);
  out->set_capacity_units(units);
  if (mode == "INDEXES") out->mutable_table()->set_capacity_units(units);
}

}  // namespace pogi::service
