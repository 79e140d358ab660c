// PutItem: validate the item against the table's key schema and limits, then
// replace whatever item has its key.
#include "service/capacity.h"
#include "service/engine.h"
#include "service/item_request.h"
#include "service/item_validation.h"
#include "service/item_write.h"

namespace pogi::service {

Result<v1::PutItemResponse> Engine::PutItem(const v1::PutItemRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(!req.item().empty(), "item");
  CheckReturnValues(c, req.has_return_values() ? &req.return_values() : nullptr);
  CheckReturnOptions(c, req.has_return_consumed_capacity() ? &req.return_consumed_capacity() : nullptr,
                     req.has_return_item_collection_metrics() ? &req.return_item_collection_metrics() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  if (req.has_return_values() && req.return_values() != "NONE" && req.return_values() != "ALL_OLD") {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  if (req.has_condition_expression() || !req.expected().empty()) {
    return Error::Validation("pogi does not support conditional PutItem yet");
  }
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  value::AttributeMap item = req.item();
  POGI_ASSIGN_OR_RETURN(auto key, ValidateItemForPut(*table, &item));

  POGI_ASSIGN_OR_RETURN(auto change, ModifyItem(*storage_, *table, key,
                                                [&](const value::AttributeMap*) {
                                                  return Result<std::optional<value::AttributeMap>>(std::move(item));
                                                }));
  v1::PutItemResponse resp;
  if (req.return_values() == "ALL_OLD" && change.old_item) {
    *resp.mutable_attributes() = std::move(*change.old_item);
  }
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = std::max(change.old_item ? value::ItemSize(*change.old_item) : 0,
                            value::ItemSize(*change.new_item));
    FillConsumed(req.return_consumed_capacity(), table->description.table_name(), WriteUnits(size),
                 resp.mutable_consumed_capacity());
  }
  return resp;
}

}  // namespace pogi::service
