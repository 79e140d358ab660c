// GetItem: read one item by its full primary key, projected if asked.
#include "service/engine/engine.h"
#include "service/expr/legacy.h"
#include "service/expr/projection.h"
#include "service/read/lagged_read.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"

namespace pogi::service {

Result<v1::GetItemResponse> Engine::GetItem(const v1::GetItemRequest& req) {
  Constraints c;
  CheckItemTableName(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(req.has_key(), "key");
  c.AttributeNames(req.has_attributes_to_get() ? &req.attributes_to_get() : nullptr, "attributesToGet");
  CheckReturnOptions(c, IfPresent(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  // DynamoDB's order: the mix of expression and legacy members, the key's
  // values, AttributesToGet, the expression checks, the table.
  ExpressionParams params;
  params.projection = IfPresent(req.has_projection_expression(), req.projection_expression());
  SetSubstitutions(params, req);
  if (req.has_attributes_to_get()) params.legacy.push_back("AttributesToGet");
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  value::AttributeMap key_map = req.key().attributes();
  POGI_RETURN_IF_ERROR(ValidateAttributes(&key_map));
  std::optional<expr::Projection> projection;
  if (req.has_attributes_to_get()) {
    POGI_ASSIGN_OR_RETURN(projection, expr::ConvertAttributesToGet(req.attributes_to_get().values()));
  }
  POGI_ASSIGN_OR_RETURN(auto parsed, ParseExpressions(params));
  if (parsed.projection) projection = std::move(parsed.projection);
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*table, key_map));
  if (projection) POGI_RETURN_IF_ERROR(CheckScalarKeyPaths(*table, nullptr, projection->paths));

  v1::GetItemResponse resp;
  Status s = storage_->ReadPoint([&](storage::ReadTxn& txn) -> Status {
    std::optional<LaggedReadTxn> lagged;
    storage::ReadTxn& view = ReadView(txn, read_lag_, *table, !req.consistent_read(), lagged);
    POGI_ASSIGN_OR_RETURN(auto bytes, view.GetItem(table->id, key));
    if (!bytes) return Status::Ok();
    POGI_ASSIGN_OR_RETURN(*resp.mutable_item(), value::DecodeItem(*bytes));
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  // Capacity is charged for the whole item, whatever the projection keeps.
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = resp.has_item() ? value::ItemSize(resp.item().attributes()) : 0;
    FillConsumed(req.return_consumed_capacity(), req.table_name(), ReadUnits(size, req.consistent_read()),
                 resp.mutable_consumed_capacity());
  }
  if (projection && resp.has_item()) {
    auto projected = expr::Project(*projection, resp.item().attributes());
    *resp.mutable_item()->mutable_attributes() = std::move(projected);
  }
  return resp;
}

}  // namespace pogi::service
