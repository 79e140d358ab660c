// What RestoreTableFromBackup and RestoreTableToPointInTime share: the new
// table's CreateTable request built from the source's stored description and
// the request's overrides, and the one write that creates and fills it.
#pragma once

#include <functional>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"
#include "service/validate/index_schema.h"
#include "service/validate/vector_index.h"
#include "storage/storage.h"

namespace pogi::service {

// The overrides both restores accept, gathered in CreateTableRequest's
// members (billing_mode, provisioned_throughput, on_demand_throughput,
// global/local_secondary_indexes, sse_specification, vector_indexes). An
// empty index list cannot be told from an absent one: both keep the
// source's indexes.
template <typename RestoreRequest>
v1::CreateTableRequest OverridesOf(const RestoreRequest& req) {
  v1::CreateTableRequest o;
  if (req.has_billing_mode_override()) o.set_billing_mode(req.billing_mode_override());
  if (req.has_provisioned_throughput_override())
    *o.mutable_provisioned_throughput() = req.provisioned_throughput_override();
  if (req.has_on_demand_throughput_override())
    *o.mutable_on_demand_throughput() = req.on_demand_throughput_override();
  *o.mutable_global_secondary_indexes() = req.global_secondary_index_override();
  *o.mutable_local_secondary_indexes() = req.local_secondary_index_override();
  if (req.has_sse_specification_override()) *o.mutable_sse_specification() = req.sse_specification_override();
  *o.mutable_vector_indexes() = req.vector_index_override();
  return o;
}

// The member constraints both restores share, at their paths.
template <typename Req>
void CheckRestoreOverrides(Constraints& c, const Req& req) {
  c.OneOf(req.has_billing_mode_override() ? &req.billing_mode_override() : nullptr,
          {"PROVISIONED", "PAY_PER_REQUEST"}, "billingModeOverride");
  if (req.has_provisioned_throughput_override())
    CheckThroughput(c, req.provisioned_throughput_override(), "provisionedThroughputOverride");
  for (int i = 0; i < req.global_secondary_index_override_size(); ++i) {
    const auto& g = req.global_secondary_index_override(i);
    CheckIndexMembers(c, g.has_index_name() ? &g.index_name() : nullptr, g.key_schema(), KeySchemaSent(g),
                      g.has_projection() ? &g.projection() : nullptr,
                      g.has_provisioned_throughput() ? &g.provisioned_throughput() : nullptr,
                      "globalSecondaryIndexOverride." + std::to_string(i + 1) + ".member", /*global=*/true);
  }
  for (int i = 0; i < req.local_secondary_index_override_size(); ++i) {
    const auto& l = req.local_secondary_index_override(i);
    CheckIndexMembers(c, l.has_index_name() ? &l.index_name() : nullptr, l.key_schema(), KeySchemaSent(l),
                      l.has_projection() ? &l.projection() : nullptr, nullptr,
                      "localSecondaryIndexOverride." + std::to_string(i + 1) + ".member", /*global=*/false);
  }
  for (int i = 0; i < req.vector_index_override_size(); ++i) {
    CheckVectorIndexMembers(c, req.vector_index_override(i),
                            "vectorIndexOverride." + std::to_string(i + 1) + ".member");
  }
  if (req.has_sse_specification_override()) {
    const auto& sse = req.sse_specification_override();
    c.OneOf(sse.has_sse_type() ? &sse.sse_type() : nullptr, {"AES256", "KMS"},
            "sSESpecificationOverride.sSEType");
  }
}

// The CreateTable request that makes `target` like `source` (a stored
// description) but for `overrides`.
v1::CreateTableRequest RestoreRequestOf(const v1::TableDescription& source, const std::string& target,
                                        const v1::CreateTableRequest& overrides);

// Visits the items a restore copies (from a backup, or history as of a time).
using RestoreSource =
    std::function<Status(storage::ReadTxn& txn, const std::function<bool(const storage::Row&)>& visit)>;

}  // namespace pogi::service
