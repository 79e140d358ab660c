// Tests for service::Engine's DescribeTable, ListTables and DeleteTable over
// in-memory storage.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/service/engine/engine_fixture.h"

namespace pogi::service {
namespace {

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

}  // namespace
}  // namespace pogi::service
