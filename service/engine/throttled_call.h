// An item operation run under the throttle (controls/throttle.h), for the
// operation table while throttling is on: the tables the request uses are
// admitted first, the operation runs asking for ConsumedCapacity in INDEXES
// form (what the buckets are charged), and the answer goes back in the form
// the caller asked for. Throttled batch tables come back unprocessed, and a
// throttled transaction is cancelled, as DynamoDB answers them.
//
// Not throttled: PartiQL statements (their tables are inside the statement)
// and SearchVectors. A request that fails is not charged (DynamoDB charges a
// failed condition's write).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "service/engine/engine.h"

namespace pogi::service::throttled {

// The target of a request on table `name` (a name or an ARN), reading the
// global index `index` or the partition of `key` (an item or a key); nullopt
// when there is no such table (the operation answers that).
std::optional<ThrottleTarget> TargetOf(Engine& engine, const std::string& name, CapacityKind kind,
                                       const std::string& index,
                                       const google::protobuf::Map<std::string, v1::AttributeValue>* key);

// Whether the request may run with INDEXES in place of `mode` (an unknown
// value is left to the operation's validation).
bool KnownMode(const std::string& mode);
// `consumed` (INDEXES form) as `mode` asks for it: TOTAL without the
// breakdown. NONE is the caller's to clear.
void ShapeConsumed(const std::string& mode, v1::ConsumedCapacity* consumed);
// A transaction's cancellation for the items whose tables refused.
Error CancelledByThrottle(const std::vector<std::optional<Error>>& refusals);

// The targets of each request type: what the operation reads or writes.
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::GetItemRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::PutItemRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::UpdateItemRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::DeleteItemRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::QueryRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::ScanRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::TransactWriteItemsRequest& r);
std::vector<ThrottleTarget> TargetsOf(Engine& e, const v1::TransactGetItemsRequest& r);

// The consumed capacities of a response, one per table.
inline std::vector<v1::ConsumedCapacity*> ConsumedOf(v1::ConsumedCapacity* one, bool present) {
  return present ? std::vector<v1::ConsumedCapacity*>{one} : std::vector<v1::ConsumedCapacity*>{};
}
template <typename Resp>
std::vector<v1::ConsumedCapacity*> ConsumedOf(Resp& resp) {
  if constexpr (requires { resp.consumed_capacity_size(); }) {
    std::vector<v1::ConsumedCapacity*> all;
    for (auto& c : *resp.mutable_consumed_capacity()) all.push_back(&c);
    return all;
  } else {
    return ConsumedOf(resp.mutable_consumed_capacity(), resp.has_consumed_capacity());
  }
}

// Charges each table what the response says it consumed, then leaves the
// response's capacity as `mode` asked.
template <typename Resp>
void ChargeAndShape(Engine& engine, const std::vector<ThrottleTarget>& targets, const std::string& mode,
                    Resp* resp) {
  double now = engine.clock().Now();
  for (v1::ConsumedCapacity* c : ConsumedOf(*resp)) {
    for (const ThrottleTarget& t : targets) {
      if (t.table->description.table_name() != c->table_name()) continue;
      engine.throttle().Charge(t, *c, now);
      break;
    }
    ShapeConsumed(mode, c);
  }
  if (mode.empty() || mode == "NONE") resp->clear_consumed_capacity();
}

// An operation with one table, or a transaction: admitted whole or refused.
template <typename Req, typename Resp, typename Fn>
Result<Resp> Run(Engine& engine, const Req& req, Fn call) {
  std::vector<ThrottleTarget> targets = TargetsOf(engine, req);
  if (targets.empty() || !KnownMode(req.return_consumed_capacity())) return call(req);
  double now = engine.clock().Now();
  std::vector<std::optional<Error>> refusals;
  bool refused = false;
  for (const ThrottleTarget& t : targets) {
    refusals.push_back(engine.throttle().Admit(t, now));
    refused = refused || refusals.back().has_value();
  }
  if (refused) {
    if constexpr (requires { req.transact_items_size(); }) return CancelledByThrottle(refusals);
    for (auto& r : refusals) {
      if (r) return std::move(*r);
    }
  }
  Req indexes = req;
  indexes.set_return_consumed_capacity("INDEXES");
  Result<Resp> resp = call(indexes);
  if (resp.ok()) ChargeAndShape(engine, targets, req.return_consumed_capacity(), &resp.value());
  return resp;
}

// A batch: the tables whose buckets refuse are left out and come back
// unprocessed; every table refused is the first table's throttling error.
template <typename Req, typename Resp, typename Fn>
Result<Resp> RunBatch(Engine& engine, const Req& req, Fn call) {
  if (!KnownMode(req.return_consumed_capacity())) return call(req);
  constexpr bool kGets = requires { std::declval<Resp>().unprocessed_keys(); };
  CapacityKind kind = kGets ? CapacityKind::kRead : CapacityKind::kWrite;
  double now = engine.clock().Now();
  Req admitted = req;
  admitted.set_return_consumed_capacity("INDEXES");
  std::vector<ThrottleTarget> targets;
  std::map<std::string, std::decay_t<decltype(req.request_items().begin()->second)>> unprocessed;
  std::optional<Error> first_refusal;
  for (const auto& [name, items] : req.request_items()) {
    std::optional<ThrottleTarget> t = TargetOf(engine, name, kind, "", nullptr);
    if (!t) continue;
    if (std::optional<Error> refusal = engine.throttle().Admit(*t, now)) {
      if (!first_refusal) first_refusal = std::move(refusal);
      unprocessed[name] = items;
      admitted.mutable_request_items()->erase(name);
      continue;
    }
    targets.push_back(*t);
  }
  if (first_refusal && admitted.request_items().empty()) return std::move(*first_refusal);
  Result<Resp> resp = call(admitted);
  if (!resp.ok()) return resp;
  ChargeAndShape(engine, targets, req.return_consumed_capacity(), &resp.value());
  for (auto& [name, items] : unprocessed) {
    if constexpr (kGets) {
      (*resp->mutable_unprocessed_keys())[name] = std::move(items);
    } else {
      (*resp->mutable_unprocessed_items())[name] = std::move(items);
    }
  }
  return resp;
}

// Runs `call` on `req` under the throttle when the request type is one it
// governs; else runs it as it is.
template <typename Req, typename Resp, typename Fn>
Result<Resp> Call(Engine& engine, const Req& req, Fn call) {
  if constexpr (std::is_same_v<Req, v1::BatchGetItemRequest> ||
                std::is_same_v<Req, v1::BatchWriteItemRequest>) {
    return RunBatch<Req, Resp>(engine, req, call);
  } else if constexpr (requires { TargetsOf(engine, req); }) {
    return Run<Req, Resp>(engine, req, call);
  } else {
    return call(req);
  }
}

}  // namespace pogi::service::throttled
