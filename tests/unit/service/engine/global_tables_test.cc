// Tests for global tables in the engine, without the replication loop's
// thread: UpdateTable's ReplicaUpdates (a replica in its region, the items
// copied, Replicas described), and Engine::ReplicateDue applying queued
// changes to the other replica, last writer wins, frozen and released.
#include <gtest/gtest.h>

#include <string>

#include "service/core/region.h"
#include "service/engine/engine.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::S;

constexpr char kWest[] = "us-west-2";

class GlobalTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    engine_->replication().set_lag_ms(0);
    v1::CreateTableRequest req;
    req.set_table_name("orders");
    auto* a = req.add_attribute_definitions();
    a->set_attribute_name("pk");
    a->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    req.set_billing_mode("PAY_PER_REQUEST");
    ASSERT_TRUE(engine_->CreateTable(req).ok());
  }

  void TearDown() override {
    // Tables of other regions are counted process-wide (core/region.h).
    RequestRegionScope west(kWest);
    (void)engine_->DeleteTable(Named<v1::DeleteTableRequest>());
  }

  template <typename R>
  static R Named() {
    R req;
    req.set_table_name("orders");
    return req;
  }

  Result<v1::UpdateTableResponse> AddWest() {
    auto req = Named<v1::UpdateTableRequest>();
    req.add_replica_updates()->mutable_create()->set_region_name(kWest);
    return engine_->UpdateTable(req);
  }

  void Put(const std::string& pk, const std::string& v) {
    auto req = Named<v1::PutItemRequest>();
    (*req.mutable_item()->mutable_attributes())["pk"] = S(pk);
    (*req.mutable_item()->mutable_attributes())["v"] = S(v);
    auto r = engine_->PutItem(req);
    ASSERT_TRUE(r.ok()) << r.error().message();
  }

  // The item's `v`, or "(none)".
  std::string Get(const std::string& pk) {
    auto req = Named<v1::GetItemRequest>();
    (*req.mutable_key()->mutable_attributes())["pk"] = S(pk);
    req.set_consistent_read(true);
    auto r = engine_->GetItem(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    if (!r.ok() || !r->has_item()) return "(none)";
    return r->item().attributes().at("v").s();
  }

  void ReplicateAll() {
    for (int i = 0; i < 10; ++i) {
      auto more = engine_->ReplicateDue();
      ASSERT_TRUE(more.ok()) << more.error().message();
      if (!*more) return;
    }
  }

  std::shared_ptr<ControllableClock> clock_ = std::make_shared<ControllableClock>(1.0e9, /*frozen=*/true);
  std::unique_ptr<Engine> engine_;
};

TEST_F(GlobalTablesTest, ReplicaIsATableOfItsRegionWithTheItems) {
  Put("a", "before");
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
  Put("a", "east");
  {
    RequestRegionScope west(kWest);
    EXPECT_EQ(Get("a"), "(none)");  // not yet replicated
  }
  ReplicateAll();
  {
    RequestRegionScope west(kWest);
    EXPECT_EQ(Get("a"), "east");
    Put("b", "west");
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
    Put("c", "west, later");
  }
  clock_->Set(0.9e9);  // the east write is older on pogi's clock
  Put("c", "east, earlier");
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
