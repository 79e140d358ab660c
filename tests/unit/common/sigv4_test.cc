// SigV4's primitives against the worked example of AWS's General Reference
// ("Examples of how to derive a signing key", the IAM ListUsers request of
// 2015-08-30), and the encoding rules.
#include "common/sigv4.h"

#include <gtest/gtest.h>

#include "common/sha256.h"

namespace pogi::sigv4 {
namespace {

constexpr const char* kSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

TEST(Sigv4Test, CanonicalRequestOfTheIamExample) {
  std::string canonical = CanonicalRequest(
      "GET", "/", "Action=ListUsers&Version=2010-05-08",
      "content-type:application/x-www-form-urlencoded; charset=utf-8\nhost:iam.amazonaws.com\n"
      "x-amz-date:20150830T123600Z\n",
      "content-type;host;x-amz-date", Sha256Hex(""));
  EXPECT_EQ(Sha256Hex(canonical), "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59");
  std::string scope = CredentialScope("20150830T123600Z", "us-east-1", "iam");
  EXPECT_EQ(scope, "20150830/us-east-1/iam/aws4_request");
  std::string key = SigningKey(kSecret, "20150830", "us-east-1", "iam");
  EXPECT_EQ(ToHex(key), "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");
  EXPECT_EQ(Signature(key, StringToSign("20150830T123600Z", scope, canonical)),
            "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
}

TEST(Sigv4Test, EmptyPathIsTheRoot) {
  EXPECT_EQ(CanonicalRequest("GET", "", "", "h:v\n", "h", "x"), "GET\n/\n\nh:v\n\nh\nx");
}

TEST(Sigv4Test, UriEncodeKeepsUnreservedAndOptionallySlashes) {
  EXPECT_EQ(UriEncode("aZ09-._~", true), "aZ09-._~");
  EXPECT_EQ(UriEncode("a b/c+d=é", true), "a%20b%2Fc%2Bd%3D%C3%A9");
  EXPECT_EQ(UriEncode("AWSDynamoDB/01/data/x.json.gz", false), "AWSDynamoDB/01/data/x.json.gz");
}

TEST(Sigv4Test, CanonicalHeaderValueTrimsAndCollapses) {
  EXPECT_EQ(CanonicalHeaderValue("  a   b\t c  "), "a b c");
  EXPECT_EQ(CanonicalHeaderValue(""), "");
}

}  // namespace
}  // namespace pogi::sigv4
