// Tests for table ARNs in place of table names: ResolveTableName (pogi's own
// ARNs, other regions and accounts, ARNs of other things) and the member
// constraint of a name-or-ARN member.
#include <gtest/gtest.h>

#include <string>

#include "service/validate/constraints.h"
#include "service/validate/control_plane.h"

namespace pogi::service {
namespace {

std::string Resolve(const std::string& s) {
  auto r = ResolveTableName(s);
  if (!r.ok()) return "error: " + r.error().message();
  return r.value();
}

TEST(TableArnTest, NamesAndOwnArnsResolveToNames) {
  EXPECT_EQ(Resolve("orders"), "orders");
  EXPECT_EQ(Resolve("arn:aws:dynamodb:us-east-1:000000000000:table/orders"), "orders");
  EXPECT_EQ(Resolve(TableArnOf("a.b-c_d")), "a.b-c_d");
}

TEST(TableArnTest, ArnsOfOtherRegionsResolveToNames) {
  // Catalog::FindNamed then looks for the table in the ARN's region.
  EXPECT_EQ(Resolve("arn:aws:dynamodb:eu-west-1:000000000000:table/orders"), "orders");
}

TEST(TableArnTest, OtherAccountsPartitionsAndRegionsThatAreNoneStayUnresolved) {
  for (std::string arn : {"arn:aws:dynamodb:us-east-1:123456789012:table/orders",
                          "arn:aws-cn:dynamodb:us-east-1:000000000000:table/orders",
                          "arn:aws:dynamodb:moon:000000000000:table/orders"}) {
    EXPECT_EQ(Resolve(arn), arn);
  }
}

TEST(TableArnTest, ArnsOfOtherThingsAreRefused) {
  for (std::string arn :
       {"arn:aws:dynamodb:us-east-1:000000000000:table/orders/index/by-x",
        "arn:aws:dynamodb:us-east-1:000000000000:table/orders/stream/2030",
        "arn:aws:dynamodb:us-east-1:000000000000:table/ab", "arn:aws:dynamodb:us-east-1:000000000000:table/",
        "arn:aws:s3:us-east-1:000000000000:table/orders", "arn:aws:dynamodb:us-east-1", "arn:"}) {
    EXPECT_EQ(Resolve(arn), "error: Invalid TableArn: Invalid ResourceArn provided as input " + arn);
  }
}

TEST(TableArnTest, NameOrArnConstraint) {
  auto check = [](const std::string& v) {
    Constraints c;
    CheckTableNameOrArn(c, &v);
    Status s = c.Finish();
    return s.ok() ? std::string("ok") : s.error().message();
  };
  EXPECT_EQ(check("orders"), "ok");
  EXPECT_EQ(check(TableArnOf("orders")), "ok");
  EXPECT_EQ(
      check("ab"),
      "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must "
      "have length greater than or equal to 3");
  std::string long_arn = "arn:" + std::string(1021, 'x');
  EXPECT_EQ(check(long_arn),
            "1 validation error detected: Value '" + long_arn +
                "' at 'tableName' failed to satisfy constraint: Member must have length less "
                "than or equal to 1024");
}

}  // namespace
}  // namespace pogi::service
