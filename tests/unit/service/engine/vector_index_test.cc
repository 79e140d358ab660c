// Tests for vector indexes through the Engine over in-memory storage: the
// definitions CreateTable and UpdateTable accept and refuse (DynamoDB's
// messages), the lifecycle by pogi's clock (with transient delays), and the one write path keeping
// each index's entries exact for PutItem, UpdateItem, DeleteItem,
// BatchWriteItem, transactions and the backfill.
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "service/engine/engine.h"
#include "service/vector/vector_values.h"

namespace pogi::service {
namespace {

template <typename M>
M Parse(const std::string& text) {
  M m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m)) << text;
  return m;
}

class VectorIndexEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clock_ = std::make_shared<ControllableClock>(1'800'000'000.0, /*frozen=*/true);
    storage::Options options;
    options.in_memory = true;
    auto r = Engine::Open(options, clock_);
    ASSERT_TRUE(r.ok()) << r.error().message();
    engine_ = std::move(r).value();
  }

  // A table "docs" (pk S) with `vector_indexes` (text format VectorIndex
  // entries) and `extra_definitions`.
  Status CreateDocs(const std::string& vector_indexes, const std::string& extra_definitions = "") {
    auto req = Parse<v1::CreateTableRequest>(
        "table_name: 'docs' billing_mode: 'PAY_PER_REQUEST' "
        "attribute_definitions { attribute_name: 'pk' attribute_type: 'S' } " +
        extra_definitions + " key_schema { attribute_name: 'pk' key_type: 'HASH' } " + vector_indexes);
    auto r = engine_->CreateTable(req);
    return r.ok() ? Status::Ok() : Status(r.error());
  }

  Status Put(const std::string& item_text) {
    // `item_text`: the item's attributes as map entries ("item { key: ... value { ... } }").
    std::string attributes = item_text;
    for (size_t at = 0; (at = attributes.find("item {", at)) != std::string::npos;)
      attributes.replace(at, 6, "attributes {");
    auto req = Parse<v1::PutItemRequest>("table_name: 'docs' item { " + attributes + " }");
    auto r = engine_->PutItem(req);
    return r.ok() ? Status::Ok() : Status(r.error());
  }

  // Every entry of `index` in `partition`: table partition key -> floats.
  std::map<std::string, std::vector<float>> Entries(const std::string& index,
                                                    const std::string& partition = "") {
    std::map<std::string, std::vector<float>> out;
    auto table = engine_->FindTableOrNull("docs");
    const VectorIndex* v = table->FindVectorIndex(index);
    EXPECT_NE(v, nullptr);
    if (!v) return out;
    EXPECT_TRUE(engine_
                    ->ReadStorage([&](storage::ReadTxn& txn) -> Status {
                      for (int slot = 0; slot < storage::kVectorSlots; ++slot) {
                        POGI_RETURN_IF_ERROR(
                            txn.ReadVectorSlot(v->id, partition, slot, [&](const storage::VectorEntry& e) {
                              std::vector<float> f(e.vector.size() / 4);
                              CopyFloats(e.vector, f.data());
                              // The partition key is a string: its encoding is its bytes.
                              out[std::string(e.table_partition)] = f;
                              return true;
                            }));
                      }
                      return Status::Ok();
                    })
                    .ok());
    return out;
  }

  std::shared_ptr<ControllableClock> clock_;
  std::unique_ptr<Engine> engine_;
};

constexpr char kIndex[] =
    "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 2 "
    "distance_function: 'COSINE' projection { projection_type: 'ALL' } }";

std::string Message(const Status& s) { return s.ok() ? "(ok)" : s.error().message(); }

TEST_F(VectorIndexEngineTest, CreateTableRefusals) {
  EXPECT_EQ(
      Message(CreateDocs(
          "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 4097 "
          "distance_function: 'COSINE' projection { projection_type: 'ALL' } }")),
      "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 "
      "inclusive.");
  EXPECT_EQ(
      Message(CreateDocs(
          "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 2 "
          "distance_function: 'COSINE' projection { projection_type: 'ALL' } search_schema { "
          "attribute_name: 'cat' search_schema_element_type: 'HASH' } }")),
      "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute "
      "definitions");
  EXPECT_EQ(
      Message(CreateDocs(kIndex, "attribute_definitions { attribute_name: 'emb' attribute_type: 'S' }")),
      "One or more parameter values were invalid: Conflicting attribute definition for 'emb'. An attribute "
      "cannot be defined in AttributeDefinitions when used as a VectorAttribute.");
  std::string two =
      std::string(kIndex) +
      " vector_indexes { index_name: 'vix2' vector_attribute { attribute_name: 'emb' } dimensions: 3 "
      "distance_function: 'COSINE' projection { projection_type: 'ALL' } }";
  EXPECT_EQ(Message(CreateDocs(two)),
            "One or more parameter values were invalid: Conflicting attribute definition for 'emb'. All "
            "VectorIndexes on the same vector attribute must use the same dimensions.");
  std::string six;
  for (int i = 0; i < 6; ++i) {
    six +=
        "vector_indexes { index_name: 'vix" + std::to_string(i) +
        "' vector_attribute { attribute_name: 'emb' } dimensions: 2 distance_function: 'COSINE' projection { "
        "projection_type: 'ALL' } }";
  }
  EXPECT_EQ(Message(CreateDocs(six)),
            "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5");
  EXPECT_EQ(Message(CreateDocs(std::string(kIndex) + " " + kIndex)),
            "One or more parameter values were invalid: Duplicate index name: vix");
  EXPECT_EQ(
      Message(CreateDocs(
          "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 0 "
          "distance_function: 'MANHATTAN' projection { projection_type: 'ALL' } }")),
      "2 validation errors detected: Value '0' at 'vectorIndexes.1.member.dimensions' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1; Value 'MANHATTAN' at "
      "'vectorIndexes.1.member.distanceFunction' failed to satisfy constraint: Member must satisfy enum "
      "value set: [DOT_PRODUCT, COSINE, EUCLIDEAN]");
  auto provisioned = Parse<v1::CreateTableRequest>(
      "table_name: 'docs' attribute_definitions { attribute_name: 'pk' attribute_type: 'S' } key_schema { "
      "attribute_name: 'pk' key_type: 'HASH' } provisioned_throughput { read_capacity_units: 1 "
      "write_capacity_units: 1 } " +
      std::string(kIndex));
  auto r = engine_->CreateTable(provisioned);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.error().message(),
      "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST "
      "tables");
  EXPECT_EQ(engine_->FindTableOrNull("docs"), nullptr);
}

TEST_F(VectorIndexEngineTest, WritesKeepEntriesExact) {
  ASSERT_TRUE(CreateDocs(kIndex).ok());
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'a' } } item { key: 'emb' value { l { values { n: '1' } values "
          "{ n: '0.1' } } } }")
          .ok());
  ASSERT_TRUE(Put("item { key: 'pk' value { s: 'b' } }").ok());  // no vector: not in the index
  auto e = Entries("vix");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e["a"], (std::vector<float>{1.0f, 0.1f}));

  // A refused vector writes nothing.
  Status bad =
      Put("item { key: 'pk' value { s: 'a' } } item { key: 'emb' value { l { values { n: '1' } } } }");
  EXPECT_EQ(
      Message(bad),
      "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 2, Actual: 1 "
      "IndexName: vix");
  EXPECT_EQ(Entries("vix")["a"], (std::vector<float>{1.0f, 0.1f}));

  // UpdateItem: the vector changed, then removed.
  auto update = Parse<v1::UpdateItemRequest>(
      "table_name: 'docs' key { attributes { key: 'pk' value { s: 'b' } } } update_expression: 'SET emb = "
      ":v' "
      "expression_attribute_values { attributes { key: ':v' value { l { values { n: '3' } values { n: '4' } "
      "} } "
      "} }");
  ASSERT_TRUE(engine_->UpdateItem(update).ok());
  EXPECT_EQ(Entries("vix").size(), 2u);
  EXPECT_EQ(Entries("vix")["b"], (std::vector<float>{3, 4}));
  update = Parse<v1::UpdateItemRequest>(
      "table_name: 'docs' key { attributes { key: 'pk' value { s: 'b' } } } update_expression: 'REMOVE emb'");
  ASSERT_TRUE(engine_->UpdateItem(update).ok());
  EXPECT_EQ(Entries("vix").size(), 1u);

  // BatchWriteItem and a transaction go the same way.
  auto batch = Parse<v1::BatchWriteItemRequest>(
      "request_items { key: 'docs' value { requests { put_request { item { key: 'pk' value { s: 'c' } } item "
      "{ "
      "key: 'emb' value { l { values { n: '5' } values { n: '6' } } } } } } requests { delete_request { key "
      "{ "
      "key: 'pk' value { s: 'a' } } } } } }");
  ASSERT_TRUE(engine_->BatchWriteItem(batch).ok());
  e = Entries("vix");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e["c"], (std::vector<float>{5, 6}));
  auto transact = Parse<v1::TransactWriteItemsRequest>(
      "transact_items { put { table_name: 'docs' item { key: 'pk' value { s: 'd' } } item { key: 'emb' value "
      "{ "
      "l { values { n: '7' } values { s: 'x' } } } } } }");
  auto t = engine_->TransactWriteItems(transact);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code(), ErrorCode::kTransactionCanceled);
  EXPECT_EQ(Entries("vix").size(), 1u);
}

TEST_F(VectorIndexEngineTest, HashPartitionsAndMoves) {
  ASSERT_TRUE(
      CreateDocs(
          "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 1 "
          "distance_function: 'EUCLIDEAN' projection { projection_type: 'KEYS_ONLY' } search_schema { "
          "attribute_name: 'cat' search_schema_element_type: 'HASH' } }",
          "attribute_definitions { attribute_name: 'cat' attribute_type: 'S' }")
          .ok());
  std::string x = value::EncodeKeyValue([] {
    v1::AttributeValue v;
    v.set_s("x");
    return v;
  }());
  std::string y = value::EncodeKeyValue([] {
    v1::AttributeValue v;
    v.set_s("y");
    return v;
  }());
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'a' } } item { key: 'cat' value { s: 'x' } } item { key: 'emb' "
          "value { l { values { n: '1' } } } }")
          .ok());
  // Without the HASH attribute: accepted, in no partition.
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'b' } } item { key: 'emb' value { l { values { n: '2' } } } }").ok());
  EXPECT_EQ(Entries("vix", x).size(), 1u);
  // The HASH value changes: the entry moves.
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'a' } } item { key: 'cat' value { s: 'y' } } item { key: 'emb' "
          "value { l { values { n: '1' } } } }")
          .ok());
  EXPECT_TRUE(Entries("vix", x).empty());
  EXPECT_EQ(Entries("vix", y).size(), 1u);
  EXPECT_EQ(
      Message(Put("item { key: 'pk' value { s: 'a' } } item { key: 'cat' value { n: '1' } } item { key: "
                  "'emb' value { l { values { n: '1' } } } }")),
      "One or more parameter values were invalid. Attribute 'cat' type mismatch. Expected: S, Actual: N. "
      "IndexName: vix");
  auto del =
      Parse<v1::DeleteItemRequest>("table_name: 'docs' key { attributes { key: 'pk' value { s: 'a' } } }");
  ASSERT_TRUE(engine_->DeleteItem(del).ok());
  EXPECT_TRUE(Entries("vix", y).empty());
}

TEST_F(VectorIndexEngineTest, UpdateTableBackfillsAndTheClockMakesItActive) {
  ASSERT_TRUE(CreateDocs("").ok());
  engine_->set_transient_delays(TransientDelays::Uniform(1));
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'a' } } item { key: 'emb' value { l { values { n: '1' } values "
          "{ n: '2' } } } }")
          .ok());
  // Written before the index: a vector of the wrong size is left out.
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'b' } } item { key: 'emb' value { l { values { n: '1' } } } }").ok());
  auto add = Parse<v1::UpdateTableRequest>(
      "table_name: 'docs' vector_index_updates { create { index_name: 'vix' vector_attribute { "
      "attribute_name: "
      "'emb' } dimensions: 2 distance_function: 'DOT_PRODUCT' projection { projection_type: 'ALL' } } }");
  auto r = engine_->UpdateTable(add);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->table_description().vector_indexes_size(), 1);
  EXPECT_EQ(r->table_description().vector_indexes(0).index_status(), "CREATING");
  EXPECT_FALSE(r->table_description().vector_indexes(0).backfilling());
  EXPECT_EQ(Entries("vix").size(), 1u);

  auto describe = [&] {
    auto d = engine_->DescribeTable(Parse<v1::DescribeTableRequest>("table_name: 'docs'"));
    EXPECT_TRUE(d.ok());
    return d->table().vector_indexes(0);
  };
  EXPECT_EQ(describe().index_status(), "CREATING");
  EXPECT_FALSE(describe().backfilling());  // allocated
  EXPECT_EQ(describe().item_count(), 1);
  clock_->Advance(1);
  ASSERT_TRUE(engine_->SettleTransitions().ok());
  EXPECT_EQ(describe().index_status(), "CREATING");
  EXPECT_TRUE(describe().backfilling());
  // A second index while one is being created.
  auto second = Parse<v1::UpdateTableRequest>(
      "table_name: 'docs' vector_index_updates { create { index_name: 'vix2' vector_attribute { "
      "attribute_name: 'emb' } dimensions: 2 distance_function: 'COSINE' projection { projection_type: 'ALL' "
      "} "
      "} }");
  auto busy = engine_->UpdateTable(second);
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().code(), ErrorCode::kLimitExceeded);
  clock_->Advance(1);
  ASSERT_TRUE(engine_->SettleTransitions().ok());
  EXPECT_EQ(describe().index_status(), "ACTIVE");
  EXPECT_FALSE(describe().has_backfilling());

  auto again = engine_->UpdateTable(add);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message(), "Attempting to create an index which already exists");

  auto drop = Parse<v1::UpdateTableRequest>(
      "table_name: 'docs' vector_index_updates { delete { index_name: 'vix' } }");
  auto dropped = engine_->UpdateTable(drop);
  ASSERT_TRUE(dropped.ok()) << dropped.error().message();
  EXPECT_EQ(dropped->table_description().vector_indexes(0).index_status(), "DELETING");
  EXPECT_EQ(engine_->FindTableOrNull("docs")->vector_indexes.size(), 0u);
  auto deleting = engine_->UpdateTable(drop);
  ASSERT_FALSE(deleting.ok());
  EXPECT_EQ(
      deleting.error().message(),
      "Attempt to change a resource which is still in use: Index is being deleted. Table: docs Index: vix");
  clock_->Advance(1);
  ASSERT_TRUE(engine_->SettleTransitions().ok());
  EXPECT_EQ(engine_->DescribeTable(Parse<v1::DescribeTableRequest>("table_name: 'docs'"))
                ->table()
                .vector_indexes_size(),
            0);
  auto gone = engine_->UpdateTable(drop);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code(), ErrorCode::kResourceNotFound);
}

// The search, against a brute force in double precision over the floats.
TEST_F(VectorIndexEngineTest, SearchFindsTheExactTopK) {
  ASSERT_TRUE(
      CreateDocs(
          "vector_indexes { index_name: 'vix' vector_attribute { attribute_name: 'emb' } dimensions: 4 "
          "distance_function: 'EUCLIDEAN' projection { projection_type: 'KEYS_ONLY' } search_schema { "
          "attribute_name: 'cat' search_schema_element_type: 'INLINE_FILTER' } }",
          "attribute_definitions { attribute_name: 'cat' attribute_type: 'S' }")
          .ok());
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> u(-5, 5);  // small integers: many equal scores
  std::map<std::string, std::vector<float>> all;
  for (int i = 0; i < 300; ++i) {
    std::vector<float> v(4);
    std::string values;
    for (auto& x : v) {
      x = static_cast<float>(u(rng));
      values += "values { n: '" + std::to_string(static_cast<int>(x)) + "' } ";
    }
    char key[16];
    snprintf(key, sizeof key, "k%03d", i);
    all[key] = v;
    ASSERT_TRUE(Put(std::string("item { key: 'pk' value { s: '") + key +
                    "' } } item { key: 'cat' value { s: '" + (i % 2 ? "odd" : "even") +
                    "' } } item { key: 'emb' value { l { " + values + "} } }")
                    .ok());
  }
  auto search = [&](const std::string& extra) {
    auto r = engine_->SearchVectors(Parse<v1::SearchVectorsRequest>(
        "table_name: 'docs' index_name: 'vix' top_k: 10 search_vector { values { n: '1' } values { n: '0' } "
        "values { n: '-1' } values { n: '2' } } " +
        extra));
    EXPECT_TRUE(r.ok()) << r.error().message();
    std::vector<std::pair<std::string, double>> out;
    if (r.ok()) {
      for (const auto& hit : r->search_results()) out.emplace_back(hit.item().at("pk").s(), hit.score());
    }
    return out;
  };
  auto expect = [&](bool odd_only) {
    std::vector<std::pair<double, std::string>> ref;
    float q[] = {1, 0, -1, 2};
    for (const auto& [key, v] : all) {
      if (odd_only && (std::stoi(key.substr(1)) % 2) == 0) continue;
      double s = 0;
      for (int i = 0; i < 4; ++i) s += (double(q[i]) - v[i]) * (double(q[i]) - v[i]);
      ref.emplace_back(std::sqrt(s), key);
    }
    std::sort(ref.begin(), ref.end());
    std::vector<std::pair<std::string, double>> out;
    for (size_t i = 0; i < 10; ++i) out.emplace_back(ref[i].second, ref[i].first);
    return out;
  };
  EXPECT_EQ(search(""), expect(false));
  EXPECT_EQ(
      search("search_condition_expression: 'cat = :c' expression_attribute_values { attributes { key: ':c' "
             "value { s: 'odd' } } }"),
      expect(true));
  // A change of the data changes the answer at once.
  all.erase("k001");
  ASSERT_TRUE(engine_
                  ->DeleteItem(Parse<v1::DeleteItemRequest>("table_name: 'docs' key { attributes { key: 'pk' "
                                                            "value { s: 'k001' } } }"))
                  .ok());
  all["k900"] = {1, 0, -1, 2};
  ASSERT_TRUE(
      Put("item { key: 'pk' value { s: 'k900' } } item { key: 'emb' value { l { values { n: '1' } values { "
          "n: '0' } values { n: '-1' } values { n: '2' } } } }")
          .ok());
  auto got = search("");
  EXPECT_EQ(got, expect(false));
  EXPECT_EQ(got[0], std::make_pair(std::string("k900"), 0.0));
}

TEST_F(VectorIndexEngineTest, SearchRefusals) {
  ASSERT_TRUE(CreateDocs("").ok());
  auto refused = [&](const std::string& text) {
    auto r = engine_->SearchVectors(Parse<v1::SearchVectorsRequest>(text));
    return r.ok() ? std::string("(ok)") : r.error().message();
  };
  EXPECT_EQ(refused("table_name: 'docs' index_name: 'vix' top_k: 1 search_vector { values { n: '1' } }"),
            "The table does not have the specified index: vix");
  EXPECT_EQ(
      refused("table_name: 'docs' index_name: 'vi' top_k: 0 search_vector { }"),
      "3 validation errors detected: Value at 'IndexName' failed to satisfy constraint: Member must have "
      "length greater than or equal to 3; Value at 'SearchVector' failed to satisfy constraint: Member must "
      "have length greater than or equal to 1; Value '0' at 'topK' failed to satisfy constraint: Member must "
      "have value greater than or equal to 1");
  EXPECT_EQ(
      refused("table_name: 'docs'"),
      "3 validation errors detected: Value null at 'indexName' failed to satisfy constraint: Member must not "
      "be null; Value null at 'searchVector' failed to satisfy constraint: Member must not be null; Value "
      "null at 'topK' failed to satisfy constraint: Member must not be null");
  auto add = Parse<v1::UpdateTableRequest>(
      "table_name: 'docs' vector_index_updates { create { index_name: 'vix' vector_attribute { "
      "attribute_name: "
      "'emb' } dimensions: 2 distance_function: 'COSINE' projection { projection_type: 'ALL' } } }");
  engine_->set_transient_delays(TransientDelays::Uniform(1));
  ASSERT_TRUE(engine_->UpdateTable(add).ok());
  const std::string ok_vector =
      "table_name: 'docs' index_name: 'vix' top_k: 1 search_vector { values { n: '1' } "
      "values { n: '2' } }";
  EXPECT_EQ(refused(ok_vector), "Cannot search backfilling vector index: vix");
  clock_->Advance(1);
  ASSERT_TRUE(engine_->SettleTransitions().ok());
  EXPECT_EQ(refused(ok_vector), "Cannot search backfilling vector index: vix");
  clock_->Advance(1);
  ASSERT_TRUE(engine_->SettleTransitions().ok());
  EXPECT_EQ(refused(ok_vector), "(ok)");
  EXPECT_EQ(refused("table_name: 'docs' index_name: 'vix' top_k: 101 search_vector { values { n: '1' } }"),
            "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive");
  EXPECT_EQ(
      refused("table_name: 'docs' index_name: 'vix' top_k: 1 search_vector { values { n: '1' } values { s: "
              "'2' } }"),
      "Search vector contains invalid values. All values in the search vector must be a 32-bit "
      "floating-point number attribute");
  EXPECT_EQ(refused("table_name: 'docs' index_name: 'vix' top_k: 1 search_vector { values { n: 'Infinity' } "
                    "values { n: '2' } }"),
            "Search vector contains invalid values. All values in the search vector must be a 32-bit "
            "floating-point number attribute");
  EXPECT_EQ(refused("table_name: 'docs' index_name: 'vix' top_k: 1 search_vector { values { n: '1' } }"),
            "Input search vector dimension 1 does not match vector index dimension 2");
  EXPECT_EQ(
      refused(ok_vector + " search_condition_expression: 'x = :v'"),
      "Invalid SearchConditionExpression: An expression attribute value used in expression is not defined; "
      "attribute value: :v");
  EXPECT_EQ(
      refused(ok_vector + " search_condition_expression: 'x = :v' expression_attribute_values { attributes "
                          "{ key: ':v' value { s: 'a' } } }"),
      "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
      "attribute: x");
  EXPECT_EQ(
      refused(ok_vector + " expression_attribute_values { attributes { key: ':v' value { s: 'a' } } }"),
      "ExpressionAttributeValues can only be specified when using expressions: SearchConditionExpression is "
      "null");
  EXPECT_EQ(refused("table_name: 'nope' index_name: 'vix' top_k: 1 search_vector { values { n: '1' } }"),
            "Requested resource not found");
}

}  // namespace
}  // namespace pogi::service
