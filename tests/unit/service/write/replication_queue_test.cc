// Tests for write/replication_queue: last writer wins between versions, and
// what the one write path stores for a change of a global table's replica
// (its queue entry and its version) and not for a replicated write.
#include "service/write/replication_queue.h"

#include <gtest/gtest.h>

#include "pogi/v1/streams.pb.h"
#include "service/core/clock.h"
#include "service/write/item_write.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::S;

TEST(ReplicationQueueTest, LaterWriteWinsAndRegionBreaksTies) {
  EXPECT_TRUE(NewerVersion({2.0, "us-east-1"}, {1.0, "us-west-2"}));
  EXPECT_FALSE(NewerVersion({1.0, "us-west-2"}, {2.0, "us-east-1"}));
  // The same instant: every replica picks the same winner.
  EXPECT_TRUE(NewerVersion({1.0, "us-west-2"}, {1.0, "us-east-1"}));
  EXPECT_FALSE(NewerVersion({1.0, "us-east-1"}, {1.0, "us-west-2"}));
  EXPECT_FALSE(NewerVersion({1.0, "us-east-1"}, {1.0, "us-east-1"}));
}

value::AttributeMap Item() {
  value::AttributeMap item;
  item["pk"] = S("p1");
  item["v"] = S("x");
  return item;
}

class ReplicaWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto opened = storage::Storage::Open(options);
    ASSERT_TRUE(opened.ok()) << opened.error().message();
    storage_ = std::move(*opened);
    ASSERT_TRUE(storage_
                    ->Write([&](storage::WriteTxn& txn) -> Status {
                      POGI_ASSIGN_OR_RETURN(table_.id, txn.CreateTable({0, "t", ""}));
                      v1::StreamState q;
                      q.set_replication_queue(true);
                      POGI_ASSIGN_OR_RETURN(table_.replication_queue,
                                            txn.CreateStream(q.SerializeAsString()));
                      return Status::Ok();
                    })
                    .ok());
    table_.region = "us-west-2";
    table_.hash = {"pk", "S"};
    table_.clock = &clock_;
    table_.description.set_table_id("0f0e-table");
  }

  Status Put(const value::AttributeMap& item, ChangeSource source) {
    return storage_->Write([&](storage::WriteTxn& txn) -> Status {
      return ApplyChange(txn, table_, key_, nullptr, &item, nullptr, source);
    });
  }

  std::vector<storage::StreamRecordRow> Queued() {
    std::vector<storage::StreamRecordRow> rows;
    EXPECT_TRUE(storage_
                    ->Read([&](storage::ReadTxn& txn) -> Status {
                      POGI_ASSIGN_OR_RETURN(
                          rows, txn.ReadStreamRecords(table_.replication_queue, 0, INT64_MAX, 10));
                      return Status::Ok();
                    })
                    .ok());
    return rows;
  }

  std::optional<ReplicaVersion> Version() {
    std::optional<ReplicaVersion> v;
    EXPECT_TRUE(storage_
                    ->Read([&](storage::ReadTxn& txn) -> Status {
                      POGI_ASSIGN_OR_RETURN(v, ReadReplicaVersion(txn, table_, key_));
                      return Status::Ok();
                    })
                    .ok());
    return v;
  }

  std::unique_ptr<storage::Storage> storage_;
  ControllableClock clock_{1000.5, /*frozen=*/true};
  Table table_;
  storage::EncodedKey key_{"p1", ""};
};

TEST_F(ReplicaWriteTest, LocalWriteIsQueuedWithItsVersion) {
  value::AttributeMap item = Item();
  ASSERT_TRUE(Put(item, ChangeSource::kRequest).ok());
  auto rows = Queued();
  ASSERT_EQ(rows.size(), 1u);
  v1::ReplicationQueuedChange c;
  ASSERT_TRUE(c.ParseFromString(rows[0].record));
  EXPECT_EQ(c.partition(), "p1");
  EXPECT_EQ(c.origin_region(), "us-west-2");
  EXPECT_DOUBLE_EQ(c.write_time(), 1000.5);
  EXPECT_TRUE(c.has_new_item());
  EXPECT_GT(c.queued_wall(), 0);
  auto v = Version();
  ASSERT_TRUE(v.has_value());
  EXPECT_DOUBLE_EQ(v->time, 1000.5);
  EXPECT_EQ(v->region, "us-west-2");
}

TEST_F(ReplicaWriteTest, ReplicatedWriteIsNotQueuedAgain) {
  value::AttributeMap item = Item();
  ASSERT_TRUE(Put(item, ChangeSource::kReplicated).ok());
  EXPECT_TRUE(Queued().empty());
  EXPECT_FALSE(Version().has_value());
}

TEST_F(ReplicaWriteTest, RegionalTableQueuesNothing) {
  table_.replication_queue = 0;
  value::AttributeMap item = Item();
  ASSERT_TRUE(Put(item, ChangeSource::kRequest).ok());
  EXPECT_FALSE(Version().has_value());
}

}  // namespace
}  // namespace pogi::service
