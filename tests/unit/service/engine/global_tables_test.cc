// Tests for global tables in the engine, without the replication loop's
// thread: UpdateTable's ReplicaUpdates (a replica in its region, the items
// copied, Replicas described), and Engine::ReplicateDue applying queued
// changes to the other replica, last writer wins, frozen and released.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/service/engine/global_table_fixture.h"

namespace pogi::service {
namespace {

constexpr char kWest[] = "us-west-2";

class GlobalTablesTest : public GlobalTableFixture {
 protected:
  GlobalTablesTest() : GlobalTableFixture(kWest) {}

  Result<v1::UpdateTableResponse> AddWest() {
    auto req = Named<v1::UpdateTableRequest>();
    req.add_replica_updates()->mutable_create()->set_region_name(kWest);
    return engine_->UpdateTable(req);
  }

  void ReplicateAll() {
    for (int i = 0; i < 10; ++i) {
      auto more = engine_->ReplicateDue();
      ASSERT_TRUE(more.ok()) << more.error().message();
      if (!*more) return;
    }
  }
};

TEST_F(GlobalTablesTest, ReplicaIsATableOfItsRegionWithTheItems) {
  ASSERT_TRUE(Put("a", "before").ok());
  auto r = AddWest();
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->table_description().global_table_version(), "2019.11.21");
  ASSERT_EQ(r->table_description().replicas_size(), 2);
  EXPECT_EQ(r->table_description().replicas(1).replica_status(), "CREATING");
  RequestRegionScope west(kWest);
  auto d = engine_->DescribeTable(Named<v1::DescribeTableRequest>());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table().table_arn(), "arn:aws:dynamodb:us-west-2:" + AccountId() + ":table/orders");
  EXPECT_EQ(d->table().replicas(1).replica_status(), "ACTIVE");
  EXPECT_EQ(Get("a"), "before");
}

TEST_F(GlobalTablesTest, WritesReachTheOtherReplica) {
  ASSERT_TRUE(AddWest().ok());
  ASSERT_TRUE(Put("a", "east").ok());
  {
    RequestRegionScope west(kWest);
    EXPECT_EQ(Get("a"), "(none)");  // not yet replicated
  }
  ReplicateAll();
  {
    RequestRegionScope west(kWest);
    EXPECT_EQ(Get("a"), "east");
    ASSERT_TRUE(Put("b", "west").ok());
  }
  ReplicateAll();
  EXPECT_EQ(Get("b"), "west");
  // Nothing comes back: a replicated write is not replicated again.
  auto backlog = engine_->ReplicationBacklog();
  ASSERT_TRUE(backlog.ok());
  EXPECT_EQ(*backlog, 0);
}

TEST_F(GlobalTablesTest, LastWriterWinsWhateverTheDeliveryOrder) {
  ASSERT_TRUE(AddWest().ok());
  engine_->replication().set_frozen(true);
  {
    RequestRegionScope west(kWest);
    ASSERT_TRUE(Put("c", "west, later").ok());
  }
  clock_->Set(0.9e9);  // the east write is older on pogi's clock
  ASSERT_TRUE(Put("c", "east, earlier").ok());
  ReplicateAll();
  EXPECT_EQ(Get("c"), "east, earlier");  // frozen: nothing moved
  engine_->replication().set_frozen(false);
  ReplicateAll();
  EXPECT_EQ(Get("c"), "west, later");
  RequestRegionScope west(kWest);
  EXPECT_EQ(Get("c"), "west, later");
}

TEST_F(GlobalTablesTest, LocalRegionIsRefused) {
  auto req = Named<v1::UpdateTableRequest>();
  req.add_replica_updates()->mutable_create()->set_region_name(Region());
  auto r = engine_->UpdateTable(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kValidation);
  EXPECT_EQ(r.error().message(),
            "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or "
            "UpdateTable as required.");
}

}  // namespace
}  // namespace pogi::service
