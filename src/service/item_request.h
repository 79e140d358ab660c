// Checks shared by the single-item operations: the table name, the enums
// every write takes, and the expression parameters not yet supported.
#pragma once

#include <string>

#include "service/constraints.h"

namespace pogi::service {

// ReturnConsumedCapacity and ReturnItemCollectionMetrics.
void CheckReturnOptions(Constraints& c, const std::string* consumed, const std::string* metrics);
// ReturnValues (enum only; which values an operation allows is its own rule).
void CheckReturnValues(Constraints& c, const std::string* return_values);

// ReturnValuesOnConditionCheckFailure.
void CheckReturnOnFailure(Constraints& c, const std::string* value);

}  // namespace pogi::service
