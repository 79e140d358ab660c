// StreamSpecification on CreateTable and UpdateTable: DynamoDB's rules for
// it, and the change it makes to a table's description and its streams.
#pragma once

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/streams/streams.h"
#include "service/validate/constraints.h"
#include "storage/storage.h"

namespace pogi::service {

// The member constraints of `spec` at `path` ("streamSpecification").
void CheckStreamMembers(Constraints& c, const v1::StreamSpecification& spec, std::string_view path);
// The rules of a specification in itself; `creating` for CreateTable.
Status CheckStreamSpecification(const v1::StreamSpecification& spec, bool creating);

// Inside the table's write: enables or disables the stream of the table
// described by `d` (storage id `table_id`), updating `d`. Enabling twice,
// or disabling a table without a stream, is refused as DynamoDB does.
Status ApplyStreamSpecification(Streams& streams, storage::WriteTxn& txn, int64_t table_id,
                                const v1::StreamSpecification& spec, v1::TableDescription* d);

}  // namespace pogi::service
