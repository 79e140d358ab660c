// Tests of the PartiQL lexer and parser: every statement form, literals and
// parameters, and the errors in DynamoDB's words.
#include "service/partiql/parser.h"

#include <gtest/gtest.h>

#include "service/partiql/lexer.h"
#include "service/partiql/plan.h"
#include "tests/unit/value_builders.h"

namespace pogi::partiql {
namespace {

using test::N;
using test::S;
using K = Expr::Kind;

constexpr char kMalformed[] = "Statement wasn't well formed, can't be processed: ";

Result<Statement> P(std::string_view text, Parameters params = {}) {
  if (Status s = CheckParameters(&params); !s.ok()) return std::move(s).error();
  return Parse(text, params);
}

Statement Ok(std::string_view text, Parameters params = {}) {
  auto r = P(text, std::move(params));
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message());
  return r.ok() ? std::move(r).value() : Statement();
}

std::string Err(std::string_view text, Parameters params = {}) {
  auto r = P(text, std::move(params));
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.error().message();
}

Parameters Params(std::initializer_list<expr::AttributeValue> values) {
  Parameters p;
  for (const auto& v : values) *p.Add() = v;
  return p;
}

TEST(PartiqlParser, SelectStarFromTable) {
  Statement st = Ok("SELECT * FROM \"Music\"");
  EXPECT_EQ(st.kind, Statement::Kind::kSelect);
  EXPECT_EQ(st.table, "Music");
  EXPECT_FALSE(st.index);
  EXPECT_TRUE(st.projection.empty());
  EXPECT_FALSE(st.where);
}

TEST(PartiqlParser, KeywordsAnyCaseAndUnquotedTable) {
  Statement st = Ok("select * from Music where Artist = 'Acme' order by SongTitle desc;");
  EXPECT_EQ(st.table, "Music");
  ASSERT_TRUE(st.where);
  EXPECT_EQ(st.where->kind, K::kCompare);
  ASSERT_EQ(st.order_by.size(), 1u);
  EXPECT_EQ(st.order_by[0].name, "SongTitle");
  EXPECT_TRUE(st.order_by[0].descending);
}

TEST(PartiqlParser, SelectIndexAndProjection) {
  Statement st = Ok("SELECT a, b.c, d[2].e, \"x y\" FROM \"t\".\"idx\" WHERE pk = 1");
  ASSERT_TRUE(st.index);
  EXPECT_EQ(*st.index, "idx");
  ASSERT_EQ(st.projection.size(), 4u);
  EXPECT_EQ(expr::PathToString(st.projection[2]), "[d, [2], e]");
  EXPECT_EQ(st.projection[3][0].name, "x y");
}

TEST(PartiqlParser, WhereForms) {
  Statement st =
      Ok("SELECT * FROM t WHERE a = 1 AND (b <> 'x' OR NOT c < 2) AND d BETWEEN 1 AND 5 AND e IN [1, 2] AND "
         "f IN ('a') AND g IS MISSING AND h IS NOT MISSING AND begins_with(i, 'p') AND contains(j, 3) AND "
         "attribute_type(k, 'S') AND size(l) >= 2 AND m NOT IN [1] AND n IS NULL");
  ASSERT_TRUE(st.where);
  ASSERT_EQ(st.where->kind, K::kAnd);
  EXPECT_EQ(st.where->args.size(), 13u);
  EXPECT_EQ(st.where->args[1].kind, K::kOr);
  EXPECT_EQ(st.where->args[2].kind, K::kBetween);
  EXPECT_EQ(st.where->args[3].kind, K::kIn);
  EXPECT_EQ(st.where->args[3].args.size(), 3u);
  EXPECT_EQ(st.where->args[5].kind, K::kIsMissing);
  EXPECT_TRUE(st.where->args[6].negated);
  EXPECT_EQ(st.where->args[7].kind, K::kFunction);
  EXPECT_EQ(st.where->args[7].function, "begins_with");
  EXPECT_EQ(st.where->args[11].kind, K::kNot);
  // Every form becomes an expression condition.
  EXPECT_TRUE(ToCondition(*st.where, "").ok());
}

TEST(PartiqlParser, Literals) {
  Statement st =
      Ok("INSERT INTO t VALUE {'pk': 'it''s', 'n': -1.50, 'e': 7.31e6, 'd': .5, 'b': true, 'z': null, "
         "'l': [1, 'a', [false]], 'm': {'x': {'y': 2}}, 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>}");
  EXPECT_EQ(st.kind, Statement::Kind::kInsert);
  const auto& f = st.item.m().fields();
  EXPECT_EQ(f.at("pk").s(), "it's");
  EXPECT_EQ(f.at("n").n(), "-1.5");
  EXPECT_EQ(f.at("e").n(), "7310000");
  EXPECT_EQ(f.at("d").n(), "0.5");
  EXPECT_TRUE(f.at("b").bool_value());
  EXPECT_TRUE(f.at("z").null_value());
  EXPECT_EQ(f.at("l").l().values_size(), 3);
  EXPECT_EQ(f.at("m").m().fields().at("x").m().fields().at("y").n(), "2");
  EXPECT_EQ(f.at("ss").ss().values_size(), 2);
  EXPECT_EQ(f.at("ns").ns().values_size(), 2);
}

TEST(PartiqlParser, Parameters) {
  Statement st = Ok("INSERT INTO t VALUE {'pk': ?, 'v': ?}", Params({S("a"), N("1.50")}));
  EXPECT_EQ(st.item.m().fields().at("pk").s(), "a");
  EXPECT_EQ(st.item.m().fields().at("v").n(), "1.5");
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = ? AND a = ?", Params({S("a")})),
            "Number of parameters in request and statement don't match.");
  // Extra parameters are ignored, as DynamoDB does.
  Ok("SELECT * FROM t WHERE pk = ?", Params({S("a"), S("b")}));
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = ?", Params({N("1e99999999999")})),
            "The parameter cannot be converted to a numeric value: 1e99999999999");
}

TEST(PartiqlParser, UpdateForms) {
  Statement st =
      Ok("UPDATE \"t\" SET a = 1, b = b + 2 SET c = list_append(c, [1]) REMOVE d, e[1] "
         "SET s = set_add(s, <<'x'>>) WHERE pk = 'k' AND sk = 2 RETURNING ALL NEW *");
  EXPECT_EQ(st.kind, Statement::Kind::kUpdate);
  EXPECT_EQ(st.sets.size(), 4u);
  EXPECT_EQ(st.removes.size(), 2u);
  EXPECT_EQ(st.returning, Returning::kAllNew);
  auto u = ToUpdate(st, "");
  ASSERT_TRUE(u.ok()) << u.error().message();
  EXPECT_EQ(u->sets.size(), 3u);
  EXPECT_EQ(u->adds.size(), 1u);
  EXPECT_EQ(Ok("UPDATE t SET a = 1 WHERE pk = 1 RETURNING MODIFIED OLD *").returning,
            Returning::kModifiedOld);
}

TEST(PartiqlParser, DeleteAndExists) {
  Statement d = Ok("DELETE FROM \"t\" WHERE pk = 'a' RETURNING ALL OLD *");
  EXPECT_EQ(d.kind, Statement::Kind::kDelete);
  EXPECT_EQ(d.returning, Returning::kAllOld);
  Statement e = Ok("EXISTS(SELECT * FROM \"t\" WHERE pk = 'a' AND v > 1)");
  EXPECT_EQ(e.kind, Statement::Kind::kExists);
  EXPECT_EQ(Err("DELETE FROM t WHERE pk = 'a' RETURNING ALL NEW *"),
            "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE "
            "statements.");
}

TEST(PartiqlParser, Comments) {
  Ok("-- a note\nSELECT * FROM t /* here */ WHERE pk = 1 -- end");
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1 # note"), kMalformed);
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1 /* note"), kMalformed);
}

TEST(PartiqlParser, SyntaxErrors) {
  EXPECT_EQ(Err("UPSERT INTO t VALUE {'a': 1}"), std::string(kMalformed) + "Expected data manipulation");
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1 foo"),
            std::string(kMalformed) + "Unexpected token after expression");
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1)"),
            std::string(kMalformed) + "Unexpected token after expression");
  EXPECT_EQ(Err("SELECT * FROM t ORDER BY pk WHERE pk = 1"),
            std::string(kMalformed) + "Unexpected token after expression");
  EXPECT_EQ(Err("DELETE FROM t WHERE pk = 1 ORDER BY pk"),
            std::string(kMalformed) + "Unexpected token after expression");
  EXPECT_EQ(Err("INSERT INTO t t VALUE {'pk': 'x'}"),
            std::string(kMalformed) + "Unexpected token after expression");
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 'abc"), kMalformed);
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1e2147483648"), kMalformed);
  EXPECT_EQ(Err("SELECT * FROM t WHERE m.inner = 1"), std::string(kMalformed) + "Invalid path dot component");
  EXPECT_EQ(Err("SELECT * FROM t WHERE value = 1"), std::string(kMalformed) + "Unexpected keyword");
  EXPECT_EQ(Err("SELECT * FROM t WHERE"), std::string(kMalformed) + "Unexpected end of statement");
}

TEST(PartiqlParser, Aliases) {
  EXPECT_EQ(Err("SELECT * FROM \"t\" x WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(Err("SELECT * FROM \"t\" AS x WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(Err("UPDATE \"t\" x SET a = 3 WHERE pk = 'x'"), "Aliasing is not supported");
  EXPECT_EQ(Err("DELETE FROM \"t\" x WHERE pk = 'x'"), "Aliasing is not supported");
}

TEST(PartiqlParser, LiteralErrors) {
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  EXPECT_EQ(Err("SELECT * FROM t WHERE pk = 1e126"), overflow + " under root");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'pk': 1, 'm': {'x': 1e126}}"), overflow + " under root.x");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'pk': 1, 'l': [1, 1e126]}"), overflow + " under root[1]");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'pk': <<>>}"), "Empty bags are not supported");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'pk': <<'x', 'x'>>}"),
            "One or more parameter values were invalid: Input collection [x, x] contains duplicates.");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'pk': <<'x', 1>>}"),
            "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
  EXPECT_EQ(Err("INSERT INTO t VALUE {'a': 1, 'a': 2}"), "Duplicate keys in tuple. Key: a under root");
  EXPECT_EQ(
      Err("INSERT INTO t VALUE [1]"),
      "Unsupported format in item expression. Please use struct format {...} to express item values for "
      "insert statement.");
  EXPECT_EQ(Err("INSERT INTO t VALUES {'a': 1}"),
            "Unsupported operation: Inserting multiple items in a single statement is not supported, use "
            "\"INSERT INTO tableName VALUE item\" instead");
  EXPECT_EQ(Err("SELECT * FROM t WHERE a = MISSING"), "MISSING must be compared using IS operator");
}

TEST(PartiqlParser, ProjectionErrors) {
  EXPECT_EQ(Err("SELECT *, a FROM t"),
            "Other attributes should not be present in the projection when '*' is used.");
  EXPECT_EQ(Err("SELECT attribute_exists(a) FROM t"), "Unexpected path component at 1:8:16");
  EXPECT_EQ(Err("SELECT * FROM \"a\".\"b\".\"c\""),
            "A path may contain at most 2 components in the FROM clause");
}

TEST(PartiqlParser, FunctionErrors) {
  auto cond = [](std::string_view text) -> std::string {
    auto st = P(text);
    if (!st.ok()) return st.error().message();
    auto c = ToCondition(*st->where, text);
    return c.ok() ? "" : c.error().message();
  };
  EXPECT_EQ(cond("SELECT * FROM t WHERE attribute_exists('a')"),
            "Operator or function requires a document path; operator or function: attribute_exists");
  EXPECT_EQ(
      cond("SELECT * FROM t WHERE attribute_exists()"),
      "Incorrect number of operands for operator or function; operator or function: attribute_exists, number "
      "of operands: 0");
  EXPECT_EQ(cond("SELECT * FROM t WHERE EXISTS(a)"), "Unrecognized function: exists at 1:23:6");
  auto update = [](std::string_view text) -> std::string {
    auto st = P(text);
    if (!st.ok()) return st.error().message();
    auto u = ToUpdate(*st, text);
    return u.ok() ? "" : u.error().message();
  };
  EXPECT_EQ(update("UPDATE t SET t = set_add(ss, <<'x'>>) WHERE pk = 1"),
            "The first argument to SET_ADD must equal the assignment value at 1:18:7");
  EXPECT_EQ(update("UPDATE t SET ss = set_add(ss) WHERE pk = 1"),
            "SET_ADD must have exactly two arguments at 1:19:7");
  EXPECT_EQ(update("UPDATE t SET ss = set_add(ss, 'x') WHERE pk = 1"),
            "The second argument to SET_ADD must be a value with type SET at 1:27:2");
}

TEST(PartiqlParser, HostileInputIsBounded) {
  std::string deep = "SELECT * FROM t WHERE " + std::string(5000, '(') + "a = 1" + std::string(5000, ')');
  EXPECT_EQ(Err(deep).rfind(kMalformed, 0), 0u);
  std::string nots = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_EQ(Err(nots + "a = 1").rfind(kMalformed, 0), 0u);
  std::string lists = "INSERT INTO t VALUE {'pk': " + std::string(5000, '[') + std::string(5000, ']') + "}";
  EXPECT_EQ(Err(lists).rfind("Nesting Levels have exceeded supported limits", 0), 0u);
  std::string in = "SELECT * FROM t WHERE a IN [";
  for (int i = 0; i < 1000; ++i) in += (i ? ", " : "") + std::to_string(i);
  EXPECT_FALSE(P(in + "]").ok());
}

TEST(PartiqlParser, LiteralNestingLimit) {
  const std::string nest =
      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond "
      "supported "
      "limit";
  std::string deep =
      "INSERT INTO t VALUE {'pk': 1, 'l': " + std::string(40, '[') + std::string(40, ']') + "}";
  EXPECT_EQ(Err(deep), nest);
  std::string ok = "INSERT INTO t VALUE {'pk': 1, 'l': " + std::string(20, '[') + std::string(20, ']') + "}";
  Ok(ok);
}

TEST(PartiqlParser, Positions) {
  EXPECT_EQ(Position("ab\ncdé f", 8, 9), "2:5:1");
  EXPECT_EQ(Position("select x", 7, 8), "1:8:1");
}

}  // namespace
}  // namespace pogi::partiql
