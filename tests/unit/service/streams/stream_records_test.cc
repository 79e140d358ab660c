// Tests for stream record encoding (view types, sizes, identities), sequence
// numbers, iterators, TTL expiry rules and the change feed's queues.
#include "service/streams/stream_records.h"

#include <gtest/gtest.h>

#include "service/engine/ttl.h"
#include "service/write/change_feed.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::N;
using test::S;

Table MakeTable() {
  Table t;
  t.hash = {"pk", "S"};
  t.range = KeyAttribute{"sk", "N"};
  return t;
}

value::AttributeMap Item(const std::string& pk, const std::string& v) {
  value::AttributeMap m;
  m["pk"] = S(pk);
  m["sk"] = N("1");
  m["v"] = S(v);
  return m;
}

// The stored form writes the images as wire bytes; parsed, it must be the
// record BuildRecord makes, for every view type and change.
TEST(StreamRecordsTest, SerializedRecordParsesToTheBuiltRecord) {
  Table t = MakeTable();
  auto old_item = Item("a", "old");
  auto new_item = Item("a", "new");
  new_item["nested"].mutable_m()->mutable_fields()->insert({"x", N("2")});
  std::string new_proto = value::ItemProto(new_item);
  std::string old_proto = value::ItemProto(old_item);
  for (const char* view : {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}) {
    for (auto [o, n] :
         {std::pair{&old_item, &new_item}, std::pair{static_cast<value::AttributeMap*>(nullptr), &new_item},
          std::pair{&old_item, static_cast<value::AttributeMap*>(nullptr)}}) {
      for (bool with_proto : {false, true}) {
        v1::Record built = BuildRecord(t, view, o, n, 100.5, ChangeSource::kTimeToLive);
        // With the forms the write path has (protos and sizes), and without.
        ItemForms forms;
        if (with_proto) {
          if (n) forms.new_proto = new_proto, forms.new_size = value::ItemSize(*n);
          if (o) forms.old_proto = old_proto, forms.old_size = value::ItemSize(*o);
        }
        std::string stored = SerializeRecord(t, view, o, n, forms, 100.5, ChangeSource::kTimeToLive);
        v1::Record parsed;
        ASSERT_TRUE(parsed.ParseFromString(stored)) << view;
        EXPECT_EQ(parsed.DebugString(), built.DebugString()) << view;
      }
    }
  }
}

TEST(StreamRecordsTest, EventNamesAndViewTypes) {
  Table t = MakeTable();
  auto old_item = Item("a", "old");
  auto new_item = Item("a", "new");
  v1::Record r = BuildRecord(t, "NEW_AND_OLD_IMAGES", &old_item, &new_item, 100.7, ChangeSource::kRequest);
  EXPECT_EQ(r.event_name(), "MODIFY");
  EXPECT_EQ(r.event_source(), "aws:dynamodb");
  EXPECT_EQ(r.event_version(), "1.1");
  EXPECT_EQ(r.aws_region(), "us-east-1");
  EXPECT_EQ(r.dynamodb().approximate_creation_date_time(), 100);
  EXPECT_EQ(r.dynamodb().keys().size(), 2u);
  EXPECT_EQ(r.dynamodb().new_image().at("v").s(), "new");
  EXPECT_EQ(r.dynamodb().old_image().at("v").s(), "old");
  EXPECT_EQ(r.dynamodb().stream_view_type(), "NEW_AND_OLD_IMAGES");
  EXPECT_EQ(r.dynamodb().size_bytes(),
            value::ItemSize(r.dynamodb().keys()) + value::ItemSize(old_item) + value::ItemSize(new_item));
  EXPECT_FALSE(r.has_user_identity());

  r = BuildRecord(t, "KEYS_ONLY", nullptr, &new_item, 0, ChangeSource::kRequest);
  EXPECT_EQ(r.event_name(), "INSERT");
  EXPECT_TRUE(r.dynamodb().new_image().empty());
  EXPECT_TRUE(r.dynamodb().old_image().empty());
  EXPECT_EQ(r.dynamodb().size_bytes(), value::ItemSize(r.dynamodb().keys()));

  r = BuildRecord(t, "NEW_IMAGE", &old_item, nullptr, 0, ChangeSource::kRequest);
  EXPECT_EQ(r.event_name(), "REMOVE");
  EXPECT_TRUE(r.dynamodb().new_image().empty());
  EXPECT_TRUE(r.dynamodb().old_image().empty());
  EXPECT_EQ(r.dynamodb().keys().at("pk").s(), "a");

  r = BuildRecord(t, "OLD_IMAGE", &old_item, nullptr, 0, ChangeSource::kTimeToLive);
  EXPECT_EQ(r.dynamodb().old_image().at("v").s(), "old");
  EXPECT_EQ(r.user_identity().type(), "Service");
  EXPECT_EQ(r.user_identity().principal_id(), "dynamodb.amazonaws.com");
}

TEST(StreamRecordsTest, SequenceNumbers) {
  EXPECT_EQ(FormatSequence(1), "000000000000000000001");
  EXPECT_EQ(FormatSequence(1234567890123), "000000001234567890123");
  EXPECT_LT(FormatSequence(9), FormatSequence(10));  // string order is numeric order
  EXPECT_EQ(ParseSequence("000000000000000000042"), 42);
  EXPECT_FALSE(ParseSequence("12a"));
  EXPECT_FALSE(ParseSequence(""));
  EXPECT_FALSE(ParseSequence("99999999999999999999999"));
}

// GetRecords' bytes: the stored record with its event id and sequence
// number, parsing to the built record with those two set, for every view
// type, change and source.
TEST(StreamRecordsTest, FinishedRecordIsTheStoredOneWithItsPosition) {
  Table t = MakeTable();
  auto old_item = Item("a", "old");
  auto new_item = Item("a", "new");
  for (const char* view : {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}) {
    for (auto [o, n] :
         {std::pair{&old_item, &new_item}, std::pair{static_cast<value::AttributeMap*>(nullptr), &new_item},
          std::pair{&old_item, static_cast<value::AttributeMap*>(nullptr)}}) {
      for (auto source : {ChangeSource::kRequest, ChangeSource::kTimeToLive}) {
        std::string stored = SerializeRecord(t, view, o, n, {}, 100.5, source);
        std::string finished = "kept";
        ASSERT_TRUE(FinishRecord(3, 42, stored, &finished)) << view;
        ASSERT_EQ(finished.substr(0, 4), "kept");  // appended
        v1::Record parsed;
        ASSERT_TRUE(parsed.ParseFromString(finished.substr(4))) << view;
        v1::Record want = BuildRecord(t, view, o, n, 100.5, source);
        want.mutable_dynamodb()->set_sequence_number("000000000000000000042");
        want.set_event_id(parsed.event_id());
        EXPECT_EQ(parsed.DebugString(), want.DebugString()) << view;
        // The event id is 32 hex digits of the stream and the position.
        EXPECT_EQ(parsed.event_id().find_first_not_of("0123456789abcdef"), std::string::npos);
        EXPECT_EQ(parsed.event_id().size(), 32u);
      }
    }
  }
}

TEST(StreamRecordsTest, EventIdsFollowTheStreamAndThePosition) {
  Table t = MakeTable();
  auto item = Item("a", "new");
  std::string stored = SerializeRecord(t, "KEYS_ONLY", nullptr, &item, {}, 100.5, ChangeSource::kRequest);
  auto id = [&](int64_t stream, int64_t sequence) {
    std::string finished;
    EXPECT_TRUE(FinishRecord(stream, sequence, stored, &finished));
    v1::Record r;
    EXPECT_TRUE(r.ParseFromString(finished));
    return r.event_id();
  };
  EXPECT_EQ(id(3, 42), id(3, 42));  // every read of a record shows the same id
  EXPECT_NE(id(3, 42), id(3, 43));
  EXPECT_NE(id(3, 42), id(4, 42));
}

TEST(StreamRecordsTest, MalformedStoredRecordsAreRefused) {
  std::string out;
  EXPECT_FALSE(FinishRecord(3, 42,
                            std::string("\x32\x05"
                                        "ab",
                                        4),
                            &out));                                             // a field cut short
  EXPECT_FALSE(FinishRecord(3, 42, std::string("\x08\x01", 2), &out));          // not length-delimited
  EXPECT_FALSE(FinishRecord(3, 42, std::string("\x32\x02\x09\x01", 4), &out));  // a StreamRecord cut short
  EXPECT_TRUE(FinishRecord(3, 42, "", &out));  // nothing stored but the position
}

TEST(StreamRecordsTest, StreamArnForm) {
  const std::string arn =
      "arn:aws:dynamodb:us-east-1:000000000000:table/t.b-1/stream/2030-01-01T00:00:00.000";
  EXPECT_TRUE(IsStreamArn(arn));
  // Another account, region or partition: well formed (not found, if at all, later).
  EXPECT_TRUE(IsStreamArn("arn:aws-cn:dynamodb:cn-north-1:123456789012:table/tbl/stream/x"));
  for (const char* bad : {"", "x", "arn:aws:dynamodb:us-east-1:000000000000:table/tbl",
                          "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/stream/",
                          "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/stream/a/b",
                          "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/index/i",
                          "arn:aws:dynamodb:us-east-1:000000000000:table/ab/stream/x",
                          "arn:aws:dynamodb:us-east-1:000000000000:table/t!b/stream/x",
                          "arn:aws:kinesis:us-east-1:000000000000:table/tbl/stream/x",
                          "arn:aws:dynamodb:us-east-1::table/tbl/stream/x",
                          "nra:aws:dynamodb:us-east-1:000000000000:table/tbl/stream/x",
                          "arn:aws:dynamodb:us-east-1:000000000000:backup/tbl/stream/x"}) {
    EXPECT_FALSE(IsStreamArn(bad)) << bad;
  }
  EXPECT_TRUE(CheckStreamArn(arn, "StreamArn").ok());
  Status st = CheckStreamArn("arn:aws:dynamodb:us-east-1:000000000000:table/tbl", "ExclusiveStartStreamArn");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code(), ErrorCode::kValidation);
  EXPECT_EQ(st.error().message(), "Invalid ExclusiveStartStreamArn");
}

TEST(StreamRecordsTest, IteratorsRoundTrip) {
  ShardIterator it{"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2030-01-01T00:00:00.000",
                   NewShardId(1893456000), 17, 1893456000.5};
  EXPECT_EQ(it.shard_id.size(), 37u);
  auto back = DecodeIterator(EncodeIterator(it));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->stream_arn, it.stream_arn);
  EXPECT_EQ(back->shard_id, it.shard_id);
  EXPECT_EQ(back->after, 17);
  EXPECT_EQ(back->issued, 1893456000.5);
  for (const char* bad : {"", "x", "a|b|c", "|shard|1|2", "arn|shard|x|2"})
    EXPECT_FALSE(DecodeIterator(bad)) << bad;
  EXPECT_EQ(StreamLabel(1893456000), "2030-01-01T00:00:00.000");
}

TEST(TtlTest, WhatExpires) {
  double now = 1893456000;
  EXPECT_TRUE(IsExpired(N("1893456000"), now));
  EXPECT_TRUE(IsExpired(N("1893455999.5"), now));
  EXPECT_FALSE(IsExpired(N("1893456000.5"), now));
  EXPECT_FALSE(IsExpired(S("1"), now));
  EXPECT_FALSE(IsExpired(N("1.0E2"), now));  // more than five years ago
  EXPECT_TRUE(IsExpired(N("1.8E9"), now));   // 2027
}

TEST(ChangeFeedTest, SlowWatcherIsToldWhatWasDropped) {
  ChangeFeed feed;
  EXPECT_FALSE(feed.active());
  int notified = 0;
  auto w = feed.Watch(
      "t", [&] { ++notified; }, 2);
  EXPECT_TRUE(feed.active());
  for (int i = 0; i < 5; ++i) {
    v1::ChangeEvent e;
    e.set_table_name("t");
    e.set_event_name("INSERT");
    feed.Publish(e);
  }
  v1::ChangeEvent other;
  other.set_table_name("u");
  feed.Publish(other);  // another table: not this watcher's
  EXPECT_EQ(notified, 2);
  EXPECT_EQ(w->Pop()->feed_sequence(), 1u);
  EXPECT_EQ(w->Pop()->feed_sequence(), 2u);
  auto marker = w->Pop();
  EXPECT_EQ(marker->event_name(), "DROPPED");
  EXPECT_EQ(marker->dropped(), 3u);
  EXPECT_FALSE(w->Pop());
  v1::ChangeEvent e;
  e.set_table_name("t");
  feed.Publish(e);
  EXPECT_EQ(w->Pop()->feed_sequence(), 7u);
  feed.Unwatch(w);
  EXPECT_FALSE(feed.active());
}

}  // namespace
}  // namespace pogi::service
