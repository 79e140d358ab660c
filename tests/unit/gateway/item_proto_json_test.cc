// Tests for items carried as their serialized bytes (value::CarryItemList)
// and written to JSON straight from them (gateway::AppendItemProtoJson,
// AppendItemListJson): random items of every type must come out as the
// reflection codec writes the decoded item, for JSON and for gRPC (the
// serialized answer parses back to the same items); malformed bytes are
// refused without output; JSON string escaping at every position.
#include "gateway/item_proto_json.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "gateway/json_codec.h"
#include "gateway/json_text.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/value/item.h"
#include "tests/unit/random_items.h"

namespace pogi::gateway {
namespace {

using json = nlohmann::json;

using test::RandomItem;
using test::RandomText;

// The reflection codec's JSON of a decoded item: the reference.
json ReferenceJson(const value::AttributeMap& item) {
  v1::Item m;
  *m.mutable_attributes() = item;
  std::string text;
  MessageToJson(m, &text);
  return json::parse(text);
}

TEST(ItemProtoJsonTest, RandomItemsComeOutAsTheReflectionCodecWritesThem) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 2000; ++i) {
    value::AttributeMap item = RandomItem(rng);
    std::string text = "prefix";
    {
      JsonOut out(&text);
      ASSERT_TRUE(AppendItemProtoJson(value::ItemProto(item), out));
    }
    ASSERT_EQ(text.substr(0, 6), "prefix");
    json got = json::parse(text.substr(6));  // throws on invalid JSON
    ASSERT_EQ(got, ReferenceJson(item)) << text;
  }
}

TEST(ItemProtoJsonTest, ItemProtoIsTheItemMessagesOwnEncoding) {
  std::mt19937 rng(99);
  for (int i = 0; i < 1000; ++i) {
    value::AttributeMap item = RandomItem(rng);
    v1::Item message;
    *message.mutable_attributes() = item;
    v1::Item parsed;  // entries in map order, which copies may change: compare as messages
    ASSERT_TRUE(parsed.ParseFromString(value::ItemProto(item)));
    ASSERT_TRUE(google::protobuf::util::MessageDifferencer::Equals(parsed, message));
    ASSERT_EQ(value::ItemProto(item).size(), message.ByteSizeLong());
    auto decoded = value::DecodeItem(value::EncodeItem(item));
    ASSERT_TRUE(decoded.ok());
    ASSERT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*decoded, message));
  }
}

// A Query answer whose items are carried as a serialized ItemList.
v1::QueryResponse CarryingAnswer(const std::vector<value::AttributeMap>& items) {
  std::string list;
  for (const auto& item : items) value::AppendItemListEntry(value::ItemProto(item), &list);
  v1::QueryResponse resp;
  value::CarryItemList(&resp, v1::QueryResponse::kItemsFieldNumber, std::move(list));
  resp.set_count(static_cast<int64_t>(items.size()));
  resp.set_scanned_count(static_cast<int64_t>(items.size()));
  return resp;
}

// The same answer with the items set the ordinary way.
v1::QueryResponse PlainAnswer(const std::vector<value::AttributeMap>& items) {
  v1::QueryResponse resp;
  auto* list = resp.mutable_items();
  for (const auto& item : items) *list->add_items()->mutable_attributes() = item;
  resp.set_count(static_cast<int64_t>(items.size()));
  resp.set_scanned_count(static_cast<int64_t>(items.size()));
  return resp;
}

TEST(ItemProtoJsonTest, CarriedItemsSerializeAsPlainItemsForGrpc) {
  std::mt19937 rng(7);
  std::vector<value::AttributeMap> items;
  for (int i = 0; i < 50; ++i) items.push_back(RandomItem(rng));
  v1::QueryResponse parsed;
  ASSERT_TRUE(parsed.ParseFromString(CarryingAnswer(items).SerializeAsString()));
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(parsed, PlainAnswer(items)));
}

TEST(ItemProtoJsonTest, CarriedItemsWriteTheSameJsonAsPlainItems) {
  std::mt19937 rng(11);
  for (size_t n : {0, 1, 2, 37}) {
    std::vector<value::AttributeMap> items;
    for (size_t i = 0; i < n; ++i) items.push_back(RandomItem(rng));
    std::string carried, plain;
    MessageToJson(CarryingAnswer(items), &carried);
    MessageToJson(PlainAnswer(items), &plain);
    EXPECT_EQ(json::parse(carried), json::parse(plain)) << carried;
    EXPECT_EQ(json::parse(carried)["Items"].size(), n);
  }
}

TEST(ItemProtoJsonTest, AnAnswerWithoutItemsHasNoItemsMember) {
  v1::QueryResponse resp;
  resp.set_count(3);
  std::string text;
  MessageToJson(resp, &text);
  EXPECT_FALSE(json::parse(text).contains("Items")) << text;
}

TEST(ItemProtoJsonTest, MalformedBytesAreRefusedAndLeaveNothing) {
  value::AttributeMap item;
  item["name"].set_s("value");
  item["nested"].mutable_m()->mutable_fields()->insert({"k", item["name"]});
  std::string good = value::ItemProto(item);
  std::vector<std::string> bad = {
      good.substr(0, good.size() - 1),  // cut short
      std::string("\x0a\x7f", 2),       // length past the end
      std::string("\x0a\x02\x12\xff", 4),
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11),  // endless varint
      std::string("\x0b", 1),                                           // a group
  };
  for (const auto& bytes : bad) {
    std::string text = "[";
    {
      JsonOut out(&text);
      EXPECT_FALSE(AppendItemProtoJson(bytes, out));
      bool first = true;
      std::string list;
      value::AppendItemListEntry(bytes, &list);
      list = std::string("\x0a\x01", 2) + list;  // a damaged entry first
      EXPECT_FALSE(AppendItemListJson(list.substr(0, list.size() - 1), &first, out));
      EXPECT_TRUE(first);
    }
    EXPECT_EQ(text, "[");
  }
}

TEST(ItemProtoJsonTest, DeepNestingBeyondWhatPogiStoresIsRefused) {
  v1::AttributeValue v;
  v.set_s("leaf");
  for (int i = 0; i < 60; ++i) {
    v1::AttributeValue outer;
    *outer.mutable_l()->add_values() = v;
    v = outer;
  }
  value::AttributeMap item;
  item["deep"] = v;
  std::string text;
  JsonOut out(&text);
  EXPECT_FALSE(AppendItemProtoJson(value::ItemProto(item), out));
}

TEST(JsonTextTest, StringsAreEscapedAtEveryOffset) {
  std::mt19937 rng(3);
  for (int i = 0; i < 3000; ++i) {
    std::string s = RandomText(rng) + RandomText(rng);
    std::string a, b = "x";
    AppendJsonString(s, &a);
    {
      JsonOut out(&b);
      out.String(s);
    }
    ASSERT_EQ(json::parse(a).get<std::string>(), s);
    ASSERT_EQ(b, "x" + a);
  }
}

}  // namespace
}  // namespace pogi::gateway
