// The Beast HTTP server: a listener accepts, each session reads a request,
// answers it through HandleRequest, and keeps the connection or closes it as
// the HTTP version and Connection header ask.
#include "gateway/http_server.h"

#include <zlib.h>

#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "gateway/handle_request.h"

namespace pogi::gateway {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// DynamoDB's request size limit.
constexpr uint64_t kMaxBodyBytes = 16 * 1024 * 1024;
constexpr auto kIdleTimeout = std::chrono::seconds(60);

// A DynamoDB-like request id: 52 characters of [A-Z0-9].
std::string RequestId() {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local uint64_t state =
      std::hash<std::thread::id>()(std::this_thread::get_id()) ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string id(52, 'A');
  for (char& c : id) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    c = kChars[state % 36];
  }
  return id;
}

struct Shared {
  service::Engine& engine;
  std::optional<Credentials> credentials;  // set: signatures are checked
  std::atomic<int> in_flight{0};
  std::atomic<bool> stopping{false};
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Shared& shared) : stream_(std::move(socket)), shared_(shared) {}

  void Start() {
    asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&Session::DoRead, shared_from_this()));
  }

 private:
  void DoRead() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, shared_from_this()));
  }

  void OnRead(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted) {
      return Close();
    }
    if (ec && ec != http::error::body_limit) return Close();
    ++shared_.in_flight;  // until the response is written (OnWrite)
    if (ec == http::error::body_limit) {
      // DynamoDB refuses a body over 16 MB with 413; the connection is not reusable.
      keep_alive_ = false;
      return Reply(
          ErrorResponse(Error(ErrorCode::kRequestEntityTooLarge, "Request size exceeded 16777216 bytes")),
          11);
    }
    const auto& req = parser_->get();
    keep_alive_ = req.keep_alive() && !shared_.stopping;
    ApiRequest api{
        {req.method_string().data(), req.method_string().size()},
        {req.target().data(), req.target().size()},
        Header(req, "X-Amz-Target"),
        Header(req, http::field::content_type),
        req.body(),
    };
    // A GET of the endpoint is DynamoDB's unauthenticated health check.
    if (shared_.credentials && req.method() != http::verb::get) {
      SignedRequest signed_req{api.method, api.target, {}, api.body};
      for (const auto& field : req) {
        signed_req.headers.emplace_back(
            std::string_view(field.name_string().data(), field.name_string().size()),
            std::string_view(field.value().data(), field.value().size()));
      }
      if (Status s = VerifySignature(signed_req, *shared_.credentials); !s.ok()) {
        return Reply(ErrorResponse(s.error()), req.version());
      }
    }
    ApiResponse resp = HandleRequest(shared_.engine, api);
    Reply(std::move(resp), req.version());
  }

  template <typename Key>
  static std::string_view Header(const http::request<http::string_body>& req, Key key) {
    auto it = req.find(key);
    if (it == req.end()) return {};
    return {it->value().data(), it->value().size()};
  }

  void Reply(ApiResponse api, unsigned version) {
    auto res =
        std::make_shared<http::response<http::string_body>>(static_cast<http::status>(api.status), version);
    res->set(http::field::server, "pogi");
    res->set(http::field::content_type, api.content_type);
    res->set("x-amzn-RequestId", RequestId());
    uLong crc =
        crc32(0L, reinterpret_cast<const Bytef*>(api.body.data()), static_cast<uInt>(api.body.size()));
    res->set("x-amz-crc32", std::to_string(crc));
    res->body() = std::move(api.body);
    res->keep_alive(keep_alive_);
    res->prepare_payload();
    response_ = res;
    http::async_write(stream_, *res, beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t) {
    response_.reset();
    --shared_.in_flight;
    if (ec || !keep_alive_) return Close();
    DoRead();
  }

  void Close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> response_;
  bool keep_alive_ = false;
  Shared& shared_;
};

// One io_context per thread, each run by its own thread: a connection stays
// on the context that accepted it, so no request crosses threads and the
// contexts need no locking or cross-thread wake-ups. The listener lives on
// the first context and deals connections out in turn.
class BeastServer final : public HttpServer {
 public:
  BeastServer(service::Engine& engine, int threads, std::optional<Credentials> credentials)
      : shared_{engine, std::move(credentials)} {
    for (int i = 0; i < threads; ++i) contexts_.push_back(std::make_unique<asio::io_context>(1));
    acceptor_.emplace(*contexts_[0]);
  }

  Status Listen(const std::string& host, uint16_t port) {
    beast::error_code ec;
    auto address = asio::ip::make_address(host, ec);
    if (ec) return Error::Internal("invalid host address " + host);
    tcp::endpoint ep(address, port);
    acceptor_->open(ep.protocol(), ec);
    if (!ec) acceptor_->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_->bind(ep, ec);
    if (!ec) acceptor_->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      return Error::Internal("cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
    }
    port_ = acceptor_->local_endpoint().port();
    return Status::Ok();
  }

  uint16_t port() const override { return port_; }

  void Run() override {
    // Keeps each context running while it has no connection.
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
    for (auto& c : contexts_) guards.push_back(asio::make_work_guard(*c));
    DoAccept();
    std::vector<std::thread> pool;
    for (size_t i = 1; i < contexts_.size(); ++i) pool.emplace_back([this, i] { contexts_[i]->run(); });
    contexts_[0]->run();
    for (auto& t : pool) t.join();
  }

  void Stop() override {
    asio::post(acceptor_->get_executor(), [this] {
      shared_.stopping = true;
      beast::error_code ec;
      acceptor_->close(ec);
      WaitForDrain(std::chrono::steady_clock::now() + std::chrono::seconds(5));
    });
  }

 private:
  void DoAccept() {
    asio::io_context& target = *contexts_[next_++ % contexts_.size()];
    acceptor_->async_accept(target, [this](beast::error_code ec, tcp::socket socket) {
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_->is_open()) return;
      } else {
        socket.set_option(tcp::no_delay(true), ec);
        std::make_shared<Session>(std::move(socket), shared_)->Start();
      }
      DoAccept();
    });
  }

  // Polls until no request is being handled (or the deadline), then stops
  // every context.
  void WaitForDrain(std::chrono::steady_clock::time_point deadline) {
    if (shared_.in_flight == 0 || std::chrono::steady_clock::now() > deadline) {
      for (auto& c : contexts_) c->stop();
      return;
    }
    auto timer = std::make_shared<asio::steady_timer>(*contexts_[0], std::chrono::milliseconds(5));
    timer->async_wait([this, timer, deadline](beast::error_code) { WaitForDrain(deadline); });
  }

  Shared shared_;
  std::vector<std::unique_ptr<asio::io_context>> contexts_;
  std::optional<tcp::acceptor> acceptor_;
  size_t next_ = 0;
  uint16_t port_ = 0;
};

}  // namespace

Result<std::unique_ptr<HttpServer>> HttpServer::Bind(service::Engine& engine, const std::string& host,
                                                     uint16_t port, int threads,
                                                     std::optional<Credentials> credentials) {
  auto server = std::make_unique<BeastServer>(engine, threads < 1 ? 1 : threads, std::move(credentials));
  POGI_RETURN_IF_ERROR(server->Listen(host, port));
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace pogi::gateway
