// DeleteItem: remove one item by its full primary key, if the condition (if
// any) holds.
#include "service/engine/engine.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/request_expressions.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"

namespace pogi::service {

Result<v1::DeleteItemResponse> Engine::DeleteItem(const v1::DeleteItemRequest& req) {
  Constraints c;
  CheckWriteMembers(c, req);
  c.Required(req.has_key(), "key");
  POGI_RETURN_IF_ERROR(c.Finish());
  // DynamoDB's order: the mix of expression and legacy members, the key's
  // values, ReturnValues, Expected, the expression checks, the table.
  ExpressionParams params = WriteConditionParams(req);
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  value::AttributeMap key_map = req.key().attributes();
  POGI_RETURN_IF_ERROR(ValidateAttributes(&key_map));
  if (req.has_return_values() && req.return_values() != "NONE" && req.return_values() != "ALL_OLD") {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  ParsedExpressions parsed;
  POGI_ASSIGN_OR_RETURN(auto condition, WriteCondition(req, params, parsed));
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*table, key_map));

  auto decide = [&](const value::AttributeMap* old,
                    std::optional<value::AttributeMap>*) -> Result<std::optional<value::AttributeMap>> {
    POGI_RETURN_IF_ERROR(CheckCondition(condition, old, req.return_values_on_condition_check_failure()));
    return std::optional<value::AttributeMap>();
  };
  POGI_ASSIGN_OR_RETURN(auto change, ModifyItem(*storage_, catalog_, *table, key, decide));
  v1::DeleteItemResponse resp;
  if (req.return_item_collection_metrics() == "SIZE") {
    v1::ItemCollectionMetrics metrics;
    if (FillCollectionMetrics(*table, key_map, &metrics))
      *resp.mutable_item_collection_metrics() = std::move(metrics);
  }
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = change.old_item ? value::ItemSize(*change.old_item) : 0;
    FillConsumed(req.return_consumed_capacity(), req.table_name(), WriteUnits(size), change.index_units,
                 resp.mutable_consumed_capacity());
  }
  if (req.return_values() == "ALL_OLD" && change.old_item) {
    value::CarryAttributeMap(&resp, v1::DeleteItemResponse::kAttributesFieldNumber,
                             change.old_proto);  // as stored
  }
  return resp;
}

}  // namespace pogi::service
