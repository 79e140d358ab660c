// Capacity unit arithmetic and the ConsumedCapacity shape.
#include "service/validate/capacity.h"

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

void FillConsumed(const std::string& mode, const std::string& table, std::optional<double> table_units,
                  const std::vector<IndexCapacity>& indexes, v1::ConsumedCapacity* out) {
  double total = table_units.value_or(0);
  for (const auto& i : indexes) total += i.units;
  out->set_table_name(table);
  out->set_capacity_units(total);
  if (mode != "INDEXES") return;
  if (table_units) out->mutable_table()->set_capacity_units(*table_units);
  for (const auto& i : indexes) {
    if (i.vector_bytes >= 0) {
      auto& v = (*out->mutable_vector_indexes())[i.name];
      v.set_vector_write_request_bytes(v.vector_write_request_bytes() + static_cast<double>(i.vector_bytes));
      continue;
    }
    auto* map = i.global ? out->mutable_global_secondary_indexes() : out->mutable_local_secondary_indexes();
    (*map)[i.name].set_capacity_units((*map)[i.name].capacity_units() + i.units);
  }
}

void FillIndexReadConsumed(const std::string& mode, const std::string& table, const IndexCapacity& index,
                           double table_units, v1::ConsumedCapacity* out) {
  FillConsumed(mode, table, table_units, {index}, out);
}

}  // namespace pogi::service
