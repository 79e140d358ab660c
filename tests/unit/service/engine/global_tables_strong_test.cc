// Tests for global tables of multi-region strong consistency in the engine:
// UpdateTable's MultiRegionConsistency STRONG with a witness and its rules,
// a write applied to every replica in its own transaction (no replication
// round needed), ReplicatedWriteConflictException within the replication
// lag, and the refused transactions and Time to Live.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/service/engine/global_table_fixture.h"

namespace pogi::service {
namespace {

using test::S;

constexpr char kOhio[] = "us-east-2";
constexpr char kOregon[] = "us-west-2";

class StrongGlobalTablesTest : public GlobalTableFixture {
 protected:
  StrongGlobalTablesTest() : GlobalTableFixture(kOhio) {}

  Result<v1::UpdateTableResponse> MakeStrong(const std::string& witness = kOregon) {
    auto req = Named<v1::UpdateTableRequest>();
    req.set_multi_region_consistency("STRONG");
    req.add_replica_updates()->mutable_create()->set_region_name(kOhio);
    if (!witness.empty()) req.add_global_table_witness_updates()->mutable_create()->set_region_name(witness);
    return engine_->UpdateTable(req);
  }
};

TEST_F(StrongGlobalTablesTest, ConvertsWithAWitness) {
  auto r = MakeStrong();
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->table_description().multi_region_consistency(), "STRONG");
  ASSERT_EQ(r->table_description().global_table_witnesses_size(), 1);
  EXPECT_EQ(r->table_description().global_table_witnesses(0).witness_status(), "CREATING");
  RequestRegionScope ohio(kOhio);
  auto d = engine_->DescribeTable(Named<v1::DescribeTableRequest>());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table().multi_region_consistency(), "STRONG");
  EXPECT_EQ(d->table().global_table_witnesses(0).region_name(), kOregon);
  EXPECT_EQ(d->table().global_table_witnesses(0).witness_status(), "ACTIVE");
}

TEST_F(StrongGlobalTablesTest, AWriteIsInEveryReplicaWhenAcknowledged) {
  ASSERT_TRUE(MakeStrong().ok());
  engine_->replication().set_frozen(true);  // no replication round, none needed
  ASSERT_TRUE(Put("a", "east").ok());
  {
    RequestRegionScope ohio(kOhio);
    EXPECT_EQ(Get("a"), "east");
    ASSERT_TRUE(Put("b", "ohio").ok());
  }
  EXPECT_EQ(Get("b"), "ohio");
  auto backlog = engine_->ReplicationBacklog();
  ASSERT_TRUE(backlog.ok());
  EXPECT_EQ(*backlog, 0);
}

TEST_F(StrongGlobalTablesTest, ConflictingWriteFromAnotherRegionWithinTheLag) {
  ASSERT_TRUE(MakeStrong().ok());
  engine_->replication().set_lag_ms(60000);
  ASSERT_TRUE(Put("a", "east").ok());
  ASSERT_TRUE(Put("a", "east again").ok());  // the same region: no conflict
  {
    RequestRegionScope ohio(kOhio);
    Status s = Put("a", "ohio");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code(), ErrorCode::kReplicatedWriteConflict);
    EXPECT_EQ(s.error().info().short_name, "ReplicatedWriteConflictException");
    EXPECT_EQ(
        s.error().message(),
        "The request was rejected because one or more items in the request are being modified by a request "
        "in another Region.");
    EXPECT_TRUE(Put("b", "ohio").ok());  // another item
    EXPECT_EQ(Get("a"), "east again");
  }
  engine_->replication().set_lag_ms(0);  // no window: no conflict
  RequestRegionScope ohio(kOhio);
  EXPECT_TRUE(Put("a", "ohio").ok());
}

TEST_F(StrongGlobalTablesTest, RefusesTransactionsAndTimeToLive) {
  ASSERT_TRUE(MakeStrong().ok());
  v1::TransactWriteItemsRequest tw;
  auto* put = tw.add_transact_items()->mutable_put();
  put->set_table_name("orders");
  (*put->mutable_item())["pk"] = S("a");
  auto t = engine_->TransactWriteItems(tw);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code(), ErrorCode::kValidation);
  auto ttl = Named<v1::UpdateTimeToLiveRequest>();
  ttl.mutable_time_to_live_specification()->set_enabled(true);
  ttl.mutable_time_to_live_specification()->set_attribute_name("exp");
  auto u = engine_->UpdateTimeToLive(ttl);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().code(), ErrorCode::kValidation);
}

TEST_F(StrongGlobalTablesTest, ConversionRules) {
  // Two regions only.
  auto r = MakeStrong("");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("exactly three Regions"), std::string::npos);
  // Outside the region set.
  r = MakeStrong("eu-west-1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("one Region set"), std::string::npos);
  // Not empty.
  ASSERT_TRUE(Put("a", "x").ok());
  r = MakeStrong();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("must be empty"), std::string::npos);
  // Nothing stayed of the refused requests.
  auto d = engine_->DescribeTable(Named<v1::DescribeTableRequest>());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table().replicas_size(), 0);
  EXPECT_FALSE(d->table().has_multi_region_consistency());
}

}  // namespace
}  // namespace pogi::service
