// Checks shared by the single-item operations: the table name, the enums
// every write takes, and the expression parameters not yet supported.
#pragma once

#include <string>
#include <vector>

#include "service/expr/legacy.h"
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

// The member constraints inside a request's legacy parameters (Expected,
// AttributeUpdates, QueryFilter/ScanFilter, KeyConditions), listed with its
// other member constraints as DynamoDB lists them.
template <typename Request>
void CheckLegacyMembers(Constraints& c, const Request& req) {
  auto add = [&](std::vector<std::string> messages) {
    for (auto& m : messages) c.Add(std::move(m));
  };
  if constexpr (requires { req.expected(); }) {
    if (!req.expected().empty()) add(expr::ExpectedConstraints(req.expected()));
  }
  if constexpr (requires { req.attribute_updates(); }) {
    if (!req.attribute_updates().empty()) add(expr::UpdateConstraints(req.attribute_updates()));
  }
  if constexpr (requires { req.key_conditions(); }) {
    if (!req.key_conditions().empty()) add(expr::FilterConstraints(req.key_conditions(), "KeyConditions"));
  }
  if constexpr (requires { req.query_filter(); }) {
    if (!req.query_filter().empty()) add(expr::FilterConstraints(req.query_filter(), "QueryFilter"));
  }
  if constexpr (requires { req.scan_filter(); }) {
    if (!req.scan_filter().empty()) add(expr::FilterConstraints(req.scan_filter(), "ScanFilter"));
  }
}

// The member checks PutItem, UpdateItem and DeleteItem share: the table name,
// ReturnValues, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
// ReturnValuesOnConditionCheckFailure, ConditionalOperator and the legacy
// parameters' members.
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
  CheckLegacyMembers(c, req);
}

}  // namespace pogi::service
