// The ordered item writer: where each map's order comes from (the request,
// the item as it was, an update's paths), sets sorted, and UpdateItem's
// answers. "Aa" and "BB" share Java's hash, so they share every bucket and
// only the order they were put in separates them.
#include "service/value/item_encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/entry_order.h"
#include "common/wire_reader.h"
#include "service/value/attribute_order.h"
#include "service/value/item.h"

namespace pogi::value {
namespace {

using Map = google::protobuf::Map<std::string, v1::AttributeValue>;

v1::AttributeValue S(std::string s) {
  v1::AttributeValue v;
  v.set_s(std::move(s));
  return v;
}

v1::AttributeValue M(const Map& fields) {
  v1::AttributeValue v;
  *v.mutable_m()->mutable_fields() = fields;
  return v;
}

// The names of the serialized Item (or MapValue) `proto`, in order.
std::vector<std::string> NamesOf(std::string_view proto) {
  std::vector<std::string> names;
  wire::ForEachField(proto, 1, [&](std::string_view entry) {
    wire::Reader r(entry);
    uint32_t f, t;
    std::string_view key;
    if (r.Tag(&f, &t) && f == 1 && r.LengthDelimited(&key)) names.emplace_back(key);
    return true;
  });
  return names;
}

// The serialized value of entry `name` of `proto`, its bytes as written.
std::string ValueOf(std::string_view proto, std::string_view name) {
  std::string found;
  wire::ForEachField(proto, 1, [&](std::string_view entry) {
    wire::Reader r(entry);
    std::string_view key, value;
    while (!r.done()) {
      uint32_t f, t;
      if (!r.Tag(&f, &t) || !r.LengthDelimited(f == 1 ? &key : &value)) return false;
    }
    if (key == name) found = std::string(value);
    return true;
  });
  return found;
}

// The serialized MapValue inside entry `name` of `proto`.
std::string NestedOf(std::string_view proto, std::string_view name) {
  std::string value = ValueOf(proto, name);
  std::string map;
  wire::ForEachField(value, 7, [&](std::string_view m) {
    map = std::string(m);
    return true;
  });
  return map;
}

// The order a client wrote its maps in, each map's names as listed here,
// installed for the calling thread while it lives.
struct RequestOrder {
  RequestOrder(std::initializer_list<std::vector<std::string>> listed)
      : maps(listed), order(&maps, nullptr), scope(&order) {}
  std::vector<std::vector<std::string>> maps;
  ListedEntryOrder order;
  EntryOrderScope scope;
};

Map Item(const std::vector<std::string>& names) {
  Map m;
  for (const std::string& n : names) m[n] = S("v");
  return m;
}

TEST(OrderedItem, AMapInTheOrderTheRequestWroteIt) {
  Map item = Item({"BB", "pk", "Aa"});
  {
    RequestOrder request{{"BB", "pk", "Aa"}};
    EXPECT_EQ(NamesOf(ItemProto(item)), (std::vector<std::string>{"BB", "Aa", "pk"}));
  }
  {
    RequestOrder request{{"Aa", "BB", "pk"}};
    EXPECT_EQ(NamesOf(ItemProto(item)), (std::vector<std::string>{"Aa", "BB", "pk"}));
  }
  // Not known (the gRPC door): rebuilt, name order within a bucket.
  EXPECT_EQ(NamesOf(ItemProto(item)), (std::vector<std::string>{"Aa", "BB", "pk"}));
}

TEST(OrderedItem, NestedMapsToo) {
  Map inner = Item({"BB", "Aa"});
  Map item = Item({"pk"});
  item["m"] = M(inner);
  RequestOrder request{{"BB", "Aa"}};
  std::string proto = ItemProto(item);
  EXPECT_EQ(NamesOf(NestedOf(proto, "m")), (std::vector<std::string>{"BB", "Aa"}));
}

TEST(OrderedItem, KeptOrderSurvivesADecode) {
  Map item = Item({"BB", "pk", "Aa", "x"});
  item["m"] = M(Item({"BB", "Aa"}));
  std::string written;
  {
    RequestOrder request{{"BB", "pk", "Aa", "x", "m"}, {"BB", "Aa"}};
    written = ItemProto(item);
  }
  v1::Item decoded;
  ASSERT_TRUE(decoded.ParseFromString(written));
  // The same map, its order forgotten by protobuf: the kept form restores it.
  EXPECT_EQ(ItemProto(decoded.attributes(), EntryOrigin::Kept(written)), written);
}

TEST(OrderedItem, AnUpdateRebuildsTheMapsOnItsPathsAndKeepsTheOthers) {
  Map item = Item({"BB", "pk", "Aa"});
  item["on_path"] = M(Item({"BB", "Aa"}));
  item["aside"] = M(Item({"BB", "Aa"}));
  std::string before;
  {
    RequestOrder request{{"BB", "pk", "Aa", "on_path", "aside"}, {"BB", "Aa"}};
    before = ItemProto(item);
  }
  EXPECT_EQ(NamesOf(NestedOf(before, "on_path")), (std::vector<std::string>{"BB", "Aa"}));
  // SET on_path.x = :v
  (*item["on_path"].mutable_m()->mutable_fields())["x"] = S("w");
  PathTree updated;
  updated.names["on_path"].names["x"].end = PathTree::End::kWritten;
  std::string after = ItemProto(item, EntryOrigin::Along(before, &updated));
  // The item and on_path rebuilt (Aa before BB); aside as it was.
  std::vector<std::string> top = NamesOf(after);
  EXPECT_LT(std::find(top.begin(), top.end(), "Aa"), std::find(top.begin(), top.end(), "BB"));
  std::vector<std::string> on_path = NamesOf(NestedOf(after, "on_path"));
  EXPECT_LT(std::find(on_path.begin(), on_path.end(), "Aa"), std::find(on_path.begin(), on_path.end(), "BB"));
  EXPECT_EQ(NamesOf(NestedOf(after, "aside")), (std::vector<std::string>{"BB", "Aa"}));
}

TEST(OrderedItem, SetMembersKeepTheirOrder) {
  // value/set_order.h orders them where they are written or changed.
  Map item;
  for (const char* s : {"zeta", "alpha", "Beta"}) item["ss"].mutable_ss()->add_values(s);
  v1::Item out;
  ASSERT_TRUE(out.ParseFromString(ItemProto(item)));
  const auto& got = out.attributes().at("ss").ss().values();
  EXPECT_EQ(std::vector<std::string>(got.begin(), got.end()),
            (std::vector<std::string>{"zeta", "alpha", "Beta"}));
}

TEST(InUpdateAnswerOrder, CopiesTheTopLevelMapOnce) {
  // Twelve names: stored in a map of 16, copied into one of 32 (12 / 0.75 + 1
  // = 17), then answered from a map of 16 again. Two names of one bucket of
  // 16 but different buckets of 32 come out by their bucket of 32.
  std::vector<std::string> names;
  for (int i = 0; names.size() < 12; ++i) names.push_back("n" + std::to_string(i));
  Map item = Item(names);
  std::string stored = ItemProto(item);
  std::string answer = InUpdateAnswerOrder(stored);
  std::vector<std::string> got = NamesOf(answer);
  ASSERT_EQ(got.size(), 12u);
  for (size_t i = 0; i + 1 < got.size(); ++i) {
    uint32_t a = JavaMapHash(got[i]), b = JavaMapHash(got[i + 1]);
    ASSERT_LE(a & 15, b & 15) << got[i];
    if ((a & 15) == (b & 15)) EXPECT_LE(a & 31, b & 31) << got[i];
  }
  // Every entry is still there, with its value.
  for (const std::string& n : names) EXPECT_EQ(ValueOf(answer, n), ValueOf(stored, n)) << n;
}

}  // namespace
}  // namespace pogi::value
