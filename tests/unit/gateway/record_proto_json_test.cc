// Tests for stream records carried as their finished bytes in GetRecords
// answers (service/actions/get_records.cc) and written to JSON straight from
// them (gateway::AppendRecordJson): random records of every view type and
// source come out as the reflection codec writes the decoded record, member
// order included; the serialized answer parses to the same records for
// gRPC; what pogi does not write falls back to protobuf's reading of it, and
// malformed bytes are refused without output.
#include "gateway/record_proto_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gateway/json_codec.h"
#include "pogi/v1/streams.pb.h"
#include "service/streams/stream_records.h"
#include "tests/unit/random_items.h"

namespace pogi::gateway {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

// A record as GetRecords carries it: stored by the write path, finished.
std::string RandomFinishedRecord(std::mt19937& rng, int64_t sequence) {
  service::Table t;
  t.hash = {"pk", "S"};
  if (rng() % 2) t.range = service::KeyAttribute{"sk", "N"};
  static const char* kViews[] = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"};
  auto with_keys = [&] {
    value::AttributeMap item = test::RandomItem(rng);
    item["pk"].set_s(test::RandomText(rng));
    item["sk"].set_n(std::to_string(rng() % 1000));
    return item;
  };
  value::AttributeMap old_item = with_keys(), new_item = with_keys();
  int change = rng() % 3;  // insert, modify, remove
  auto source = rng() % 4 ? service::ChangeSource::kRequest : service::ChangeSource::kTimeToLive;
  std::string stored =
      service::SerializeRecord(t, kViews[rng() % 4], change == 0 ? nullptr : &old_item,
                               change == 2 ? nullptr : &new_item, {}, 1764612345.0 + rng() % 1000, source);
  std::string finished;
  EXPECT_TRUE(service::FinishRecord(7, sequence, stored, &finished));
  return finished;
}

// The JSON of an answer carrying `records`, and of the same answer parsed
// back into messages (what the codec wrote before records were carried).
std::pair<std::string, std::string> BothWays(const std::vector<std::string>& records) {
  v1::GetRecordsResponse carried;
  carried.set_next_shard_iterator("it");
  for (const auto& r : records) {
    *carried.GetReflection()->MutableUnknownFields(&carried)->AddLengthDelimited(1) = r;
  }
  v1::GetRecordsResponse parsed;
  EXPECT_TRUE(parsed.ParseFromString(carried.SerializeAsString()));
  EXPECT_EQ(parsed.records_size(), static_cast<int>(records.size()));
  std::string a, b;
  MessageToJson(carried, &a);
  MessageToJson(parsed, &b);
  return {a, b};
}

// The member names of every object of `j`, in order, depth first (maps of
// attributes excepted: the reflection codec writes them in hash order).
void MemberOrder(const ordered& j, std::vector<std::string>* names) {
  if (!j.is_object()) {
    if (j.is_array())
      for (const auto& e : j) MemberOrder(e, names);
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    names->push_back(it.key());
    bool attributes = it.key() == "Keys" || it.key() == "NewImage" || it.key() == "OldImage";
    if (!attributes) MemberOrder(it.value(), names);
  }
}

TEST(RecordProtoJsonTest, RandomRecordsComeOutAsTheReflectionCodecWritesThem) {
  std::mt19937 rng(20261201);
  for (int i = 0; i < 300; ++i) {
    std::vector<std::string> records;
    for (int n = rng() % 4; n > 0; --n) records.push_back(RandomFinishedRecord(rng, 100 + i));
    auto [carried, parsed] = BothWays(records);
    ASSERT_EQ(json::parse(carried), json::parse(parsed)) << carried;
    std::vector<std::string> got, want;
    MemberOrder(ordered::parse(carried), &got);
    MemberOrder(ordered::parse(parsed), &want);
    ASSERT_EQ(got, want) << carried;
  }
}

TEST(RecordProtoJsonTest, AnAnswerWithoutRecordsHasAnEmptyList) {
  auto [carried, parsed] = BothWays({});
  EXPECT_EQ(carried, R"({"Records":[],"NextShardIterator":"it"})");
  EXPECT_EQ(parsed, carried);
}

TEST(RecordProtoJsonTest, WhatPogiDoesNotWriteIsReadAsProtobufReadsIt) {
  std::mt19937 rng(7);
  std::string record = RandomFinishedRecord(rng, 1);
  // A second StreamRecord part, which protobuf merges into the first: its
  // view type replaces the first's.
  std::string merged = record + std::string("\x32\x03\x3a\x01X", 5);
  std::string text;
  {
    JsonOut out(&text);
    EXPECT_FALSE(AppendRecordJson(merged, out));
  }
  EXPECT_EQ(text, "");
  auto [carried, parsed] = BothWays({merged});
  EXPECT_EQ(json::parse(carried), json::parse(parsed));
  EXPECT_EQ(json::parse(carried)["Records"][0]["dynamodb"]["StreamViewType"], "X");
}

TEST(RecordProtoJsonTest, MalformedBytesAreRefusedAndLeaveNothing) {
  std::mt19937 rng(8);
  std::string record = RandomFinishedRecord(rng, 1);
  for (size_t cut = 1; cut < record.size(); cut += 3) {
    std::string text = "kept";
    {
      JsonOut out(&text);
      if (AppendRecordJson(record.substr(0, cut), out)) continue;  // cut at a field's end
    }
    EXPECT_EQ(text, "kept") << cut;
  }
  std::string text;
  JsonOut out(&text);
  EXPECT_FALSE(AppendRecordJson(std::string("\x0a\x05"
                                            "ab",
                                            4),
                                out));
  EXPECT_FALSE(AppendRecordJson(std::string("\x32\x02\x12\x05", 4), out));  // an image entry cut short
}

}  // namespace
}  // namespace pogi::gateway
