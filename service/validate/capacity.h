// ConsumedCapacity as DynamoDB computes it: reads in 4 KB units (halved for
// eventually consistent reads), writes in 1 KB units, rounded up per item.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

double ReadUnits(int64_t item_bytes, bool consistent);
double WriteUnits(int64_t item_bytes);

// True when ReturnConsumedCapacity asks for a ConsumedCapacity (TOTAL or INDEXES).
bool WantsCapacity(const std::string& mode);
// Fills `out` with `units` charged to `table`, in the shape `mode` asks for.
void FillConsumed(const std::string& mode, const std::string& table, double units, v1::ConsumedCapacity* out);

// Units charged to one secondary index, or bytes to one vector index.
struct IndexCapacity {
  std::string name;
  bool global = true;
  double units = 0;
  // A vector index's VectorWriteRequestBytes (units stay 0); -1: not one.
  int64_t vector_bytes = -1;
};

// DynamoDB's floor on the bytes a request is charged on a vector index.
inline constexpr int64_t kMinVectorRequestBytes = 1024;

// As above, with units charged to indexes too: CapacityUnits is the sum, and
// INDEXES breaks it down (Table only when `table_units` is charged; vector
// indexes' bytes under VectorIndexes, apart from the units).
void FillConsumed(const std::string& mode, const std::string& table, std::optional<double> table_units,
                  const std::vector<IndexCapacity>& indexes, v1::ConsumedCapacity* out);

// A read from a secondary index: `index.units` under the index and
// `table_units` under Table, which INDEXES always shows (0 unless a local
// index fetched items from the table, charged on their summed size).
void FillIndexReadConsumed(const std::string& mode, const std::string& table, const IndexCapacity& index,
                           double table_units, v1::ConsumedCapacity* out);

}  // namespace pogi::service
