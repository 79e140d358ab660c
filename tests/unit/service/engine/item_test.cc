// Tests for service::Engine's PutItem, GetItem and DeleteItem: validation
// before the table is looked up, keys against the schema, ReturnValues and
// ReturnConsumedCapacity, and the per-table stats.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/service/engine/engine_fixture.h"

namespace pogi::service {
namespace {

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
