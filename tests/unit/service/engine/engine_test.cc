// Tests for service::Engine over in-memory storage: CreateTable's validations
// with DynamoDB's messages, Describe/List/Delete of tables, and PutItem,
// GetItem, DeleteItem with ReturnValues and ReturnConsumedCapacity.
#include "service/engine/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "service/validate/constraints.h"
#include "service/validate/member_presence.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

constexpr char kOne[] = "1 validation error detected: ";

using test::N;
using test::S;

std::unique_ptr<Engine> OpenEngine() {
  storage::Options options;
  options.in_memory = true;
  auto r = Engine::Open(options, std::make_shared<SystemClock>());
  EXPECT_TRUE(r.ok()) << r.error().message();
  return r.ok() ? std::move(r).value() : nullptr;
}

// A valid provisioned CreateTable request; `range` adds a numeric sort key.
v1::CreateTableRequest TableRequest(const std::string& name, bool range = false) {
  v1::CreateTableRequest req;
  req.set_table_name(name);
  auto* pk = req.add_attribute_definitions();
  pk->set_attribute_name("pk");
  pk->set_attribute_type("S");
  auto* hk = req.add_key_schema();
  hk->set_attribute_name("pk");
  hk->set_key_type("HASH");
  if (range) {
    auto* sk = req.add_attribute_definitions();
    sk->set_attribute_name("sk");
    sk->set_attribute_type("N");
    auto* rk = req.add_key_schema();
    rk->set_attribute_name("sk");
    rk->set_key_type("RANGE");
  }
  req.mutable_provisioned_throughput()->set_read_capacity_units(5);
  req.mutable_provisioned_throughput()->set_write_capacity_units(5);
  return req;
}

void AddKey(v1::CreateTableRequest* req, const std::string& name, const std::string& type) {
  auto* k = req->add_key_schema();
  k->set_attribute_name(name);
  k->set_key_type(type);
}
void AddDef(v1::CreateTableRequest* req, const std::string& name, const std::string& type) {
  auto* a = req->add_attribute_definitions();
  a->set_attribute_name(name);
  a->set_attribute_type(type);
}

// The error of a failed call; fails the test if it succeeded.
template <typename R>
Error ErrorOf(const Result<R>& r) {
  EXPECT_FALSE(r.ok()) << "succeeded";
  return r.ok() ? Error::Internal("(succeeded)") : r.error();
}

// The ValidationException message of CreateTable(req), or "(ok)".
std::string CreateError(Engine& e, const v1::CreateTableRequest& req) {
  auto r = e.CreateTable(req);
  if (r.ok()) return "(ok)";
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation) << r.error().message();
  return r.error().message();
}

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = OpenEngine();
    ASSERT_TRUE(engine_);
  }

  void Create(const std::string& name, bool range = false) {
    auto r = engine_->CreateTable(TableRequest(name, range));
    ASSERT_TRUE(r.ok()) << r.error().message();
  }

  Result<v1::PutItemResponse> Put(const std::string& table, std::vector<std::pair<std::string, V>> item,
                                  const std::string& return_values = "", const std::string& capacity = "") {
    v1::PutItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : item) (*req.mutable_item()->mutable_attributes())[k] = v;
    if (!return_values.empty()) req.set_return_values(return_values);
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    return engine_->PutItem(req);
  }

  Result<v1::GetItemResponse> Get(const std::string& table, std::vector<std::pair<std::string, V>> key,
                                  const std::string& capacity = "", bool consistent = false) {
    v1::GetItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : key) (*req.mutable_key()->mutable_attributes())[k] = v;
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    if (consistent) req.set_consistent_read(true);
    return engine_->GetItem(req);
  }

  Result<v1::DeleteItemResponse> Delete(const std::string& table, std::vector<std::pair<std::string, V>> key,
                                        const std::string& return_values = "",
                                        const std::string& capacity = "") {
    v1::DeleteItemRequest req;
    req.set_table_name(table);
    for (auto& [k, v] : key) (*req.mutable_key()->mutable_attributes())[k] = v;
    if (!return_values.empty()) req.set_return_values(return_values);
    if (!capacity.empty()) req.set_return_consumed_capacity(capacity);
    return engine_->DeleteItem(req);
  }

  v1::TableDescription Describe(const std::string& name) {
    v1::DescribeTableRequest req;
    req.set_table_name(name);
    auto r = engine_->DescribeTable(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->table() : v1::TableDescription();
  }

  std::vector<std::string> List(std::optional<int64_t> limit = std::nullopt, const std::string& start = "",
                                std::string* last = nullptr) {
    v1::ListTablesRequest req;
    if (limit) req.set_limit(*limit);
    if (!start.empty()) req.set_exclusive_start_table_name(start);
    auto r = engine_->ListTables(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    if (!r.ok()) return {};
    if (last) *last = r->has_last_evaluated_table_name() ? r->last_evaluated_table_name() : "(none)";
    return {r->table_names().begin(), r->table_names().end()};
  }

  std::unique_ptr<Engine> engine_;
};

// ---------------------------------------------------------------- CreateTable: member constraints

// A missing TableName wins over every member constraint (today's DynamoDB).
TEST_F(EngineTest, CreateTableWithoutTableName) {
  EXPECT_EQ(CreateError(*engine_, v1::CreateTableRequest()),
            "The parameter 'TableName' is required but was not present in the request");
}

// An absent list is null; one the JSON reader saw sent as [] (marked, see
// member_presence.h) is too short, except AttributeDefinitions, which has no
// bound and fails later on the keys it does not define.
TEST_F(EngineTest, CreateTableAbsentAndEmptyLists) {
  v1::CreateTableRequest req;
  req.set_table_name("tbl");
  EXPECT_EQ(CreateError(*engine_, req),
            "2 validation errors detected: "
            "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null; "
            "Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
  MarkSentEmpty(&req, v1::CreateTableRequest::kKeySchemaFieldNumber);
  MarkSentEmpty(&req, v1::CreateTableRequest::kAttributeDefinitionsFieldNumber);
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater "
                "than or equal to 1");

  req = TableRequest("tbl");
  req.clear_attribute_definitions();
  MarkSentEmpty(&req, v1::CreateTableRequest::kAttributeDefinitionsFieldNumber);
  EXPECT_EQ(CreateError(*engine_, req), "Invalid KeySchema: Some index key attribute have no definition");
}

// behaviours.md O8: billing first, then the table's keys in a fixed order.
TEST_F(EngineTest, CreateTableTableLevelOrder) {
  auto req = TableRequest("tbl");
  req.mutable_key_schema(0)->set_key_type("RANGE");
  req.mutable_attribute_definitions(0)->set_attribute_name("other");
  req.mutable_provisioned_throughput()->set_read_capacity_units(kMaxCapacityUnits + 1);
  EXPECT_EQ(CreateError(*engine_, req), "Given value 1000000000001 for ReadCapacityUnits is out of bounds");
  req.mutable_provisioned_throughput()->set_read_capacity_units(1);
  // A key not defined beats the first key's type.
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]");
  // The same name twice beats the first key's type.
  req = TableRequest("tbl");
  req.mutable_key_schema(0)->set_key_type("RANGE");
  AddKey(&req, "pk", "RANGE");
  AddDef(&req, "x", "S");
  EXPECT_EQ(CreateError(*engine_, req),
            "Both the Hash Key and the Range Key element in the KeySchema have the same name");
}

// behaviours.md V1, O9: an empty index list, then the table's range key,
// before any index's own rules; then per index, keys before types.
TEST_F(EngineTest, CreateTableIndexLevelOrder) {
  auto req = TableRequest("tbl");
  MarkSentEmpty(&req, v1::CreateTableRequest::kLocalSecondaryIndexesFieldNumber);
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
  req = TableRequest("tbl");
  MarkSentEmpty(&req, v1::CreateTableRequest::kGlobalSecondaryIndexesFieldNumber);
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");

  req = TableRequest("tbl");
  auto* l = req.add_local_secondary_indexes();
  l->set_index_name("lsi");
  for (auto [name, type] : {std::pair{"zz", "RANGE"}, std::pair{"yy", "BOGUS"}}) {
    auto* k = l->add_key_schema();
    k->set_attribute_name(name);
    k->set_key_type(type);
  }
  l->mutable_projection()->set_projection_type("ALL");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Table KeySchema does not have a range key, which is "
            "required when specifying a LocalSecondaryIndex");
  req.clear_key_schema();
  AddKey(&req, "pk", "HASH");
  AddKey(&req, "zz", "RANGE");
  AddDef(&req, "zz", "S");
  AddDef(&req, "yy", "S");
  // No enumeration for an index's key types: the first is not HASH.
  EXPECT_EQ(CreateError(*engine_, req),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  l->mutable_key_schema(0)->set_key_type("HASH");
  EXPECT_EQ(CreateError(*engine_, req),
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  l->mutable_key_schema(1)->set_key_type("RANGE");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Index KeySchema does not have the same leading hash "
            "key as table KeySchema for index: lsi. index hash key: zz, table hash key: pk");
}

TEST_F(EngineTest, CreateTableGlobalIndexThroughput) {
  auto req = TableRequest("tbl");
  AddDef(&req, "g", "S");
  auto* g = req.add_global_secondary_indexes();
  g->set_index_name("gsi");
  auto* k = g->add_key_schema();
  k->set_attribute_name("g");
  k->set_key_type("HASH");
  g->mutable_projection()->set_projection_type("ALL");
  EXPECT_EQ(
      CreateError(*engine_, req),
      "One or more parameter values were invalid: ProvisionedThroughput is not specified for index: gsi");
  g->mutable_provisioned_throughput();
  EXPECT_EQ(
      CreateError(*engine_, req),
      "2 validation errors detected: "
      "Value null at 'globalSecondaryIndexes.1.member.provisionedThroughput.readCapacityUnits' failed to "
      "satisfy constraint: Member must not be null; "
      "Value null at 'globalSecondaryIndexes.1.member.provisionedThroughput.writeCapacityUnits' failed "
      "to satisfy constraint: Member must not be null");
}

TEST_F(EngineTest, CreateTableNameConstraints) {
  auto req = TableRequest("ab");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length "
                "greater than or equal to 3");
  req.set_table_name("bad name");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value 'bad name' at 'tableName' failed to satisfy constraint: Member must "
                "satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  req.set_table_name(std::string(256, 'a'));
  EXPECT_EQ(
      CreateError(*engine_, req),
      std::string(kOne) + "Value '" + std::string(256, 'a') +
          "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255");
  req.set_table_name(std::string(255, 'a'));
  EXPECT_EQ(CreateError(*engine_, req), "(ok)");
}

TEST_F(EngineTest, CreateTableKeySchemaConstraints) {
  auto req = TableRequest("tbl");
  AddKey(&req, "b", "RANGE");
  AddKey(&req, "c", "RANGE");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value '[KeySchemaElement(attributeName=pk, keyType=HASH), KeySchemaElement(attributeName=b, "
                "keyType=RANGE), KeySchemaElement(attributeName=c, keyType=RANGE)]' at 'keySchema' failed to "
                "satisfy constraint: Member must have length less than or equal to 2");

  req = TableRequest("tbl");
  req.mutable_key_schema(0)->clear_attribute_name();
  req.mutable_key_schema(0)->set_key_type("PRIMARY");
  EXPECT_EQ(
      CreateError(*engine_, req),
      "2 validation errors detected: "
      "Value null at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must not be "
      "null; "
      "Value 'PRIMARY' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy "
      "enum value set: [HASH, RANGE]");

  req = TableRequest("tbl");
  req.mutable_key_schema(0)->clear_key_type();
  req.mutable_key_schema(0)->set_attribute_name(std::string(256, 'k'));
  EXPECT_EQ(
      CreateError(*engine_, req),
      "2 validation errors detected: "
      "Value '" +
          std::string(256, 'k') +
          "' at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must have length "
          "less than or equal to 255; "
          "Value null at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must not be null");

  req = TableRequest("tbl");
  req.mutable_key_schema(0)->set_attribute_name("");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value '' at 'keySchema.1.member.attributeName' failed to satisfy constraint: "
                "Member must have length greater than or equal to 1");
}

TEST_F(EngineTest, CreateTableAttributeDefinitionConstraints) {
  auto req = TableRequest("tbl");
  req.mutable_attribute_definitions(0)->set_attribute_type("STRING");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value 'STRING' at 'attributeDefinitions.1.member.attributeType' failed to "
                "satisfy constraint: Member must satisfy enum value set: [B, N, S]");
  req = TableRequest("tbl");
  req.mutable_attribute_definitions(0)->clear_attribute_name();
  req.mutable_attribute_definitions(0)->clear_attribute_type();
  EXPECT_EQ(
      CreateError(*engine_, req),
      "2 validation errors detected: "
      "Value null at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member "
      "must not be null; "
      "Value null at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member "
      "must not be null");
}

TEST_F(EngineTest, CreateTableBillingAndThroughputConstraints) {
  auto req = TableRequest("tbl");
  req.set_billing_mode("ON_DEMAND");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value 'ON_DEMAND' at 'billingMode' failed to satisfy constraint: Member must "
                "satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  req = TableRequest("tbl");
  req.mutable_provisioned_throughput()->clear_read_capacity_units();
  req.mutable_provisioned_throughput()->set_write_capacity_units(0);
  EXPECT_EQ(
      CreateError(*engine_, req),
      "2 validation errors detected: "
      "Value null at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must "
      "not be null; "
      "Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must "
      "have value greater than or equal to 1");
  req = TableRequest("tbl");
  req.set_table_class("COLD");
  EXPECT_EQ(CreateError(*engine_, req),
            std::string(kOne) +
                "Value 'COLD' at 'tableClass' failed to satisfy constraint: Member must satisfy "
                "enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]");
}

// ---------------------------------------------------------------- CreateTable: schema rules

TEST_F(EngineTest, CreateTableDuplicateAttributeDefinition) {
  auto req = TableRequest("tbl");
  AddDef(&req, "pk", "N");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Duplicate AttributeName in AttributeDefinitions: pk");
}

TEST_F(EngineTest, CreateTableKeyOrder) {
  v1::CreateTableRequest req = TableRequest("tbl", /*range=*/true);
  req.mutable_key_schema()->SwapElements(0, 1);
  EXPECT_EQ(CreateError(*engine_, req),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");

  req = TableRequest("tbl", true);
  req.mutable_key_schema(1)->set_key_type("HASH");
  EXPECT_EQ(CreateError(*engine_, req),
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");

  req = TableRequest("tbl");
  req.mutable_key_schema(0)->set_key_type("RANGE");
  EXPECT_EQ(CreateError(*engine_, req),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");

  // More keys than definitions comes first [now]: one definition for
  // [pk HASH, pk RANGE] is not the same-name error (behaviours.md O8).
  req = TableRequest("tbl");
  AddKey(&req, "pk", "RANGE");
  EXPECT_EQ(CreateError(*engine_, req), "Invalid KeySchema: Some index key attribute have no definition");
  AddDef(&req, "x", "S");
  EXPECT_EQ(CreateError(*engine_, req),
            "Both the Hash Key and the Range Key element in the KeySchema have the same name");
}

TEST_F(EngineTest, CreateTableKeyNotDefined) {
  auto req = TableRequest("tbl");
  req.mutable_attribute_definitions(0)->set_attribute_name("other");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]");
}

// BUG: a two-element KeySchema whose range key has no definition gets
// DynamoDB's "Invalid KeySchema" message (recorded by dynalite's createTable
// validation and by other emulators' AWS-verified tables), not the
// "Some index key attributes are not defined ... Keys: [sk]" form.
TEST_F(EngineTest, CreateTableRangeKeyNotDefined) {
  auto req = TableRequest("tbl");
  AddKey(&req, "sk", "RANGE");
  EXPECT_EQ(CreateError(*engine_, req), "Invalid KeySchema: Some index key attribute have no definition");
}

TEST_F(EngineTest, CreateTableUnusedDefinition) {
  auto req = TableRequest("tbl");
  AddDef(&req, "extra", "N");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly "
            "match number of attributes defined in AttributeDefinitions");
}

TEST_F(EngineTest, CreateTableBillingRules) {
  auto req = TableRequest("tbl");
  req.set_billing_mode("PAY_PER_REQUEST");
  EXPECT_EQ(
      CreateError(*engine_, req),
      "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be "
      "specified when BillingMode is PAY_PER_REQUEST");
  req.clear_provisioned_throughput();
  req.set_billing_mode("PROVISIONED");
  EXPECT_EQ(
      CreateError(*engine_, req),
      "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be "
      "specified when BillingMode is PROVISIONED");
  // PROVISIONED is the default (2020 record; "No provisioned throughput
  // specified for the table" is DynamoDB Local's).
  req.clear_billing_mode();
  EXPECT_EQ(
      CreateError(*engine_, req),
      "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be "
      "specified when BillingMode is PROVISIONED");
}

TEST_F(EngineTest, CreateTableStreamSpecification) {
  auto req = TableRequest("tbl");
  req.mutable_stream_specification()->set_stream_enabled(true);
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Table is being created with a stream enabled, "
            "UpdateViewType is required");
  req.mutable_stream_specification()->set_stream_view_type("ALL");
  EXPECT_EQ(
      CreateError(*engine_, req),
      "1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' failed to satisfy "
      "constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, "
      "KEYS_ONLY]");
  req.mutable_stream_specification()->set_stream_enabled(false);
  req.mutable_stream_specification()->set_stream_view_type("KEYS_ONLY");
  EXPECT_EQ(CreateError(*engine_, req),
            "One or more parameter values were invalid: Table is being created with a stream disabled, "
            "UpdateViewType should not be specified");
  // A disabled stream is no stream.
  req.mutable_stream_specification()->clear_stream_view_type();
  EXPECT_EQ(CreateError(*engine_, req), "(ok)");
  auto with_stream = TableRequest("tbl2");
  with_stream.mutable_stream_specification()->set_stream_enabled(true);
  with_stream.mutable_stream_specification()->set_stream_view_type("KEYS_ONLY");
  EXPECT_EQ(CreateError(*engine_, with_stream), "(ok)");
}

TEST_F(EngineTest, CreateTableTwiceIsResourceInUse) {
  Create("tbl");
  Error e = ErrorOf(engine_->CreateTable(TableRequest("tbl")));
  EXPECT_EQ(e.code(), ErrorCode::kResourceInUse);
  EXPECT_EQ(e.message(), "Table already exists: tbl");
}

// ---------------------------------------------------------------- CreateTable: the description

TEST_F(EngineTest, CreateTableDescription) {
  SystemClock clock;
  double before = clock.Now();
  auto req = TableRequest("Music", /*range=*/true);
  req.set_table_class("STANDARD");
  auto r = engine_->CreateTable(req);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const auto& d = r->table_description();
  EXPECT_EQ(d.table_name(), "Music");
  EXPECT_EQ(d.table_status(), "CREATING");
  EXPECT_EQ(d.table_arn(), "arn:aws:dynamodb:us-east-1:000000000000:table/Music");
  EXPECT_EQ(d.table_id().size(), 36u);
  EXPECT_EQ(d.table_id()[14], '4');  // a version-4 UUID
  EXPECT_GE(d.creation_date_time(), before - 1);
  EXPECT_LE(d.creation_date_time(), clock.Now() + 1);
  EXPECT_TRUE(d.has_item_count());
  EXPECT_EQ(d.item_count(), 0);
  EXPECT_TRUE(d.has_table_size_bytes());
  EXPECT_EQ(d.table_size_bytes(), 0);
  EXPECT_EQ(d.key_schema_size(), 2);
  EXPECT_EQ(d.attribute_definitions_size(), 2);
  EXPECT_EQ(d.provisioned_throughput().read_capacity_units(), 5);
  EXPECT_EQ(d.provisioned_throughput().write_capacity_units(), 5);
  EXPECT_TRUE(d.provisioned_throughput().has_number_of_decreases_today());
  EXPECT_FALSE(d.has_billing_mode_summary());
  EXPECT_EQ(d.table_class_summary().table_class(), "STANDARD");
  EXPECT_FALSE(d.deletion_protection_enabled());

  auto described = Describe("Music");
  EXPECT_EQ(described.table_status(), "ACTIVE");
  EXPECT_EQ(described.table_id(), d.table_id());
  EXPECT_EQ(described.creation_date_time(), d.creation_date_time());
}

TEST_F(EngineTest, CreateTableOnDemand) {
  auto req = TableRequest("tbl");
  req.clear_provisioned_throughput();
  req.set_billing_mode("PAY_PER_REQUEST");
  auto r = engine_->CreateTable(req);
  ASSERT_TRUE(r.ok()) << r.error().message();
  const auto& d = r->table_description();
  EXPECT_EQ(d.billing_mode_summary().billing_mode(), "PAY_PER_REQUEST");
  EXPECT_EQ(d.billing_mode_summary().last_update_to_pay_per_request_date_time(), d.creation_date_time());
  EXPECT_EQ(d.provisioned_throughput().read_capacity_units(), 0);
  EXPECT_EQ(d.provisioned_throughput().write_capacity_units(), 0);
}

// ---------------------------------------------------------------- Describe / List / Delete

TEST_F(EngineTest, DescribeMissingTable) {
  v1::DescribeTableRequest req;
  req.set_table_name("nope");
  Error e = ErrorOf(engine_->DescribeTable(req));
  EXPECT_EQ(e.code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(e.message(), "Requested resource not found: Table: nope not found");

  // The control plane's own answer for a missing TableName (V7).
  Error v = ErrorOf(engine_->DescribeTable(v1::DescribeTableRequest()));
  EXPECT_EQ(v.code(), ErrorCode::kValidation);
  EXPECT_EQ(v.message(), "The parameter 'TableName' is required but was not present in the request");
}

TEST_F(EngineTest, DescribeCountsItems) {
  Create("tbl");
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}, {"x", N("12")}}).ok());
  ASSERT_TRUE(Put("tbl", {{"pk", S("b")}}).ok());
  auto d = Describe("tbl");
  EXPECT_EQ(d.item_count(), 2);
  EXPECT_EQ(d.table_size_bytes(), (2 + 1 + 1 + 2) + (2 + 1));
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}}).ok());  // replaced, smaller
  d = Describe("tbl");
  EXPECT_EQ(d.item_count(), 2);
  EXPECT_EQ(d.table_size_bytes(), 6);
  ASSERT_TRUE(Delete("tbl", {{"pk", S("a")}}).ok());
  ASSERT_TRUE(Delete("tbl", {{"pk", S("zzz")}}).ok());  // not there: no change
  d = Describe("tbl");
  EXPECT_EQ(d.item_count(), 1);
  EXPECT_EQ(d.table_size_bytes(), 3);
}

TEST_F(EngineTest, ListTablesPaging) {
  EXPECT_TRUE(List().empty());
  for (const char* n : {"ccc", "aaa", "bbb", "ddd"}) Create(n);
  std::string last;
  EXPECT_EQ(List(std::nullopt, "", &last), (std::vector<std::string>{"aaa", "bbb", "ccc", "ddd"}));
  EXPECT_EQ(last, "(none)");
  EXPECT_EQ(List(2, "", &last), (std::vector<std::string>{"aaa", "bbb"}));
  EXPECT_EQ(last, "bbb");
  EXPECT_EQ(List(2, "bbb", &last), (std::vector<std::string>{"ccc", "ddd"}));
  EXPECT_EQ(last, "(none)");  // nothing after ddd
  EXPECT_EQ(List(std::nullopt, "abc", &last), (std::vector<std::string>{"bbb", "ccc", "ddd"}));
  EXPECT_EQ(List(std::nullopt, "zzz", &last), (std::vector<std::string>{}));
}

TEST_F(EngineTest, ListTablesLimitConstraints) {
  v1::ListTablesRequest req;
  req.set_limit(0);
  EXPECT_EQ(ErrorOf(engine_->ListTables(req)).message(),
            std::string(kOne) +
                "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or "
                "equal to 1");
  req.set_limit(101);
  EXPECT_EQ(ErrorOf(engine_->ListTables(req)).message(),
            std::string(kOne) +
                "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or "
                "equal to 100");
  req.set_limit(100);
  req.set_exclusive_start_table_name("a");
  EXPECT_EQ(ErrorOf(engine_->ListTables(req)).message(),
            std::string(kOne) +
                "Value 'a' at 'exclusiveStartTableName' failed to satisfy constraint: Member must "
                "have length greater than or equal to 3");
}

TEST_F(EngineTest, DeleteTable) {
  Create("tbl");
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}}).ok());
  v1::DeleteTableRequest req;
  req.set_table_name("tbl");
  auto r = engine_->DeleteTable(req);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->table_description().table_status(), "DELETING");
  EXPECT_EQ(r->table_description().table_name(), "tbl");
  EXPECT_EQ(r->table_description().item_count(), 1);

  v1::DescribeTableRequest describe;
  describe.set_table_name("tbl");
  EXPECT_EQ(ErrorOf(engine_->DescribeTable(describe)).code(), ErrorCode::kResourceNotFound);
  EXPECT_TRUE(List().empty());

  Error again = ErrorOf(engine_->DeleteTable(req));
  EXPECT_EQ(again.code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(again.message(), "Requested resource not found: Table: tbl not found");

  // A table created again under the name starts empty.
  Create("tbl");
  auto got = Get("tbl", {{"pk", S("a")}});
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_item());
  EXPECT_EQ(Describe("tbl").item_count(), 0);
}

TEST_F(EngineTest, DeleteTableWithDeletionProtection) {
  auto create = TableRequest("tbl");
  create.set_deletion_protection_enabled(true);
  ASSERT_TRUE(engine_->CreateTable(create).ok());
  v1::DeleteTableRequest req;
  req.set_table_name("tbl");
  Error e = ErrorOf(engine_->DeleteTable(req));
  EXPECT_EQ(e.code(), ErrorCode::kValidation);
  EXPECT_EQ(e.message(),
            "Resource cannot be deleted as it is currently protected against deletion. Disable deletion "
            "protection first.");
  EXPECT_EQ(Describe("tbl").table_name(), "tbl");
}

// ---------------------------------------------------------------- items

TEST_F(EngineTest, PutThenGet) {
  Create("tbl", /*range=*/true);
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}, {"sk", N("1.50")}, {"n", N("1e3")}, {"s", S("x")}}).ok());
  // The key matches numerically, whatever its spelling.
  auto got = Get("tbl", {{"pk", S("a")}, {"sk", N("1.5")}});
  ASSERT_TRUE(got.ok()) << got.error().message();
  ASSERT_TRUE(got->has_item());
  const auto& item = got->item().attributes();
  EXPECT_EQ(item.size(), 4u);
  EXPECT_EQ(item.at("sk").n(), "1.5");  // stored canonical
  EXPECT_EQ(item.at("n").n(), "1000");
  EXPECT_EQ(item.at("s").s(), "x");
  EXPECT_FALSE(got->has_consumed_capacity());

  auto missing = Get("tbl", {{"pk", S("a")}, {"sk", N("2")}});
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_item());
}

TEST_F(EngineTest, ItemOperationsOnAMissingTable) {
  for (Error e : {ErrorOf(Put("nope", {{"pk", S("a")}})), ErrorOf(Get("nope", {{"pk", S("a")}})),
                  ErrorOf(Delete("nope", {{"pk", S("a")}}))}) {
    EXPECT_EQ(e.code(), ErrorCode::kResourceNotFound);
    EXPECT_EQ(e.message(), "Requested resource not found");
  }
}

// BUG: DynamoDB validates attribute values before it looks the table up (as
// dynalite's putItem validation does), so an empty AttributeValue is a
// ValidationException even when the table does not exist.
TEST_F(EngineTest, PutItemValidatesValuesBeforeLookingUpTheTable) {
  Error e = ErrorOf(Put("nope", {{"pk", S("a")}, {"bad", V()}}));
  EXPECT_EQ(e.code(), ErrorCode::kValidation);
  EXPECT_EQ(e.message(),
            "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
}

TEST_F(EngineTest, ItemRequestMemberConstraints) {
  EXPECT_EQ(ErrorOf(engine_->GetItem(v1::GetItemRequest())).message(),
            "2 validation errors detected: "
            "Value null at 'tableName' failed to satisfy constraint: Member must not be null; "
            "Value null at 'key' failed to satisfy constraint: Member must not be null");
  Create("tbl");
  EXPECT_EQ(ErrorOf(Put("tbl", {})).message(),
            std::string(kOne) + "Value null at 'item' failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(ErrorOf(Put("tbl", {{"pk", S("a")}}, "SOME")).message(),
            std::string(kOne) +
                "Value 'SOME' at 'returnValues' failed to satisfy constraint: Member must satisfy "
                "enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]");
  EXPECT_EQ(ErrorOf(Get("tbl", {{"pk", S("a")}}, "ALL")).message(),
            std::string(kOne) +
                "Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]");
  for (const char* rv : {"ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"}) {
    EXPECT_EQ(ErrorOf(Put("tbl", {{"pk", S("a")}}, rv)).message(),
              "ReturnValues can only be ALL_OLD or NONE");
    EXPECT_EQ(ErrorOf(Delete("tbl", {{"pk", S("a")}}, rv)).message(),
              "ReturnValues can only be ALL_OLD or NONE");
  }
}

TEST_F(EngineTest, ItemKeysAreValidatedAgainstTheSchema) {
  Create("tbl", /*range=*/true);
  EXPECT_EQ(ErrorOf(Get("tbl", {{"pk", S("a")}})).message(),
            "The provided key element does not match the schema");
  EXPECT_EQ(ErrorOf(Delete("tbl", {{"pk", S("a")}, {"sk", S("1")}})).message(),
            "The provided key element does not match the schema");
  EXPECT_EQ(ErrorOf(Put("tbl", {{"pk", S("a")}})).message(),
            "One or more parameter values were invalid: Missing the key sk in the item");
  EXPECT_EQ(ErrorOf(Put("tbl", {{"pk", S("a")}, {"sk", S("1")}})).message(),
            "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S");
}

TEST_F(EngineTest, PutItemReturnValues) {
  Create("tbl");
  auto first = Put("tbl", {{"pk", S("a")}, {"v", N("1")}}, "ALL_OLD");
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->attributes().empty());
  auto second = Put("tbl", {{"pk", S("a")}, {"v", N("2")}}, "ALL_OLD");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->attributes().at("v").n(), "1");
  auto none = Put("tbl", {{"pk", S("a")}, {"v", N("3")}}, "NONE");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->attributes().empty());
  EXPECT_EQ(Get("tbl", {{"pk", S("a")}})->item().attributes().at("v").n(), "3");
}

TEST_F(EngineTest, DeleteItemReturnValues) {
  Create("tbl");
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}, {"v", S("old")}}).ok());
  auto r = Delete("tbl", {{"pk", S("a")}}, "ALL_OLD");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->attributes().at("v").s(), "old");
  EXPECT_FALSE(Get("tbl", {{"pk", S("a")}})->has_item());
  auto again = Delete("tbl", {{"pk", S("a")}}, "ALL_OLD");
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->attributes().empty());
}

TEST_F(EngineTest, WriteConsumedCapacity) {
  Create("tbl");
  auto small = Put("tbl", {{"pk", S("a")}}, "", "TOTAL");
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->consumed_capacity().table_name(), "tbl");
  EXPECT_EQ(small->consumed_capacity().capacity_units(), 1);
  EXPECT_FALSE(small->consumed_capacity().has_table());

  // 1 KB units, rounded up: "pk"+"b" (3) + "d" (1) + 1021 = 1025 bytes.
  auto big = Put("tbl", {{"pk", S("b")}, {"d", S(std::string(1021, 'x'))}}, "", "INDEXES");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->consumed_capacity().capacity_units(), 2);
  EXPECT_EQ(big->consumed_capacity().table().capacity_units(), 2);

  // Replacing a big item with a small one is charged for the bigger.
  auto shrink = Put("tbl", {{"pk", S("b")}}, "", "TOTAL");
  ASSERT_TRUE(shrink.ok());
  EXPECT_EQ(shrink->consumed_capacity().capacity_units(), 2);

  auto none = Put("tbl", {{"pk", S("c")}}, "", "NONE");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_consumed_capacity());

  auto del_missing = Delete("tbl", {{"pk", S("zzz")}}, "", "TOTAL");
  ASSERT_TRUE(del_missing.ok());
  EXPECT_EQ(del_missing->consumed_capacity().capacity_units(), 1);
}

TEST_F(EngineTest, ReadConsumedCapacity) {
  Create("tbl");
  // 4 KB units: "pk"+"a" (3) + "d" (1) + 4093 = 4097 bytes: 2 units.
  ASSERT_TRUE(Put("tbl", {{"pk", S("a")}, {"d", S(std::string(4093, 'x'))}}).ok());
  auto eventual = Get("tbl", {{"pk", S("a")}}, "TOTAL");
  ASSERT_TRUE(eventual.ok());
  EXPECT_EQ(eventual->consumed_capacity().capacity_units(), 1);
  auto strong = Get("tbl", {{"pk", S("a")}}, "TOTAL", /*consistent=*/true);
  ASSERT_TRUE(strong.ok());
  EXPECT_EQ(strong->consumed_capacity().capacity_units(), 2);
  // A miss still costs the minimum.
  auto miss = Get("tbl", {{"pk", S("none")}}, "INDEXES");
  ASSERT_TRUE(miss.ok());
  EXPECT_EQ(miss->consumed_capacity().capacity_units(), 0.5);
  EXPECT_EQ(miss->consumed_capacity().table().capacity_units(), 0.5);
  EXPECT_EQ(miss->consumed_capacity().table_name(), "tbl");
}

TEST_F(EngineTest, StatsReportEveryTable) {
  Create("bbb");
  Create("aaa");
  ASSERT_TRUE(Put("aaa", {{"pk", S("k")}}).ok());
  auto stats = engine_->Stats();
  ASSERT_TRUE(stats.ok());
  ASSERT_EQ(stats->size(), 2u);
  EXPECT_EQ((*stats)[0].name, "aaa");
  EXPECT_EQ((*stats)[0].status, "ACTIVE");
  EXPECT_EQ((*stats)[0].item_count, 1);
  EXPECT_EQ((*stats)[1].item_count, 0);
}

}  // namespace
}  // namespace pogi::service
