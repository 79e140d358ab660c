// Faults: rule matching (operation, table, key prefix, door), the firing
// schedule (every call, every Nth, the next K, a seeded probability), and
// the DynamoDB errors a rule can answer with.
#include "service/controls/faults.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "service/write/multi_item.h"

namespace pogi::service {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

struct KnownError {
  std::string_view name;
  ErrorCode code;
  std::string_view message;  // DynamoDB's usual text
};

// The errors a rule may answer with and DynamoDB's messages for them.
constexpr KnownError kErrors[] = {
    {"ProvisionedThroughputExceededException", ErrorCode::kProvisionedThroughputExceeded,
     "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
     "provisioning level with the UpdateTable API."},
    {"ThrottlingException", ErrorCode::kThrottling, "Rate of requests exceeds the allowed throughput."},
    {"RequestLimitExceeded", ErrorCode::kRequestLimitExceeded,
     "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at "
     "https://aws.amazon.com/support request a limit increase"},
    {"InternalServerError", ErrorCode::kInternalServerError, "Internal server error"},
    // DynamoDB's exact text for a 503 is not documented; this is botocore's
    // usual wording for the status.
    {"ServiceUnavailable", ErrorCode::kServiceUnavailable, "Service Unavailable"},
    {"TransactionConflictException", ErrorCode::kTransactionConflict, "Transaction is ongoing for the item"},
    {"TransactionInProgressException", ErrorCode::kTransactionInProgress,
     "The transaction with the given request token is already in progress."},
    {"ConditionalCheckFailedException", ErrorCode::kConditionalCheckFailed, "The conditional request failed"},
    {"ValidationException", ErrorCode::kValidation, "Injected validation error"},
    {"ResourceNotFoundException", ErrorCode::kResourceNotFound, "Requested resource not found"},
    {"ResourceInUseException", ErrorCode::kResourceInUse, "Resource in use"},
    {"LimitExceededException", ErrorCode::kLimitExceeded, "Too many operations for a given subscriber"},
    {"ItemCollectionSizeLimitExceededException", ErrorCode::kItemCollectionSizeLimitExceeded,
     "Item collection size limit exceeded"},
};

const KnownError* FindError(std::string_view name) {
  if (name == "TransactionConflict") name = "TransactionConflictException";
  for (const auto& e : kErrors) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const FieldDescriptor* Field(const Message& m, const char* name) {
  return m.GetDescriptor()->FindFieldByName(name);
}

std::string StringField(const Message& m, const char* name) {
  const FieldDescriptor* f = Field(m, name);
  if (!f || f->type() != FieldDescriptor::TYPE_STRING || f->is_repeated()) return "";
  return m.GetReflection()->GetString(m, f);
}

// The tables a request names: table_name, the keys of request_items, and
// the table_name of each transact item's action.
std::set<std::string> TablesOf(const Message& request) {
  std::set<std::string> out;
  if (std::string t = StringField(request, "table_name"); !t.empty()) out.insert(t);
  const Reflection* r = request.GetReflection();
  if (const FieldDescriptor* f = Field(request, "request_items"); f && f->is_map()) {
    for (int i = 0; i < r->FieldSize(request, f); ++i) {
      const Message& entry = r->GetRepeatedMessage(request, f, i);
      out.insert(StringField(entry, "key"));
    }
  }
  if (const FieldDescriptor* f = Field(request, "transact_items"); f && f->is_repeated()) {
    for (int i = 0; i < r->FieldSize(request, f); ++i) {
      const Message& item = r->GetRepeatedMessage(request, f, i);
      std::vector<const FieldDescriptor*> set;
      item.GetReflection()->ListFields(item, &set);
      for (const FieldDescriptor* action : set) {
        if (action->type() != FieldDescriptor::TYPE_MESSAGE || action->is_repeated()) continue;
        out.insert(StringField(item.GetReflection()->GetMessage(item, action), "table_name"));
      }
    }
  }
  return out;
}

// The partition key value of a single-item request as text (S, N, or B's
// bytes), or nullopt when the request has no single key.
std::optional<std::string> PartitionValue(const Catalog& catalog, const Message& request) {
  std::string table = StringField(request, "table_name");
  auto t = catalog.Find(table);
  if (!t) return std::nullopt;
  const v1::Item* key = nullptr;
  if (auto* put = dynamic_cast<const v1::PutItemRequest*>(&request)) key = &put->item();
  if (auto* get = dynamic_cast<const v1::GetItemRequest*>(&request)) key = &get->key();
  if (auto* del = dynamic_cast<const v1::DeleteItemRequest*>(&request)) key = &del->key();
  if (auto* upd = dynamic_cast<const v1::UpdateItemRequest*>(&request)) key = &upd->key();
  if (!key) return std::nullopt;
  auto it = key->attributes().find(t->hash.name);
  if (it == key->attributes().end()) return std::nullopt;
  const v1::AttributeValue& v = it->second;
  if (v.has_s()) return v.s();
  if (v.has_n()) return v.n();
  if (v.has_b()) return v.b();
  return std::nullopt;
}

bool Contains(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

}  // namespace

std::optional<Error> FaultError(std::string_view name, std::string_view message, std::string_view operation,
                                const Message& request) {
  const KnownError* known = FindError(name);
  if (!known) return std::nullopt;
  std::string text(message.empty() ? known->message : message);
  if (known->code == ErrorCode::kTransactionConflict &&
      (operation == "TransactWriteItems" || operation == "TransactGetItems")) {
    // DynamoDB cancels the whole transaction and names the conflicting item
    // in CancellationReasons; the injected conflict is on the first item.
    int items = 1;
    if (const FieldDescriptor* f = Field(request, "transact_items")) {
      items = std::max(1, request.GetReflection()->FieldSize(request, f));
    }
    std::vector<v1::CancellationReason> reasons(items, Reason("None"));
    reasons[0] = Reason("TransactionConflict", text);
    return TransactionCanceled(reasons);
  }
  return Error(known->code, text);
}

Result<FaultSpec> Faults::Add(FaultSpec spec) {
  int actions = (spec.error.empty() ? 0 : 1) + (spec.latency_ms > 0 ? 1 : 0) + (spec.disconnect ? 1 : 0);
  if (actions != 1)
    return Error::Validation("a fault rule needs exactly one of error, latency or disconnect");
  if (!spec.error.empty() && !FindError(spec.error)) {
    std::string names;
    for (const auto& e : kErrors) names += (names.empty() ? "" : ", ") + std::string(e.name);
    return Error::Validation("unknown error '" + spec.error + "' (one of " + names + ")");
  }
  if (spec.latency_ms < 0 || spec.latency_ms > 600000) {
    return Error::Validation("latency must be between 0 and 600000 ms");
  }
  if (!spec.door.empty() && spec.door != "http" && spec.door != "grpc") {
    return Error::Validation("door must be http or grpc");
  }
  int schedules = (spec.count > 0 ? 1 : 0) + (spec.every > 0 ? 1 : 0) + (spec.probability > 0 ? 1 : 0);
  if (schedules > 1) return Error::Validation("choose one of count, every or probability");
  if (spec.count < 0 || spec.every < 0) return Error::Validation("count and every must be positive");
  if (spec.probability < 0 || spec.probability > 1) return Error::Validation("probability must be in [0, 1]");
  std::lock_guard lock(mu_);
  spec.id = std::to_string(next_id_++);
  spec.matched = spec.fired = 0;
  auto rule = std::make_unique<Rule>(Rule{spec, std::mt19937_64(spec.seed)});
  rules_.push_back(std::move(rule));
  count_.store(static_cast<int>(rules_.size()), std::memory_order_relaxed);
  return spec;
}

std::vector<FaultSpec> Faults::List() const {
  std::lock_guard lock(mu_);
  std::vector<FaultSpec> out;
  for (const auto& r : rules_) out.push_back(r->spec);
  return out;
}

Result<int64_t> Faults::Clear(const std::string& id) {
  std::lock_guard lock(mu_);
  int64_t before = static_cast<int64_t>(rules_.size());
  if (id.empty()) {
    rules_.clear();
  } else {
    std::erase_if(rules_, [&](const auto& r) { return r->spec.id == id; });
    if (static_cast<int64_t>(rules_.size()) == before) return Error::ResourceNotFound("no fault rule " + id);
  }
  count_.store(static_cast<int>(rules_.size()), std::memory_order_relaxed);
  return before - static_cast<int64_t>(rules_.size());
}

std::optional<FaultAction> Faults::Check(const Catalog& catalog, std::string_view door,
                                         std::string_view operation, const Message& request) {
  int64_t latency_ms = 0;
  std::optional<FaultAction> action;
  {
    std::lock_guard lock(mu_);
    std::optional<std::set<std::string>> tables;
    std::optional<std::optional<std::string>> partition;
    for (auto& rule : rules_) {
      FaultSpec& s = rule->spec;
      if (!s.operations.empty() && !Contains(s.operations, operation)) continue;
      if (!s.door.empty() && s.door != door) continue;
      if (!s.tables.empty()) {
        if (!tables) tables = TablesOf(request);
        bool any = false;
        for (const auto& t : *tables) any = any || Contains(s.tables, t);
        if (!any) continue;
      }
      if (!s.key_prefix.empty()) {
        if (!partition) partition = PartitionValue(catalog, request);
        if (!*partition || !(*partition)->starts_with(s.key_prefix)) continue;
      }
      ++s.matched;
      bool fire = true;
      if (s.count > 0) fire = s.fired < s.count;
      if (s.every > 0) fire = s.matched % s.every == 0;
      if (s.probability > 0)
        fire = std::uniform_real_distribution<double>(0, 1)(rule->random) < s.probability;
      if (!fire) continue;
      ++s.fired;
      if (s.latency_ms > 0) {
        latency_ms += s.latency_ms;
        continue;
      }
      if (s.disconnect) {
        action = FaultAction{std::nullopt, true};
      } else {
        action = FaultAction{FaultError(s.error, s.message, operation, request), false};
      }
      break;
    }
  }
  if (latency_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(latency_ms));
  return action;
}

}  // namespace pogi::service
