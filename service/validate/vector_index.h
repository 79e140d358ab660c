// Validation of vector index definitions, with DynamoDB's messages:
// CreateTable's VectorIndexes, UpdateTable's VectorIndexUpdates and a
// restore's VectorIndexOverride. CreateTable and UpdateTable call these at
// the point DynamoDB checks them.
#pragma once

#include <set>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

// DynamoDB's limits on vector indexes.
inline constexpr int kMaxVectorIndexes = 5;
inline constexpr int kMaxVectorInlineFilters = 18;

// Member constraints of one vector index definition at `path`
// ("vectorIndexes.1.member").
void CheckVectorIndexMembers(Constraints& c, const v1::VectorIndex& v, const std::string& path);
// Member constraints of an UpdateTable's VectorIndexUpdates.
void CheckVectorIndexUpdateMembers(Constraints& c,
                                   const google::protobuf::RepeatedPtrField<v1::VectorIndexUpdate>& updates);

// CreateTable's rules for its VectorIndexes: the billing mode, their
// number, and each definition against the request's key schema and
// AttributeDefinitions. `index_names` are the names its secondary indexes
// took. Checked after the secondary indexes, before the rule that every
// AttributeDefinition is used (SearchSchema attributes count as used).
Status CheckVectorIndexes(const v1::CreateTableRequest& req, const std::set<std::string>& index_names);

// UpdateTable's shape rules for VectorIndexUpdates, before the table is
// read: one action per update, names given once. Adds the creates and
// deletes to `online_changes` (DynamoDB allows one per request, with the
// secondary indexes').
Status CheckVectorIndexUpdates(const google::protobuf::RepeatedPtrField<v1::VectorIndexUpdate>& updates,
                               int* online_changes);

// One index UpdateTable adds to the table described by `table`: the rules
// of a definition against the request's AttributeDefinitions (the only ones
// a new index's SearchSchema may use) and the table's keys and vector
// indexes.
Status CheckVectorIndexCreate(const v1::VectorIndex& v, const v1::TableDescription& table,
                              const google::protobuf::RepeatedPtrField<v1::AttributeDefinition>& definitions,
                              bool on_demand);

// DynamoDB's refusal of a vector index on a table that is not on demand.
Error VectorIndexNeedsOnDemand();

// A restore's VectorIndexOverride: each named index must be one of the
// source's, defined as it was (pogi's words: DynamoDB's are not on record).
Status CheckVectorIndexOverride(const google::protobuf::RepeatedPtrField<v1::VectorIndex>& overrides,
                                const v1::TableDescription& source);

// The stored description of a new vector index of the table `table_arn`.
v1::VectorIndexDescription DescribeNewVectorIndex(const v1::VectorIndex& v, const std::string& table_arn);

}  // namespace pogi::service
