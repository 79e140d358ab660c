// Tests for service/controls/throttle: the buckets of provisioned and
// on-demand tables, global indexes and partitions, refilled by the time
// given, burst capacity, the errors and reasons, and the settings.
#include "service/controls/throttle.h"

#include <gtest/gtest.h>

#include "service/core/catalog.h"

namespace pogi::service {
namespace {

std::shared_ptr<Table> ProvisionedTable(int64_t rcu, int64_t wcu, int64_t id = 1) {
  auto t = std::make_shared<Table>();
  t->id = id;
  t->description.set_table_name("t");
  t->description.set_table_arn("arn:aws:dynamodb:us-east-1:000000000000:table/t");
  t->description.mutable_provisioned_throughput()->set_read_capacity_units(rcu);
  t->description.mutable_provisioned_throughput()->set_write_capacity_units(wcu);
  return t;
}

std::shared_ptr<Table> OnDemandTable(int64_t max_write = 0) {
  auto t = ProvisionedTable(0, 0);
  t->description.mutable_billing_mode_summary()->set_billing_mode("PAY_PER_REQUEST");
  if (max_write > 0) t->description.mutable_on_demand_throughput()->set_max_write_request_units(max_write);
  return t;
}

v1::ConsumedCapacity Units(double table, const std::string& gsi = "", double gsi_units = 0) {
  v1::ConsumedCapacity c;
  c.set_table_name("t");
  c.mutable_table()->set_capacity_units(table);
  if (!gsi.empty()) (*c.mutable_global_secondary_indexes())[gsi].set_capacity_units(gsi_units);
  return c;
}

ThrottleTarget Target(std::shared_ptr<Table> table, CapacityKind kind, std::string index = "",
                      std::string partition = "") {
  ThrottleTarget t;
  t.table = std::move(table);
  t.kind = kind;
  t.index = std::move(index);
  t.partition = std::move(partition);
  return t;
}

std::string ReasonOf(const std::optional<Error>& e) {
  if (!e || !e->detail() || e->detail()->throttling_reasons_size() != 1) return "";
  return e->detail()->throttling_reasons(0).reason() + " " + e->detail()->throttling_reasons(0).resource();
}

class ThrottleTest : public ::testing::Test {
 protected:
  void SetUp() override { throttle.Set("", true); }
  Throttle throttle;
};

TEST_F(ThrottleTest, OffByDefaultAndPerTable) {
  Throttle off;
  EXPECT_FALSE(off.active());
  auto t = ProvisionedTable(1, 1);
  ThrottleTarget w = Target(t, CapacityKind::kWrite);
  for (int i = 0; i < 10; ++i) {
    EXPECT_FALSE(off.Admit(w, 0));
    off.Charge(w, Units(5), 0);
  }
  off.Set("t", true);
  EXPECT_TRUE(off.active());
  EXPECT_TRUE(off.EnabledFor("t"));
  EXPECT_FALSE(off.EnabledFor("other"));
  off.Set("t", std::nullopt);
  EXPECT_FALSE(off.active());
  off.Set("", true);
  off.Set("t", false);
  EXPECT_FALSE(off.EnabledFor("t"));
  EXPECT_TRUE(off.EnabledFor("other"));
  EXPECT_EQ(off.Settings().tables.at("t"), false);
}

TEST_F(ThrottleTest, AProvisionedTableStartsWithOneSecondAndKeepsThreeHundred) {
  auto t = ProvisionedTable(1, 2);
  ThrottleTarget w = Target(t, CapacityKind::kWrite);
  EXPECT_FALSE(throttle.Admit(w, 100));
  throttle.Charge(w, Units(2), 100);
  std::optional<Error> refused = throttle.Admit(w, 100);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(refused->message(),
            "The level of configured provisioned throughput for the table was exceeded. Consider increasing "
            "your provisioning level with the UpdateTable API.");
  EXPECT_EQ(ReasonOf(refused),
            "TableWriteProvisionedThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t");
  // Half a second refills one unit.
  EXPECT_FALSE(throttle.Admit(w, 100.5));
  // A large item takes the bucket into debt; time pays it back.
  throttle.Charge(w, Units(5), 100.5);
  EXPECT_TRUE(throttle.Admit(w, 101.5));  // -2
  EXPECT_TRUE(throttle.Admit(w, 102.5));  // 0: nothing left is not enough
  EXPECT_FALSE(throttle.Admit(w, 103));   // 1
  // An hour idle saves 300 seconds, no more: 600 units.
  throttle.Charge(w, Units(1), 103);
  EXPECT_FALSE(throttle.Admit(w, 4000));
  throttle.Charge(w, Units(599.5), 4000);
  EXPECT_FALSE(throttle.Admit(w, 4000));
  throttle.Charge(w, Units(0.5), 4000);
  EXPECT_TRUE(throttle.Admit(w, 4000));
  // Reads have their own bucket.
  EXPECT_FALSE(throttle.Admit(Target(t, CapacityKind::kRead), 4000));
}

TEST_F(ThrottleTest, ATableCreatedAgainStartsAfresh) {
  auto first = ProvisionedTable(1, 1, 1), second = ProvisionedTable(1, 1, 2);
  throttle.Charge(Target(first, CapacityKind::kWrite), Units(10), 0);
  EXPECT_TRUE(throttle.Admit(Target(first, CapacityKind::kWrite), 0));
  EXPECT_FALSE(throttle.Admit(Target(second, CapacityKind::kWrite), 0));
  throttle.Clear();
  EXPECT_FALSE(throttle.Admit(Target(first, CapacityKind::kWrite), 0));
}

TEST_F(ThrottleTest, GlobalIndexesHaveTheirOwnBucketsAndThrottleTheTablesWrites) {
  auto t = ProvisionedTable(100, 100);
  auto* g = t->description.add_global_secondary_indexes();
  g->set_index_name("g");
  g->set_index_arn("arn:aws:dynamodb:us-east-1:000000000000:table/t/index/g");
  g->mutable_provisioned_throughput()->set_read_capacity_units(1);
  g->mutable_provisioned_throughput()->set_write_capacity_units(1);
  ThrottleTarget w = Target(t, CapacityKind::kWrite);
  throttle.Charge(w, Units(1, "g", 1), 0);
  std::optional<Error> refused = throttle.Admit(w, 0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_NE(refused->message().find("one or more global secondary indexes"), std::string::npos);
  EXPECT_EQ(
      ReasonOf(refused),
      "IndexWriteProvisionedThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t/index/g");
  // A read of the index spends the index's read units; the table's are its own.
  ThrottleTarget index_read = Target(t, CapacityKind::kRead, "g");
  v1::ConsumedCapacity read = Units(0, "g", 1);
  throttle.Charge(index_read, read, 0);
  EXPECT_EQ(ReasonOf(throttle.Admit(index_read, 0)),
            "IndexReadProvisionedThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t/index/g");
  EXPECT_FALSE(throttle.Admit(Target(t, CapacityKind::kRead), 0));
}

TEST_F(ThrottleTest, OnDemandTablesHaveTheirMaximumOrTheAccountsQuota) {
  auto capped = OnDemandTable(3);
  ThrottleTarget w = Target(capped, CapacityKind::kWrite);
  throttle.Charge(w, Units(3), 0);
  std::optional<Error> refused = throttle.Admit(w, 0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kThrottling);
  EXPECT_EQ(ReasonOf(refused),
            "TableWriteMaxOnDemandThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t");
  // No burst beyond one second.
  EXPECT_FALSE(throttle.Admit(w, 1000));
  throttle.Charge(w, Units(3), 1000);
  EXPECT_TRUE(throttle.Admit(w, 1000));

  auto open = OnDemandTable();
  ThrottleTarget r = Target(open, CapacityKind::kRead);
  throttle.Charge(r, Units(kAccountTableUnits), 0);
  refused = throttle.Admit(r, 0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kRequestLimitExceeded);
  EXPECT_EQ(ReasonOf(refused),
            "TableReadAccountLimitExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t");
}

TEST_F(ThrottleTest, OnePartitionKeyServesAThousandWriteUnitsASecond) {
  auto t = OnDemandTable();
  ThrottleTarget hot = Target(t, CapacityKind::kWrite, "", "hot"),
                 cold = Target(t, CapacityKind::kWrite, "", "cold");
  throttle.Charge(hot, Units(kPartitionWriteUnits), 0);
  std::optional<Error> refused = throttle.Admit(hot, 0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kThrottling);
  EXPECT_EQ(ReasonOf(refused),
            "TableWriteKeyRangeThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t");
  EXPECT_FALSE(throttle.Admit(cold, 0));
  EXPECT_FALSE(throttle.Admit(hot, 1));
  // On a provisioned table the hot key is the provisioned error's.
  auto big = ProvisionedTable(10000, 10000, 7);
  ThrottleTarget key = Target(big, CapacityKind::kWrite, "", "k");
  throttle.Charge(key, Units(kPartitionWriteUnits), 0);
  refused = throttle.Admit(key, 0);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(ReasonOf(refused),
            "TableWriteKeyRangeThroughputExceeded arn:aws:dynamodb:us-east-1:000000000000:table/t");
}

TEST_F(ThrottleTest, ManyIdlePartitionsAreForgotten) {
  auto t = OnDemandTable();
  for (int i = 0; i < 20000; ++i) {
    throttle.Charge(Target(t, CapacityKind::kWrite, "", "k" + std::to_string(i)), Units(1), 0);
  }
  // A second later every partition has refilled: a fresh bucket is the same.
  throttle.Charge(Target(t, CapacityKind::kWrite, "", "last"), Units(1), 1);
  EXPECT_FALSE(throttle.Admit(Target(t, CapacityKind::kWrite, "", "k1"), 1));
}

}  // namespace
}  // namespace pogi::service
