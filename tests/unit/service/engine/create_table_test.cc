// Tests for service::Engine's CreateTable: each member constraint and
// schema rule with DynamoDB's message and in DynamoDB's order, and the
// description of the table it made.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "service/validate/constraints.h"
#include "service/validate/member_presence.h"
#include "tests/unit/service/engine/engine_fixture.h"

namespace pogi::service {
namespace {

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
            "Attribute Name is duplicated: pk");  // behaviours.md 1.2
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

}  // namespace
}  // namespace pogi::service
