// Tests for Kinesis streaming destinations' statuses by the clock and the
// stream ARNs they name (service/streams/kinesis_destinations.h).
#include "service/streams/kinesis_destinations.h"

#include <gtest/gtest.h>

#include "pogi/v1/streams.pb.h"

namespace pogi::service {
namespace {

v1::KinesisDestinationState Dest(const std::string& status, double ends_at, int verdict = kKinesisUnchecked) {
  v1::KinesisDestinationState d;
  d.set_stream_arn("arn:aws:kinesis:us-east-1:000000000000:stream/s");
  d.set_status(status);
  d.set_ends_at(ends_at);
  d.set_verdict(verdict);
  return d;
}

TEST(KinesisStatusTest, EnablingWaitsForTheClockAndTheCheck) {
  EXPECT_EQ(KinesisStatusAt(Dest("ENABLING", 10, kKinesisStreamFound), 9.999), "ENABLING");
  EXPECT_EQ(KinesisStatusAt(Dest("ENABLING", 10, kKinesisStreamFound), 10), "ACTIVE");
  EXPECT_EQ(KinesisStatusAt(Dest("ENABLING", 10, kKinesisStreamRefused), 11), "ENABLE_FAILED");
  EXPECT_EQ(KinesisStatusAt(Dest("ENABLING", 10, kKinesisUnchecked), 100), "ENABLING");
}

TEST(KinesisStatusTest, UpdatingAndDisablingEndByTheClock) {
  EXPECT_EQ(KinesisStatusAt(Dest("UPDATING", 5), 4), "UPDATING");
  EXPECT_EQ(KinesisStatusAt(Dest("UPDATING", 5), 5), "ACTIVE");
  EXPECT_EQ(KinesisStatusAt(Dest("DISABLING", 5), 4), "DISABLING");
  EXPECT_EQ(KinesisStatusAt(Dest("DISABLING", 5), 6), "DISABLED");
  EXPECT_EQ(KinesisStatusAt(Dest("DISABLED", 0), 6), "DISABLED");
  EXPECT_EQ(KinesisStatusAt(Dest("ACTIVE", 0), 6), "ACTIVE");
}

TEST(KinesisStatusTest, SettleStoresWhatTheClockShows) {
  v1::TableSettings s;
  *s.add_kinesis_destinations() = Dest("DISABLING", 5);
  *s.add_kinesis_destinations() = Dest("ENABLE_FAILED", 0);
  EXPECT_FALSE(SettleKinesisDestinations(s, 4));
  EXPECT_TRUE(SettleKinesisDestinations(s, 5));
  EXPECT_EQ(s.kinesis_destinations(0).status(), "DISABLED");
  EXPECT_FALSE(SettleKinesisDestinations(s, 6));
}

TEST(KinesisStatusTest, LiveStatuses) {
  for (const char* s : {"ENABLING", "ACTIVE", "UPDATING", "DISABLING"})
    EXPECT_TRUE(IsLiveKinesisStatus(s)) << s;
  for (const char* s : {"DISABLED", "ENABLE_FAILED", ""}) EXPECT_FALSE(IsLiveKinesisStatus(s)) << s;
}

TEST(KinesisArnTest, StreamNameAndRegion) {
  EXPECT_EQ(KinesisStreamName("arn:aws:kinesis:us-east-1:000000000000:stream/my-stream"), "my-stream");
  EXPECT_EQ(KinesisArnRegion("arn:aws:kinesis:eu-west-1:000000000000:stream/my-stream"), "eu-west-1");
  EXPECT_EQ(KinesisStreamName("arn:aws:kinesis:us-east-1:000000000000:stream/s/consumer/c:1"), "");
  EXPECT_EQ(KinesisStreamName("arn:aws:firehose:us-east-1:000000000000:deliverystream/d"), "");
  EXPECT_EQ(KinesisStreamName("arn:aws:dynamodb:us-east-1:000000000000:table/t"), "");
  EXPECT_EQ(KinesisStreamName("not an arn at all, but long enough to pass"), "");
}

TEST(KinesisQueueEntryTest, CarriesStreamPrecisionKeyAndRecord) {
  storage::EncodedKey key{"pk", "sk"};
  v1::KinesisQueuedRecord q;
  ASSERT_TRUE(q.ParseFromString(KinesisQueueEntry("arn:x", true, key, "REC")));
  EXPECT_EQ(q.stream_arn(), "arn:x");
  EXPECT_TRUE(q.microsecond());
  EXPECT_EQ(q.record(), "REC");
  // Partition and sort keys are told apart: ("ab","c") is not ("a","bc").
  EXPECT_NE(KinesisQueueEntry("a", false, {"ab", "c"}, ""), KinesisQueueEntry("a", false, {"a", "bc"}, ""));
}

}  // namespace
}  // namespace pogi::service
