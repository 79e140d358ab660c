// The targets of each throttled request type, and the answers' shapes.
#include "service/engine/throttled_call.h"

#include "service/write/multi_item.h"

namespace pogi::service::throttled {
namespace {

using Attributes = google::protobuf::Map<std::string, v1::AttributeValue>;

std::vector<ThrottleTarget> One(std::optional<ThrottleTarget> t) {
  return t ? std::vector<ThrottleTarget>{std::move(*t)} : std::vector<ThrottleTarget>{};
}

// A transaction's targets, one per item in order; empty when one of its
// tables does not exist (the operation answers that, unthrottled).
template <typename Items, typename Part>
std::vector<ThrottleTarget> TransactTargets(Engine& e, const Items& items, CapacityKind kind, Part part) {
  std::vector<ThrottleTarget> targets;
  for (const auto& item : items) {
    auto [name, key] = part(item);
    std::optional<ThrottleTarget> t = TargetOf(e, name, kind, "", key);
    if (!t) return {};
    targets.push_back(std::move(*t));
  }
  return targets;
}

}  // namespace

std::optional<ThrottleTarget> TargetOf(Engine& engine, const std::string& name, CapacityKind kind,
                                       const std::string& index, const Attributes* key) {
  std::shared_ptr<const Table> table = engine.FindTableOrNull(name);
  if (!table) return std::nullopt;
  ThrottleTarget t;
  t.kind = kind;
  // A local index's reads are the table's capacity.
  const Index* read = index.empty() ? nullptr : table->FindIndex(index);
  if (read && read->global) t.index = index;
  t.table = std::move(table);
  if (key) {
    auto it = key->find(t.table->hash.name);
    if (it != key->end()) t.partition = it->second.SerializeAsString();
  }
  return t;
}

bool KnownMode(const std::string& mode) {
  return mode.empty() || mode == "NONE" || mode == "TOTAL" || mode == "INDEXES";
}

void ShapeConsumed(const std::string& mode, v1::ConsumedCapacity* consumed) {
  if (mode == "INDEXES") return;
  consumed->clear_table();
  consumed->clear_local_secondary_indexes();
  consumed->clear_global_secondary_indexes();
  consumed->clear_vector_indexes();
}

Error CancelledByThrottle(const std::vector<std::optional<Error>>& refusals) {
  std::vector<v1::CancellationReason> reasons;
  for (const auto& r : refusals) {
    if (!r) {
      reasons.push_back(Reason("None"));
      continue;
    }
    // DynamoDB's codes in CancellationReasons: ProvisionedThroughputExceeded
    // for a provisioned table or index, ThrottlingError for on-demand.
    bool provisioned = r->code() == ErrorCode::kProvisionedThroughputExceeded;
    reasons.push_back(
        Reason(provisioned ? "ProvisionedThroughputExceeded" : "ThrottlingError", r->message()));
  }
  return TransactionCanceled(reasons);
}

std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::GetItemRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kRead, "", &r.key().attributes()));
}
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::PutItemRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kWrite, "", &r.item().attributes()));
}
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::UpdateItemRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kWrite, "", &r.key().attributes()));
}
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::DeleteItemRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kWrite, "", &r.key().attributes()));
}
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::QueryRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kRead, r.index_name(), nullptr));
}
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::ScanRequest& r) {
  return One(TargetOf(e, r.table_name(), CapacityKind::kRead, r.index_name(), nullptr));
}

std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::TransactWriteItemsRequest& r) {
  return TransactTargets(e, r.transact_items(), CapacityKind::kWrite,
                         [](const v1::TransactWriteItem& item) -> std::pair<std::string, const Attributes*> {
                           if (item.has_put()) return {item.put().table_name(), &item.put().item()};
                           if (item.has_update()) return {item.update().table_name(), &item.update().key()};
                           if (item.has_delete_())
                             return {item.delete_().table_name(), &item.delete_().key()};
                           return {item.condition_check().table_name(), &item.condition_check().key()};
                         });
}

std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::TransactGetItemsRequest& r) {
  return TransactTargets(e, r.transact_items(), CapacityKind::kRead,
                         [](const v1::TransactGetItem& item) -> std::pair<std::string, const Attributes*> {
                           return {item.get().table_name(), &item.get().key()};
                         });
}

}  // namespace pogi::service::throttled
