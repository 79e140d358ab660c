// Token buckets per table, global index and partition key value, and
// DynamoDB's throttling errors.
#include "service/controls/throttle.h"

#include <algorithm>
#include <memory>

#include "service/core/catalog.h"

namespace pogi::service {
namespace {

// Which of DynamoDB's limits a bucket stands for: the last part of a
// ThrottlingReason ("TableWrite" + "ProvisionedThroughputExceeded").
enum class LimitType { kProvisioned, kMaxOnDemand, kAccount, kKeyRange };

struct Limit {
  double rate = 0;  // units a second
  double burst_seconds = 1;
  LimitType type = LimitType::kProvisioned;
};

bool OnDemand(const v1::TableDescription& d) {
  return d.billing_mode_summary().billing_mode() == "PAY_PER_REQUEST";
}

// The limit of the table (`index` empty) or of one of its global indexes.
Limit LimitOf(const v1::TableDescription& d, const std::string& index, CapacityKind kind) {
  const v1::ProvisionedThroughputDescription* provisioned = &d.provisioned_throughput();
  const v1::OnDemandThroughput* on_demand = &d.on_demand_throughput();
  if (!index.empty()) {
    for (const auto& g : d.global_secondary_indexes()) {
      if (g.index_name() != index) continue;
      provisioned = &g.provisioned_throughput();
      on_demand = &g.on_demand_throughput();
    }
  }
  bool read = kind == CapacityKind::kRead;
  if (!OnDemand(d)) {
    double units =
        static_cast<double>(read ? provisioned->read_capacity_units() : provisioned->write_capacity_units());
    return {units, kBurstSeconds, LimitType::kProvisioned};
  }
  int64_t max = read ? on_demand->max_read_request_units() : on_demand->max_write_request_units();
  if (max > 0) return {static_cast<double>(max), 1, LimitType::kMaxOnDemand};
  return {kAccountTableUnits, 1, LimitType::kAccount};
}

Limit PartitionLimit(CapacityKind kind) {
  return {kind == CapacityKind::kRead ? kPartitionReadUnits : kPartitionWriteUnits, 1, LimitType::kKeyRange};
}

std::string IndexArn(const v1::TableDescription& d, const std::string& index) {
  for (const auto& g : d.global_secondary_indexes()) {
    if (g.index_name() == index) return g.index_arn();
  }
  return d.table_arn() + "/index/" + index;
}

// DynamoDB's error for a request refused by `limit` of the table or index:
// provisioned tables answer ProvisionedThroughputExceededException,
// on-demand ones ThrottlingException (their maximum or a hot key) or
// RequestLimitExceeded (the account's quota), each with the reason.
Error Refusal(const v1::TableDescription& d, const std::string& index, CapacityKind kind, LimitType type) {
  static constexpr const char* kLimitNames[] = {"ProvisionedThroughputExceeded",
                                                "MaxOnDemandThroughputExceeded", "AccountLimitExceeded",
                                                "KeyRangeThroughputExceeded"};
  auto detail = std::make_shared<v1::ErrorDetail>();
  v1::ThrottlingReason* reason = detail->add_throttling_reasons();
  reason->set_reason(std::string(index.empty() ? "Table" : "Index") +
                     (kind == CapacityKind::kRead ? "Read" : "Write") + kLimitNames[static_cast<int>(type)]);
  reason->set_resource(index.empty() ? d.table_arn() : IndexArn(d, index));
  std::optional<Error> error;
  if (type == LimitType::kAccount) {
    error.emplace(
        ErrorCode::kRequestLimitExceeded,
        "Throughput exceeds the current throughput limit for your account. Please contact AWS Support "
        "at https://aws.amazon.com/support request a limit increase");
  } else if (OnDemand(d)) {
    error.emplace(
        ErrorCode::kThrottling,
        "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
        "scaling your table or index so please try again shortly. If exceptions persist, check if you "
        "have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
        "bp-partition-key-design.html");
  } else if (index.empty()) {
    error.emplace(ErrorCode::kProvisionedThroughputExceeded,
                  "The level of configured provisioned throughput for the table was exceeded. Consider "
                  "increasing your provisioning level with the UpdateTable API.");
  } else {
    error.emplace(
        ErrorCode::kProvisionedThroughputExceeded,
        "The level of configured provisioned throughput for one or more global secondary indexes of "
        "the table was exceeded. Consider increasing your provisioning level for the under-provisioned "
        "global secondary indexes with the UpdateTable API");
  }
  error->set_detail(std::move(detail));
  return *error;
}

}  // namespace

void Throttle::Set(const std::string& table, std::optional<bool> on) {
  std::lock_guard lock(mu_);
  if (table.empty()) {
    settings_.all = on.value_or(false);
  } else if (on) {
    settings_.tables[table] = *on;
  } else {
    settings_.tables.erase(table);
  }
  bool any = settings_.all;
  for (const auto& [name, enabled] : settings_.tables) any = any || enabled;
  active_.store(any, std::memory_order_relaxed);
}

ThrottleSettings Throttle::Settings() const {
  std::lock_guard lock(mu_);
  return settings_;
}

bool Throttle::EnabledFor(const std::string& table) const {
  std::lock_guard lock(mu_);
  auto it = settings_.tables.find(table);
  return it != settings_.tables.end() ? it->second : settings_.all;
}

Throttle::Bucket& Throttle::Refilled(const Key& key, double rate, double burst_seconds, double now) {
  auto [it, fresh] = buckets_.try_emplace(key);
  Bucket& b = it->second;
  if (fresh) {
    // A bucket starts with one second of capacity: a new table has not had
    // the time to save any.
    b.tokens = rate;
  } else if (now > b.updated) {
    b.tokens += (now - b.updated) * rate;
  }
  b.tokens = std::min(b.tokens, rate * burst_seconds);
  b.updated = std::max(b.updated, now);
  return b;
}

std::optional<Error> Throttle::Admit(const ThrottleTarget& target, double now) {
  const Table& table = *target.table;
  const v1::TableDescription& d = table.description;
  const std::string& name = d.table_name();
  if (!EnabledFor(name)) return std::nullopt;
  std::lock_guard lock(mu_);
  auto in_debt = [&](const std::string& resource, const Limit& limit) {
    return Refilled({target.table->id, resource, target.kind}, limit.rate, limit.burst_seconds, now).tokens <=
           0;
  };
  // The table (or the index read), then a write's global indexes, then the
  // partition: the first in debt is the reason.
  Limit own = LimitOf(d, target.index, target.kind);
  if (in_debt(target.index, own)) return Refusal(d, target.index, target.kind, own.type);
  if (target.kind == CapacityKind::kWrite) {
    for (const auto& g : d.global_secondary_indexes()) {
      Limit limit = LimitOf(d, g.index_name(), target.kind);
      if (in_debt(g.index_name(), limit)) return Refusal(d, g.index_name(), target.kind, limit.type);
    }
  }
  if (!target.partition.empty() && target.index.empty() &&
      in_debt("#" + target.partition, PartitionLimit(target.kind))) {
    return Refusal(d, "", target.kind, LimitType::kKeyRange);
  }
  return std::nullopt;
}

void Throttle::Charge(const ThrottleTarget& target, const v1::ConsumedCapacity& consumed, double now) {
  const v1::TableDescription& d = target.table->description;
  const std::string& name = d.table_name();
  if (!EnabledFor(name)) return;
  std::lock_guard lock(mu_);
  auto spend = [&](const std::string& resource, const Limit& limit, double units) {
    if (units <= 0) return;
    Refilled({target.table->id, resource, target.kind}, limit.rate, limit.burst_seconds, now).tokens -= units;
  };
  double table_units = consumed.table().capacity_units();
  for (const auto& [index, c] : consumed.local_secondary_indexes()) table_units += c.capacity_units();
  spend("", LimitOf(d, "", target.kind), table_units);
  for (const auto& [index, c] : consumed.global_secondary_indexes()) {
    spend(index, LimitOf(d, index, target.kind), c.capacity_units());
  }
  if (!target.partition.empty() && target.index.empty()) {
    spend("#" + target.partition, PartitionLimit(target.kind), table_units);
  }
  PruneFullPartitions(now);
}

void Throttle::PruneFullPartitions(double now) {
  // A partition's bucket that has refilled says nothing a fresh one would
  // not: drop them once there are many, so hot keys do not pile up.
  constexpr size_t kManyBuckets = 10000;
  if (buckets_.size() < kManyBuckets) return;
  std::erase_if(buckets_, [&](const auto& entry) {
    const auto& [key, bucket] = entry;
    const std::string& resource = std::get<1>(key);
    if (resource.empty() || resource[0] != '#') return false;
    double rate = PartitionLimit(std::get<2>(key)).rate;
    return bucket.tokens + (now - bucket.updated) * rate >= rate;
  });
}

void Throttle::Clear() {
  std::lock_guard lock(mu_);
  buckets_.clear();
}

}  // namespace pogi::service
