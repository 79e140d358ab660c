// Tests for what Kinesis delivery sends (jobs/kinesis_delivery.h): the
// record JSON in DynamoDB's member order, precision, TTL identity,
// partition keys and event ids.
#include "jobs/kinesis_delivery.h"

#include <gtest/gtest.h>

#include "pogi/v1/streams.pb.h"

namespace pogi::jobs {
namespace {

v1::AttributeValue S(const std::string& s) {
  v1::AttributeValue v;
  v.set_s(s);
  return v;
}

std::string Record(const std::string& event, bool ttl = false) {
  v1::Record r;
  r.set_event_name(event);
  r.set_aws_region("us-east-1");
  auto* d = r.mutable_dynamodb();
  (*d->mutable_keys())["pk"] = S("k");
  if (event != "REMOVE") (*d->mutable_new_image())["pk"] = S("k");
  if (event != "INSERT") (*d->mutable_old_image())["pk"] = S("k");
  d->set_size_bytes(12);
  d->set_approximate_creation_date_time(1660598951);
  if (ttl) {
    r.mutable_user_identity()->set_type("Service");
    r.mutable_user_identity()->set_principal_id("dynamodb.amazonaws.com");
  }
  return r.SerializeAsString();
}

TEST(KinesisRecordJsonTest, InsertInDynamoDbsOrder) {
  std::string out;
  ASSERT_TRUE(KinesisRecordJson(Record("INSERT"), "tbl", 1660598951.0975, false, "id-1", &out));
  EXPECT_EQ(
      out,
      "{\"awsRegion\":\"us-east-1\",\"eventID\":\"id-1\",\"eventName\":\"INSERT\",\"userIdentity\":null,"
      "\"recordFormat\":\"application/json\",\"tableName\":\"tbl\",\"dynamodb\":{"
      "\"ApproximateCreationDateTime\":1660598951097,\"Keys\":{\"pk\":{\"S\":\"k\"}},"
      "\"NewImage\":{\"pk\":{\"S\":\"k\"}},\"SizeBytes\":12},\"eventSource\":\"aws:dynamodb\"}");
}

TEST(KinesisRecordJsonTest, ModifyRemoveMicrosecondsAndTtl) {
  std::string out;
  ASSERT_TRUE(KinesisRecordJson(Record("MODIFY"), "t", 1719347890.250647, true, "e", &out));
  EXPECT_NE(out.find("\"NewImage\":{\"pk\":{\"S\":\"k\"}},\"OldImage\":{\"pk\":{\"S\":\"k\"}}"),
            std::string::npos);
  EXPECT_NE(out.find("\"ApproximateCreationDateTime\":171934789025064"), std::string::npos) << out;
  EXPECT_NE(out.find("\"SizeBytes\":12,\"ApproximateCreationDateTimePrecision\":\"MICROSECOND\"}"),
            std::string::npos);
  out.clear();
  ASSERT_TRUE(KinesisRecordJson(Record("REMOVE", true), "t", 1, false, "e", &out));
  EXPECT_EQ(out.find("NewImage"), std::string::npos);
  EXPECT_NE(out.find("\"userIdentity\":{\"type\":\"Service\",\"principalId\":\"dynamodb.amazonaws.com\"}"),
            std::string::npos);
  EXPECT_FALSE(KinesisRecordJson("\xff\xff\xff", "t", 1, false, "e", &out));
}

TEST(KinesisPartitionKeyTest, UpperHexMd5PerItem) {
  std::string a = KinesisPartitionKey("3:abc1");
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789ABCDEF"), std::string::npos);
  EXPECT_EQ(a, KinesisPartitionKey("3:abc1"));
  EXPECT_NE(a, KinesisPartitionKey("3:abc2"));
}

TEST(KinesisEventIdTest, StableVersion4Uuid) {
  std::string id = KinesisEventId(7, 42);
  EXPECT_EQ(id, KinesisEventId(7, 42));
  EXPECT_NE(id, KinesisEventId(7, 43));
  ASSERT_EQ(id.size(), 36u);
  EXPECT_EQ(id[14], '4');
  EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos);
}

}  // namespace
}  // namespace pogi::jobs
