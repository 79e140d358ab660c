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

  std::optional<std::string> stored;
  Status s = storage_->ReadPoint([&](storage::ReadTxn& txn) -> Status {
    std::optional<LaggedReadTxn> lagged;
    storage::ReadTxn& view = ReadView(txn, read_lag_, *table, !req.consistent_read(), lagged);
    POGI_ASSIGN_OR_RETURN(stored, view.GetItem(table->id, key));
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  // The item goes out as stored, its attributes in their order; decoded
  // only to be measured or projected.
  std::string_view proto;
  std::optional<v1::Item> item;
  if (stored) {
    POGI_ASSIGN_OR_RETURN(proto, value::StoredItemProto(*stored));
    if (WantsCapacity(req.return_consumed_capacity()) || projection) {
      POGI_ASSIGN_OR_RETURN(item, value::DecodeItem(*stored));
    }
  }
  v1::GetItemResponse resp;
  // Capacity is charged for the whole item, whatever the projection keeps.
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = item ? value::ItemSize(item->attributes()) : 0;
    FillConsumed(req.return_consumed_capacity(), req.table_name(), ReadUnits(size, req.consistent_read()),
                 resp.mutable_consumed_capacity());
  }
  if (stored) {
    value::CarryItem(
        &resp, v1::GetItemResponse::kItemFieldNumber,
        projection ? expr::ProjectedItemProto(*projection, item->attributes(), proto) : std::string(proto));
  }
  return resp;
}

}  // namespace pogi::service
