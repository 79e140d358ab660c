// Tests for gateway/http_request: requests read whole or in pieces,
// pipelined, refused at each limit of common/limits.h, and a client leaving
// mid-request; ToApiRequest's inflation.
#include "gateway/http_request.h"

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(HttpRequestTest, HeaderSectionAtAndPastItsLimit) {
  // "GET / HTTP/1.1" CRLF, one "X-Big: ..." CRLF, the empty line.
  auto request = [](size_t section) {
    size_t value = section - 16 - 9 - 2;
    return "GET / HTTP/1.1\r\nX-Big: " + std::string(value, 'v') + "\r\n\r\n";
  };
  for (size_t section : {limits::kMaxHeaderBytes, limits::kMaxHeaderBytes + 1}) {
    HttpRequestReader reader(false);
    std::string bytes = request(section);
    ASSERT_EQ(bytes.size(), section);
    std::string_view rest = bytes;
    State state = Feed(reader, &rest);
    if (section == limits::kMaxHeaderBytes) {
      EXPECT_EQ(state, State::kRequest);
    } else {
      ASSERT_EQ(state, State::kRefused);
      EXPECT_EQ(reader.refusal().body, "Bad Request: the request header section exceeds 65536 bytes\n");
    }
  }
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
