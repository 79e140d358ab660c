// Tests for gateway/http_request: requests read whole or in pieces,
// pipelined, refused at each limit of common/limits.h, and a client leaving
// mid-request; ToApiRequest's inflation.
#include "gateway/http_request.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/limits.h"
#include "gateway/edge.h"

namespace pogi::gateway {
namespace {

using State = HttpRequestReader::State;

// Feeds `bytes` in pieces of `piece` bytes until the reader decides; the
// end of `bytes` is the client closing. Consumes what it fed from *bytes.
State Feed(HttpRequestReader& reader, std::string_view* bytes, size_t piece = 1 << 20) {
  State state = reader.Next();
  while (state == State::kNeedMore) {
    if (bytes->empty()) return reader.ReceivedEnd();
    auto [space, room] = reader.Space();
    size_t n = std::min({room, piece, bytes->size()});
    std::memcpy(space, bytes->data(), n);
    bytes->remove_prefix(n);
    state = reader.Received(n);
  }
  return state;
}

const std::string kGet =
    "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.GetItem\r\n"
    "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Date: 20260101T000000Z\r\n"
    "Authorization: AWS4-HMAC-SHA256 x\r\nContent-Length: 2\r\n\r\n{}";

TEST(HttpRequestTest, ReadsTheFieldsPogiUses) {
  for (size_t piece : {size_t{1}, size_t{7}, size_t{1} << 20}) {
    HttpRequestReader reader(false);
    std::string_view bytes = kGet;
    ASSERT_EQ(Feed(reader, &bytes, piece), State::kRequest) << piece;
    const HttpRequest& r = reader.request();
    EXPECT_EQ(r.method, "POST");
    EXPECT_EQ(r.target, "/");
    EXPECT_EQ(r.amz_target, "DynamoDB_20120810.GetItem");
    EXPECT_EQ(r.content_type, "application/x-amz-json-1.0");
    EXPECT_EQ(r.host, "localhost");
    EXPECT_TRUE(r.has_authorization);
    EXPECT_EQ(r.authorization, "AWS4-HMAC-SHA256 x");
    EXPECT_TRUE(r.has_date);
    EXPECT_EQ(r.body, "{}");
    EXPECT_EQ(r.version, 11u);
    EXPECT_EQ(r.header_count, 0u);  // headers are kept only when asked
    EXPECT_TRUE(reader.keep_alive());
  }
}

TEST(HttpRequestTest, KeepsEveryHeaderWhenAsked) {
  HttpRequestReader reader(true);
  std::string_view bytes = kGet;
  ASSERT_EQ(Feed(reader, &bytes), State::kRequest);
  ASSERT_EQ(reader.request().header_count, 6u);
  EXPECT_EQ(reader.request().headers[0].first, "Host");
  EXPECT_EQ(reader.request().headers[0].second, "localhost");
}

TEST(HttpRequestTest, PipelinedRequestsAndTheEnd) {
  std::string two = kGet + "GET /x HTTP/1.0\r\n\r\n";
  HttpRequestReader reader(false);
  std::string_view bytes = two;
  ASSERT_EQ(Feed(reader, &bytes), State::kRequest);
  EXPECT_EQ(reader.request().method, "POST");
  ASSERT_EQ(Feed(reader, &bytes), State::kRequest);  // from what is buffered already
  EXPECT_EQ(reader.request().target, "/x");
  EXPECT_EQ(reader.request().body, "");
  EXPECT_FALSE(reader.keep_alive());  // HTTP/1.0 without keep-alive
  EXPECT_EQ(Feed(reader, &bytes), State::kClosed);
}

TEST(HttpRequestTest, AClientLeavingMidRequestIsNotAnswered) {
  for (size_t cut : {size_t{5}, size_t{40}, kGet.size() - 1}) {
    HttpRequestReader reader(false);
    std::string_view bytes = std::string_view(kGet).substr(0, cut);
    EXPECT_EQ(Feed(reader, &bytes), State::kClosed) << cut;
  }
}

TEST(HttpRequestTest, MalformedBytesAre400) {
  HttpRequestReader reader(false);
  std::string_view bytes = "NOT HTTP AT ALL\r\n\r\n";
  ASSERT_EQ(Feed(reader, &bytes), State::kRefused);
  EXPECT_EQ(reader.refusal().status, 400);
  EXPECT_EQ(reader.refusal().content_type, "text/plain");
  EXPECT_EQ(reader.refusal().body, "Bad Request: malformed HTTP request\n");
}

TEST(HttpRequestTest, RequestLineAtAndPastItsLimit) {
  // "POST " target " HTTP/1.1" is the target's length + 14, CRLF aside.
  auto line = [](size_t length) {
    return "POST /" + std::string(length - 15, 'a') + " HTTP/1.1\r\nContent-Length: 0\r\n\r\n";
  };
  for (size_t length : {limits::kMaxRequestLineBytes, limits::kMaxRequestLineBytes + 1}) {
    HttpRequestReader reader(false);
    std::string bytes = line(length);
    std::string_view rest = bytes;
    State state = Feed(reader, &rest, 4096);
    if (length == limits::kMaxRequestLineBytes) {
      EXPECT_EQ(state, State::kRequest);
    } else {
      ASSERT_EQ(state, State::kRefused);
      EXPECT_EQ(reader.refusal().status, 400);
      EXPECT_EQ(reader.refusal().body, "Bad Request: the request line exceeds 16384 bytes\n");
    }
  }
}

TEST(HttpRequestTest, HeaderFieldsAtAndPastTheirLimit) {
  // The fields alone count, "Name: value" CRLF each: here "X-Big: ..." and
  // "X-Two: ..." CRLF, after a long request line (which has its own limit).
  std::string line = "GET /" + std::string(8000, 'u') + " HTTP/1.1\r\n";
  auto request = [&](size_t fields) {
    size_t value = fields - 2 * (5 + 2 + 2) - 100;
    return line + "X-Big: " + std::string(value, 'v') + "\r\nX-Two: " + std::string(100, 't') + "\r\n\r\n";
  };
  for (size_t fields : {limits::kMaxHeaderBytes, limits::kMaxHeaderBytes + 1}) {
    for (size_t piece : {size_t{999}, size_t{1} << 20}) {
      HttpRequestReader reader(false);
      std::string bytes = request(fields);
      ASSERT_EQ(bytes.size(), line.size() + fields + 2);
      std::string_view rest = bytes;
      State state = Feed(reader, &rest, piece);
      if (fields == limits::kMaxHeaderBytes) {
        EXPECT_EQ(state, State::kRequest);
      } else {
        ASSERT_EQ(state, State::kRefused);
        EXPECT_EQ(reader.refusal().status, 400);
        EXPECT_EQ(reader.refusal().body, "Bad Request: the request headers exceed 16384 bytes\n");
      }
    }
  }
}

TEST(HttpRequestTest, RequestLineAndHeadersEachAtTheirLimit) {
  std::string bytes = "POST /" + std::string(limits::kMaxRequestLineBytes - 15, 'a') +
                      " HTTP/1.1\r\nX-Big: " + std::string(limits::kMaxHeaderBytes - 9, 'v') + "\r\n\r\n";
  HttpRequestReader reader(false);
  std::string_view rest = bytes;
  EXPECT_EQ(Feed(reader, &rest), State::kRequest);
}

TEST(HttpRequestTest, AHugeHeaderIs400) {
  std::string bytes = "GET / HTTP/1.1\r\nX-Big: " + std::string(1 << 20, 'v') + "\r\n\r\n";
  HttpRequestReader reader(false);
  std::string_view rest = bytes;
  ASSERT_EQ(Feed(reader, &rest, 4096), State::kRefused);
  EXPECT_EQ(reader.refusal().status, 400);
}

TEST(HttpRequestTest, OnlyTheFirstAcceptEncodingCounts) {
  HttpRequestReader reader(false);
  std::string_view bytes =
      "GET / HTTP/1.1\r\nAccept-Encoding: deflate\r\naccept-encoding: gzip\r\n\r\n"
      "GET / HTTP/1.1\r\nAccept-Encoding:\r\nAccept-Encoding: gzip\r\n\r\n";
  ASSERT_EQ(Feed(reader, &bytes), State::kRequest);
  EXPECT_EQ(reader.request().accept_encoding, "deflate");
  ASSERT_EQ(Feed(reader, &bytes), State::kRequest);
  EXPECT_TRUE(reader.request().has_accept_encoding);
  EXPECT_EQ(reader.request().accept_encoding, "");
}

TEST(HttpRequestTest, ABodyPastTheLimitIs413) {
  HttpRequestReader reader(false);
  std::string bytes =
      "POST / HTTP/1.1\r\nContent-Length: " + std::to_string(limits::kMaxBodyBytes + 1) + "\r\n\r\n{}";
  std::string_view rest = bytes;
  ASSERT_EQ(Feed(reader, &rest), State::kRefused);
  EXPECT_EQ(reader.refusal().status, 413);
  EXPECT_EQ(reader.refusal().error_type, "RequestEntityTooLargeException");
}

// The refusal comes with the header; body bytes already received behind
// it must not make the reader reserve the announced size (found by fuzzing).
TEST(HttpRequestTest, AHugeLengthWithBodyBytesBehindItIsRefusedWithoutReservingIt) {
  HttpRequestReader reader(false);
  std::string bytes = "POST / HTTP/1.1\r\nContent-Length: 1099511627776\r\n\r\n" + std::string(100, '{');
  std::string_view rest = bytes;
  ASSERT_EQ(Feed(reader, &rest), State::kRefused);
  EXPECT_EQ(reader.refusal().status, 413);
  EXPECT_LT(reader.request().body.capacity(), 1u << 20);
}

TEST(HttpRequestTest, AChunkedBodyPastTheLimitIs413) {
  HttpRequestReader reader(false);
  std::string big(limits::kMaxBodyBytes + 1, ' ');
  char size[32];
  snprintf(size, sizeof size, "%zx\r\n", big.size());
  std::string bytes =
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(size) + big + "\r\n0\r\n\r\n";
  std::string_view rest = bytes;
  ASSERT_EQ(Feed(reader, &rest, 1 << 16), State::kRefused);
  EXPECT_EQ(reader.refusal().status, 413);
}

// A signed request whose X-Amz-Date is out of the window, refused with its
// headers only (behaviours H1): `head` + `content_length` announced, no body.
std::string SignedHead(std::string_view amz_date, std::string_view credential_key = "pogi",
                       std::string_view method = "POST", std::string_view target = "/") {
  return std::string(method) + " " + std::string(target) +
         " HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
         "Content-Type: application/json\r\nX-Amz-Date: " +
         std::string(amz_date) +
         "\r\nAuthorization: AWS4-HMAC-SHA256 Credential=" + std::string(credential_key) +
         "/20130301/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=00\r\n"
         "Content-Length: 99999999\r\n\r\n";
}

TEST(HttpRequestTest, ASignatureDateOutOfTheWindowIsRefusedBeforeTheBody) {
  for (std::string_view date : {"20130301T000000Z", "20990101T000000Z"}) {
    HttpRequestReader reader(true, true);
    std::string bytes = SignedHead(date, "someone-unknown") + "{}";  // before the body, the key and the size
    std::string_view rest = bytes;
    ASSERT_EQ(Feed(reader, &rest), State::kRefused) << date;
    const ApiResponse& r = reader.refusal();
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.error_type, "InvalidSignatureException");
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_NE(r.body.find(date.starts_with("2013") ? "Signature expired" : "Signature not yet current"),
              std::string::npos)
        << r.body;
  }
  // Without --check-signatures, or not a signed API call: the date is not
  // judged here, and the announced size is.
  for (auto [check, bytes] :
       {std::pair{false, SignedHead("20130301T000000Z")},
        std::pair{true, SignedHead("20130301T000000Z", "pogi", "GET")},
        std::pair{true, SignedHead("20130301T000000Z", "pogi", "POST", "/_pogi/api/x")}}) {
    HttpRequestReader reader(true, check);
    std::string_view rest = bytes;
    ASSERT_EQ(Feed(reader, &rest), State::kRefused);
    EXPECT_EQ(reader.refusal().status, 413);
  }
}

TEST(HttpRequestTest, SignatureDateRefusal) {
  constexpr int64_t kNow = 1370772015;  // 2013-06-09T10:00:15Z
  HttpRequest r;
  r.method = "POST";
  r.target = "/";
  r.has_authorization = true;
  r.authorization =
      "AWS4-HMAC-SHA256 Credential=pogi/20130609/us-east-1/dynamodb/aws4_request, "
      "SignedHeaders=host;x-amz-date, Signature=00";
  r.has_date = true;
  r.amz_date = "20130609T094515Z";  // 15 minutes before: inside
  EXPECT_FALSE(SignatureDateRefusal(r, kNow));
  r.amz_date = "20130609T094514Z";
  std::optional<Error> e = SignatureDateRefusal(r, kNow);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code(), ErrorCode::kInvalidSignature);
  EXPECT_TRUE(e->message().starts_with("Signature expired: ")) << e->message();
  r.amz_date = "20130609T101516Z";
  ASSERT_TRUE(e = SignatureDateRefusal(r, kNow));
  EXPECT_TRUE(e->message().starts_with("Signature not yet current: ")) << e->message();
  // A malformed Authorization header is left to HandleRequest.
  r.authorization = "AWS4-HMAC-SHA256 Credential=pogi/20130609/us-east-1/dynamodb/aws4_request";
  EXPECT_FALSE(SignatureDateRefusal(r, kNow));
}

TEST(HttpRequestTest, ChunkedBody) {
  HttpRequestReader reader(false);
  std::string_view bytes = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
  ASSERT_EQ(Feed(reader, &bytes, 3), State::kRequest);
  EXPECT_EQ(reader.request().body, "{}");
}

TEST(HttpRequestTest, ToApiRequestInflates) {
  HttpRequest r;
  r.method = "POST";
  r.target = "/";
  r.body = "{}";
  std::string inflated;
  Result<ApiRequest> plain = ToApiRequest(r, &inflated);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->body, "{}");

  ASSERT_TRUE(Compress(Compression::kGzip, "{\"a\":1}", &r.body));
  r.content_encoding = "GZIP";
  Result<ApiRequest> gz = ToApiRequest(r, &inflated);
  ASSERT_TRUE(gz.ok());
  EXPECT_EQ(gz->body, "{\"a\":1}");

  r.content_encoding = "br";
  EXPECT_FALSE(ToApiRequest(r, &inflated).ok());
}

}  // namespace
}  // namespace pogi::gateway
