// Global tables version 2017.11.29 (legacy API): the checks of its
// requests, and the rules a table must meet to be a member of a legacy
// global table (DynamoDB's developer guide, "Best practices and
// requirements for managing global tables": the same name and key schema,
// DynamoDB Streams with NEW_AND_OLD_IMAGES, empty, global secondary indexes
// of the same names and keys, the same write capacity settings).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

// Member constraints of each request, reported together as DynamoDB does.
Status CheckCreateGlobalTableMembers(const v1::CreateGlobalTableRequest& req);
Status CheckUpdateGlobalTableMembers(const v1::UpdateGlobalTableRequest& req);
// DescribeGlobalTable and DescribeGlobalTableSettings: GlobalTableName.
Status CheckGlobalTableNameMember(const std::string* name);
Status CheckListGlobalTablesMembers(const v1::ListGlobalTablesRequest& req);
Status CheckUpdateGlobalTableSettingsMembers(const v1::UpdateGlobalTableSettingsRequest& req);

// The regions of a ReplicationGroup: each a region name, none twice.
Status CheckReplicationGroup(const std::vector<std::string>& regions);
// The regions of UpdateGlobalTable's ReplicaUpdates, each update Create or
// Delete (not both), each a region name, no region twice; the regions
// added and removed, in order.
Status CheckReplicaUpdates(const v1::UpdateGlobalTableRequest& req, std::vector<std::string>* create,
                           std::vector<std::string>* remove);

// Whether `candidate` (the table of `region`) may join a legacy global table
// whose members are like `model` (null: it is the first): a NEW_AND_OLD_IMAGES
// stream, and, against the model, the same key schema, global secondary
// indexes of the same names and keys, and the same billing mode and write
// capacity units (the table's and each index's).
Status CheckLegacyMember(const v1::TableDescription& candidate, const std::string& region,
                         const v1::TableDescription* model);

}  // namespace pogi::service
