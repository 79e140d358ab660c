// The S3 jobs' shared checks: bucket names, CSV options, tokens, list tokens.
#include "service/validate/s3_requests.h"

#include <gtest/gtest.h>

#include <functional>

namespace pogi::service {
namespace {

std::string Errors(const std::function<void(Constraints&)>& check) {
  Constraints c;
  check(c);
  Status s = c.Finish();
  return s.ok() ? "" : s.error().message();
}

TEST(S3RequestsTest, BucketsOwnersAndTokens) {
  std::string ok = "my-bucket.2_x";
  EXPECT_EQ(Errors([&](Constraints& c) { CheckS3Bucket(c, &ok, "s3Bucket"); }), "");
  for (std::string bad : {"-a", "a-", "a", "a b", "a/b"}) {
    EXPECT_NE(Errors([&](Constraints& c) { CheckS3Bucket(c, &bad, "s3Bucket"); }), "") << bad;
  }
  std::string owner = "123456789012", short_owner = "1234";
  EXPECT_EQ(Errors([&](Constraints& c) { CheckS3BucketOwner(c, &owner, "o"); }), "");
  EXPECT_EQ(
      Errors([&](Constraints& c) { CheckS3BucketOwner(c, &short_owner, "o"); }),
      "1 validation error detected: Value '1234' at 'o' failed to satisfy constraint: Member must satisfy "
      "regular expression pattern: [0-9]{12}");
  std::string token = "a$b", empty;
  EXPECT_NE(Errors([&](Constraints& c) { CheckClientToken(c, &token, "clientToken"); }), "");
  EXPECT_NE(Errors([&](Constraints& c) { CheckClientToken(c, &empty, "clientToken"); }), "");
}

TEST(S3RequestsTest, CsvOptions) {
  v1::CsvOptions csv;
  csv.set_delimiter("\t");
  csv.add_header_list("pk");
  EXPECT_EQ(Errors([&](Constraints& c) { CheckCsvOptions(c, csv, "inputFormatOptions.csv"); }), "");
  csv.set_delimiter(";;");
  csv.add_header_list("a,b");
  EXPECT_EQ(
      Errors([&](Constraints& c) { CheckCsvOptions(c, csv, "inputFormatOptions.csv"); }),
      "3 validation errors detected: Value ';;' at 'inputFormatOptions.csv.delimiter' failed to satisfy "
      "constraint: Member must have length less than or equal to 1; Value ';;' at "
      "'inputFormatOptions.csv.delimiter' failed to satisfy constraint: Member must satisfy regular "
      "expression pattern: [,;:|\\t ]; Value 'a,b' at 'inputFormatOptions.csv.headerList.2.member' failed "
      "to satisfy constraint: Member must satisfy regular expression pattern: "
      "[\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*");
}

TEST(S3RequestsTest, ListTokensAreDynamoDbsShapeAndGoBack) {
  std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/import/01234567890123-abcdef01";
  std::string token = ListTokenOf(arn);
  EXPECT_GE(token.size(), 112u);
  EXPECT_EQ(token.size() % 16, 0u);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(ArnOfListToken(token), arn);
  EXPECT_EQ(ArnOfListToken("abc"), std::nullopt);
  EXPECT_EQ(ArnOfListToken(std::string(112, 'g')), std::nullopt);
}

TEST(S3RequestsTest, JobIds) {
  EXPECT_EQ(NewJobId(1.5).substr(0, 15), "00000000001500-");
  EXPECT_EQ(NewJobId(1.5).size(), 23u);
}

TEST(S3RequestsTest, ConstraintsUnderAPrefix) {
  Constraints c;
  c.Required(false, "a");
  c.set_prefix("outer.");
  c.Required(false, "b");
  c.set_prefix("");
  EXPECT_EQ(
      c.Finish().error().message(),
      "2 validation errors detected: Value null at 'a' failed to satisfy constraint: Member must not be "
      "null; Value null at 'outer.b' failed to satisfy constraint: Member must not be null");
}

}  // namespace
}  // namespace pogi::service
