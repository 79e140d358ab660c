// Tests for index definition rules: the enumeration order of ProjectionType,
// the undefined-key message, a missing ProjectionType, duplicate and long
// NonKeyAttributes, one attribute twice in a GSI key, absent versus empty
// members, and the order of an index's checks.
#include "service/validate/index_schema.h"

#include <gtest/gtest.h>

#include <string>

#include "service/validate/member_presence.h"

namespace pogi::service {
namespace {

using Keys = google::protobuf::RepeatedPtrField<v1::KeySchemaElement>;
using Defs = google::protobuf::RepeatedPtrField<v1::AttributeDefinition>;

Keys KeySchema(std::initializer_list<std::pair<const char*, const char*>> elements) {
  Keys ks;
  for (auto [name, type] : elements) {
    auto* k = ks.Add();
    k->set_attribute_name(name);
    k->set_key_type(type);
  }
  return ks;
}

Defs Definitions(std::initializer_list<const char*> names) {
  Defs defs;
  for (const char* n : names) {
    auto* d = defs.Add();
    d->set_attribute_name(n);
    d->set_attribute_type("S");
  }
  return defs;
}

v1::Projection Projection(const char* type, std::initializer_list<std::string> non_key = {}) {
  v1::Projection p;
  if (type) p.set_projection_type(type);
  for (const auto& a : non_key) p.add_non_key_attributes(a);
  return p;
}

std::string Check(const Keys& ks, const v1::Projection& p, const Defs& defs, bool local = false) {
  Status s = CheckIndexSchema("idx", ks, p, local, KeySchema({{"pk", "HASH"}, {"sk", "RANGE"}}), defs);
  return s.ok() ? "(ok)" : s.error().message();
}

TEST(IndexSchemaTest, ProjectionTypeEnumOrder) {
  Constraints c;
  std::string bad = "SOME";
  CheckProjectionType(c, &bad, "globalSecondaryIndexes.1.member.projection.projectionType");
  EXPECT_EQ(
      c.Finish().error().message(),
      "1 validation error detected: Value 'SOME' at 'globalSecondaryIndexes.1.member.projection."
      "projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, "
      "KEYS_ONLY]");
}

// Every key of the schema, in schema order; every definition, in request order.
TEST(IndexSchemaTest, UndefinedKeysListsTheWholeSchema) {
  EXPECT_EQ(
      Check(KeySchema({{"g", "HASH"}, {"zz", "RANGE"}}), Projection("ALL"), Definitions({"sk", "pk", "g"})),
      "One or more parameter values were invalid: Some index key attributes are not defined in "
      "AttributeDefinitions. Keys: [g, zz], AttributeDefinitions: [sk, pk, g]");
  EXPECT_TRUE(CheckKeysDefined(KeySchema({{"g", "HASH"}}), Definitions({"g"})).ok());
}

TEST(IndexSchemaTest, MissingProjectionType) {
  const std::string want = "One or more parameter values were invalid: Unknown ProjectionType: null";
  EXPECT_EQ(Check(KeySchema({{"g", "HASH"}}), Projection(nullptr), Definitions({"g"})), want);
  EXPECT_EQ(Check(KeySchema({{"g", "HASH"}}), Projection(nullptr, {"x"}), Definitions({"g"})), want);
  EXPECT_EQ(Check(KeySchema({{"pk", "HASH"}, {"l", "RANGE"}}), Projection(nullptr), Definitions({"pk", "l"}),
                  /*local=*/true),
            want);
}

TEST(IndexSchemaTest, DuplicateNonKeyAttributes) {
  std::string m =
      Check(KeySchema({{"g", "HASH"}}), Projection("INCLUDE", {"x", "y", "x"}), Definitions({"g"}));
  EXPECT_NE(m.find("Duplicate"), std::string::npos) << m;
  EXPECT_EQ(Check(KeySchema({{"g", "HASH"}}), Projection("INCLUDE", {"x", "y"}), Definitions({"g"})), "(ok)");
}

TEST(IndexSchemaTest, LongNonKeyAttributeIsAMemberConstraint) {
  Constraints c;
  Keys ks = KeySchema({{"g", "HASH"}});
  v1::Projection p = Projection("INCLUDE", {std::string(256, 'n')});
  std::string name = "idx";
  CheckIndexMembers(c, &name, ks, /*key_schema_sent=*/true, &p, nullptr, "globalSecondaryIndexes.1.member",
                    /*global=*/true);
  EXPECT_EQ(c.Finish().error().message(),
            "1 validation error detected: Value '" + std::string(256, 'n') +
                "' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes.1.member' failed to "
                "satisfy constraint: Member must have length less than or equal to 255");
}

TEST(IndexSchemaTest, SameAttributeTwiceInAGlobalKey) {
  const std::string both = "Both the Hash Key and the Range Key element in the KeySchema have the same name";
  EXPECT_EQ(Check(KeySchema({{"a", "HASH"}, {"a", "HASH"}}), Projection("ALL"), Definitions({"a"})), both);
  EXPECT_EQ(Check(KeySchema({{"a", "HASH"}, {"a", "RANGE"}}), Projection("ALL"), Definitions({"a"})), both);
  std::string m = Check(KeySchema({{"a", "HASH"}, {"b", "HASH"}, {"a", "RANGE"}}), Projection("ALL"),
                        Definitions({"a", "b"}));
  EXPECT_NE(m.find("same name"), std::string::npos) << m;
}

std::string Members(const Keys& ks, bool ks_sent, const v1::Projection* p,
                    const v1::ProvisionedThroughput* t = nullptr) {
  Constraints c;
  std::string name = "idx";
  CheckIndexMembers(c, &name, ks, ks_sent, p, t, "globalSecondaryIndexes.1.member", /*global=*/true);
  Status s = c.Finish();
  return s.ok() ? "(ok)" : s.error().message();
}

// behaviours.md V1, V3: an absent KeySchema is null, [] is too short, and a
// list is shown element by element.
TEST(IndexSchemaTest, KeySchemaAbsentEmptyAndLong) {
  v1::Projection all = Projection("ALL");
  EXPECT_EQ(
      Members(Keys(), false, &all),
      "1 validation error detected: Value null at 'globalSecondaryIndexes.1.member.keySchema' failed to "
      "satisfy constraint: Member must not be null");
  EXPECT_EQ(
      Members(Keys(), true, &all),
      "1 validation error detected: Value '[]' at 'globalSecondaryIndexes.1.member.keySchema' failed to "
      "satisfy constraint: Member must have length greater than or equal to 1");
  Keys nine;
  for (int i = 0; i < 9; ++i) {
    auto* k = nine.Add();
    k->set_attribute_name("k" + std::to_string(i));
    k->set_key_type("HASH");
  }
  std::string m = Members(nine, true, &all);
  EXPECT_NE(
      m.find("Value '[KeySchemaElement(attributeName=k0, keyType=HASH), KeySchemaElement(attributeName=k1, "),
      std::string::npos)
      << m;
  EXPECT_NE(m.find("Member must have length less than or equal to 8"), std::string::npos) << m;
}

// An index's key types are not enumerated (2020 record); a null one is still
// required.
TEST(IndexSchemaTest, IndexKeyTypeIsNotEnumerated) {
  v1::Projection all = Projection("ALL");
  EXPECT_EQ(Members(KeySchema({{"g", "BOGUS"}}), true, &all), "(ok)");
  Keys ks = KeySchema({{"g", "HASH"}});
  ks[0].clear_key_type();
  EXPECT_EQ(Members(ks, true, &all),
            "1 validation error detected: Value null at 'globalSecondaryIndexes.1.member.keySchema.1.member."
            "keyType' failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(Check(KeySchema({{"g", "BOGUS"}}), all, Definitions({"g"})),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
}

TEST(IndexSchemaTest, NonKeyAttributesSentEmpty) {
  v1::Projection p = Projection("INCLUDE");
  MarkSentEmpty(&p, v1::Projection::kNonKeyAttributesFieldNumber);
  EXPECT_EQ(
      Members(KeySchema({{"g", "HASH"}}), true, &p),
      "1 validation error detected: Value '[]' at 'globalSecondaryIndexes.1.member.projection."
      "nonKeyAttributes' failed to satisfy constraint: Member must have length greater than or equal to 1");
}

TEST(IndexSchemaTest, GivenThroughputNeedsBothUnits) {
  v1::Projection all = Projection("ALL");
  v1::ProvisionedThroughput t;
  t.set_write_capacity_units(0);
  EXPECT_EQ(
      Members(KeySchema({{"g", "HASH"}}), true, &all, &t),
      "2 validation errors detected: Value null at 'globalSecondaryIndexes.1.member.provisionedThroughput."
      "readCapacityUnits' failed to satisfy constraint: Member must not be null; Value '0' at "
      "'globalSecondaryIndexes.1.member.provisionedThroughput.writeCapacityUnits' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1");
}

// behaviours.md O9: keys not defined, then the same name, then the first
// key's type; a local index's missing range key before its leading hash key.
TEST(IndexSchemaTest, OrderOfAnIndexsChecks) {
  EXPECT_EQ(Check(KeySchema({{"a", "RANGE"}, {"a", "RANGE"}}), Projection(nullptr), Definitions({"b"})),
            "One or more parameter values were invalid: Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [a, a], AttributeDefinitions: [b]");
  EXPECT_EQ(Check(KeySchema({{"a", "RANGE"}, {"a", "RANGE"}}), Projection(nullptr), Definitions({"a"})),
            "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  EXPECT_EQ(
      Check(KeySchema({{"x", "HASH"}}), Projection(nullptr), Definitions({"x"}), /*local=*/true),
      "One or more parameter values were invalid: Index KeySchema does not have a range key for index: idx");
  EXPECT_EQ(
      Check(KeySchema({{"x", "HASH"}, {"l", "RANGE"}}), Projection(nullptr), Definitions({"x", "l"}),
            /*local=*/true),
      "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key "
      "as table KeySchema for index: idx. index hash key: x, table hash key: pk");
}

TEST(IndexSchemaTest, IncludeWithoutNonKeyAttributes) {
  EXPECT_EQ(
      Check(KeySchema({{"g", "HASH"}}), Projection("INCLUDE"), Definitions({"g"})),
      "One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not "
      "specified");
}

TEST(IndexSchemaTest, ThroughputForTheBillingMode) {
  EXPECT_EQ(CheckIndexThroughput("g", false, false).error().message(),
            "One or more parameter values were invalid: ProvisionedThroughput is not specified for index: g");
  EXPECT_TRUE(CheckIndexThroughput("g", false, true).ok());
  EXPECT_TRUE(CheckIndexThroughput("g", true, false).ok());
}

}  // namespace
}  // namespace pogi::service
