// Tests for index definition rules: the enumeration order of ProjectionType,
// the undefined-key message, a missing ProjectionType, duplicate and long
// NonKeyAttributes, and one attribute twice in a GSI key.
#include "service/validate/index_schema.h"

#include <gtest/gtest.h>

#include <string>

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
  CheckIndexMembers(c, &name, ks, &p, nullptr, "globalSecondaryIndexes.1.member", /*global=*/true);
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

}  // namespace
}  // namespace pogi::service
