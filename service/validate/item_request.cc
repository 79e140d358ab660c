// Shared member checks of the item operations.
#include "service/validate/item_request.h"

namespace pogi::service {

void CheckReturnOptions(Constraints& c, const std::string* consumed, const std::string* metrics) {
  c.OneOf(consumed, {"INDEXES", "TOTAL", "NONE"}, "returnConsumedCapacity");
  c.OneOf(metrics, {"SIZE", "NONE"}, "returnItemCollectionMetrics");
}

void CheckReturnValues(Constraints& c, const std::string* return_values) {
  // DynamoDB lists the enumeration in this order.
  c.OneOf(return_values, {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"}, "returnValues");
}

void CheckConditionalOperator(Constraints& c, const std::string* value) {
  c.OneOf(value, {"OR", "AND"}, "conditionalOperator");  // DynamoDB's order
}

void CheckReturnOnFailure(Constraints& c, const std::string* value, const std::string& prefix) {
  c.OneOf(value, {"ALL_OLD", "NONE"}, prefix + "returnValuesOnConditionCheckFailure");
}

}  // namespace pogi::service
