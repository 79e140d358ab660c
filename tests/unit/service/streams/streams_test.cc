// Tests for streams through the engine: records in the write's own
// transaction, shard roll-over by clock time and on demand, iterators,
// expiry and retention. The clock is controlled; nothing sleeps.
#include <gtest/gtest.h>

#include "service/engine/engine.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::S;

constexpr double kT0 = 1893456000;

class StreamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clock_ = std::make_shared<ControllableClock>(kT0, true);
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    v1::CreateTableRequest req;
    req.set_table_name("tbl");
    req.set_billing_mode("PAY_PER_REQUEST");
    auto* a = req.add_attribute_definitions();
    a->set_attribute_name("pk");
    a->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    req.mutable_stream_specification()->set_stream_enabled(true);
    req.mutable_stream_specification()->set_stream_view_type("NEW_AND_OLD_IMAGES");
    auto created = engine_->CreateTable(req);
    ASSERT_TRUE(created.ok()) << created.error().message();
    arn_ = created->table_description().latest_stream_arn();
  }

  void Put(const std::string& pk, const std::string& v) {
    v1::PutItemRequest req;
    req.set_table_name("tbl");
    (*req.mutable_item()->mutable_attributes())["pk"] = S(pk);
    (*req.mutable_item()->mutable_attributes())["v"] = S(v);
    ASSERT_TRUE(engine_->PutItem(req).ok());
  }

  v1::StreamDescription Describe() {
    v1::DescribeStreamRequest req;
    req.set_stream_arn(arn_);
    auto r = engine_->DescribeStream(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->stream_description() : v1::StreamDescription();
  }

  std::string Iterator(const std::string& shard, const std::string& type = "TRIM_HORIZON") {
    v1::GetShardIteratorRequest req;
    req.set_stream_arn(arn_);
    req.set_shard_id(shard);
    req.set_shard_iterator_type(type);
    auto r = engine_->GetShardIterator(req);
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? r->shard_iterator() : "";
  }

  Result<v1::GetRecordsResponse> Records(const std::string& iterator) {
    v1::GetRecordsRequest req;
    req.set_shard_iterator(iterator);
    auto r = engine_->GetRecords(req);
    if (!r.ok()) return r;
    // As a client reads the answer, whose records are carried as bytes.
    v1::GetRecordsResponse parsed;
    EXPECT_TRUE(parsed.ParseFromString(r->SerializeAsString()));
    return parsed;
  }

  std::shared_ptr<ControllableClock> clock_;
  std::unique_ptr<Engine> engine_;
  std::string arn_;
};

TEST_F(StreamsTest, RecordsOfEveryChangeButNoChange) {
  Put("a", "1");
  Put("a", "1");  // unchanged: no record
  Put("a", "2");
  auto d = Describe();
  ASSERT_EQ(d.shards_size(), 1);
  EXPECT_EQ(d.stream_status(), "ENABLED");
  auto r = Records(Iterator(d.shards(0).shard_id()));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->records_size(), 2);
  EXPECT_EQ(r->records(0).event_name(), "INSERT");
  EXPECT_EQ(r->records(1).event_name(), "MODIFY");
  EXPECT_EQ(r->records(1).dynamodb().old_image().at("v").s(), "1");
  EXPECT_LT(r->records(0).dynamodb().sequence_number(), r->records(1).dynamodb().sequence_number());
  EXPECT_TRUE(r->has_next_shard_iterator());  // an open shard never ends
}

TEST_F(StreamsTest, ShardsRollOverAfterFourHoursAndOnDemand) {
  Put("a", "1");
  clock_->Advance(4 * 3600 - 1);
  ASSERT_TRUE(engine_->RunMaintenance().ok());
  EXPECT_EQ(Describe().shards_size(), 1);
  clock_->Advance(1);
  ASSERT_TRUE(engine_->RunMaintenance().ok());
  Put("b", "1");
  auto closed = engine_->CloseStreamShard("tbl");
  ASSERT_TRUE(closed.ok()) << closed.error().message();
  Put("c", "1");
  auto d = Describe();
  ASSERT_EQ(d.shards_size(), 3);
  EXPECT_EQ(d.shards(1).parent_shard_id(), d.shards(0).shard_id());
  EXPECT_EQ(d.shards(2).parent_shard_id(), d.shards(1).shard_id());
  EXPECT_EQ(closed->first, d.shards(1).shard_id());
  EXPECT_EQ(closed->second, d.shards(2).shard_id());
  EXPECT_TRUE(d.shards(0).sequence_number_range().has_ending_sequence_number());
  EXPECT_FALSE(d.shards(2).sequence_number_range().has_ending_sequence_number());
  std::vector<std::string> seen;
  for (const auto& shard : d.shards()) {
    auto r = Records(Iterator(shard.shard_id()));
    ASSERT_TRUE(r.ok());
    for (const auto& rec : r->records()) seen.push_back(rec.dynamodb().keys().at("pk").s());
    // A closed shard read to its end gives no next iterator.
    EXPECT_EQ(r->has_next_shard_iterator(), !shard.sequence_number_range().has_ending_sequence_number());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(StreamsTest, IteratorsExpireAndRecordsAreTrimmed) {
  Put("a", "1");
  std::string shard = Describe().shards(0).shard_id();
  std::string it = Iterator(shard);
  clock_->Advance(15 * 60 + 1);
  auto r = Records(it);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kExpiredIterator);
  std::string latest = Iterator(shard, "LATEST");
  r = Records(latest);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->records_size(), 0);
  std::string horizon = Iterator(shard);
  clock_->Advance(24 * 3600);
  // Keep the shard open past the retention with a fresh iterator from
  // before the trim, which must then see the data as trimmed.
  std::string stale = Iterator(shard);
  ASSERT_TRUE(engine_->RunMaintenance().ok());
  auto shards = Describe().shards();
  ASSERT_FALSE(shards.empty());
  r = Records(stale);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::kTrimmedDataAccess);
  // A new TRIM_HORIZON iterator starts after what is gone.
  r = Records(Iterator(shards[shards.size() - 1].shard_id()));
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->records_size(), 0);
}

TEST_F(StreamsTest, DisablingKeepsTheStreamAndEnablingMakesANewOne) {
  Put("a", "1");
  v1::UpdateTableRequest off;
  off.set_table_name("tbl");
  off.mutable_stream_specification()->set_stream_enabled(false);
  ASSERT_TRUE(engine_->UpdateTable(off).ok());
  auto again = engine_->UpdateTable(off);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message(), "Table has no stream to disable: TableName: tbl");
  EXPECT_EQ(Describe().stream_status(), "DISABLED");
  v1::UpdateTableRequest on;
  on.set_table_name("tbl");
  on.mutable_stream_specification()->set_stream_enabled(true);
  on.mutable_stream_specification()->set_stream_view_type("KEYS_ONLY");
  auto enabled = engine_->UpdateTable(on);
  ASSERT_TRUE(enabled.ok()) << enabled.error().message();
  EXPECT_NE(enabled->table_description().latest_stream_arn(), arn_);
  auto twice = engine_->UpdateTable(on);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message(), "Table already has an enabled stream: TableName: tbl");
  v1::ListStreamsRequest list;
  auto streams = engine_->ListStreams(list);
  ASSERT_TRUE(streams.ok());
  EXPECT_EQ(streams->streams_size(), 2);
  // The old stream still has its record.
  auto r = Records(Iterator(Describe().shards(0).shard_id()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->records_size(), 1);
  // 24 hours after it was disabled the old stream is gone.
  clock_->Advance(24 * 3600 + 1);
  ASSERT_TRUE(engine_->RunMaintenance().ok());
  streams = engine_->ListStreams(list);
  ASSERT_TRUE(streams.ok());
  EXPECT_EQ(streams->streams_size(), 1);
}

// DynamoDB Streams' argument checks (facts ST1-ST3): each a
// ValidationException, all before the stream is looked up, so a missing
// stream does not hide them.
TEST_F(StreamsTest, ArgumentsAreValidatedBeforeTheStreamIsLookedUp) {
  const std::string missing = arn_.substr(0, arn_.size() - 3) + "999";
  const std::string shard = Describe().shards(0).shard_id();
  auto iterator = [&](const std::string& arn, const std::string& shard_id, const std::string& type,
                      const char* sequence) {
    v1::GetShardIteratorRequest req;
    req.set_stream_arn(arn);
    req.set_shard_id(shard_id);
    req.set_shard_iterator_type(type);
    if (sequence) req.set_sequence_number(sequence);
    auto r = engine_->GetShardIterator(req);
    return r.ok() ? Status::Ok() : Status(r.error());
  };
  auto expect = [](const Status& st, ErrorCode code, const std::string& message) {
    ASSERT_FALSE(st.ok()) << message;
    EXPECT_EQ(st.error().code(), code) << st.error().message();
    EXPECT_EQ(st.error().message(), message);
  };
  const std::string table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl";
  expect(iterator(table_arn, shard, "LATEST", nullptr), ErrorCode::kValidation, "Invalid StreamArn");
  for (const std::string& arn : {arn_, missing}) {
    expect(iterator(arn, shard, "AT_SEQUENCE_NUMBER", nullptr), ErrorCode::kValidation,
           "SequenceNumber is required for ShardIteratorType AT_SEQUENCE_NUMBER");
    expect(iterator(arn, shard, "TRIM_HORIZON", "000000000000000000001"), ErrorCode::kValidation,
           "SequenceNumber is not allowed for ShardIteratorType TRIM_HORIZON");
    expect(iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", "00000000000000000000x"), ErrorCode::kValidation,
           "Invalid SequenceNumber 00000000000000000000x");
  }
  expect(iterator(missing, shard, "LATEST", nullptr), ErrorCode::kResourceNotFound,
         "Requested resource not found: Stream: " + missing + " not found");
  expect(iterator(arn_, "shardId-00000000000000000000-00000000", "LATEST", nullptr),
         ErrorCode::kResourceNotFound, "Requested resource not found: Shard does not exist");
  EXPECT_TRUE(iterator(arn_, shard, "AT_SEQUENCE_NUMBER", "000000000000000000001").ok());

  v1::DescribeStreamRequest describe;
  describe.set_stream_arn(table_arn);
  auto d = engine_->DescribeStream(describe);
  expect(d.ok() ? Status::Ok() : Status(d.error()), ErrorCode::kValidation, "Invalid StreamArn");
  describe.set_stream_arn(missing);
  describe.mutable_shard_filter()->set_shard_id("short");
  d = engine_->DescribeStream(describe);
  expect(
      d.ok() ? Status::Ok() : Status(d.error()), ErrorCode::kValidation,
      "2 validation errors detected: Value null at 'shardFilter.type' failed to satisfy constraint: Member "
      "must not be null; Value 'short' at 'shardFilter.shardId' failed to satisfy constraint: Member must "
      "have length greater than or equal to 28");

  v1::ListStreamsRequest list;
  list.set_limit(101);
  auto l = engine_->ListStreams(list);
  expect(l.ok() ? Status::Ok() : Status(l.error()), ErrorCode::kValidation,
         "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have "
         "value less than or equal to 100");
  list.set_limit(100);
  list.set_exclusive_start_stream_arn(table_arn + "/index/gsi1");
  l = engine_->ListStreams(list);
  expect(l.ok() ? Status::Ok() : Status(l.error()), ErrorCode::kValidation,
         "Invalid ExclusiveStartStreamArn");
}

}  // namespace
}  // namespace pogi::service
