// Checks shared by the single-item operations: the table name, the enums
// every write takes, and the expression parameters not yet supported.
#pragma once

#include <string>

#include "service/validate/constraints.h"

namespace pogi::service {

// ReturnConsumedCapacity and ReturnItemCollectionMetrics.
void CheckReturnOptions(Constraints& c, const std::string* consumed, const std::string* metrics);
// ReturnValues (enum only; which values an operation allows is its own rule).
void CheckReturnValues(Constraints& c, const std::string* return_values);

// ConditionalOperator (OR or AND).
void CheckConditionalOperator(Constraints& c, const std::string* value);

// ReturnValuesOnConditionCheckFailure; `prefix` is the member path of its
// structure ("statements.1.member.") for a member of a list element.
void CheckReturnOnFailure(Constraints& c, const std::string* value, const std::string& prefix = "");

// The member checks PutItem, UpdateItem and DeleteItem share: the table name,
// ReturnValues, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
// ReturnValuesOnConditionCheckFailure and ConditionalOperator.
template <typename Request>
void CheckWriteMembers(Constraints& c, const Request& req) {
  auto present = [](bool has, const std::string& v) { return has ? &v : nullptr; };
  CheckItemTableName(c, present(req.has_table_name(), req.table_name()));
  CheckReturnValues(c, present(req.has_return_values(), req.return_values()));
  CheckReturnOptions(c, present(req.has_return_consumed_capacity(), req.return_consumed_capacity()),
                     present(req.has_return_item_collection_metrics(), req.return_item_collection_metrics()));
  CheckReturnOnFailure(c, present(req.has_return_values_on_condition_check_failure(),
                                  req.return_values_on_condition_check_failure()));
  CheckConditionalOperator(c, present(req.has_conditional_operator(), req.conditional_operator()));
}

}  // namespace pogi::service
