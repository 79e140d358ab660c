// PutItem: validate the item against the table's key schema and limits, then
// replace whatever item has its key, if the condition (if any) holds.
#include "service/engine/engine.h"
#include "service/expr/evaluator.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"

namespace pogi::service {

Result<v1::PutItemResponse> Engine::PutItem(const v1::PutItemRequest& req) {
  Constraints c;
  CheckWriteMembers(c, req);
  c.Required(req.has_item(), "item");
  POGI_RETURN_IF_ERROR(c.Finish());
  // DynamoDB's order: the mix of expression and legacy members, the item's
  // values, ReturnValues, Expected, the expression checks, the table.
  ExpressionParams params = WriteConditionParams(req);
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  value::AttributeMap item = req.item().attributes();
  POGI_RETURN_IF_ERROR(ValidateAttributes(&item));
  if (req.has_return_values() && req.return_values() != "NONE" && req.return_values() != "ALL_OLD") {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  ParsedExpressions parsed;
  POGI_ASSIGN_OR_RETURN(auto condition, WriteCondition(req, params, parsed));
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(auto key, ValidateItemForPut(*table, item));

  auto decide =
      [&](const value::AttributeMap* old,
          std::optional<value::AttributeMap>* previous) -> Result<std::optional<value::AttributeMap>> {
    POGI_RETURN_IF_ERROR(CheckCondition(condition, old, req.return_values_on_condition_check_failure()));
    // Moved, not copied: a run of the write again gets it back in `previous`.
    if (previous->has_value()) return std::move(*previous);
    return std::optional<value::AttributeMap>(std::move(item));
  };
  POGI_ASSIGN_OR_RETURN(auto change, ModifyItem(*storage_, catalog_, *table, key, decide));
  v1::PutItemResponse resp;
  if (req.return_item_collection_metrics() == "SIZE") {
    v1::ItemCollectionMetrics metrics;
    if (FillCollectionMetrics(*table, *change.new_item, &metrics))
      *resp.mutable_item_collection_metrics() = std::move(metrics);
  }
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size =
        std::max(change.old_item ? value::ItemSize(*change.old_item) : 0, value::ItemSize(*change.new_item));
    FillConsumed(req.return_consumed_capacity(), req.table_name(), WriteUnits(size), change.index_units,
                 resp.mutable_consumed_capacity());
  }
  if (req.return_values() == "ALL_OLD" && change.old_item) {
    value::CarryAttributeMap(&resp, v1::PutItemResponse::kAttributesFieldNumber,
                             change.old_proto);  // as stored
  }
  return resp;
}

}  // namespace pogi::service
