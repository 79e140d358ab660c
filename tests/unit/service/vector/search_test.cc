// Tests for the pieces of a vector search: the distance functions and
// DynamoDB's Score (against plain double loops), the top K with its
// tie-break, SearchConditionExpression's rules with DynamoDB's messages,
// and the partition cache staying exact against storage while writes move
// slot generations, within its memory budget.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>

#include "service/expr/parser.h"
#include "service/vector/distance.h"
#include "service/vector/partition_cache.h"
#include "service/vector/search_condition.h"
#include "service/vector/top_k.h"
#include "service/vector/vector_values.h"
#include "tests/unit/value_builders.h"

namespace pogi::service {
namespace {

using test::N;
using test::S;

TEST(DistanceTest, KernelsMatchPlainLoops) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (size_t dims : {1u, 3u, 15u, 16u, 17u, 1024u, 1031u}) {
    std::vector<float> q(dims), m(dims * 5);
    for (auto& x : q) x = u(rng);
    for (auto& x : m) x = u(rng);
    double dot[5], sq[5];
    DotProducts(q.data(), m.data(), 5, dims, dot);
    SquaredDistances(q.data(), m.data(), 5, dims, sq);
    for (size_t r = 0; r < 5; ++r) {
      long double d = 0, s = 0;
      for (size_t i = 0; i < dims; ++i) {
        d += static_cast<long double>(q[i]) * m[r * dims + i];
        long double diff = static_cast<long double>(q[i]) - m[r * dims + i];
        s += diff * diff;
      }
      EXPECT_NEAR(dot[r], static_cast<double>(d), 1e-12 * (1 + std::fabs(static_cast<double>(d)))) << dims;
      EXPECT_NEAR(sq[r], static_cast<double>(s), 1e-12 * (1 + static_cast<double>(s))) << dims;
    }
  }
}

TEST(DistanceTest, ScoresAsDynamoDBDefinesThem) {
  float q[] = {1, 0, 0, 0}, far[] = {10, 0, 0, 0}, opposite[] = {-2, 0, 0, 0}, zero[] = {0, 0, 0, 0};
  double qn = SquaredNorm(q, 4);
  double dot;
  DotProducts(q, far, 1, 4, &dot);
  // The same direction: COSINE 0 whatever the length; EUCLIDEAN 9.
  EXPECT_EQ(ScoreOf(DistanceFunction::kCosine, dot, qn, SquaredNorm(far, 4)), 0.0);
  double sq;
  SquaredDistances(q, far, 1, 4, &sq);
  EXPECT_EQ(ScoreOf(DistanceFunction::kEuclidean, sq, qn, 0), 9.0);
  EXPECT_EQ(ScoreOf(DistanceFunction::kDotProduct, dot, qn, 0), 10.0);
  DotProducts(q, opposite, 1, 4, &dot);
  EXPECT_EQ(ScoreOf(DistanceFunction::kCosine, dot, qn, SquaredNorm(opposite, 4)), 2.0);
  EXPECT_EQ(ScoreOf(DistanceFunction::kDotProduct, dot, qn, 0), -2.0);
  EXPECT_EQ(ScoreOf(DistanceFunction::kCosine, 0, qn, SquaredNorm(zero, 4)), 1.0);
  // A vector against itself scores exactly 0, for any values.
  float v[] = {0.1f, -3.7f, 2e-20f, 1e10f};
  DotProducts(v, v, 1, 4, &dot);
  EXPECT_EQ(ScoreOf(DistanceFunction::kCosine, dot, SquaredNorm(v, 4), SquaredNorm(v, 4)), 0.0);
  // Beyond a float's range: the largest float.
  float big[] = {FLT_MAX, FLT_MAX, 0, 0};
  DotProducts(big, big, 1, 4, &dot);
  EXPECT_EQ(ScoreOf(DistanceFunction::kDotProduct, dot, 0, 0), static_cast<double>(FLT_MAX));
}

TEST(TopKTest, BestFirstAndTiesByKey) {
  TopK low(3, DistanceFunction::kEuclidean);
  low.Offer(2, "b", "");
  low.Offer(1, "z", "");
  low.Offer(2, "a", "2");
  low.Offer(2, "a", "1");
  low.Offer(5, "c", "");
  low.Offer(0.5, "y", "");
  auto got = low.Take();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].table_partition, "y");
  EXPECT_EQ(got[1].table_partition, "z");
  EXPECT_EQ(got[2].table_partition + got[2].table_sort, "a1");  // the least key among the equal 2s
  TopK high(2, DistanceFunction::kDotProduct);
  for (int i = 0; i < 10; ++i) high.Offer(i % 4, "k" + std::to_string(i), "");
  got = high.Take();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].table_partition, "k3");
  EXPECT_EQ(got[1].table_partition, "k7");
}

VectorIndex SchemaIndex() {
  VectorIndex v;
  v.name = "vix";
  v.attribute = "emb";
  v.dimensions = 2;
  v.hash = KeyAttribute{"cat", "S"};
  v.filters = {{"brand", "S"}, {"year", "N"}};
  return v;
}

// The scope of `text` (with :s = "x", :n = 1, :e = "") or its refusal.
std::string Scope(const std::string& text, SearchScope* out = nullptr) {
  expr::AttributeMap values;
  values[":s"] = S("x");
  values[":n"] = N("1");
  values[":e"] = S("");
  expr::NameMap names;
  names["#b"] = "brand";
  names["#y"] = "year";
  expr::Substitutions subs(&names, &values);
  auto c = expr::ParseCondition(text, expr::ExpressionKind::kSearchCondition, subs);
  if (!c.ok()) return c.error().message();
  auto eq = SearchEqualities(*c);
  if (!eq.ok()) return eq.error().message();
  auto scope = ScopeOf(SchemaIndex(), *eq);
  if (!scope.ok()) return scope.error().message();
  if (out) *out = *scope;
  return "(ok)";
}

TEST(SearchConditionTest, DynamoDBsRules) {
  SearchScope scope;
  EXPECT_EQ(Scope("cat = :s AND #b = :s AND :n = #y", &scope), "(ok)");
  EXPECT_EQ(scope.partition, value::EncodeKeyValue(S("x")));
  EXPECT_EQ(scope.filters[0], value::EncodeKeyValue(S("x")));
  EXPECT_EQ(scope.filters[1], value::EncodeKeyValue(N("1")));
  EXPECT_EQ(Scope("cat = :s", &scope), "(ok)");
  EXPECT_FALSE(scope.filters[0]);
  const std::string comparator =
      "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression";
  for (const char* bad : {"cat < :s", "cat <> :s", "cat >= :s AND #y = :n", "cat = brand"}) {
    EXPECT_EQ(Scope(bad), comparator) << bad;
  }
  const std::string op =
      "Invalid SearchConditionExpression: Invalid operator used in SearchConditionExpression";
  for (const char* bad : {"cat = :s OR #y = :n", "NOT cat = :s", "cat BETWEEN :s AND :s", "cat IN (:s)",
                          "begins_with(cat, :s)", "attribute_exists(cat)", "size(cat) = :n"}) {
    EXPECT_EQ(Scope(bad), op) << bad;
  }
  // Whichever comes first in the expression.
  EXPECT_EQ(Scope("cat < :s AND #y IN (:n)"), comparator);
  EXPECT_EQ(Scope("cat IN (:s) AND #y < :n"), op);
  EXPECT_EQ(Scope("cat = :s AND title = :s"),
            "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
            "attribute: title");
  EXPECT_EQ(Scope("cat = :s AND #b.x = :s"),
            "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested "
            "attributes");
  EXPECT_EQ(
      Scope("cat = :s AND cat = :s"),
      "Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per "
      "attribute");
  EXPECT_EQ(Scope("#y = :n"), "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  EXPECT_EQ(
      Scope("cat = :n"),
      "Type of 'cat' attribute in SearchConditionExpression (N) does not match type in search schema (S)");
  EXPECT_EQ(
      Scope("cat = :e"),
      "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an "
      "empty string value. Key: cat");
  auto none = ScopeOf(SchemaIndex(), {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message(),
            "SearchConditionExpression must be provided when SearchSchema has a HASH key");
}

std::string Floats(std::initializer_list<float> values) {
  std::string s;
  for (float f : values) s.append(reinterpret_cast<const char*>(&f), sizeof f);
  return s;
}

class VectorCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage::Options o;
    o.in_memory = true;
    auto s = storage::Storage::Open(o);
    ASSERT_TRUE(s.ok());
    storage_ = std::move(s).value();
    ASSERT_TRUE(storage_
                    ->Write([&](storage::WriteTxn& txn) -> Status {
                      POGI_ASSIGN_OR_RETURN(int64_t t, txn.CreateTable({0, "t", "d"}));
                      POGI_ASSIGN_OR_RETURN(index_.id, txn.CreateIndex(t, "vix"));
                      return Status::Ok();
                    })
                    .ok());
    index_.name = "vix";
    index_.dimensions = 2;
  }
  void Put(const std::string& key, float a, float b) {
    ASSERT_TRUE(storage_
                    ->Write([&](storage::WriteTxn& txn) {
                      return txn.PutVectorEntry(index_.id, "", {key, ""}, Floats({a, b}), "", 10);
                    })
                    .ok());
  }
  // key -> first float, as one search through `cache` sees the partition.
  std::map<std::string, float> Seen(VectorCache& cache) {
    std::map<std::string, float> seen;
    EXPECT_TRUE(storage_
                    ->Read([&](storage::ReadTxn& txn) {
                      return cache.ForEachSlot(txn, index_, "", [&](const VectorRows& rows) {
                        for (size_t r = 0; r < rows.rows(); ++r)
                          seen[rows.table_partitions[r]] = rows.vectors[r * 2];
                      });
                    })
                    .ok());
    return seen;
  }
  std::unique_ptr<storage::Storage> storage_;
  VectorIndex index_;
};

TEST_F(VectorCacheTest, ExactAcrossWrites) {
  VectorCache cache(1 << 20);
  for (int i = 0; i < 200; ++i) Put("k" + std::to_string(i), static_cast<float>(i), 0);
  EXPECT_EQ(Seen(cache).size(), 200u);
  size_t held = cache.bytes();
  EXPECT_GT(held, 200u * 8);
  Put("k5", 500, 0);
  ASSERT_TRUE(
      storage_->Write([&](storage::WriteTxn& txn) {
                return txn.DeleteVectorEntry(index_.id, "", {"k7", ""});
              })
          .ok());
  auto seen = Seen(cache);
  EXPECT_EQ(seen.size(), 199u);
  EXPECT_EQ(seen["k5"], 500);
  EXPECT_FALSE(seen.count("k7"));
  cache.Forget(index_.id);
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(Seen(cache).size(), 199u);
}

TEST_F(VectorCacheTest, WithinItsBudget) {
  for (int i = 0; i < 500; ++i) Put("k" + std::to_string(i), static_cast<float>(i), 0);
  VectorCache none(0);  // keeps nothing, still answers whole
  EXPECT_EQ(Seen(none).size(), 500u);
  EXPECT_EQ(none.bytes(), 0u);
  VectorCache small(4096);
  EXPECT_EQ(Seen(small).size(), 500u);
  EXPECT_LE(small.bytes(), 4096u);
  EXPECT_GT(small.bytes(), 0u);
}

}  // namespace
}  // namespace pogi::service
