// Parser tests: syntax, precedence, and DynamoDB's exact error messages.
#include "service/expr/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "service/expr/lexer.h"
#include "service/expr/reserved_words.h"
#include "tests/unit/service/expr/expr_test_util.h"

namespace pogi::expr {
namespace {

using namespace testing;  // NOLINT

struct Env {
  NameMap names;
  AttributeMap values;
};

std::string CondError(const std::string& text, Env env = {}, ExpressionKind kind = ExpressionKind::kFilter) {
  Substitutions subs(&env.names, &env.values);
  auto r = ParseCondition(text, kind, subs);
  return r.ok() ? "OK" : r.error().message();
}
std::string UpdateError(const std::string& text, Env env = {}) {
  Substitutions subs(&env.names, &env.values);
  auto r = ParseUpdate(text, subs);
  return r.ok() ? "OK" : r.error().message();
}
std::string ProjError(const std::string& text, Env env = {}) {
  Substitutions subs(&env.names, &env.values);
  auto r = ParseProjection(text, subs);
  return r.ok() ? "OK" : r.error().message();
}

TEST(ExprLexerTest, TokensAndInvalidCharacters) {
  auto t = Tokenize("a.b[2] <> :v AND #n>=1");
  ASSERT_EQ(t.size(), 13u);
  EXPECT_EQ(t[6].kind, TokenKind::kNe);
  EXPECT_EQ(t[7].kind, TokenKind::kValueRef);
  EXPECT_EQ(t[9].kind, TokenKind::kNameRef);
  EXPECT_EQ(t[10].kind, TokenKind::kGe);
  EXPECT_EQ(t.back().kind, TokenKind::kEof);
  auto u = Tokenize("ü!#");
  EXPECT_EQ(u[0].text, "ü");
  EXPECT_EQ(u[0].kind, TokenKind::kInvalid);
  EXPECT_EQ(u[2].kind, TokenKind::kInvalid);  // lone '#'
}

TEST(ExprReservedWordsTest, CaseInsensitive) {
  EXPECT_TRUE(IsReservedWord("abOrt"));
  EXPECT_TRUE(IsReservedWord("name"));
  EXPECT_TRUE(IsReservedWord("ZONE"));
  EXPECT_TRUE(IsReservedWord("FLATTERN"));
  EXPECT_FALSE(IsReservedWord("pk"));
  EXPECT_FALSE(IsReservedWord("averyveryverylongname"));
}

TEST(ExprParserTest, SyntaxErrorsNameTokenAndNeighbours) {
  // Texts observed from DynamoDB (issues of aws-cdk, floci, dynoxide).
  EXPECT_EQ(CondError("a-b"), "Invalid FilterExpression: Syntax error; token: \"-\", near: \"a-b\"");
  EXPECT_EQ(UpdateError("INVALID SYNTAX HERE"),
            "Invalid UpdateExpression: Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\"");
  EXPECT_EQ(UpdateError("SET hits : incr"),
            "Invalid UpdateExpression: Syntax error; token: \":\", near: \"hits : incr\"");
  EXPECT_EQ(ProjError("!!"), "Invalid ProjectionExpression: Syntax error; token: \"!\", near: \"!!\"");
  EXPECT_EQ(CondError("()", {}, ExpressionKind::kKeyCondition),
            "Invalid KeyConditionExpression: Syntax error; token: \")\", near: \"()\"");
  EXPECT_EQ(UpdateError("set a"), "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"a\"");
}

TEST(ExprParserTest, SyntaxErrorCases) {
  for (const char* text : {"things are not gonna be ok", "a > 4", "attribute_exists(Pictures-RearView)",
                           "attribute_exists(Pictures..RearView)", "attribute_exists(asdf[a])", "a in b, c",
                           "a > between", "a in b", "a in (b,c,)", "#$.b > a", "b[:a] > a", "size(a).b > a",
                           "size(a)[0] > a", "(size(a))[0] > a", "a = b c", "a AND b"}) {
    EXPECT_NE(CondError(text).find("Invalid FilterExpression: Syntax error; "), std::string::npos) << text;
  }
  for (const char* text :
       {"whatever", "set a", "add a", "delete a", "set a=set", "remove a = b", "add a = b", "delete a b",
        "remove a b", "set a b", "set :a = b", "remove :a", "set a = b / c", "set a[1] = 1",
        "SET if_not_exist(a, b) = a", "set (a = (b + c))", "set a = (b.c).d + e", "set a = b + c + d"}) {
    EXPECT_NE(UpdateError(text).find("Invalid UpdateExpression: Syntax error; "), std::string::npos) << text;
  }
}

TEST(ExprParserTest, EmptyAndTooLong) {
  EXPECT_EQ(CondError("", {}, ExpressionKind::kCondition),
            "Invalid ConditionExpression: The expression can not be empty;");
  EXPECT_EQ(UpdateError(""), "Invalid UpdateExpression: The expression can not be empty;");
  std::string big = "a = b";
  big += std::string(4100, ' ');
  EXPECT_EQ(CondError(big, {}, ExpressionKind::kCondition),
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; "
            "expression size: 4105");
}

TEST(ExprParserTest, ReservedWords) {
  EXPECT_EQ(CondError(":a < abOrT"),
            "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: abOrT");
  EXPECT_EQ(CondError("attribute_exists(views, #a)"),
            "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: views");
  EXPECT_EQ(UpdateError(" remove Absolute "),
            "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: Absolute");
  EXPECT_EQ(ProjError("a, name"),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name");
  Env env;
  env.names["#n"] = "name";
  EXPECT_EQ(ProjError("a, #n", env), "OK");
}

// Recorded from DynamoDB Local 3.3.1, whose expression parser is DynamoDB's.
TEST(ExprParserTest, NamesAndFunctionsStartWithALetter) {
  EXPECT_EQ(UpdateError("SET _abc = :v"),
            "Invalid UpdateExpression: Syntax error; token: \"_\", near: \"SET _abc\"");
  EXPECT_EQ(UpdateError("SET 123a = :v"),
            "Invalid UpdateExpression: Syntax error; token: \"123\", near: \"SET 123a\"");
  EXPECT_EQ(UpdateError("SET a = _f(b)"),
            "Invalid UpdateExpression: Syntax error; token: \"_\", near: \"= _f\"");
  EXPECT_EQ(CondError("a = _b"), "Invalid FilterExpression: Syntax error; token: \"_\", near: \"= _b\"");
  EXPECT_EQ(ProjError("a, _b"), "Invalid ProjectionExpression: Syntax error; token: \"_\", near: \", _b\"");
  // After the first letter "_" is a name's own.
  EXPECT_EQ(ProjError("a_b, c_"), "OK");
}

TEST(ExprParserTest, APathCannotGoOnAfterParentheses) {
  EXPECT_EQ(CondError("((b.c)).d = :v"),
            "Invalid FilterExpression: Syntax error; token: \".\", near: \").d\"");
  EXPECT_EQ(CondError("(a).b = :v"), "Invalid FilterExpression: Syntax error; token: \".\", near: \").b\"");
}

TEST(ExprParserTest, UpdateFunctionsAreNotAllowedInConditions) {
  EXPECT_EQ(CondError("if_not_exists(a, b) = b"),
            "Invalid FilterExpression: The function is not allowed in a condition expression; function: "
            "if_not_exists");
  EXPECT_EQ(CondError("size(a) = list_append(b, c)"),
            "Invalid FilterExpression: The function is not allowed in a condition expression; function: "
            "list_append");
  // The first bad function wins, whichever its kind.
  EXPECT_EQ(CondError("foo(a) = if_not_exists(b, c)"),
            "Invalid FilterExpression: Invalid function name; function: foo");
  EXPECT_EQ(CondError("if_not_exists(b, c) = foo(a)"),
            "Invalid FilterExpression: The function is not allowed in a condition expression; function: "
            "if_not_exists");
}

TEST(ExprParserTest, FunctionErrors) {
  EXPECT_EQ(CondError("a=a and whatever((:things)) > a"),
            "Invalid FilterExpression: Invalid function name; function: whatever");
  EXPECT_EQ(CondError("attRIbute_exIsts((views), #a)"),
            "Invalid FilterExpression: Invalid function name; function: attRIbute_exIsts");
  for (auto [text, fn] : std::vector<std::pair<const char*, const char*>>{
           {"attribute_not_exists(things) > b", "attribute_not_exists"},
           {"begins_with(things, a) > b", "begins_with"},
           {"size(contains(a, b)) > a", "contains"},
           {"size(things)", "size"},
           {"a between b and attribute_exists(things)", "attribute_exists"},
           {"a in (b, attribute_exists(things))", "attribute_exists"}}) {
    EXPECT_EQ(CondError(text),
              std::string("Invalid FilterExpression: The function is not allowed to be used this "
                          "way in an expression; function: ") +
                  fn)
        << text;
  }
  EXPECT_EQ(CondError("attribute_type(things)"),
            "Invalid FilterExpression: Incorrect number of operands for operator or function; "
            "operator or function: attribute_type, number of operands: 1");
  EXPECT_EQ(CondError("size(things, a) > b"),
            "Invalid FilterExpression: Incorrect number of operands for operator or function; "
            "operator or function: size, number of operands: 2");
  Env env;
  env.values[":a"] = N("1");
  EXPECT_EQ(CondError("begins_with(a, :a)", env),
            "Invalid FilterExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
  EXPECT_EQ(CondError("attribute_not_exists(size(:a))", env),
            "Invalid FilterExpression: Incorrect operand type for operator or function; "
            "operator or function: size, operand type: N");
  env.values[":a"] = S("1");
  EXPECT_EQ(CondError("attribute_exists(:a) and a=a", env),
            "Invalid FilterExpression: Operator or function requires a document path; "
            "operator or function: attribute_exists");
  EXPECT_EQ(CondError("attribute_type(a, :a)", env),
            "Invalid FilterExpression: Invalid attribute type name found; type: 1, valid types: "
            "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
}

TEST(ExprParserTest, UndefinedSubstitutionsAndDistinct) {
  EXPECT_EQ(CondError("attribute_exists(#Pictures.RearView, :a) and a=a"),
            "Invalid FilterExpression: An expression attribute name used in the document path is "
            "not defined; attribute name: #Pictures");
  EXPECT_EQ(CondError("begins_with(:hello, #a, #b)"),
            "Invalid FilterExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :hello");
  Env env;
  env.names["#a"] = "a";
  EXPECT_EQ(CondError("a = a AND #a = b AND :views > a", env),
            "Invalid FilterExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: =, first operand: [a]");
  EXPECT_EQ(CondError("contains(ab.bc[1].a, ab.bc[1].#a)", env),
            "Invalid FilterExpression: The first operand must be distinct from the remaining "
            "operands for this operator or function; operator: contains, first operand: "
            "[ab, bc, [1], a]");
}

TEST(ExprParserTest, RedundantParentheses) {
  for (const char* text :
       {"a=a and a > ((views))", "a > whatever((:things), ((a)))", "a=a AND ((a=a AND a=a)) AND a=a"}) {
    EXPECT_EQ(CondError(text), "Invalid FilterExpression: The expression has redundant parentheses;") << text;
  }
  Env env;
  env.values[":v"] = N("1");
  EXPECT_EQ(CondError("(a = :v) AND ((b = :v) OR c = :v)", env), "OK");
}

TEST(ExprParserTest, BetweenAndInLimits) {
  Env env;
  env.values[":a"] = S("a");
  env.values[":b"] = S("b");
  env.values[":n"] = N("1");
  EXPECT_EQ(CondError("x between :b and :a", env, ExpressionKind::kKeyCondition),
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
            "greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, "
            "upper bound operand: AttributeValue: {S:a}");
  EXPECT_EQ(CondError("x between :n and :a", env),
            "Invalid FilterExpression: The BETWEEN operator requires same data type for lower and "
            "upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: "
            "AttributeValue: {S:a}");
  // A bound BETWEEN cannot order is refused before the bounds are compared
  // (behaviours.md V30), the first such operand named.
  v1::AttributeValue flag;
  flag.set_bool_value(true);
  env.values[":t"] = flag;
  v1::AttributeValue list;
  list.mutable_l();
  env.values[":l"] = list;
  EXPECT_EQ(CondError("x between :n and :t", env, ExpressionKind::kKeyCondition),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
            "function: BETWEEN, operand type: BOOL");
  EXPECT_EQ(CondError("x between :l and :t", env),
            "Invalid FilterExpression: Incorrect operand type for operator or function; operator or "
            "function: BETWEEN, operand type: L");
  std::string in = "x IN (";
  for (int i = 0; i < 101; ++i) in += std::string(i ? "," : "") + ":a";
  in += ")";
  EXPECT_EQ(CondError(in, env),
            "Invalid FilterExpression: The IN operator is provided with too "
            "many operands; number of operands: 101");
}

TEST(ExprParserTest, UpdateErrors) {
  EXPECT_EQ(UpdateError("set a = #c set c = :d"),
            "Invalid UpdateExpression: The \"SET\" section can only be used once in an update "
            "expression;");
  EXPECT_EQ(UpdateError("set #c = if_not_exist(:c) set c = d"),
            "Invalid UpdateExpression: Invalid function name; function: if_not_exist");
  Env env;
  env.names["#c"] = "c";
  env.names["#d"] = "[3]";
  EXPECT_EQ(UpdateError("set #c[3].#d = a, #c[3] = a", env),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
            "rewrite one of these paths; path one: [c, [3], [3]], path two: [c, [3]]");
  EXPECT_EQ(UpdateError("remove a.#c set a[1] = #d", env),
            "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
            "rewrite one of these paths; path one: [a, c], path two: [a, [1]]");
  Env v;
  v.values[":a"] = S("a");
  EXPECT_EQ(UpdateError("delete a.b :a", v),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
            "DELETE, operand type: STRING");
  EXPECT_EQ(UpdateError("set a = a + :a", v),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: +, operand type: S");
  EXPECT_EQ(UpdateError("set a = list_append(:a, a)", v),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: list_append, operand type: S");
  EXPECT_EQ(UpdateError("set a = if_not_exists(:a, c)", v),
            "Invalid UpdateExpression: Operator or function requires a document path; operator or "
            "function: if_not_exists");
  EXPECT_EQ(UpdateError("set a = if_not_exists(c)", v),
            "Invalid UpdateExpression: Incorrect number of operands for operator or function; "
            "operator or function: if_not_exists, number of operands: 1");
  EXPECT_EQ(UpdateError("SET #c = if_not_exists(:c)", v),
            "Invalid UpdateExpression: An expression attribute name used in the document path is "
            "not defined; attribute name: #c");
  EXPECT_EQ(UpdateError("SET a = :x, b = (c), d = (e + :a), f = if_not_exists(g, :a) "
                        "REMOVE h, i[2] ADD j :a DELETE k :a",
                        v)
                .substr(0, 60),
            "Invalid UpdateExpression: An expression attribute value used");
}

TEST(ExprParserTest, PathDepthAndUnused) {
  std::string deep = "a";
  for (int i = 0; i < 32; ++i) deep += ".b";
  EXPECT_EQ(ProjError(deep),
            "Invalid ProjectionExpression: The document path has too many "
            "nesting levels; nesting levels: 33");
  Env env;
  env.names["#a"] = "a";
  env.names["#b"] = "b";
  env.values[":v"] = N("1");
  env.values[":w"] = N("1");
  Substitutions subs(&env.names, &env.values);
  ASSERT_TRUE(ParseCondition("#a = :v", ExpressionKind::kCondition, subs).ok());
  auto s = subs.CheckAllUsed();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message(),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}");
  ASSERT_TRUE(ParseProjection("#b", subs).ok());
  EXPECT_EQ(subs.CheckAllUsed().error().message(),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
}

// DynamoDB lists unused keys in java.util.HashMap's order (DynamoMapOrder):
// {:s, :one, :ns, :max} less :s is {:one, :max, :ns}, as DynamoDB Local
// answers; neither byte order nor the document's.
TEST(ExprParserTest, UnusedKeysInDynamoMapOrder) {
  EXPECT_EQ(DynamoMapOrder({":create_at_1_v1", ":create_at_2_v1"}),
            (std::vector<std::string>{":create_at_2_v1", ":create_at_1_v1"}));
  Env env;
  env.values[":s"] = N("1");
  env.values[":one"] = N("1");
  env.values[":ns"] = N("1");
  env.values[":max"] = N("1");
  Substitutions subs(&env.names, &env.values);
  ASSERT_TRUE(ParseCondition("a = :s", ExpressionKind::kCondition, subs).ok());
  EXPECT_EQ(subs.CheckAllUsed().error().message(),
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:one, :max, :ns}");
  // Thirteen keys pass 3/4 of 16 buckets: the table has 32.
  std::vector<std::string> many;
  for (char c = 'a'; c <= 'm'; ++c) many.push_back(std::string(":") + c);
  EXPECT_EQ(DynamoMapOrder(many).front(), ":a");
}

TEST(ExprParserTest, PrecedenceShapes) {
  Env env;
  env.values[":v"] = N("1");
  Substitutions subs(&env.names, &env.values);
  auto c = ParseCondition("a = :v OR b = :v AND NOT c = :v", ExpressionKind::kCondition, subs);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->kind, Condition::Kind::kOr);
  ASSERT_EQ(c->children.size(), 2u);
  EXPECT_EQ(c->children[1].kind, Condition::Kind::kAnd);
  EXPECT_EQ(c->children[1].children[1].kind, Condition::Kind::kNot);
  auto p = ParseCondition("(a) between (:v) and :v", ExpressionKind::kCondition, subs);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, Condition::Kind::kBetween);
}

TEST(ExprParserTest, HostileInputIsBounded) {
  std::string parens(4000, '(');
  EXPECT_NE(CondError(parens), "OK");
  std::string nots;
  for (int i = 0; i < 1000; ++i) nots += "NOT ";
  EXPECT_NE(CondError(nots + "a = b"), "OK");
  std::string big(100000, '(');
  EXPECT_NE(CondError(big).find("Expression size has exceeded"), std::string::npos);
  std::string ops(4000, '[');
  EXPECT_NE(UpdateError("SET a" + ops), "OK");
}

}  // namespace
}  // namespace pogi::expr
