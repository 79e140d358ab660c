// Tests for service/admin/admin_calls.h, the Admin calls both the gRPC Admin
// service and the console API run: table summaries, argument refusals,
// the clock (kept with the data), fault rules and the by-name table.
#include "service/admin/admin_calls.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "service/engine/engine.h"

namespace pogi::service {
namespace {

class AdminCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    clock_ = std::make_shared<ControllableClock>(1'800'000'000.0, /*frozen=*/true);
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
  }

  void CreateTable(const std::string& name) {
    v1::CreateTableRequest req;
    req.set_table_name(name);
    auto* def = req.add_attribute_definitions();
    def->set_attribute_name("pk");
    def->set_attribute_type("S");
    auto* key = req.add_key_schema();
    key->set_attribute_name("pk");
    key->set_key_type("HASH");
    req.set_billing_mode("PAY_PER_REQUEST");
    auto state = engine_->LockState();
    ASSERT_TRUE(engine_->CreateTable(req).ok());
  }

  std::shared_ptr<ControllableClock> clock_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(AdminCallsTest, TablesSummarizesEveryTable) {
  CreateTable("alpha");
  CreateTable("beta");
  auto r = AdminTables(*engine_, {});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->tables_size(), 2);
  EXPECT_EQ(r->tables(0).table_name(), "alpha");
  EXPECT_EQ(r->tables(0).billing_mode(), "PAY_PER_REQUEST");
  EXPECT_EQ(r->tables(0).status(), "ACTIVE");
}

TEST_F(AdminCallsTest, DescribeTableNeedsAnExistingName) {
  auto empty = AdminDescribeTable(*engine_, {});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code(), ErrorCode::kValidation);
  v1::AdminDescribeTableRequest req;
  req.set_table_name("missing");
  auto missing = AdminDescribeTable(*engine_, req);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code(), ErrorCode::kResourceNotFound);
}

TEST_F(AdminCallsTest, SnapshotNamesAreChecked) {
  for (const char* bad : {"", ".hidden", "a/b", "with space"}) {
    v1::CreateSnapshotRequest req;
    req.set_name(bad);
    auto r = AdminCreateSnapshot(*engine_, req);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
    EXPECT_NE(r.error().message().find("invalid snapshot name"), std::string::npos);
  }
}

TEST_F(AdminCallsTest, ClockAdvancesAndRefusesGoingBack) {
  v1::AdvanceClockRequest req;
  req.set_seconds(3600);
  auto r = AdminAdvanceClock(*engine_, req);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(r->now(), 1'800'003'600.0);
  EXPECT_TRUE(r->frozen());
  req.set_seconds(-1);
  auto back = AdminAdvanceClock(*engine_, req);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().code(), ErrorCode::kValidation);
  auto resumed = AdminResumeClock(*engine_, {});
  ASSERT_TRUE(resumed.ok());
  EXPECT_FALSE(resumed->frozen());
}

// The clock's state is kept with the data: a reopen goes on from it, unless
// the clock was given at the start (pogi start --clock).
TEST(AdminClockTest, TheClockIsKeptWithTheData) {
  const std::string dir = ::testing::TempDir() + "/admin-clock-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  storage::Options options;
  options.data_dir = dir;
  auto open = [&](std::shared_ptr<ControllableClock> clock, bool clock_set) {
    auto r = Engine::Open(options, std::move(clock), kMaxItemCollectionBytes, clock_set);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return std::move(r).value();
  };
  {
    auto engine = open(std::make_shared<ControllableClock>(1'800'000'000.0, true), true);
    v1::AdvanceClockRequest req;
    req.set_seconds(60);
    ASSERT_TRUE(AdminAdvanceClock(*engine, req).ok());
  }
  {
    auto engine = open(std::make_shared<ControllableClock>(), false);  // a restart
    auto r = AdminGetClock(*engine, {});
    ASSERT_TRUE(r.ok());
    EXPECT_DOUBLE_EQ(r->now(), 1'800'000'060.0);
    EXPECT_TRUE(r->frozen());
    // A snapshot restore leaves it where it stands.
    ASSERT_TRUE(engine->CreateSnapshot("s").ok());
    v1::AdvanceClockRequest req;
    req.set_seconds(5);
    ASSERT_TRUE(AdminAdvanceClock(*engine, req).ok());
    ASSERT_TRUE(engine->RestoreSnapshot("s").ok());
    EXPECT_DOUBLE_EQ(engine->clock().Now(), 1'800'000'065.0);
  }
  {
    auto engine = open(std::make_shared<ControllableClock>(1'900'000'000.0, true), true);  // --clock
    EXPECT_DOUBLE_EQ(engine->clock().Now(), 1'900'000'000.0);
  }
  auto engine = open(std::make_shared<ControllableClock>(), false);
  EXPECT_DOUBLE_EQ(engine->clock().Now(), 1'900'000'000.0);
  engine.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(AdminCallsTest, FaultRulesAddListClear) {
  v1::AddFaultRequest add;
  add.mutable_rule()->add_operations("PutItem");
  add.mutable_rule()->set_error("ProvisionedThroughputExceededException");
  auto added = AdminAddFault(*engine_, add);
  ASSERT_TRUE(added.ok()) << added.error().message();
  EXPECT_FALSE(added->rule().id().empty());
  auto listed = AdminListFaults(*engine_, {});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->rules_size(), 1);
  auto cleared = AdminClearFaults(*engine_, {});
  ASSERT_TRUE(cleared.ok());
  EXPECT_EQ(cleared->cleared(), 1);

  // Operation names are checked against the operation table.
  v1::AddFaultRequest unknown;
  unknown.mutable_rule()->add_operations("NoSuchOp");
  unknown.mutable_rule()->set_error("ThrottlingException");
  auto refused = AdminAddFault(*engine_, unknown);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message(), "unknown operation 'NoSuchOp'");
}

TEST_F(AdminCallsTest, FindAdminCallDispatchesByName) {
  EXPECT_EQ(FindAdminCall("NoSuchCall"), nullptr);
  const AdminCall* call = FindAdminCall("GetClock");
  ASSERT_NE(call, nullptr);
  std::unique_ptr<google::protobuf::Message> req(call->request_prototype->New());
  auto r = call->invoke(*engine_, *req);
  ASSERT_TRUE(r.ok());
  EXPECT_DOUBLE_EQ(static_cast<const v1::ClockState&>(**r).now(), 1'800'000'000.0);
}

}  // namespace
}  // namespace pogi::service
