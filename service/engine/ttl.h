// Time to Live: which values of a table's TTL attribute mark an item as
// expired at a given clock time.
#pragma once

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

// DynamoDB deletes an item whose TTL attribute is a Number of epoch seconds
// at or before now; other types, and times more than five years in the
// past, are ignored (DynamoDB's TTL documentation).
bool IsExpired(const v1::AttributeValue& value, double now);

}  // namespace pogi::service
