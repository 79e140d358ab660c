// Keeping a table's auto scaling settings.
#include "service/core/auto_scaling_store.h"

namespace pogi::service {
namespace {

std::string KeyOf(const v1::TableDescription& table) { return "auto-scaling:" + table.table_id(); }

}  // namespace

Result<v1::ReplicaAutoScalingDescription> ReadAutoScaling(storage::ReadTxn& txn,
                                                          const v1::TableDescription& table) {
  v1::ReplicaAutoScalingDescription settings;
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetSharedValue(KeyOf(table), 0));
  if (bytes && !settings.ParseFromString(*bytes)) settings.Clear();  // unreadable: as never set
  return settings;
}

Status WriteAutoScaling(storage::WriteTxn& txn, const v1::TableDescription& table,
                        const v1::ReplicaAutoScalingDescription& settings) {
  return txn.PutSharedValue(KeyOf(table), settings.SerializeAsString(), 0);
}

v1::ReplicaGlobalSecondaryIndexAutoScalingDescription* AutoScalingOfIndex(
    v1::ReplicaAutoScalingDescription& settings, const std::string& name) {
  for (auto& g : *settings.mutable_global_secondary_indexes()) {
    if (g.index_name() == name) return &g;
  }
  auto* g = settings.add_global_secondary_indexes();
  g->set_index_name(name);
  return g;
}

}  // namespace pogi::service
