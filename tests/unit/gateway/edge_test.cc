// Tests for gateway/edge: the Authorization form check with DynamoDB's
// texts, signature dates, request inflation and response compression.
#include "gateway/edge.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace pogi::gateway {
namespace {

std::string FormMessage(AuthView auth, ErrorCode want) {
  std::optional<Error> e = AuthorizationFormError(auth);
  if (!e) return "<ok>";
  EXPECT_EQ(e->code(), want) << e->message();
  return e->message();
}

TEST(EdgeTest, MediaType) {
  EXPECT_EQ(MediaType("application/json"), "application/json");
  EXPECT_EQ(MediaType("  application/json  ;   asfd"), "application/json");
  EXPECT_EQ(MediaType("application/x-amz-json-1.0;"), "application/x-amz-json-1.0");
  EXPECT_EQ(MediaType(""), "");
}

TEST(EdgeTest, MissingAuthentication) {
  const ErrorCode kMissing = ErrorCode::kMissingAuthenticationToken;
  EXPECT_EQ(FormMessage({false, "", false, "/"}, kMissing), "Request is missing Authentication Token");
  EXPECT_EQ(FormMessage({true, "AWS4", true, "/"}, kMissing), "Request is missing Authentication Token");
  EXPECT_EQ(FormMessage({true, "Basic abc", true, "/"}, kMissing), "Request is missing Authentication Token");
  // Query-string parameters without X-Amz-Algorithm are no signing at all.
  EXPECT_EQ(FormMessage({false, "", false, "/?X-Amz-Credential=a&X-Amz-Signature=b"}, kMissing),
            "Request is missing Authentication Token");
}

TEST(EdgeTest, BothHeaderAndQueryString) {
  EXPECT_EQ(FormMessage({true, "X", false, "/?X-Amz-Algorithm"}, ErrorCode::kInvalidSignature),
            "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
}

TEST(EdgeTest, IncompleteHeader) {
  const ErrorCode kIncomplete = ErrorCode::kIncompleteSignature;
  EXPECT_EQ(FormMessage({true, "AWS4-", false, "/"}, kIncomplete),
            "Authorization header requires 'Credential' parameter. "
            "Authorization header requires 'Signature' parameter. "
            "Authorization header requires 'SignedHeaders' parameter. "
            "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
            "Authorization=AWS4-");
  for (const char* header : {"AWS4- Signature=b Credential=a", "AWS4- Signature=b,Credential=a",
                             "AWS4- Signature=b, Credential=a"}) {
    EXPECT_EQ(
        FormMessage({true, header, true, "/"}, kIncomplete),
        "Authorization header requires 'SignedHeaders' parameter. Authorization=" + std::string(header));
  }
  EXPECT_EQ(
      FormMessage({true, "AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=host, Signature=00", true, "/"},
                  kIncomplete),
      "<ok>");
}

TEST(EdgeTest, IncompleteQueryString) {
  const ErrorCode kIncomplete = ErrorCode::kIncompleteSignature;
  EXPECT_EQ(FormMessage({false, "", false, "/?X-Amz-Algorithm"}, kIncomplete),
            "AWS query-string parameters must include 'X-Amz-Algorithm'. "
            "AWS query-string parameters must include 'X-Amz-Credential'. "
            "AWS query-string parameters must include 'X-Amz-Signature'. "
            "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
            "AWS query-string parameters must include 'X-Amz-Date'. "
            "Re-examine the query-string parameters.");
  EXPECT_EQ(
      FormMessage({false, "", false, "/?X-Amz-Algorithm=a&X-Amz-Credential=b&X-Amz-Signature=c&X-Amz-Date=d"},
                  kIncomplete),
      "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
      "Re-examine the query-string parameters.");
}

TEST(EdgeTest, SignatureDates) {
  const int64_t kNow = 1370772015;  // 20130609T100015Z
  EXPECT_FALSE(SignatureDateError("20130609T100015Z", kNow));
  EXPECT_FALSE(SignatureDateError("20130609T094515Z", kNow));
  std::optional<Error> e = SignatureDateError("20130301T000000Z", kNow);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code(), ErrorCode::kInvalidSignature);
  EXPECT_EQ(e->message(),
            "Signature expired: 20130301T000000Z is now earlier than 20130609T094515Z (20130609T100015Z - 15 "
            "min.)");
  e = SignatureDateError("20300101T000000Z", kNow);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message(),
            "Signature not yet current: 20300101T000000Z is still later than 20130609T101515Z "
            "(20130609T100015Z + 15 min.)");
  e = SignatureDateError("201", kNow);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code(), ErrorCode::kIncompleteSignature);
  EXPECT_EQ(e->message(),
            "Date must be in ISO-8601 'basic format'. Got '201'. See http://en.wikipedia.org/wiki/ISO_8601");
}

TEST(EdgeTest, CompressionRoundTrips) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "{\"pk\":{\"S\":\"" + std::to_string(i) + "\"}},";
  for (Compression how : {Compression::kGzip, Compression::kDeflate}) {
    std::string packed, unpacked;
    ASSERT_TRUE(Compress(how, text, &packed));
    EXPECT_LT(packed.size(), text.size() / 4);
    ASSERT_TRUE(InflateBody(how == Compression::kGzip ? "gzip" : "Deflate", packed, 1 << 24, &unpacked).ok());
    EXPECT_EQ(unpacked, text);
    // Bounded: a small body that inflates past the limit is refused.
    Status s = InflateBody(how == Compression::kGzip ? "gzip" : "deflate", packed, 100, &unpacked);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code(), ErrorCode::kRequestEntityTooLarge);
  }
  // Concatenated gzip members are one body.
  std::string a, b, out;
  ASSERT_TRUE(Compress(Compression::kGzip, "hello ", &a));
  ASSERT_TRUE(Compress(Compression::kGzip, "world", &b));
  ASSERT_TRUE(InflateBody("gzip", a + b, 1 << 20, &out).ok());
  EXPECT_EQ(out, "hello world");
}

TEST(EdgeTest, BrokenBodiesAreInternalServerErrors) {
  std::string packed, out;
  ASSERT_TRUE(Compress(Compression::kGzip, "{\"TableName\":\"t\"}", &packed));
  for (std::string body : {std::string("{}"), std::string(), packed.substr(0, packed.size() - 1)}) {
    Status s = InflateBody("gzip", body, 1 << 20, &out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code(), ErrorCode::kInternalServerError);
  }
  Status s = InflateBody("br", packed, 1 << 20, &out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code(), ErrorCode::kInternalServerError);
}

// DynamoDB's choice of response encoding (behaviours H4), every recorded
// example and the rules between them. pogi produces gzip and deflate only.
TEST(EdgeTest, ChosenCompression) {
  constexpr Compression kGzip = Compression::kGzip, kDeflate = Compression::kDeflate,
                        kNone = Compression::kNone;
  struct Case {
    std::string_view accept_encoding;
    Compression want;
  };
  const Case kCases[] = {
      {"", kNone},
      {"gzip", kGzip},
      {"deflate", kDeflate},
      {"gzip, deflate", kGzip},
      {"deflate, gzip", kDeflate},
      // Case-insensitive names.
      {"GZIP", kGzip},
      {"DeFlAtE", kDeflate},
      {"br, GZIP;q=0.5", kGzip},
      // The highest q wins; at a tie, the earliest listed supported encoding.
      {"gzip;q=0.5, deflate", kDeflate},
      {"deflate;q=0.4, gzip;q=0.6", kGzip},
      {"br, identity, deflate, gzip", kDeflate},
      {"gzip;q=31,deflate;q=51", kGzip},  // both count as 1
      {"deflate;q=0.5, gzip;q=0.50", kDeflate},
      // A named encoding beats `*` at equal q.
      {"*, deflate", kDeflate},
      {"*;q=0.5, gzip;q=0.5", kGzip},
      {"*;q=0.5, deflate;q=0.3", kGzip},  // gzip through `*` at 0.5
      // `*` alone means gzip, unless gzip is named with a lower q.
      {"*", kGzip},
      {"*, gzip;q=0.5", kDeflate},
      {"*, gzip;q=0", kDeflate},
      {"*;q=0", kNone},
      {"*;q=0, deflate", kDeflate},
      // identity, unknown and malformed entries are ignored.
      {"identity", kNone},
      {"br", kNone},
      {"br, compress, x-gzip", kNone},
      {"\"gzip\"", kNone},
      {"gzip br", kNone},
      {"gzip:q=1", kNone},
      {"\"gzip\", deflate;q=0.1", kDeflate},
      {"gzip;q=abc", kNone},
      {"gzip;q=", kNone},
      {",, ,gzip,", kGzip},
      // q > 1 counts as 1; q=0, q=0. and a negative q exclude.
      {"gzip;q=2", kGzip},
      {"gzip;q=0", kNone},
      {"gzip;q=0.", kNone},
      {"gzip;q=0.000", kNone},
      {"gzip;q=-1", kNone},
      {"gzip;q=-0.5, deflate;q=0.001", kDeflate},
      {"gzip;q=0, deflate", kDeflate},
      {"gzip;q=.5", kGzip},
      // Only the first q= of an entry counts, found anywhere in its parameters.
      {"gzip;q= 0;q=1", kNone},
      {"gzip; q=0;q=1", kNone},
      {"gzip;nq=0;q=1", kNone},
      {"gzip;q =0;q=1", kGzip},
      {"gzip;q=1;q=0", kGzip},
      {"gzip;level=9", kGzip},
      {"gzip;Q=0", kNone},
      // A name repeated with a positive q anywhere is allowed.
      {"gzip;q=0, gzip;q=1, gzip;q=0", kGzip},
      {"gzip;q=1, gzip;q=0", kGzip},
      {"deflate;q=0, deflate", kDeflate},
  };
  for (const Case& c : kCases) {
    EXPECT_EQ(ChosenCompression(c.accept_encoding), c.want) << "Accept-Encoding: " << c.accept_encoding;
  }
}

TEST(EdgeTest, HttpDate) {
  std::string_view d = HttpDateNow();
  ASSERT_EQ(d.size(), 29u) << d;
  EXPECT_TRUE(d.ends_with(" GMT")) << d;
}

}  // namespace
}  // namespace pogi::gateway
