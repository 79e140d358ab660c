// A request signed by pogi's signer passes pogi's own verifier (the HTTP
// door's --check-signatures), and fails it once anything signed changes.
#include "outbound/sigv4_signer.h"

#include <gtest/gtest.h>

#include "common/sigv4.h"
#include "gateway/sigv4.h"
#include "service/core/region.h"

namespace pogi::outbound {
namespace {

gateway::SignedRequest AsReceived(const HttpRequest& req) {
  gateway::SignedRequest r;
  r.method = req.method;
  r.path = req.target;
  for (const auto& [k, v] : req.headers) r.headers.emplace_back(k, v);
  r.body = req.body;
  return r;
}

TEST(Sigv4SignerTest, SignedRequestPassesTheVerifier) {
  Endpoint endpoint{"127.0.0.1", 7644, ""};
  SigningIdentity id{"AKID", "secret", service::Region(), "dynamodb"};
  HttpRequest req;
  req.method = "POST";
  req.target = "/";
  req.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                 {"X-Amz-Target", "DynamoDB_20120810.ListTables"}};
  req.body = "{}";
  int64_t now = 1764676800;  // 2025-12-02T12:00:00Z
  SignRequest(req, endpoint, id, now);
  EXPECT_EQ(FindHeader(req.headers, "x-amz-date"), "20251202T120000Z");
  EXPECT_TRUE(
      FindHeader(req.headers, "authorization").starts_with("AWS4-HMAC-SHA256 Credential=AKID/20251202/"));
  gateway::Credentials creds{"AKID", "secret"};
  EXPECT_TRUE(gateway::VerifySignature(AsReceived(req), creds, now).ok());

  // Another secret, another body: refused.
  EXPECT_FALSE(gateway::VerifySignature(AsReceived(req), gateway::Credentials{"AKID", "other"}, now).ok());
  HttpRequest changed = req;
  changed.body = "{\"Limit\":1}";
  // The request holds views: the new hash must outlive it.
  const std::string changed_hash = sigv4::Sha256Hex(changed.body);
  gateway::SignedRequest r = AsReceived(changed);
  for (auto& [k, v] : r.headers) {
    if (k == "X-Amz-Content-Sha256") v = changed_hash;
  }
  EXPECT_FALSE(gateway::VerifySignature(r, creds, now).ok());
}

TEST(Sigv4SignerTest, AmzDateIsUtc) {
  EXPECT_EQ(AmzDate(0), "19700101T000000Z");
  EXPECT_EQ(AmzDate(1440938160), "20150830T123600Z");
}

}  // namespace
}  // namespace pogi::outbound
