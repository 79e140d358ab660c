// Tests for BatchGetItem and BatchWriteItem over in-memory storage: member
// constraints and DynamoDB's messages, duplicates, several tables,
// projections, ConsumedCapacity per table, the 16 MB response limit, and the
// request echo of validation messages (write/multi_item.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "service/engine/engine.h"
#include "service/validate/member_presence.h"
#include "service/write/multi_item.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using V = v1::AttributeValue;

using test::Decode;
using test::N;
using test::S;

v1::Item ItemOf(std::vector<std::pair<std::string, V>> attrs) {
  v1::Item item;
  for (auto& [k, v] : attrs) (*item.mutable_attributes())[k] = v;
  return item;
}

class BatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, std::make_shared<SystemClock>());
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
    Create("hash", false);
    Create("range", true);
  }

  void Create(const std::string& name, bool range) {
    v1::CreateTableRequest req;
    req.set_table_name(name);
    req.set_billing_mode("PAY_PER_REQUEST");
    auto* d = req.add_attribute_definitions();
    d->set_attribute_name("pk");
    d->set_attribute_type("S");
    auto* k = req.add_key_schema();
    k->set_attribute_name("pk");
    k->set_key_type("HASH");
    if (range) {
      d = req.add_attribute_definitions();
      d->set_attribute_name("sk");
      d->set_attribute_type("N");
      k = req.add_key_schema();
      k->set_attribute_name("sk");
      k->set_key_type("RANGE");
    }
    auto r = engine_->CreateTable(req);
    ASSERT_TRUE(r.ok()) << r.error().message();
  }

  static void AddPut(v1::BatchWriteItemRequest* req, const std::string& table, v1::Item item) {
    *(*req->mutable_request_items())[table].add_requests()->mutable_put_request()->mutable_item() =
        item.attributes();
  }
  static void AddDelete(v1::BatchWriteItemRequest* req, const std::string& table, v1::Item key) {
    *(*req->mutable_request_items())[table].add_requests()->mutable_delete_request()->mutable_key() =
        key.attributes();
  }
  static void AddKey(v1::BatchGetItemRequest* req, const std::string& table, v1::Item key) {
    *(*req->mutable_request_items())[table].add_keys() = key;
  }

  template <typename R>
  static std::string ErrorOf(const R& r) {
    return r.ok() ? "(ok)" : std::string(r.error().info().short_name) + ": " + r.error().message();
  }

  std::unique_ptr<Engine> engine_;
};

TEST_F(BatchTest, WriteConstraints) {
  v1::BatchWriteItemRequest req;
  EXPECT_EQ(ErrorOf(engine_->BatchWriteItem(req)),
            "ValidationException: The requestItems parameter is required for BatchWriteItem");
  (*req.mutable_request_items())["hash"];
  EXPECT_EQ(
      ErrorOf(engine_->BatchWriteItem(req)),
      "ValidationException: 1 validation error detected: Value '{hash=[]}' at 'requestItems' failed to "
      "satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to "
      "25, Member must have length greater than or equal to 1]");
  // A bad enum is listed together with the RequestItems constraints (behaviours.md O10).
  req.set_return_consumed_capacity("BOGUS");
  EXPECT_EQ(
      ErrorOf(engine_->BatchWriteItem(req)),
      "ValidationException: 2 validation errors detected: Value 'BOGUS' at 'returnConsumedCapacity' failed "
      "to "
      "satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value '{hash=[]}' at "
      "'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have "
      "length less than or equal to 25, Member must have length greater than or equal to 1]");
  req.clear_return_consumed_capacity();

  // A PutRequest without Item and a DeleteRequest without Key are null
  // (behaviours.md V1); an Item sent as {} is present, and fails later.
  v1::BatchWriteItemRequest nulls;
  auto* list = &(*nulls.mutable_request_items())["hash"];
  list->add_requests()->mutable_put_request();
  list->add_requests()->mutable_delete_request();
  EXPECT_EQ(
      ErrorOf(engine_->BatchWriteItem(nulls)),
      "ValidationException: 2 validation errors detected: Value null at "
      "'requestItems.hash.member.1.member.putRequest.item' failed to satisfy constraint: Member must not be "
      "null; Value null at 'requestItems.hash.member.2.member.deleteRequest.key' failed to satisfy "
      "constraint: Member must not be null");
  MarkSentEmpty(list->mutable_requests(0)->mutable_put_request(), v1::PutRequest::kItemFieldNumber);
  MarkSentEmpty(list->mutable_requests(1)->mutable_delete_request(), v1::DeleteRequest::kKeyFieldNumber);
  EXPECT_EQ(ErrorOf(engine_->BatchWriteItem(nulls)),
            "ValidationException: The provided key element does not match the schema");

  v1::BatchWriteItemRequest too_many;
  for (int i = 0; i < 13; ++i) AddPut(&too_many, "hash", ItemOf({{"pk", S("k" + std::to_string(i))}}));
  for (int i = 0; i < 13; ++i)
    AddPut(&too_many, "range", ItemOf({{"pk", S("k")}, {"sk", N(std::to_string(i))}}));
  EXPECT_EQ(ErrorOf(engine_->BatchWriteItem(too_many)),
            "ValidationException: Too many items requested for the BatchWriteItem call");

  v1::BatchWriteItemRequest bad_name;
  AddPut(&bad_name, "a", ItemOf({{"pk", S("x")}}));
  EXPECT_EQ(
      ErrorOf(engine_->BatchWriteItem(bad_name)),
      "ValidationException: 1 validation error detected: Value '{a=[WriteRequest(putRequest=PutRequest("
      "item={pk=AttributeValue(S=x)}), deleteRequest=null)]}' at 'requestItems' failed to satisfy "
      "constraint: Map keys must satisfy constraint: [Member must have length less than or equal to 255, "
      "Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: "
      "[a-zA-Z0-9_.-]+]");
}

TEST_F(BatchTest, WriteValidations) {
  auto one = [&](const std::string& table, v1::Item item, bool put = true) {
    v1::BatchWriteItemRequest req;
    put ? AddPut(&req, table, item) : AddDelete(&req, table, item);
    return ErrorOf(engine_->BatchWriteItem(req));
  };
  const std::string mismatch = "ValidationException: The provided key element does not match the schema";
  EXPECT_EQ(one("hash", ItemOf({{"pk", N("5")}})), mismatch);
  EXPECT_EQ(one("hash", ItemOf({{"other", S("x")}})), mismatch);
  EXPECT_EQ(one("range", ItemOf({{"pk", S("x")}})), mismatch);
  EXPECT_EQ(one("hash", ItemOf({{"other", S("x")}}), false), mismatch);
  EXPECT_EQ(one("hash", ItemOf({{"pk", S("")}})),
            "ValidationException: One or more parameter values are not valid. The AttributeValue for a key "
            "attribute cannot contain an empty string value. Key: pk");
  EXPECT_EQ(one("nosuch", ItemOf({{"pk", S("x")}})),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(one("hash", ItemOf({{"pk", S("x")}, {"b", S(std::string(409600, 'b'))}})),
            "ValidationException: Item size has exceeded the maximum allowed size");

  v1::BatchWriteItemRequest dup;
  AddPut(&dup, "range", ItemOf({{"pk", S("d")}, {"sk", N("1e3")}}));
  AddDelete(&dup, "range", ItemOf({{"pk", S("d")}, {"sk", N("1000")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchWriteItem(dup)),
            "ValidationException: Provided list of item keys contains duplicates");

  v1::BatchWriteItemRequest neither;
  (*neither.mutable_request_items())["hash"].add_requests();
  EXPECT_EQ(ErrorOf(engine_->BatchWriteItem(neither)),
            "ValidationException: Supplied AttributeValue has more than one datatypes set, must contain "
            "exactly one "
            "of the supported datatypes");
}

TEST_F(BatchTest, WriteThenGetOverTables) {
  v1::BatchWriteItemRequest w;
  AddPut(&w, "hash", ItemOf({{"pk", S("a")}, {"n", N("1.50")}, {"x", S("X")}}));
  AddPut(&w, "hash", ItemOf({{"pk", S("b")}}));
  AddPut(&w, "range", ItemOf({{"pk", S("a")}, {"sk", N("1")}}));
  w.set_return_consumed_capacity("INDEXES");
  auto wr = engine_->BatchWriteItem(w);
  ASSERT_TRUE(wr.ok()) << wr.error().message();
  EXPECT_TRUE(wr->unprocessed_items().empty());
  ASSERT_EQ(wr->consumed_capacity_size(), 2);
  EXPECT_EQ(wr->consumed_capacity(0).table_name(), "hash");
  EXPECT_EQ(wr->consumed_capacity(0).capacity_units(), 2.0);
  EXPECT_EQ(wr->consumed_capacity(0).table().capacity_units(), 2.0);
  EXPECT_EQ(wr->consumed_capacity(1).table_name(), "range");

  v1::BatchGetItemRequest g;
  AddKey(&g, "hash", ItemOf({{"pk", S("a")}}));
  AddKey(&g, "hash", ItemOf({{"pk", S("missing")}}));
  AddKey(&g, "range", ItemOf({{"pk", S("a")}, {"sk", N("1.0")}}));
  (*g.mutable_request_items())["hash"].set_projection_expression("n");
  (*g.mutable_request_items())["hash"].set_consistent_read(true);
  g.set_return_consumed_capacity("TOTAL");
  auto gr = Decode(engine_->BatchGetItem(g));
  ASSERT_TRUE(gr.ok()) << gr.error().message();
  ASSERT_EQ(gr->responses().at("hash").items_size(), 1);
  EXPECT_EQ(gr->responses().at("hash").items(0).attributes().at("n").n(), "1.5");
  EXPECT_EQ(gr->responses().at("hash").items(0).attributes().size(), 1u);
  EXPECT_EQ(gr->responses().at("range").items_size(), 1);
  EXPECT_TRUE(gr->unprocessed_keys().empty());
  ASSERT_EQ(gr->consumed_capacity_size(), 2);
  EXPECT_EQ(gr->consumed_capacity(0).capacity_units(), 2.0);  // two consistent reads
  EXPECT_EQ(gr->consumed_capacity(1).capacity_units(), 0.5);

  v1::BatchWriteItemRequest d;
  AddDelete(&d, "hash", ItemOf({{"pk", S("a")}}));
  AddDelete(&d, "hash", ItemOf({{"pk", S("never")}}));
  ASSERT_TRUE(engine_->BatchWriteItem(d).ok());
  v1::DescribeTableRequest desc;
  desc.set_table_name("hash");
  EXPECT_EQ(engine_->DescribeTable(desc)->table().item_count(), 1);
}

TEST_F(BatchTest, GetValidations) {
  v1::BatchGetItemRequest empty;
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(empty)),
            "ValidationException: The requestItems parameter is required for BatchGetItem");
  empty.set_return_consumed_capacity("ALL");  // the enums first
  EXPECT_EQ(
      ErrorOf(engine_->BatchGetItem(empty)),
      "ValidationException: 1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to "
      "satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
  v1::BatchGetItemRequest many;
  for (int i = 0; i < 101; ++i) AddKey(&many, "hash", ItemOf({{"pk", S("k" + std::to_string(i))}}));
  EXPECT_EQ(
      ErrorOf(engine_->BatchGetItem(many)),
      "ValidationException: 1 validation error detected: Value at 'RequestItems.hash.member.Keys' failed to "
      "satisfy constraint: Member must have length less than or equal to 100");
  v1::BatchGetItemRequest over;
  for (int i = 0; i < 100; ++i) AddKey(&over, "hash", ItemOf({{"pk", S("k" + std::to_string(i))}}));
  AddKey(&over, "range", ItemOf({{"pk", S("k")}, {"sk", N("1")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(over)),
            "ValidationException: Too many items requested for the BatchGetItem call");
  v1::BatchGetItemRequest dup;
  AddKey(&dup, "hash", ItemOf({{"pk", S("a")}}));
  AddKey(&dup, "hash", ItemOf({{"pk", S("a")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(dup)),
            "ValidationException: Provided list of item keys contains duplicates");
  v1::BatchGetItemRequest missing;
  AddKey(&missing, "nosuch", ItemOf({{"pk", S("a")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(missing)),
            "ResourceNotFoundException: Requested resource not found");
  v1::BatchGetItemRequest mixed;
  AddKey(&mixed, "hash", ItemOf({{"pk", S("a")}}));
  AddKey(&mixed, "range", ItemOf({{"pk", S("a")}, {"sk", N("1")}}));
  (*mixed.mutable_request_items())["hash"].set_projection_expression("pk");
  (*mixed.mutable_request_items())["range"].mutable_attributes_to_get()->add_values("pk");
  EXPECT_EQ(
      ErrorOf(engine_->BatchGetItem(mixed)),
      "ValidationException: Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}");
  v1::BatchGetItemRequest bad;
  AddKey(&bad, "bad!name", ItemOf({{"pk", S("a")}}));
  bad.set_return_consumed_capacity("BOGUS");
  EXPECT_EQ(
      ErrorOf(engine_->BatchGetItem(bad)),
      "ValidationException: 2 validation errors detected: Value "
      "'{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' "
      "at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member must have "
      "length less than or equal to 255, Member must have length greater than or equal to 3, Member must "
      "satisfy regular expression pattern: [a-zA-Z0-9_.-]+]; Value 'BOGUS' at 'returnConsumedCapacity' "
      "failed "
      "to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");
}

// Keys left out is null, Keys sent as [] is too short (behaviours.md V1);
// repeated keys are found before the table's schema is known (O1); a
// projection may not reach inside a key attribute (V19).
TEST_F(BatchTest, GetKeysAbsentVersusEmptyDuplicatesAndKeyPaths) {
  v1::BatchGetItemRequest absent;
  (*absent.mutable_request_items())["hash"].set_consistent_read(true);
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(absent)),
            "ValidationException: 1 validation error detected: Value null at 'requestItems.hash.member.keys' "
            "failed to satisfy constraint: Member must not be null");

  v1::BatchGetItemRequest empty;
  MarkSentEmpty(&(*empty.mutable_request_items())["hash"], v1::KeysAndAttributes::kKeysFieldNumber);
  EXPECT_EQ(
      ErrorOf(engine_->BatchGetItem(empty)),
      "ValidationException: 1 validation error detected: Value at 'RequestItems.hash.member.Keys' failed "
      "to satisfy constraint: Member must have length greater than or equal to 1");

  // Not the range table's schema, but the same key twice: duplicates win.
  v1::BatchGetItemRequest dup;
  AddKey(&dup, "range", ItemOf({{"pk", S("a")}}));
  AddKey(&dup, "range", ItemOf({{"pk", S("a")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(dup)),
            "ValidationException: Provided list of item keys contains duplicates");
  // Attribute order does not matter, and numbers compare canonically.
  v1::BatchGetItemRequest reordered;
  AddKey(&reordered, "nosuch", ItemOf({{"pk", S("a")}, {"sk", N("1e3")}}));
  AddKey(&reordered, "nosuch", ItemOf({{"sk", N("1000")}, {"pk", S("a")}}));
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(reordered)),
            "ValidationException: Provided list of item keys contains duplicates");

  v1::BatchGetItemRequest nested;
  AddKey(&nested, "hash", ItemOf({{"pk", S("a")}}));
  (*nested.mutable_request_items())["hash"].set_projection_expression("pk.x, v");
  EXPECT_EQ(ErrorOf(engine_->BatchGetItem(nested)),
            "ValidationException: Key attributes must be scalars; list random access '[]' and map lookup '.' "
            "are not allowed: Key: pk");
}

TEST_F(BatchTest, GetStopsAt16MegabytesAndReturnsTheRest) {
  const int n = 45;
  std::string blob(400 * 1024 - 20, 'x');
  for (int start = 0; start < n; start += 25) {
    v1::BatchWriteItemRequest w;
    for (int i = start; i < std::min(n, start + 25); ++i) {
      AddPut(&w, "hash", ItemOf({{"pk", S("k" + std::to_string(100 + i))}, {"b", S(blob)}}));
    }
    ASSERT_TRUE(engine_->BatchWriteItem(w).ok());
  }
  v1::BatchGetItemRequest g;
  for (int i = 0; i < n; ++i) AddKey(&g, "hash", ItemOf({{"pk", S("k" + std::to_string(100 + i))}}));
  (*g.mutable_request_items())["hash"].set_consistent_read(true);
  auto r = Decode(engine_->BatchGetItem(g));
  ASSERT_TRUE(r.ok()) << r.error().message();
  int got = r->responses().at("hash").items_size();
  const auto& left = r->unprocessed_keys().at("hash");
  EXPECT_EQ(got, 40);  // 40 items of 400 KB fill 16 MB
  EXPECT_EQ(got + left.keys_size(), n);
  EXPECT_TRUE(left.consistent_read());
  EXPECT_EQ(left.keys(0).attributes().at("pk").s(), "k140");
}

TEST(MultiItemTest, RenderJava) {
  v1::WriteRequest w;
  (*w.mutable_put_request()->mutable_item())["pk"] = S("a");
  (*w.mutable_put_request()->mutable_item())["n"] = N("1");
  EXPECT_EQ(RenderJava(w),
            "WriteRequest(putRequest=PutRequest(item={n=AttributeValue(N=1), pk=AttributeValue(S=a)}), "
            "deleteRequest=null)");
  value::AttributeMap m;
  m["b"] = S("x\"y");
  m["a"] = N("2");
  EXPECT_EQ(RenderJson(m), "{\"a\":{\"N\":\"2\"},\"b\":{\"S\":\"x\\\"y\"}}");
}

}  // namespace
}  // namespace pogi::service
