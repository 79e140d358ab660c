// Validation and description of secondary index definitions, shared by
// CreateTable (GSIs and LSIs) and UpdateTable (a GSI created later).
#pragma once

#include <set>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

inline constexpr int kMaxGlobalIndexes = 20;
inline constexpr int kMaxLocalIndexes = 5;

// Member constraints of one index definition at `path`
// ("globalSecondaryIndexes.1.member"). A global index's KeySchema may hold
// up to eight elements (multi-attribute keys), a local index's two.
void CheckIndexMembers(Constraints& c, const std::string* name,
                       const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                       const v1::Projection* projection, const v1::ProvisionedThroughput* throughput,
                       const std::string& path, bool global);

// ProjectionType's enumeration at `path` ("….projection.projectionType").
void CheckProjectionType(Constraints& c, const std::string* type, const std::string& path);

// Every attribute of `key_schema` (a table's or an index's) is in
// `definitions`, else DynamoDB's error listing all the schema's keys, in
// schema order, and all the definitions, in request order.
Status CheckKeysDefined(const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                        const google::protobuf::RepeatedPtrField<v1::AttributeDefinition>& definitions);

// The rules of one index's key schema and projection. `defined` are the
// AttributeDefinitions' names; `table_key_schema` the table's. A global
// index may have up to four HASH elements followed by up to four RANGE
// elements (DynamoDB's multi-attribute keys); a local index has exactly the
// table's HASH attribute and one RANGE attribute.
Status CheckIndexSchema(const std::string& name,
                        const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                        const v1::Projection& projection, bool local,
                        const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& table_key_schema,
                        const google::protobuf::RepeatedPtrField<v1::AttributeDefinition>& definitions);

// Throughput rules of a GSI for the table's billing mode.
Status CheckIndexThroughput(const std::string& name, bool has_throughput, bool on_demand);

// ARN of an index of a table whose ARN is `table_arn`.
inline std::string IndexArn(const std::string& table_arn, const std::string& index) {
  return table_arn + "/index/" + index;
}

}  // namespace pogi::service
