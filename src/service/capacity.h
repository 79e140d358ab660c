// ConsumedCapacity as DynamoDB computes it: reads in 4 KB units (halved for
// eventually consistent reads), writes in 1 KB units, rounded up per item.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

double ReadUnits(int64_t item_bytes, bool consistent);
double WriteUnits(int64_t item_bytes);

// True when ReturnConsumedCapacity asks for a ConsumedCapacity (TOTAL or INDEXES).
bool WantsCapacity(const std::string& mode);
// Fills `out` with `units` charged to `table`, in the shape `mode` asks for.
void FillConsumed(const std::string& mode, const std::string& table, double units,
                  v1::ConsumedCapacity* out);

}  // namespace pogi::service
