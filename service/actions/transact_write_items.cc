// TransactWriteItems: up to 100 Put/Update/Delete/ConditionCheck actions over
// several tables, all or nothing. Every action reads its item and checks its
// condition inside ONE storage write transaction, so the conditions hold at
// the moment of commit and no reader sees half of it; only when every action
// passes are the changes applied (through ApplyChange, like every write).
// Otherwise nothing is written and TransactionCanceledException lists one
// reason per action, in request order.
//
// Validation follows DynamoDB's order: member constraints (all reported
// together), then per action in request order its values and expressions,
// then the tables, then each key against its table's schema (a mismatch
// cancels the transaction, an empty key value fails the request), then two
// actions on one item.
#include <algorithm>
#include <set>

#include "service/engine/engine.h"
#include "service/expr/path_tree.h"
#include "service/expr/update.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"
#include "service/write/index_entries.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"
#include "service/write/replication_queue.h"
#include "service/write/vector_entries.h"

namespace pogi::service {
namespace {

enum class Kind { kConditionCheck, kPut, kDelete, kUpdate };

// One action, checked and parsed.
struct Action {
  Kind kind;
  const std::string* table_name = nullptr;
  std::shared_ptr<const Table> table;
  value::AttributeMap map;  // the item of a Put, the key otherwise
  std::optional<expr::Condition> condition;
  std::optional<expr::Update> update;
  std::string return_on_failure;
  storage::EncodedKey key;
};

// The members every action kind shares, by pointer into the request.
struct Members {
  const std::string* table_name = nullptr;
  const std::string* condition = nullptr;
  const std::string* update = nullptr;
  const v1::NameMap* names = nullptr;
  const expr::AttributeMap* values = nullptr;
  const std::string* return_on_failure = nullptr;
  const value::AttributeMap* map = nullptr;
  const char* member = "";  // "put", "conditionCheck", ...
};

template <typename M>
void Common(const M& m, Members* out) {
  out->table_name = m.has_table_name() ? &m.table_name() : nullptr;
  out->condition = IfPresent(m.has_condition_expression(), m.condition_expression());
  if (m.has_expression_attribute_names()) out->names = &m.expression_attribute_names();
  if (m.has_expression_attribute_values()) out->values = &m.expression_attribute_values().attributes();
  out->return_on_failure = IfPresent(m.has_return_values_on_condition_check_failure(),
                                     m.return_values_on_condition_check_failure());
}

// The one action an element carries; nullopt when it carries none or several.
std::optional<std::pair<Kind, Members>> Unpack(const v1::TransactWriteItem& item) {
  int set = item.has_condition_check() + item.has_put() + item.has_delete_() + item.has_update();
  if (set != 1) return std::nullopt;
  Members m;
  Kind kind;
  if (item.has_condition_check()) {
    kind = Kind::kConditionCheck;
    Common(item.condition_check(), &m);
    m.map = &item.condition_check().key();
    m.member = "conditionCheck";
  } else if (item.has_put()) {
    kind = Kind::kPut;
    Common(item.put(), &m);
    m.map = &item.put().item();
    m.member = "put";
  } else if (item.has_delete_()) {
    kind = Kind::kDelete;
    Common(item.delete_(), &m);
    m.map = &item.delete_().key();
    m.member = "delete";
  } else {
    kind = Kind::kUpdate;
    Common(item.update(), &m);
    m.update = IfPresent(item.update().has_update_expression(), item.update().update_expression());
    m.map = &item.update().key();
    m.member = "update";
  }
  return std::make_pair(kind, m);
}

Status CheckMembers(const v1::TransactWriteItemsRequest& req) {
  Constraints c;
  c.Length(IfPresent(req.has_client_request_token(), req.client_request_token()), 1,
           kMaxClientRequestTokenLength, "clientRequestToken");
  CheckReturnOptions(
      c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
      IfPresent(req.has_return_item_collection_metrics(), req.return_item_collection_metrics()));
  int n = req.transact_items_size();
  if (n < 1 || n > kMaxTransactionActions) {
    std::string rendered = "[";
    for (int i = 0; i < n; ++i) rendered += (i ? ", " : "") + RenderJava(req.transact_items(i));
    c.Count(n, 1, kMaxTransactionActions, rendered + "]", "transactItems");
  }
  for (int i = 0; i < n; ++i) {
    auto unpacked = Unpack(req.transact_items(i));
    if (!unpacked) continue;
    const auto& [kind, m] = *unpacked;
    std::string at = "transactItems." + std::to_string(i + 1) + ".member." + m.member + ".";
    if (kind == Kind::kConditionCheck) c.Required(m.condition != nullptr, at + "conditionExpression");
    CheckTableNameOrArn(c, m.table_name, at + "tableName");
    if (kind == Kind::kUpdate) c.Required(m.update != nullptr, at + "updateExpression");
    c.OneOf(m.return_on_failure, {"ALL_OLD", "NONE"}, at + "returnValuesOnConditionCheckFailure");
  }
  return c.Finish();
}

// What one action does to its item, decided inside the transaction: the new
// item (nullopt: delete) or, for a ConditionCheck, no change.
struct Outcome {
  std::optional<value::AttributeMap> old_item;
  std::optional<value::AttributeMap> new_item;
  bool writes = false;
  std::optional<value::PathTree> updated;  // an Update's paths: they order the new item's maps
};

// Decides action `a` against its current item; a failure is its cancellation reason.
Result<Outcome> DecideAction(const Action& a, std::optional<value::AttributeMap> old) {
  Outcome o;
  o.old_item = std::move(old);
  const value::AttributeMap* old_item = o.old_item ? &*o.old_item : nullptr;
  POGI_RETURN_IF_ERROR(CheckCondition(a.condition, old_item, a.return_on_failure));
  switch (a.kind) {
    case Kind::kConditionCheck:
      break;
    case Kind::kPut:
      o.new_item = a.map;
      o.writes = true;
      break;
    case Kind::kDelete:
      o.writes = true;
      break;
    case Kind::kUpdate: {
      value::AttributeMap item = old_item ? *old_item : a.map;
      std::vector<expr::Path> updated;
      POGI_RETURN_IF_ERROR(expr::Apply(*a.update, &item, &updated));
      if (value::ItemSize(item) > kMaxItemSize) {
        return Error::Validation("Item size to update has exceeded the maximum allowed size");
      }
      o.new_item = std::move(item);
      o.updated = expr::PathTreeOf(updated, value::PathTree::End::kWritten);
      o.writes = true;
      break;
    }
  }
  return o;
}

v1::CancellationReason ReasonOf(const Error& e) {
  if (e.code() == ErrorCode::kConditionalCheckFailed) {
    v1::CancellationReason r = Reason("ConditionalCheckFailed", e.message());
    if (e.detail() && e.detail()->has_item()) *r.mutable_item() = e.detail()->item();
    return r;
  }
  return Reason("ValidationError", TransactionValidation(e).message());
}

// Shapes the ConsumedCapacity of `resp`, kept in INDEXES' shape (the most
// detailed, so that a replay can show any), as `mode` asks.
void ShowCapacity(const std::string& mode, v1::TransactWriteItemsResponse* resp) {
  if (!WantsCapacity(mode)) {
    resp->clear_consumed_capacity();
  } else if (mode != "INDEXES") {
    for (auto& c : *resp->mutable_consumed_capacity()) c.clear_table();
  }
}

}  // namespace

Result<v1::TransactWriteItemsResponse> Engine::TransactWriteItems(const v1::TransactWriteItemsRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));

  // Per action, in request order: its shape, values and expressions.
  std::vector<Action> actions;
  for (const auto& item : req.transact_items()) {
    auto unpacked = Unpack(item);
    if (!unpacked)
      return Error::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
    const auto& [kind, m] = *unpacked;
    Action a;
    a.kind = kind;
    a.table_name = m.table_name;
    a.return_on_failure = m.return_on_failure ? *m.return_on_failure : "";
    a.map = *m.map;
    if (Status s = ValidateAttributes(&a.map); !s.ok()) return TransactionValidation(std::move(s).error());
    if (kind == Kind::kPut && value::ItemSize(a.map) > kMaxItemSize) {
      return Error::Validation("Item size has exceeded the maximum allowed size");
    }
    ExpressionParams params;
    params.condition = m.condition;
    params.update = m.update;
    params.names = m.names;
    params.values = m.values;
    // As the single-item operations name them (a transaction's own words
    // are not on record).
    params.value_expressions =
        kind == Kind::kUpdate ? "UpdateExpression and ConditionExpression" : "ConditionExpression";
    POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
    a.condition = std::move(parsed.condition);
    a.update = std::move(parsed.update);
    actions.push_back(std::move(a));
  }
  for (auto& a : actions) {
    POGI_ASSIGN_OR_RETURN(a.table, FindTable(*a.table_name));
    POGI_RETURN_IF_ERROR(CheckTransactionAllowed(*a.table));
  }
  // Keys against their schemas: a mismatch cancels the transaction, the first
  // one reported as its ValidationError and every other action as None.
  std::optional<std::pair<size_t, std::string>> mismatch;
  for (size_t i = 0; i < actions.size(); ++i) {
    Action& a = actions[i];
    auto key = a.kind == Kind::kPut ? ValidateItemForPut(*a.table, a.map) : ValidateKey(*a.table, a.map);
    if (!key.ok()) {
      if (!IsKeySchemaMismatch(key.error())) return std::move(key).error();
      if (!mismatch) mismatch.emplace(i, key.error().message());
      continue;
    }
    a.key = std::move(key).value();
    if (a.update) POGI_RETURN_IF_ERROR(CheckNoKeyUpdate(*a.table, *a.update));
  }
  if (mismatch) return CancelForKey(actions.size(), mismatch->first, mismatch->second);
  POGI_RETURN_IF_ERROR(CheckOneActionPerItem(actions));

  // The same token with the same request answers again without writing.
  const bool has_token = req.has_client_request_token();
  const std::string fingerprint = has_token ? TransactionTokens::Fingerprint(req) : std::string();
  if (has_token) POGI_RETURN_IF_ERROR(tokens_.Enter(req.client_request_token(), fingerprint));
  struct LeaveToken {
    TransactionTokens* tokens;  // null: no token
    const std::string& token;
    ~LeaveToken() {
      if (tokens) tokens->Leave(token);
    }
  } leave{has_token ? &tokens_ : nullptr, req.client_request_token()};

  // The answer to a transaction that wrote `outcomes`.
  auto answer = [&](const std::vector<Outcome>& outcomes) {
    v1::TransactWriteItemsResponse resp;
    CapacityTally capacity;
    for (size_t i = 0; i < actions.size(); ++i) {
      const Outcome& o = outcomes[i];
      int64_t size = std::max(o.old_item ? value::ItemSize(*o.old_item) : 0,
                              o.new_item ? value::ItemSize(*o.new_item) : 0);
      // A transactional write costs twice a plain one: prepare and commit.
      capacity.Add(*actions[i].table_name, 2 * WriteUnits(size));
      if (o.writes && req.return_item_collection_metrics() == "SIZE") {
        AddCollectionMetrics(*actions[i].table, actions[i].map, resp.mutable_item_collection_metrics());
      }
    }
    // Kept with every table's capacity: a replay asking for it shows it.
    capacity.Fill("INDEXES", 'W', resp.mutable_consumed_capacity());
    return resp;
  };

  std::vector<Outcome> outcomes;
  std::vector<v1::CancellationReason> reasons;
  bool cancelled = false;
  std::optional<v1::TransactWriteItemsResponse> resp;
  const double now = clock_->Now();
  std::vector<std::optional<std::string>> stored;  // each action's item as stored
  Status s = storage_->Write([&](storage::WriteTxn& txn) -> Status {
    outcomes.assign(actions.size(), Outcome());
    stored.assign(actions.size(), std::nullopt);
    reasons.assign(actions.size(), Reason("None"));
    cancelled = false;
    resp.reset();
    if (has_token) {
      POGI_ASSIGN_OR_RETURN(resp, TransactionTokens::Find(txn, req.client_request_token(), fingerprint, now));
      if (resp) return Status::Ok();  // answered before: write nothing
    }
    int64_t aggregate = 0;
    // The tables as they are now (UpdateTable may have added an index).
    for (auto& a : actions) {
      POGI_ASSIGN_OR_RETURN(a.table, CurrentTable(catalog_, *a.table));
    }
    for (size_t i = 0; i < actions.size(); ++i) {
      POGI_ASSIGN_OR_RETURN(stored[i], txn.GetItem(actions[i].table->id, actions[i].key));
      std::optional<value::AttributeMap> old;
      if (stored[i]) {
        POGI_ASSIGN_OR_RETURN(auto item, value::DecodeItem(*stored[i]));
        old = std::move(*item.mutable_attributes());
      }
      auto outcome = DecideAction(actions[i], std::move(old));
      if (!outcome.ok() && stored[i]) outcome = WithStoredItem(std::move(outcome).error(), *stored[i]);
      // An index key of the wrong type cancels the transaction like any
      // other invalid action, rather than failing it outright.
      if (outcome.ok() && outcome->new_item) {
        if (Status keys = CheckIndexKeys(*actions[i].table, *outcome->new_item); !keys.ok()) {
          outcome = std::move(keys).error();
        } else if (Status vectors =
                       CheckVectorValues(*actions[i].table, outcome->old_item ? &*outcome->old_item : nullptr,
                                         *outcome->new_item);
                   !vectors.ok()) {
          outcome = std::move(vectors).error();
        }
      }
      if (!outcome.ok()) {
        reasons[i] = ReasonOf(outcome.error());
        cancelled = true;
        continue;
      }
      outcomes[i] = std::move(outcome).value();
      const Outcome& o = outcomes[i];
      aggregate += std::max(o.old_item ? value::ItemSize(*o.old_item) : 0,
                            o.new_item ? value::ItemSize(*o.new_item) : 0);
      if (aggregate > kMaxTransactionBytes) {
        // DynamoDB refuses the whole request (a ValidationException, not a
        // cancellation); the words are pogi's, DynamoDB documents only the
        // 4 MB limit. Returning the error writes nothing.
        return Error::Validation(
            "Aggregate size of the items in the transaction has exceeded the maximum allowed size of 4 MB");
      }
    }
    if (cancelled) return Status::Ok();  // nothing was written
    for (size_t i = 0; i < actions.size(); ++i) {
      const Outcome& o = outcomes[i];
      if (!o.writes) continue;
      ChangeForms forms;
      if (stored[i]) forms.old_item = *stored[i];
      if (o.updated) {
        forms.new_item_origin = value::EntryOrigin::Along(
            forms.old_item.empty() ? std::string_view() : forms.old_item.substr(1), &*o.updated);
      }
      POGI_RETURN_IF_ERROR(
          ApplyChange(txn, *actions[i].table, actions[i].key, o.old_item ? &*o.old_item : nullptr,
                      o.new_item ? &*o.new_item : nullptr, nullptr, ChangeSource::kRequest, forms));
    }
    resp = answer(outcomes);
    if (!has_token) return Status::Ok();
    return tokens_.Keep(txn, req.client_request_token(), fingerprint, *resp, now);
  });
  if (!s.ok() && s.error().code() == ErrorCode::kTransactionConflict) {
    // Storage kept meeting a concurrent transaction (another process's) on
    // these items: DynamoDB cancels with TransactionConflict. Which item
    // met it is not known here, so every item says so.
    return TransactionCanceled(std::vector<v1::CancellationReason>(
        actions.size(), Reason("TransactionConflict", "Transaction is ongoing for the item")));
  }
  if (!s.ok()) return std::move(s).error();
  if (cancelled) return TransactionCanceled(reasons);
  ShowCapacity(req.return_consumed_capacity(), &*resp);
  return std::move(*resp);
}

}  // namespace pogi::service
