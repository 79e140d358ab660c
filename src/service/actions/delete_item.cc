// DeleteItem: remove one item by its full primary key.
#include "service/capacity.h"
#include "service/engine.h"
#include "service/item_request.h"
#include "service/item_validation.h"
#include "service/item_write.h"

namespace pogi::service {

Result<v1::DeleteItemResponse> Engine::DeleteItem(const v1::DeleteItemRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(!req.key().empty(), "key");
  CheckReturnValues(c, req.has_return_values() ? &req.return_values() : nullptr);
  CheckReturnOptions(c, req.has_return_consumed_capacity() ? &req.return_consumed_capacity() : nullptr,
                     req.has_return_item_collection_metrics() ? &req.return_item_collection_metrics() : nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  if (req.has_return_values() && req.return_values() != "NONE" && req.return_values() != "ALL_OLD") {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  if (req.has_condition_expression() || !req.expected().empty()) {
    return Error::Validation("pogi does not support conditional DeleteItem yet");
  }
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  value::AttributeMap key_map = req.key();
  POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*table, &key_map));

  POGI_ASSIGN_OR_RETURN(auto change, ModifyItem(*storage_, *table, key, [](const value::AttributeMap*) {
                          return Result<std::optional<value::AttributeMap>>(std::nullopt);
                        }));
  v1::DeleteItemResponse resp;
  if (req.return_values() == "ALL_OLD" && change.old_item) {
    *resp.mutable_attributes() = std::move(*change.old_item);
  }
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = change.old_item ? value::ItemSize(*change.old_item) : 0;
    FillConsumed(req.return_consumed_capacity(), table->description.table_name(), WriteUnits(size),
                 resp.mutable_consumed_capacity());
  }
  return resp;
}

}  // namespace pogi::service
