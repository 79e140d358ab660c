// Tests for Enable/Disable/Describe/UpdateKinesisStreamingDestination over
// in-memory storage on a frozen clock: statuses as the clock and the stream
// check move them, the one live destination, DynamoDB's messages, and the
// queue the write path fills while a destination is live.
#include "service/streams/kinesis_destinations.h"

#include <gtest/gtest.h>

#include "pogi/v1/streams.pb.h"
#include "service/engine/engine.h"

namespace pogi::service {
namespace {

constexpr char kArn[] = "arn:aws:kinesis:us-east-1:000000000000:stream/orders";

class KinesisDestinationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clock_ = std::make_shared<ControllableClock>(1893456000, true);
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    engine_->set_transient_delays(TransientDelays{.kinesis_destination = 5});
    v1::CreateTableRequest req;
    req.set_table_name("tbl");
    req.set_billing_mode("PAY_PER_REQUEST");
    auto* d = req.add_attribute_definitions();
    d->set_attribute_name("pk");
    d->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    ASSERT_TRUE(engine_->CreateTable(req).ok());
  }

  Result<v1::EnableKinesisStreamingDestinationResponse> Enable(const std::string& arn = kArn) {
    v1::EnableKinesisStreamingDestinationRequest req;
    req.set_table_name("tbl");
    req.set_stream_arn(arn);
    return engine_->EnableKinesisStreamingDestination(req);
  }
  Result<v1::DisableKinesisStreamingDestinationResponse> Disable(const std::string& arn = kArn) {
    v1::DisableKinesisStreamingDestinationRequest req;
    req.set_table_name("tbl");
    req.set_stream_arn(arn);
    return engine_->DisableKinesisStreamingDestination(req);
  }
  std::string Status(size_t i = 0) {
    v1::DescribeKinesisStreamingDestinationRequest req;
    req.set_table_name("tbl");
    auto r = engine_->DescribeKinesisStreamingDestination(req);
    EXPECT_TRUE(r.ok());
    if (!r.ok() || static_cast<int>(i) >= r->kinesis_data_stream_destinations_size()) return "";
    return r->kinesis_data_stream_destinations(i).destination_status();
  }
  void Verdict(bool found, const std::string& arn = kArn) {
    auto table = engine_->FindTableOrNull("tbl");
    ASSERT_TRUE(engine_->RecordKinesisVerdict(*table, arn, found, std::string(kKinesisNoPermission)).ok());
  }
  void Put(const std::string& pk) {
    v1::PutItemRequest req;
    req.set_table_name("tbl");
    (*req.mutable_item()->mutable_attributes())["pk"].set_s(pk);
    ASSERT_TRUE(engine_->PutItem(req).ok());
  }
  std::vector<storage::StreamRecordRow> Queued() {
    auto table = engine_->FindTableOrNull("tbl");
    v1::StreamState state;
    std::vector<storage::StreamRecordRow> rows;
    if (table->settings.kinesis_queue_id() == 0) return rows;
    EXPECT_TRUE(engine_->ReadKinesisQueue(table->settings.kinesis_queue_id(), 100, &state, &rows).ok());
    return rows;
  }

  std::shared_ptr<ControllableClock> clock_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(KinesisDestinationsTest, WithoutAnEndpointEveryStreamFails) {
  auto r = Enable();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->destination_status(), "ENABLING");
  EXPECT_TRUE(r->has_enable_kinesis_streaming_configuration());
  EXPECT_EQ(Status(), "ENABLING");
  clock_->Advance(5);
  EXPECT_EQ(Status(), "ENABLE_FAILED");
  Put("a");
  EXPECT_TRUE(Queued().empty());
}

TEST_F(KinesisDestinationsTest, StatusesFollowTheCheckAndTheClock) {
  engine_->set_kinesis_configured(true);
  ASSERT_TRUE(Enable().ok());
  Put("during-enabling");  // queued: delivered once ACTIVE
  clock_->Advance(10);
  EXPECT_EQ(Status(), "ENABLING");  // not checked yet
  Verdict(true);
  EXPECT_EQ(Status(), "ACTIVE");
  Put("active");
  ASSERT_EQ(Queued().size(), 2u);
  v1::KinesisQueuedRecord q;
  ASSERT_TRUE(q.ParseFromString(Queued()[1].record));
  EXPECT_EQ(q.stream_arn(), kArn);
  EXPECT_FALSE(q.microsecond());

  // One live destination: another stream, or this one again, is refused.
  auto again = Enable("arn:aws:kinesis:us-east-1:000000000000:stream/other");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(
      again.error().message(),
      "Table is not in a valid state to enable Kinesis Streaming Destination: "
      "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.");

  auto d = Disable();
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->destination_status(), "DISABLING");
  EXPECT_TRUE(Disable().ok());  // again while DISABLING
  Put("disabling");             // not queued
  EXPECT_EQ(Queued().size(), 2u);
  clock_->Advance(5);
  EXPECT_EQ(Status(), "DISABLED");
  auto refused = Disable();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(
      refused.error().message(),
      "Table is not in a valid state to enable Kinesis Streaming Destination: KinesisStreamingDestination "
      "must be ACTIVE to perform DISABLE operation.");

  // Delivered records leave the queue.
  auto table = engine_->FindTableOrNull("tbl");
  ASSERT_TRUE(engine_->AckKinesisQueue(table->settings.kinesis_queue_id(), Queued()[1].sequence, 0).ok());
  EXPECT_TRUE(Queued().empty());
}

TEST_F(KinesisDestinationsTest, RefusedStreamAndUpdate) {
  engine_->set_kinesis_configured(true);
  ASSERT_TRUE(Enable().ok());
  Verdict(false);
  clock_->Advance(5);
  EXPECT_EQ(Status(), "ENABLE_FAILED");
  v1::UpdateKinesisStreamingDestinationRequest up;
  up.set_table_name("tbl");
  up.set_stream_arn(kArn);
  up.mutable_update_kinesis_streaming_configuration()->set_approximate_creation_date_time_precision(
      "MICROSECOND");
  auto u = engine_->UpdateKinesisStreamingDestination(up);
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message().find("Kinesis streaming is not in ACTIVE state"), std::string::npos);

  ASSERT_TRUE(Enable().ok());  // flips the failed entry
  Verdict(true);
  clock_->Advance(5);
  EXPECT_EQ(Status(), "ACTIVE");
  u = engine_->UpdateKinesisStreamingDestination(up);
  ASSERT_TRUE(u.ok()) << u.error().message();
  EXPECT_EQ(u->destination_status(), "UPDATING");
  EXPECT_EQ(Status(), "UPDATING");
  Put("micro");
  v1::KinesisQueuedRecord q;
  ASSERT_TRUE(q.ParseFromString(Queued().back().record));
  EXPECT_TRUE(q.microsecond());
  clock_->Advance(5);
  EXPECT_EQ(Status(), "ACTIVE");
  u = engine_->UpdateKinesisStreamingDestination(up);
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message().find(
                "Invalid Request: Precision is already set to the desired value of MICROSECOND"),
            std::string::npos);
}

TEST_F(KinesisDestinationsTest, DeleteTableDropsDestinationsAndQueue) {
  engine_->set_kinesis_configured(true);
  ASSERT_TRUE(Enable().ok());
  Put("a");
  v1::DeleteTableRequest del;
  del.set_table_name("tbl");
  ASSERT_TRUE(engine_->DeleteTable(del).ok());
  v1::DescribeKinesisStreamingDestinationRequest req;
  req.set_table_name("tbl");
  auto r = engine_->DescribeKinesisStreamingDestination(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message(), "Requested resource not found: Table: tbl not found");
}

}  // namespace
}  // namespace pogi::service
