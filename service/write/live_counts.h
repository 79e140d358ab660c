// A table description's item counts and sizes, read live from storage.
#pragma once

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/core/catalog.h"
#include "storage/storage.h"

namespace pogi::service {

// Sets ItemCount and TableSizeBytes of `d`, and of each of its GSIs and LSIs,
// as `txn` sees them. Index counters are counted when asked for (DescribeTable
// and backups are rare; keeping them in the description would cost every write).
Status FillLiveCounts(storage::ReadTxn& txn, const Table& table, v1::TableDescription* d);

}  // namespace pogi::service
