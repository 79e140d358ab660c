// Tests for JsonEntryOrder: a map's entries in the order the request's JSON
// wrote them, found by their keys anywhere in the document.
#include "gateway/json_entry_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gateway/json_codec.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::gateway {
namespace {

// `names` as JsonEntryOrder puts them for `body`; {"?"} when it does not know.
std::vector<std::string> Order(const std::string& body, std::vector<std::string> names) {
  JsonEntryOrder order(body);
  std::vector<const std::string*> pointers;
  for (const std::string& n : names) pointers.push_back(&n);
  if (!order.Sort(pointers)) return {"?"};
  std::vector<std::string> out;
  for (const std::string* p : pointers) out.push_back(*p);
  return out;
}

TEST(JsonEntryOrderTest, FindsTheObjectWithExactlyTheseKeys) {
  const std::string body =
      R"({"TableName": "t", "Item": {"z": {"S": "a"}, "m": {"N": "1"}, "a": {"M": {"y": {"S": "b"}, "b": {"S": "c"}}}}})";
  EXPECT_EQ(Order(body, {"a", "m", "z"}), (std::vector<std::string>{"z", "m", "a"}));
  // A nested map value.
  EXPECT_EQ(Order(body, {"b", "y"}), (std::vector<std::string>{"y", "b"}));
  // Keys of an object inside a list.
  EXPECT_EQ(Order(R"({"L": [1, {"q": 1, "p": 2}]})", {"p", "q"}), (std::vector<std::string>{"q", "p"}));
}

TEST(JsonEntryOrderTest, EscapedKeysAreMatchedUnescaped) {
  EXPECT_EQ(Order(R"({"Item": {"\u0062": 1, "a": 2}})", {"a", "b"}), (std::vector<std::string>{"b", "a"}));
}

TEST(JsonEntryOrderTest, DoesNotKnowWithoutAMatchOrWhenMatchesDisagree) {
  EXPECT_EQ(Order(R"({"Item": {"a": 1, "b": 2, "c": 3}})", {"a", "b"}), std::vector<std::string>{"?"});
  // Two items with the same attributes written in different orders.
  EXPECT_EQ(Order(R"([{"a": 1, "b": 2}, {"b": 3, "a": 4}])", {"a", "b"}), std::vector<std::string>{"?"});
  // ... and in the same order: known.
  EXPECT_EQ(Order(R"([{"b": 1, "a": 2}, {"b": 3, "a": 4}])", {"a", "b"}),
            (std::vector<std::string>{"b", "a"}));
}

TEST(JsonEntryOrderTest, ADeeplyNestedBodyIsWalkedWithoutRecursion) {
  std::string body = R"({"Item": {"b": 1, "a": 2}, "Ignored": )";
  for (int i = 0; i < 200000; ++i) body += '[';
  for (int i = 0; i < 200000; ++i) body += ']';
  body += '}';
  EXPECT_EQ(Order(body, {"a", "b"}), (std::vector<std::string>{"b", "a"}));
}

// An item's attributes: the order JsonToMessage recorded while it decoded
// the body, without parsing it again (the body given here is not even JSON).
TEST(JsonEntryOrderTest, AnItemsOrderComesFromTheDecode) {
  const std::string body =
      R"({"TableName": "t", "Item": {"z": {"S": "a"}, "m": {"M": {"y": {"S": "b"}, "b": {"S": "c"}}}, "a": {"N": "1"}}})";
  v1::PutItemRequest req;
  MapKeyOrders recorded;
  ASSERT_TRUE(JsonToMessage(body, &req, &recorded).ok());
  ASSERT_EQ(recorded.size(), 2u);  // the item and its map value
  JsonEntryOrder order("not JSON", &recorded);
  std::vector<const std::string*> names;
  for (const auto& [name, value] : req.item().attributes()) names.push_back(&name);
  ASSERT_TRUE(order.Sort(names));
  EXPECT_EQ((std::vector<std::string>{*names[0], *names[1], *names[2]}),
            (std::vector<std::string>{"z", "m", "a"}));
  std::vector<const std::string*> nested;
  for (const auto& [name, value] : req.item().attributes().at("m").m().fields()) nested.push_back(&name);
  ASSERT_TRUE(order.Sort(nested));
  EXPECT_EQ((std::vector<std::string>{*nested[0], *nested[1]}), (std::vector<std::string>{"y", "b"}));
}

}  // namespace
}  // namespace pogi::gateway
