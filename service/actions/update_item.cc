// UpdateItem: apply an update to one item (creating it when missing, as
// DynamoDB does, unless the update only removes), if the condition (if any)
// holds on the item as it was.
#include "service/engine/engine.h"
#include "service/expr/legacy.h"
#include "service/expr/path_tree.h"
#include "service/expr/projection.h"
#include "service/expr/update.h"
#include "service/validate/capacity.h"
#include "service/validate/item_request.h"
#include "service/validate/item_validation.h"
#include "service/validate/member_presence.h"
#include "service/validate/request_expressions.h"
#include "service/write/item_write.h"
#include "service/write/multi_item.h"

namespace pogi::service {

Result<v1::UpdateItemResponse> Engine::UpdateItem(const v1::UpdateItemRequest& req) {
  Constraints c;
  CheckWriteMembers(c, req);
  c.Required(req.has_key(), "key");
  POGI_RETURN_IF_ERROR(c.Finish());

  // DynamoDB's order: the mix of expression and legacy members, the key's
  // values, AttributeUpdates (values, then actions), Expected, the
  // expression checks, the table.
  ExpressionParams params;
  params.update = IfPresent(req.has_update_expression(), req.update_expression());
  params.condition = IfPresent(req.has_condition_expression(), req.condition_expression());
  SetSubstitutions(params, req);
  params.value_expressions = "UpdateExpression and ConditionExpression";
  // {} is present (behaviours.md V1).
  using R = v1::UpdateItemRequest;
  if (Sent(req, R::kAttributeUpdatesFieldNumber, req.attribute_updates_size()))
    params.legacy.push_back("AttributeUpdates");
  if (Sent(req, R::kExpectedFieldNumber, req.expected_size())) params.legacy.push_back("Expected");
  POGI_RETURN_IF_ERROR(CheckNotMixed(params));
  value::AttributeMap key_map = req.key().attributes();
  POGI_RETURN_IF_ERROR(ValidateAttributes(&key_map));
  // The legacy AttributeUpdates become the same Update; only some messages differ.
  bool legacy_update = !req.attribute_updates().empty();
  expr::Update update;
  if (legacy_update && !params.update) {
    POGI_ASSIGN_OR_RETURN(update, expr::ConvertAttributeUpdates(req.attribute_updates(), &CheckValue));
  }
  ParsedExpressions parsed;
  POGI_ASSIGN_OR_RETURN(auto condition, WriteCondition(req, params, parsed));
  if (parsed.update) update = std::move(*parsed.update);

  POGI_ASSIGN_OR_RETURN(auto table, FindTable(req.table_name()));
  POGI_ASSIGN_OR_RETURN(auto key, ValidateKey(*table, key_map));
  POGI_RETURN_IF_ERROR(CheckNoKeyUpdate(*table, update));

  // On a missing item, an update that only removes attributes (REMOVE, or
  // DELETE from sets) creates nothing, as DynamoDB does.
  bool only_removes =
      update.sets.empty() && update.adds.empty() && (!update.removes.empty() || !update.deletes.empty());
  std::vector<expr::Path> updated_paths;
  value::PathTree updated_tree;  // orders the new item's maps
  auto decide = [&](const value::AttributeMap* old,
                    std::optional<value::AttributeMap>*) -> Result<std::optional<value::AttributeMap>> {
    POGI_RETURN_IF_ERROR(CheckCondition(condition, old, req.return_values_on_condition_check_failure()));
    updated_paths.clear();
    if (!old && only_removes) return std::optional<value::AttributeMap>();
    value::AttributeMap item = old ? *old : key_map;
    POGI_RETURN_IF_ERROR(legacy_update ? expr::ApplyAttributeUpdates(update, &item, &updated_paths)
                                       : expr::Apply(update, &item, &updated_paths));
    if (value::ItemSize(item) > kMaxItemSize) {
      return Error::Validation("Item size to update has exceeded the maximum allowed size");
    }
    updated_tree = expr::PathTreeOf(updated_paths, value::PathTree::End::kWritten);
    return std::optional<value::AttributeMap>(std::move(item));
  };
  POGI_ASSIGN_OR_RETURN(auto change, ModifyItem(*storage_, catalog_, *table, key, decide,
                                                ChangeSource::kRequest, &updated_tree));

  v1::UpdateItemResponse resp;
  const std::string& rv = req.return_values();
  // The attributes answered, in the order UpdateItem answers them: the
  // whole item copied once more (value::InUpdateAnswerOrder); the updated
  // part rebuilt as a projection of the updated paths.
  auto answer = [&](std::string proto) {
    value::CarryAttributeMap(&resp, v1::UpdateItemResponse::kAttributesFieldNumber, proto);
  };
  auto updated_part = [&](const value::AttributeMap& item, std::string_view proto) {
    value::AttributeMap part = expr::ExtractPaths(updated_paths, item);
    value::PathTree copied = expr::PathTreeOf(updated_paths, value::PathTree::End::kCopied);
    if (!part.empty()) answer(value::ItemProto(part, value::EntryOrigin::Along(proto, &copied)));
  };
  if (rv == "ALL_OLD" && change.old_item) {
    answer(value::InUpdateAnswerOrder(change.old_proto));
  } else if (rv == "ALL_NEW" && change.new_item) {
    answer(value::InUpdateAnswerOrder(change.new_proto));
  } else if (rv == "UPDATED_OLD" && change.old_item) {
    updated_part(*change.old_item, change.old_proto);
  } else if (rv == "UPDATED_NEW" && change.new_item) {
    updated_part(*change.new_item, change.new_proto);
  }
  if (req.return_item_collection_metrics() == "SIZE" && change.new_item) {
    v1::ItemCollectionMetrics metrics;
    if (FillCollectionMetrics(*table, *change.new_item, &metrics))
      *resp.mutable_item_collection_metrics() = std::move(metrics);
  }
  if (WantsCapacity(req.return_consumed_capacity())) {
    int64_t size = std::max(change.old_item ? value::ItemSize(*change.old_item) : 0,
                            change.new_item ? value::ItemSize(*change.new_item) : 0);
    FillConsumed(req.return_consumed_capacity(), req.table_name(), WriteUnits(size), change.index_units,
                 resp.mutable_consumed_capacity());
  }
  return resp;
}

}  // namespace pogi::service
