// Restores: the new table's request from the source's description and the
// overrides. (The write that creates and fills the table is the engine's:
// engine/engine_restore.cc.)
#include "service/backup/restore.h"

#include <set>

#include "service/validate/control_plane.h"

namespace pogi::service {
namespace {

v1::ProvisionedThroughput ThroughputOf(const v1::ProvisionedThroughputDescription& d) {
  v1::ProvisionedThroughput p;
  p.set_read_capacity_units(d.read_capacity_units());
  p.set_write_capacity_units(d.write_capacity_units());
  return p;
}

}  // namespace

v1::CreateTableRequest RestoreRequestOf(const v1::TableDescription& source, const std::string& target,
                                        const v1::CreateTableRequest& overrides) {
  v1::CreateTableRequest r;
  r.set_table_name(target);
  *r.mutable_key_schema() = source.key_schema();
  bool on_demand = overrides.has_billing_mode()
                       ? overrides.billing_mode() == "PAY_PER_REQUEST"
                       : source.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
  r.set_billing_mode(overrides.has_billing_mode() ? overrides.billing_mode()
                                                  : (on_demand ? "PAY_PER_REQUEST" : "PROVISIONED"));
  if (overrides.has_provisioned_throughput()) {
    *r.mutable_provisioned_throughput() = overrides.provisioned_throughput();
  } else if (!on_demand) {
    v1::ProvisionedThroughput p = ThroughputOf(source.provisioned_throughput());
    // A table that was on demand has no throughput of its own to keep.
    if (p.read_capacity_units() < 1) p.set_read_capacity_units(1);
    if (p.write_capacity_units() < 1) p.set_write_capacity_units(1);
    *r.mutable_provisioned_throughput() = p;
  }
  if (overrides.has_on_demand_throughput()) {
    *r.mutable_on_demand_throughput() = overrides.on_demand_throughput();
  } else if (source.has_on_demand_throughput() && on_demand) {
    *r.mutable_on_demand_throughput() = source.on_demand_throughput();
  }
  if (overrides.global_secondary_indexes_size() > 0) {
    *r.mutable_global_secondary_indexes() = overrides.global_secondary_indexes();
  } else {
    for (const auto& g : source.global_secondary_indexes()) {
      auto* n = r.add_global_secondary_indexes();
      n->set_index_name(g.index_name());
      *n->mutable_key_schema() = g.key_schema();
      *n->mutable_projection() = g.projection();
      if (g.has_provisioned_throughput() && g.provisioned_throughput().read_capacity_units() > 0)
        *n->mutable_provisioned_throughput() = ThroughputOf(g.provisioned_throughput());
      if (g.has_on_demand_throughput()) *n->mutable_on_demand_throughput() = g.on_demand_throughput();
    }
  }
  for (auto& g : *r.mutable_global_secondary_indexes()) {
    if (on_demand) {
      g.clear_provisioned_throughput();
    } else if (!g.has_provisioned_throughput()) {
      *g.mutable_provisioned_throughput() = r.provisioned_throughput();
    }
  }
  if (overrides.local_secondary_indexes_size() > 0) {
    *r.mutable_local_secondary_indexes() = overrides.local_secondary_indexes();
  } else {
    for (const auto& l : source.local_secondary_indexes()) {
      auto* n = r.add_local_secondary_indexes();
      n->set_index_name(l.index_name());
      *n->mutable_key_schema() = l.key_schema();
      *n->mutable_projection() = l.projection();
    }
  }
  if (overrides.has_sse_specification()) {
    *r.mutable_sse_specification() = overrides.sse_specification();
  } else if (source.sse_description().status() == "ENABLED") {
    r.mutable_sse_specification()->set_enabled(true);
  }
  // The source's vector indexes, or those of the override (each one of the
  // source's: CheckVectorIndexOverride).
  if (overrides.vector_indexes_size() > 0) {
    *r.mutable_vector_indexes() = overrides.vector_indexes();
  } else {
    for (const auto& v : source.vector_indexes()) {
      auto* n = r.add_vector_indexes();
      n->set_index_name(v.index_name());
      *n->mutable_vector_attribute() = v.vector_attribute();
      *n->mutable_search_schema() = v.search_schema();
      *n->mutable_projection() = v.projection();
      n->set_dimensions(v.dimensions());
      n->set_distance_function(v.distance_function());
    }
  }
  if (source.has_table_class_summary()) r.set_table_class(source.table_class_summary().table_class());
  // Only the attributes the new table's keys use: an index left out by an
  // override leaves its attributes undefined.
  std::set<std::string> used;
  for (const auto& k : r.key_schema()) used.insert(k.attribute_name());
  for (const auto& g : r.global_secondary_indexes())
    for (const auto& k : g.key_schema()) used.insert(k.attribute_name());
  for (const auto& l : r.local_secondary_indexes())
    for (const auto& k : l.key_schema()) used.insert(k.attribute_name());
  for (const auto& v : r.vector_indexes())
    for (const auto& e : v.search_schema()) used.insert(e.attribute_name());
  for (const auto& a : source.attribute_definitions()) {
    if (used.count(a.attribute_name())) *r.add_attribute_definitions() = a;
  }
  return r;
}

}  // namespace pogi::service
