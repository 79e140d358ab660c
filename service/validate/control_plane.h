// What the control-plane operations share: the account pogi answers as,
// table ARNs (service/core/region.h), tag checks, and the parts of CreateTable that
// restores reuse.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/control_state.pb.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

// The region a new table is made in: the home one, or under
// --strict-regions the request's (service/core/region.h).
const std::string& NewTableRegion();

// "arn:aws:dynamodb:REGION:ACCOUNT:table/NAME" (ACCOUNT: AccountId()), REGION `region` or
// (empty) NewTableRegion().
std::string TableArnOf(std::string_view table_name, std::string_view region = {});

// The description of a copy in `region` of the table `source` describes (a
// global table's new replica or legacy member): the same schema, indexes and
// settings under its own ARN, index ARNs and TableId, ACTIVE, created `now`,
// empty, with no stream yet and no transient state.
v1::TableDescription TableDescriptionInRegion(const v1::TableDescription& source, const std::string& region,
                                              double now);

// The table name of a table ARN of pogi's account (any region), or nullopt.
std::optional<std::string> TableNameOfArn(std::string_view arn);

// A request's TableName (after CheckTableNameOrArn): a table ARN of pogi's
// account stands for its name (Catalog::FindNamed then looks in the ARN's
// region); a table ARN of another account comes back unchanged, so it names
// no table here and the caller answers its own not-found error, as DynamoDB
// does for a table it cannot see; any other ARN (an index's, a stream's, a
// backup's, or not a DynamoDB ARN) is a ValidationException.
Result<std::string> ResolveTableName(const std::string& name_or_arn);

// A control-plane operation's TableName (CreateTable, DeleteTable,
// DescribeTable, DescribeTimeToLive, UpdateTable), absent: "The parameter
// 'TableName' is required but was not present in the request", before any
// member constraint. The item operations keep the list form ("Value null at
// 'tableName' …").
Status CheckTableNamePresent(bool present);

// CreateTable's validation and description, without storing anything
// (service/actions/create_table.cc).
Result<v1::TableDescription> NewTableDescription(const v1::CreateTableRequest& req, double now);
// The two halves of NewTableDescription, for a request that holds a table's
// parameters among its own members (ImportTable's TableCreationParameters):
// CreateTable's member constraints, into `c` (whose prefix names where the
// parameters sit), then the rules between the members and the description.
void CheckCreateTableMembers(Constraints& c, const v1::CreateTableRequest& req);
Result<v1::TableDescription> NewTableDescriptionOfChecked(const v1::CreateTableRequest& req, double now);

// CreateTable's Tags (and ResourcePolicy), their member constraints already
// checked, held to the rules beyond those and put into `settings`.
Status TagsForNewTable(const v1::CreateTableRequest& req, double now, v1::TableSettings* settings);

// Member constraints of a tag list at `path` ("tags").
void CheckTagMembers(Constraints& c, const google::protobuf::RepeatedPtrField<v1::Tag>& tags,
                     std::string_view path);
// The rules beyond member constraints: the reserved prefix, and at most 50
// tags once `tags` are merged into `existing`.
Status MergeTags(const google::protobuf::RepeatedPtrField<v1::Tag>& tags,
                 google::protobuf::RepeatedPtrField<v1::Tag>* existing);

// The checks of a ResourceArn (tags, policies) after the member constraints:
// present, and shaped like an ARN at all (else the access denial DynamoDB
// answers for `op`).
Status CheckArnForm(const std::string* arn, std::string_view op);

// The length constraint of every ResourceArn member (1 to this many characters).
inline constexpr size_t kMaxResourceArnLength = 1283;

// DynamoDB's per-table limit of tags.
inline constexpr int kMaxTags = 50;

}  // namespace pogi::service
