// GetItem: read one item by its full primary key.
#include "service/capacity.h"
#include "service/engine.h"
#include "service/item_request.h"
#include "service/item_validation.h"

namespace pogi::service {

Result<v1::GetItemResponse> Engine::GetItem(const v1::GetItemRequest& req) {
  Constraints c;
  CheckTableName(c, req.has_table_name() ? &req.table_name() : nullptr);
  c.Required(!req.key().empty(), "key");
  CheckReturnOptions(c, req.has_return_consumed_capacity() ? &req.return_consumed_capacity() : nullptr,
                     nullptr);
  POGI_RETURN_IF_ERROR(c.Finish());
  if (req.has_projection_expression() || req.attributes_to_get_size() > 0) {
    return Error::Validation("pogi does not support projections on GetItem yet");
  }
  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  value::AttributeMap key_map = req.key();
  POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*table, &key_map));

  v1::GetItemResponse resp;
  Status s = storage_->Read([&](storage::ReadTxn& txn) -> Status {
    POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetItem(table->id, key));
    if (!bytes) return Status::Ok();
    POGI_ASSIGN_OR_RETURN(*resp.mutable_item(), value::DecodeItem(*bytes));
    return Status::Ok();
  });
  POGI_RETURN_IF_ERROR(s);
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = resp.has_item() ? value::ItemSize(resp.item().attributes()) : 0;
    FillConsumed(req.return_consumed_capacity(), table->description.table_name(),
                 ReadUnits(size, req.consistent_read()), resp.mutable_consumed_capacity());
  }
  return resp;
}

}  // namespace pogi::service
