// Validation and description of secondary index definitions, shared by
// CreateTable (GSIs and LSIs) and UpdateTable (a GSI created later).
#pragma once

#include <set>
#include <string>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"
#include "service/validate/member_presence.h"

namespace pogi::service {

inline constexpr int kMaxGlobalIndexes = 20;
inline constexpr int kMaxLocalIndexes = 5;

// How DynamoDB shows a KeySchema list in a constraint message:
// "[KeySchemaElement(attributeName=a, keyType=HASH), ...]", "[]" when empty.
std::string RenderKeySchema(const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema);

// Member constraints of one index definition at `path`
// ("globalSecondaryIndexes.1.member"). A global index's KeySchema may hold
// up to eight elements (multi-attribute keys), a local index's two;
// `key_schema_sent`: whether the request had a KeySchema at all (absent is
// null, [] is too short; see member_presence.h). An index's key types are not
// held to the enumeration here, as DynamoDB's 2020 record shows: a wrong one
// is "not a HASH key type" later. A given ProvisionedThroughput needs both
// units.
void CheckIndexMembers(Constraints& c, const std::string* name,
                       const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                       bool key_schema_sent, const v1::Projection* projection,
                       const v1::ProvisionedThroughput* throughput, const std::string& path, bool global);

// Whether `index` (any of the index shapes) was sent with a KeySchema.
template <typename Index>
bool KeySchemaSent(const Index& index) {
  return Sent(index, Index::kKeySchemaFieldNumber, index.key_schema_size());
}

// ProjectionType's enumeration at `path` ("….projection.projectionType").
void CheckProjectionType(Constraints& c, const std::string* type, const std::string& path);

// Every attribute of `key_schema` (a table's or an index's) is in
// `definitions`, else DynamoDB's error listing all the schema's keys, in
// schema order, and all the definitions, in request order.
Status CheckKeysDefined(const google::protobuf::RepeatedPtrField<v1::KeySchemaElement>& key_schema,
                        const google::protobuf::RepeatedPtrField<v1::AttributeDefinition>& definitions);

// The rules of one index's key schema and projection, in DynamoDB's order
// (behaviours.md O9): keys not defined, the same name twice, the first
// element not HASH, then a local index's second element not RANGE, its
// missing range key and its leading hash key (a global index's
// multi-attribute rules instead), then the projection: no type, NonKeyAttributes
// with a type other than INCLUDE, duplicates among them. `definitions` are the
// request's AttributeDefinitions; `table_key_schema` the table's. A global
// index may have up to four HASH elements followed by up to four RANGE
// elements (DynamoDB's multi-attribute keys); a local index has exactly the
// table's HASH attribute and one RANGE attribute (that the table has a range
// key at all is the caller's check, made once before the indexes).
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
