// TransactGetItems: up to 100 Gets over several tables, all read from ONE
// storage snapshot, so no answer ever shows half of a transaction. A key that
// does not match its table's schema cancels the whole request.
#include <set>

#include "service/engine/engine.h"
#include "service/expr/projection.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"
#include "service/write/replication_queue.h"

namespace pogi::service {
namespace {

struct GetAction {
  const v1::Get* get;
  std::shared_ptr<const Table> table;
  value::AttributeMap key_map;
  std::optional<expr::Projection> projection;
  storage::EncodedKey key;
};

Status CheckMembers(const v1::TransactGetItemsRequest& req) {
  Constraints c;
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  int n = req.transact_items_size();
  if (n < 1 || n > kMaxTransactionActions) {
    std::string rendered = "[";
    for (int i = 0; i < n; ++i) rendered += (i ? ", " : "") + RenderJava(req.transact_items(i));
    c.Count(n, 1, kMaxTransactionActions, rendered + "]", "transactItems");
  }
  for (int i = 0; i < n; ++i) {
    const auto& item = req.transact_items(i);
    std::string at = "transactItems." + std::to_string(i + 1) + ".member.get";
    c.Required(item.has_get(), at);
    if (!item.has_get()) continue;
    const v1::Get& g = item.get();
    CheckTableNameOrArn(c, g.has_table_name() ? &g.table_name() : nullptr, at + ".tableName");
  }
  return c.Finish();
}

}  // namespace

Result<v1::TransactGetItemsResponse> Engine::TransactGetItems(const v1::TransactGetItemsRequest& req) {
  POGI_RETURN_IF_ERROR(CheckMembers(req));
  std::vector<GetAction> gets;
  for (const auto& item : req.transact_items()) {
    const v1::Get& g = item.get();
    GetAction a{&g, nullptr, g.key(), std::nullopt, {}};
    if (Status s = ValidateAttributes(&a.key_map); !s.ok())
      return TransactionValidation(std::move(s).error());
    ExpressionParams params;
    params.projection = IfPresent(g.has_projection_expression(), g.projection_expression());
    if (g.has_expression_attribute_names()) params.names = &g.expression_attribute_names();
    POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
    a.projection = std::move(parsed.projection);
    gets.push_back(std::move(a));
  }
  for (auto& a : gets) {
    POGI_ASSIGN_OR_RETURN(a.table, FindTable(a.get->table_name()));
    POGI_RETURN_IF_ERROR(CheckTransactionAllowed(*a.table));
  }
  std::optional<std::pair<size_t, std::string>> mismatch;
  for (size_t i = 0; i < gets.size(); ++i) {
    auto key = ValidateKey(*gets[i].table, gets[i].key_map);
    if (!key.ok()) {
      if (!IsKeySchemaMismatch(key.error())) return std::move(key).error();
      if (!mismatch) mismatch.emplace(i, key.error().message());
      continue;
    }
    gets[i].key = std::move(key).value();
  }
  if (mismatch) return CancelForKey(gets.size(), mismatch->first, mismatch->second);
  POGI_RETURN_IF_ERROR(CheckOneActionPerItem(gets));

  v1::TransactGetItemsResponse resp;
  CapacityTally capacity;
  bool too_large = false;
  Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
    resp.Clear();
    capacity = CapacityTally();
    int64_t aggregate = 0;
    for (const auto& a : gets) {
      POGI_ASSIGN_OR_RETURN(auto stored, txn.GetItem(a.table->id, a.key));
      v1::ItemResponse* out = resp.add_responses();
      std::optional<v1::Item> item;
      if (stored) {
        POGI_ASSIGN_OR_RETURN(item, value::DecodeItem(*stored));
      }
      int64_t size = item ? value::ItemSize(item->attributes()) : 0;
      aggregate += size;
      // A transactional read costs twice a consistent one.
      capacity.Add(a.get->table_name(), 2 * ReadUnits(size, /*consistent=*/true));
      if (!item) continue;
      // Answered as stored, its attributes in their order.
      std::string_view proto = std::string_view(*stored).substr(1);
      value::CarryItem(out, v1::ItemResponse::kItemFieldNumber,
                       a.projection ? expr::ProjectedItemProto(*a.projection, item->attributes(), proto)
                                    : std::string(proto));
    }
    too_large = aggregate > kMaxTransactionBytes;
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  if (too_large) {
    // pogi's decision: every Get of a transaction past 4 MB is refused alike.
    return TransactionCanceled(std::vector<v1::CancellationReason>(
        gets.size(),
        Reason("ValidationError",
               "Aggregate size of the items in the transaction has exceeded the maximum allowed size "
               "of 4 MB")));
  }
  capacity.Fill(req.return_consumed_capacity(), 'R', resp.mutable_consumed_capacity());
  return resp;
}

}  // namespace pogi::service
