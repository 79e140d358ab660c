// Tests for gateway/sigv4: the order of VerifySignature's refusals. The
// signature's time window is judged before the access key is looked up
// (DynamoDB behaviours H1); the full round trip with a real signer is in
// tests/unit/outbound/sigv4_signer_test.cc and tests/e2e/test_signatures.py.
#include "gateway/sigv4.h"

#include <gtest/gtest.h>

namespace pogi::gateway {
namespace {

constexpr int64_t kNow = 1370772015;  // 2013-06-09T10:00:15Z

Status Verify(std::string_view key, std::string_view amz_date) {
  std::string authorization = "AWS4-HMAC-SHA256 Credential=" + std::string(key) + "/" +
                              std::string(amz_date.substr(0, 8)) +
                              "/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00";
  SignedRequest req{
      "POST", "/", {{"Host", "localhost"}, {"X-Amz-Date", amz_date}, {"Authorization", authorization}}, "{}"};
  return VerifySignature(req, Credentials{"pogi", "secret"}, kNow);
}

TEST(Sigv4Test, TheTimeWindowComesBeforeTheKeyLookup) {
  Status s = Verify("someone-else", "20130301T000000Z");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kInvalidSignature);
  EXPECT_TRUE(s.error().message().starts_with("Signature expired: 20130301T000000Z")) << s.error().message();

  s = Verify("someone-else", "20130609T101516Z");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.error().message().starts_with("Signature not yet current: ")) << s.error().message();

  // Inside the window, the unknown key is what is refused.
  s = Verify("someone-else", "20130609T100015Z");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kUnrecognizedClient);
  // The known key reaches the signature itself.
  s = Verify("pogi", "20130609T100015Z");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kInvalidSignature);
  EXPECT_TRUE(s.error().message().starts_with("The request signature we calculated")) << s.error().message();
}

}  // namespace
}  // namespace pogi::gateway
