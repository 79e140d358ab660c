// The HTTP client against a loopback server that answers with canned bytes:
// lengths, chunks, 100 Continue, keep-alive, a server that stops talking,
// and a port nobody listens on.
#include "outbound/http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

namespace pogi::outbound {
namespace {

// Accepts connections and, for each request head read, writes the next
// answer of `answers` (verbatim bytes). Records every request's bytes.
class CannedServer {
 public:
  explicit CannedServer(std::vector<std::string> answers) : answers_(std::move(answers)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    socklen_t len = sizeof(a);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(fd_, 4);
    thread_ = std::thread([this] { Serve(); });
  }
  ~CannedServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  Endpoint endpoint() const { return Endpoint{"127.0.0.1", port_, ""}; }
  const std::string& received() const { return received_; }
  int connections() const { return connections_; }

 private:
  void Serve() {
    size_t next = 0;
    while (next < answers_.size()) {
      int c = accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      ++connections_;
      std::string buf;
      while (next < answers_.size()) {
        // Read one request: its head, then Content-Length bytes.
        size_t end;
        while ((end = buf.find("\r\n\r\n")) == std::string::npos) {
          char tmp[4096];
          ssize_t n = read(c, tmp, sizeof(tmp));
          if (n <= 0) goto next_connection;
          buf.append(tmp, n);
        }
        size_t length = 0;
        if (size_t p = buf.find("Content-Length: "); p != std::string::npos && p < end) {
          length = std::stoul(buf.substr(p + 16));
        }
        while (buf.size() < end + 4 + length) {
          char tmp[4096];
          ssize_t n = read(c, tmp, sizeof(tmp));
          if (n <= 0) goto next_connection;
          buf.append(tmp, n);
        }
        received_ += buf.substr(0, end + 4 + length);
        buf.erase(0, end + 4 + length);
        const std::string& answer = answers_[next++];
        if (answer == "HANG") {
          // Say nothing until the client gives up and hangs up.
          char tmp[64];
          while (read(c, tmp, sizeof(tmp)) > 0) {
          }
          break;
        }
        write(c, answer.data(), answer.size());
        if (answer.find("Connection: close") != std::string::npos) break;
      }
    next_connection:
      close(c);
    }
  }

  int fd_;
  int port_ = 0;
  std::vector<std::string> answers_;
  std::string received_;
  int connections_ = 0;
  std::thread thread_;
};

TEST(HttpClientTest, ParsesEndpoints) {
  auto e = ParseEndpoint("http://127.0.0.1:4568");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "127.0.0.1");
  EXPECT_EQ(e->port, 4568);
  EXPECT_EQ(e->HostHeader(), "127.0.0.1:4568");
  e = ParseEndpoint("http://[::1]:9000/base/");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "::1");
  EXPECT_EQ(e->base_path, "/base");
  EXPECT_EQ(e->HostHeader(), "[::1]:9000");
  e = ParseEndpoint("http://minio");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->port, 80);
  EXPECT_EQ(e->HostHeader(), "minio");
  EXPECT_FALSE(e->tls);
  e = ParseEndpoint("https://s3.amazonaws.com");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->tls);
  EXPECT_EQ(e->port, 443);
  EXPECT_EQ(e->HostHeader(), "s3.amazonaws.com");
  e = ParseEndpoint("https://minio:9000/");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->HostHeader(), "minio:9000");
  EXPECT_FALSE(ParseEndpoint("ftp://x").ok());
  EXPECT_FALSE(ParseEndpoint("http://h:0").ok());
  EXPECT_FALSE(ParseEndpoint("http://h:99999").ok());
  EXPECT_FALSE(ParseEndpoint("http://:80").ok());
}

TEST(HttpClientTest, HttpsToAServerThatSpeaksNoTlsGivesUpInTime) {
  // The server waits for an HTTP head that never comes: the handshake's
  // wait is bounded by the connect time-out.
  CannedServer server({"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"});
  Endpoint e = server.endpoint();
  e.tls = true;
  auto conn = HttpConnection::Connect(e, HttpTimeouts{300, 300});
  ASSERT_FALSE(conn.ok());
  EXPECT_EQ(conn.error().code(), ErrorCode::kServiceUnavailable);
  EXPECT_NE(conn.error().message().find("TLS handshake with 127.0.0.1"), std::string::npos)
      << conn.error().message();
}

TEST(HttpClientTest, LengthAndChunkedBodiesOnOneConnection) {
  CannedServer server(
      {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"abc\"\r\n\r\nhello",
       "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
       "3\r\nabc\r\n10;ext=1\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\n"});
  auto conn = HttpConnection::Connect(server.endpoint());
  ASSERT_TRUE(conn.ok()) << conn.error().message();
  HttpRequest req;
  req.method = "PUT";
  req.target = "/b/k";
  req.body = "payload";
  auto resp = (*conn)->Send(req);
  ASSERT_TRUE(resp.ok()) << resp.error().message();
  EXPECT_EQ(resp->status, 200);
  EXPECT_EQ(FindHeader(resp->headers, "etag"), "\"abc\"");
  auto body = (*conn)->ReadAll();
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(*body, "hello");
  EXPECT_TRUE((*conn)->reusable());

  req.method = "GET";
  req.body = "";
  resp = (*conn)->Send(req);
  ASSERT_TRUE(resp.ok()) << resp.error().message();
  EXPECT_EQ(resp->status, 404);
  // Read in small steps: chunk boundaries do not show.
  std::string got;
  char buf[4];
  for (;;) {
    auto n = (*conn)->ReadBody(buf, sizeof(buf));
    ASSERT_TRUE(n.ok()) << n.error().message();
    if (*n == 0) break;
    got.append(buf, *n);
  }
  EXPECT_EQ(got, "abc0123456789abcdef");
  EXPECT_EQ(server.connections(), 1);
  EXPECT_NE(server.received().find("PUT /b/k HTTP/1.1\r\n"), std::string::npos);
  EXPECT_NE(server.received().find("Content-Length: 7\r\n"), std::string::npos);
  EXPECT_NE(server.received().find("Host: 127.0.0.1:"), std::string::npos);
}

TEST(HttpClientTest, AnAnswerCutShortIsAnError) {
  CannedServer server({"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nonly this"});
  auto conn = HttpConnection::Connect(server.endpoint());
  ASSERT_TRUE(conn.ok());
  auto resp = (*conn)->Send(HttpRequest{});
  ASSERT_TRUE(resp.ok());
  auto body = (*conn)->ReadAll();
  ASSERT_FALSE(body.ok());
  EXPECT_EQ(body.error().code(), ErrorCode::kServiceUnavailable);
  EXPECT_FALSE((*conn)->reusable());
}

TEST(HttpClientTest, ASilentServerTimesOut) {
  CannedServer server({"HANG"});
  auto conn = HttpConnection::Connect(server.endpoint(), HttpTimeouts{1000, 100});
  ASSERT_TRUE(conn.ok());
  auto resp = (*conn)->Send(HttpRequest{});
  conn->reset();  // hangs up: the server's thread ends
  ASSERT_FALSE(resp.ok());
  EXPECT_EQ(resp.error().code(), ErrorCode::kServiceUnavailable);
  EXPECT_NE(resp.error().message().find("timed out"), std::string::npos) << resp.error().message();
}

TEST(HttpClientTest, GarbageIsAProtocolError) {
  CannedServer server({"SSH-2.0-OpenSSH\r\n\r\n"});
  auto conn = HttpConnection::Connect(server.endpoint());
  ASSERT_TRUE(conn.ok());
  auto resp = (*conn)->Send(HttpRequest{});
  ASSERT_FALSE(resp.ok());
  EXPECT_NE(resp.error().message().find("bad HTTP answer"), std::string::npos);
}

TEST(HttpClientTest, NobodyListeningIsUnavailable) {
  int port;
  {
    CannedServer server({});
    port = server.endpoint().port;
  }  // closed: nothing listens there now
  auto conn = HttpConnection::Connect(Endpoint{"127.0.0.1", port, ""}, HttpTimeouts{500, 500});
  ASSERT_FALSE(conn.ok());
  EXPECT_EQ(conn.error().code(), ErrorCode::kServiceUnavailable);
  EXPECT_NE(conn.error().message().find("cannot connect to 127.0.0.1:"), std::string::npos);
}

}  // namespace
}  // namespace pogi::outbound
