// Where a table's auto scaling settings are kept (validate/auto_scaling.h
// checks and merges them): per table, under its TableId (never used
// again, unlike the storage id), as a serialized ReplicaAutoScalingDescription
// holding the table's read and write settings and each global secondary
// index's, in storage's shared values so that every process sharing a
// database sees the same. pogi's own state, never shown as stored: the
// actions build DynamoDB's answers from it.
#pragma once

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "storage/storage.h"

namespace pogi::service {

// The settings kept for the table described by `table` (empty when none
// were ever set).
Result<v1::ReplicaAutoScalingDescription> ReadAutoScaling(storage::ReadTxn& txn,
                                                          const v1::TableDescription& table);
Status WriteAutoScaling(storage::WriteTxn& txn, const v1::TableDescription& table,
                        const v1::ReplicaAutoScalingDescription& settings);

// The entry for index `name` in `settings`, added when missing.
v1::ReplicaGlobalSecondaryIndexAutoScalingDescription* AutoScalingOfIndex(
    v1::ReplicaAutoScalingDescription& settings, const std::string& name);

}  // namespace pogi::service
