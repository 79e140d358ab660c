// Tests of the PartiQL planner: when a SELECT is a Query (and of which
// partitions and sort-key range) or a Scan, the key a write addresses, and
// ORDER BY's rules.
#include "service/partiql/plan.h"

#include <gtest/gtest.h>

#include "service/partiql/parser.h"

namespace pogi::partiql {
namespace {

service::Table MakeTable() {
  service::Table t;
  t.hash = {"pk", "S"};
  t.range = service::KeyAttribute{"sk", "N"};
  return t;
}

Result<ReadPlan> Plan(std::string_view text) {
  Parameters none;
  POGI_ASSIGN_OR_RETURN(Statement st, Parse(text, none));
  service::Table t = MakeTable();
  return PlanSelect(st, t, false, text);
}

ReadPlan Ok(std::string_view text) {
  auto r = Plan(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message());
  return r.ok() ? std::move(r).value() : ReadPlan();
}

TEST(PartiqlPlan, PartitionEqualityIsAQuery) {
  ReadPlan p = Ok("SELECT * FROM t WHERE pk = 'a'");
  EXPECT_TRUE(p.query);
  ASSERT_EQ(p.partitions.size(), 1u);
  EXPECT_EQ(p.partitions[0].s(), "a");
  EXPECT_FALSE(p.filter);
  EXPECT_FALSE(p.sort_range);
}

TEST(PartiqlPlan, InAndOrOfEqualitiesAreQueries) {
  ReadPlan in = Ok("SELECT * FROM t WHERE pk IN ['a', 'b', 'a'] AND v = 1");
  EXPECT_TRUE(in.query);
  EXPECT_EQ(in.partitions.size(), 2u);
  EXPECT_TRUE(in.filter);
  ReadPlan o = Ok("SELECT * FROM t WHERE pk = 'a' OR pk = 'b'");
  EXPECT_TRUE(o.query);
  EXPECT_EQ(o.partitions.size(), 2u);
}

TEST(PartiqlPlan, AtMostFiftyPartitions) {
  std::string in = "SELECT * FROM t WHERE pk IN [";
  for (int i = 0; i < 51; ++i) in += (i ? ", '" : "'") + std::to_string(i) + "'";
  EXPECT_EQ(Plan(in + "]").error().message(), "Too many decomposed read operations for a given query.");
}

TEST(PartiqlPlan, SortKeyConditionBecomesTheRange) {
  ReadPlan p = Ok("SELECT * FROM t WHERE pk = 'a' AND sk BETWEEN 1 AND 5 AND sk <> 3");
  EXPECT_TRUE(p.sort_range);
  EXPECT_TRUE(p.filter);  // the <> stays a filter
  // A literal of another type than the sort key's is only a filter.
  ReadPlan q = Ok("SELECT * FROM t WHERE pk = 'a' AND sk > 'x'");
  EXPECT_FALSE(q.sort_range);
  EXPECT_TRUE(q.filter);
  // A partition value of the wrong type matches no partition.
  ReadPlan w = Ok("SELECT * FROM t WHERE pk = 1");
  EXPECT_TRUE(w.query);
  EXPECT_TRUE(w.partitions.empty());
}

TEST(PartiqlPlan, OtherWheresAreScans) {
  EXPECT_FALSE(Ok("SELECT * FROM t").query);
  EXPECT_FALSE(Ok("SELECT * FROM t WHERE pk > 'a'").query);
  EXPECT_FALSE(Ok("SELECT * FROM t WHERE pk = 'a' OR v = 1").query);
  ReadPlan p = Ok("SELECT * FROM t WHERE sk = 1");
  EXPECT_FALSE(p.query);
  EXPECT_TRUE(p.filter);
}

TEST(PartiqlPlan, OrderBy) {
  EXPECT_FALSE(Ok("SELECT * FROM t WHERE pk = 'a' ORDER BY sk DESC").forward);
  ReadPlan p = Ok("SELECT * FROM t WHERE pk IN ['a', 'c', 'b'] ORDER BY pk DESC, sk");
  ASSERT_EQ(p.partitions.size(), 3u);
  EXPECT_EQ(p.partitions[0].s(), "c");
  EXPECT_EQ(p.partitions[2].s(), "a");
  EXPECT_EQ(Plan("SELECT * FROM t ORDER BY sk").error().message(),
            "Must have WHERE clause in the statement when using ORDER BY clause.");
  EXPECT_EQ(
      Plan("SELECT * FROM t WHERE v = 1 ORDER BY sk").error().message(),
      "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
  EXPECT_EQ(Plan("SELECT * FROM t WHERE pk = 'a' ORDER BY v").error().message(),
            "Variable reference v in ORDER BY clause must be part of the primary key");
  EXPECT_EQ(Plan("SELECT * FROM t WHERE pk IN ['a', 'b'] ORDER BY sk").error().message(),
            "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE "
            "clause.");
}

TEST(PartiqlPlan, KeyedTargets) {
  Parameters none;
  service::Table t = MakeTable();
  auto target = [&](std::string_view text) -> Result<KeyedTarget> {
    POGI_ASSIGN_OR_RETURN(Statement st, Parse(text, none));
    return ToKeyedTarget(st, t, text);
  };
  auto ok = target("DELETE FROM t WHERE pk = 'a' AND 2 = sk AND v > 1");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->key.at("pk").s(), "a");
  EXPECT_EQ(ok->key.at("sk").n(), "2");
  EXPECT_TRUE(ok->condition);
  EXPECT_FALSE(target("DELETE FROM t WHERE pk = 'a' AND sk = 1")->condition);
  EXPECT_EQ(target("DELETE FROM t WHERE pk = 'a'").error().message(),
            "Where clause does not contain a mandatory equality on all key attributes");
  EXPECT_EQ(target("DELETE FROM t WHERE pk = 'a' AND sk = 1 AND pk = 'b'").error().message(),
            "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported");
}

}  // namespace
}  // namespace pogi::partiql
