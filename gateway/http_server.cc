// The Beast HTTP server: a listener accepts, each session feeds what its
// socket receives to an HttpRequestReader (gateway/http_request.h), answers
// each request through HandleRequest, and keeps the connection or closes it
// as the HTTP version and Connection header ask. The edge around the API
// lives here: CORS, response compression, the Date header.
#include "gateway/http_server.h"

#include <zlib.h>

#include <array>
#include <atomic>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "common/limits.h"
#include "gateway/console.h"
#include "gateway/edge.h"
#include "gateway/handle_request.h"
#include "gateway/http_request.h"

namespace pogi::gateway {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
// A socket bound to its io_context's own executor type: the default
// (type-erased any_io_executor) copies and destroys an executor object on
// every asynchronous operation.
using Socket = asio::basic_stream_socket<tcp, asio::io_context::executor_type>;
using Timer =
    asio::basic_waitable_timer<std::chrono::steady_clock, asio::wait_traits<std::chrono::steady_clock>,
                               asio::io_context::executor_type>;

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
  Backend& backend;
  std::optional<Credentials> credentials;          // set: signatures are checked
  bool allow_unsigned = false;                     // no Authorization presence check
  std::unique_ptr<ConsoleLive> console = nullptr;  // null with --no-console
  ConnectionLimits limits;
  std::atomic<int> in_flight{0};
  std::atomic<int> connections{0};  // connections accepted and not yet destroyed
  std::atomic<bool> stopping{false};
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(asio::io_context& context, Shared& shared)
      : socket_(context.get_executor()),
        idle_timer_(context.get_executor()),
        // --check-signatures: headers kept for the signature, its date
        // judged before the body is read.
        reader_(shared.credentials.has_value(), shared.credentials.has_value()),
        shared_(shared) {}
  ~Session() {
    if (counted_) --shared_.connections;
  }

  Socket& socket() { return socket_; }

  void Start() {
    // One connection past the limit is told so and closed: an SDK retries
    // a 503 with back-off.
    counted_ = true;
    if (++shared_.connections > shared_.limits.max_connections) {
      ++shared_.in_flight;
      keep_alive_ = false;
      return Reply(ErrorResponse(Error(ErrorCode::kServiceUnavailable,
                                       // pogi's text: DynamoDB has no such limit to quote.
                                       "pogi is serving its maximum of " +
                                           std::to_string(shared_.limits.max_connections) +
                                           " connections; retry later")),
                   11);
    }
    WatchIdle(shared_.limits.idle_timeout);
    DoRead();
  }

 private:
  // Reads the next request: what is buffered already (pipelined), then
  // what the socket gives until the reader has a request or a refusal.
  void DoRead() {
    waiting_since_ = std::chrono::steady_clock::now();
    waiting_ = true;
    OnParsed(reader_.Next());
  }
  void ReadSome() {
    auto [data, size] = reader_.Space();
    socket_.async_read_some(asio::buffer(data, size),
                            beast::bind_front_handler(&Session::OnReadSome, shared_from_this()));
  }
  void OnReadSome(beast::error_code ec, size_t n) {
    if (ec == asio::error::eof) return OnParsed(reader_.ReceivedEnd());
    if (ec) return Close();  // the socket failed, or the idle timer closed it
    OnParsed(reader_.Received(n));
  }
  void OnParsed(HttpRequestReader::State state) {
    switch (state) {
      case HttpRequestReader::State::kNeedMore:
        return ReadSome();
      case HttpRequestReader::State::kClosed:  // the client left: nobody to answer
        waiting_ = false;
        return Close();
      case HttpRequestReader::State::kRefused:
        waiting_ = false;
        return Refuse();
      case HttpRequestReader::State::kRequest:
        waiting_ = false;
        return OnRequest();
    }
  }

  // A connection left waiting for a whole request longer than the idle
  // timeout is closed, whether it sent nothing (idle, half-open) or too
  // little (a slow sender). One timer per connection, re-armed only when it
  // fires, rather than a timer operation per request.
  void WatchIdle(std::chrono::steady_clock::duration wait) {
    idle_timer_.expires_after(wait);
    idle_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->socket_.is_open()) return;
      auto timeout = self->shared_.limits.idle_timeout;
      auto idle = std::chrono::steady_clock::now() - self->waiting_since_;
      if (self->waiting_ && idle >= timeout) return self->Close();
      self->WatchIdle(self->waiting_ ? timeout - idle : timeout);
    });
  }

  // Someone wants to hear of each request (--log-requests, metrics): one
  // relaxed load when nobody does.
  void StartObserving() {
    observing_ = shared_.backend.request_observers().active();
    if (observing_) {
      started_ = std::chrono::steady_clock::now();
      info_ = RequestInfo{};
    }
  }

  // Answers what the reader refused and closes: after a 400 (past a header
  // limit, or not HTTP) the stream cannot be resynchronized, and a 413 or a
  // refused signature date leaves the body unread. Those two are DynamoDB's
  // answers, seen by the request observers; the text 400s are the edge's, not.
  void Refuse() {
    ++shared_.in_flight;
    keep_alive_ = false;
    linger_ = true;
    const ApiResponse& refusal = reader_.refusal();
    if (!refusal.error_type.empty()) {
      StartObserving();
    } else {
      observing_ = false;
    }
    Reply(refusal, 11);
  }

  void OnRequest() {
    const HttpRequest& request = reader_.request();
    ++shared_.in_flight;  // until the response is written (OnWrite)
    StartObserving();
    keep_alive_ = reader_.keep_alive() && !shared_.stopping;
    // The console, by path prefix before anything the DynamoDB path does.
    if (shared_.console && IsConsoleTarget(request.target)) return ReplyConsole();
    // A CORS preflight: 200 allowing what it asks for (as DynamoDB local
    // tooling expects); an OPTIONS without Origin is no API call.
    if (request.has_origin && request.method == "OPTIONS") {
      preflight_ = true;
      ApiResponse ok;
      ok.content_type = "";
      return Reply(std::move(ok), request.version);
    }
    Result<ApiRequest> api = ToApiRequest(request, &inflated_);
    if (!api.ok()) return Reply(ErrorResponse(api.error()), request.version);
    api->require_authorization = !shared_.allow_unsigned;
    std::optional<HeaderSignatureCheck> check;
    if (shared_.credentials) api->signature = &check.emplace(request, *shared_.credentials);
    Reply(HandleRequest(shared_.backend, *api, observing_ ? &info_ : nullptr), request.version);
  }

  // Answers a console request. Its answers carry no CORS allowance and are
  // not published: the request tail and metrics are the application's.
  void ReplyConsole() {
    const HttpRequest& request = reader_.request();
    ConsoleRequest req{request.method, request.target, request.body, request.host};
    req.has_origin = request.has_origin;
    req.origin = request.origin;
    if (shared_.credentials) {
      req.credentials = &*shared_.credentials;
      for (size_t i = 0; i < request.header_count; ++i) {
        const auto& [name, value] = request.headers[i];
        if (beast::iequals(name, "X-Pogi-Access-Key-Id")) req.access_key_id = value;
        if (beast::iequals(name, "X-Pogi-Secret-Access-Key")) req.secret_access_key = value;
      }
    }
    ApiResponse api = HandleConsole(*shared_.backend.local_engine(), *shared_.console, req);
    observing_ = false;
    no_cors_ = true;
    Reply(std::move(api), request.version);
  }

  // Tells the request observers about the request just answered.
  void Publish(const ApiResponse& api, std::string_view request_id) {
    service::RequestRecord record;
    record.door = "http";
    record.operation = info_.operation;
    record.table = info_.table;
    record.status = api.status;
    record.error_type = api.error_type;
    record.latency_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started_)
            .count();
    record.request_id = request_id;
    const HttpRequest& request = reader_.request();
    record.bytes_in = request.body.size();
    record.bytes_out = body_.size();
    record.request_body = request.content_encoding.empty() ? std::string_view(request.body) : inflated_;
    shared_.backend.request_observers().Publish(record);
  }

  // Writes the status line and headers by hand and sends them with the body
  // in one gather write.
  void Reply(ApiResponse api, unsigned version) {
    if (api.disconnect) {  // a fault rule cuts the connection unanswered
      --shared_.in_flight;
      return Close();
    }
    const HttpRequest& request = reader_.request();
    body_ = std::move(api.body);
    // DynamoDB compresses answers over 4 KB when asked; x-amz-crc32 covers
    // the bytes sent.
    std::string_view encoding;
    if (body_.size() > 4096 && !request.accept_encoding.empty()) {
      Compression how = ChosenCompression(request.accept_encoding);
      if (how != Compression::kNone && Compress(how, body_, &compressed_)) {
        body_.swap(compressed_);
        encoding = how == Compression::kGzip ? "gzip" : "deflate";
      }
    }
    uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body_.data()), static_cast<uInt>(body_.size()));
    auto status = static_cast<http::status>(api.status);
    beast::string_view reason = http::obsolete_reason(status);
    head_.clear();
    head_.append(version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ").append(std::to_string(api.status)).append(" ");
    head_.append(reason.data(), reason.size());
    head_.append("\r\nServer: pogi\r\nDate: ").append(HttpDateNow());
    if (!api.content_type.empty()) head_.append("\r\nContent-Type: ").append(api.content_type);
    if (!encoding.empty()) head_.append("\r\nContent-Encoding: ").append(encoding);
    if (request.has_origin && !no_cors_) {
      // As AWS's JSON services: a browser may read the request id, the
      // error's type and message, and the date.
      head_.append(
          "\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: "
          "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date");
    }
    no_cors_ = false;
    if (preflight_) {
      preflight_ = false;
      if (!request.cors_headers.empty()) {
        head_.append("\r\nAccess-Control-Allow-Headers: ").append(request.cors_headers);
      }
      if (!request.cors_method.empty()) {
        head_.append("\r\nAccess-Control-Allow-Methods: ").append(request.cors_method);
      }
      head_.append("\r\nAccess-Control-Max-Age: 172800");
    }
    std::string request_id = RequestId();
    head_.append("\r\nx-amzn-RequestId: ").append(request_id);
    head_.append("\r\nx-amz-crc32: ").append(std::to_string(crc));
    // DynamoDB sends its 413 chunked; HTTP/1.0 knows no chunks.
    bool chunked = api.status == 413 && version != 10;
    if (chunked) {
      head_.append("\r\nTransfer-Encoding: chunked");
    } else {
      head_.append("\r\nContent-Length: ").append(std::to_string(body_.size()));
    }
    // HTTP/1.1 keeps a connection unless told; HTTP/1.0 closes it unless told.
    if (version == 10 && keep_alive_) head_.append("\r\nConnection: keep-alive");
    if (version != 10 && !keep_alive_) head_.append("\r\nConnection: close");
    head_.append("\r\n\r\n");
    if (observing_) Publish(api, request_id);
    if (chunked && body_.empty()) {
      head_.append("0\r\n\r\n");  // only the last (empty) chunk
    } else if (chunked) {         // one chunk, then the last
      char size[20];
      head_.append(size, static_cast<size_t>(snprintf(size, sizeof size, "%zx\r\n", body_.size())));
      body_.append("\r\n0\r\n\r\n");
    }
    std::array<asio::const_buffer, 2> buffers = {asio::buffer(head_), asio::buffer(body_)};
    // A client that stops reading its answers is cut by the same timeout.
    waiting_since_ = std::chrono::steady_clock::now();
    waiting_ = true;
    asio::async_write(socket_, buffers, beast::bind_front_handler(&Session::OnWrite, shared_from_this()));
  }

  void OnWrite(beast::error_code ec, size_t) {
    waiting_ = false;
    --shared_.in_flight;
    if (ec) return Close();
    if (!keep_alive_) return linger_ ? Linger() : Close();
    DoRead();
  }

  // After refusing a request the client may still be sending: closing with
  // unread bytes makes the kernel send a reset, which can destroy the
  // answer before the client reads it. So stop sending, read and drop what
  // comes for a moment, then close.
  void Linger() {
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    idle_timer_.expires_after(std::chrono::seconds(1));
    idle_timer_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
      if (!wait_ec) self->Close();
    });
    discard_ = std::make_unique<std::array<char, 4096>>();
    DrainSome();
  }
  void DrainSome() {
    socket_.async_read_some(asio::buffer(*discard_),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (ec) return self->Close();
                              self->DrainSome();
                            });
  }

  void Close() {
    beast::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_send, ec);
    socket_.close(ec);
    idle_timer_.cancel();
  }

  Socket socket_;
  Timer idle_timer_;
  // Set while pogi waits on the client (a request to arrive, an answer to
  // be taken), since when; not while the engine works.
  std::chrono::steady_clock::time_point waiting_since_;
  bool waiting_ = false;
  HttpRequestReader reader_;                         // the connection's bytes, parsed
  std::string head_, body_;                          // the response being written
  std::string inflated_, compressed_;                // buffers for compressed bodies, reused
  bool preflight_ = false;                           // the response answers a CORS preflight
  bool no_cors_ = false;                             // the response carries no CORS allowance
  bool linger_ = false;                              // drain the client's bytes before closing
  bool counted_ = false;                             // accepted: counts in shared_.connections
  std::unique_ptr<std::array<char, 4096>> discard_;  // what Linger() drops
  bool keep_alive_ = false;
  // Set per request when someone observes requests.
  bool observing_ = false;
  std::chrono::steady_clock::time_point started_;
  RequestInfo info_;
  Shared& shared_;
};

// One io_context per thread, each run by its own thread: a connection stays
// on the context that accepted it, so no request crosses threads and the
// contexts need no locking or cross-thread wake-ups. The listener lives on
// the first context and deals connections out in turn.
class BeastServer final : public HttpServer {
 public:
  BeastServer(Backend& backend, int threads, std::optional<Credentials> credentials, bool allow_unsigned,
              bool console, ConnectionLimits limits)
      : shared_{backend, std::move(credentials), allow_unsigned, nullptr, limits} {
    // The console is the engine's: only beside an engine in this process.
    if (console && backend.local_engine())
      shared_.console = std::make_unique<ConsoleLive>(*backend.local_engine());
    for (int i = 0; i < threads; ++i) contexts_.push_back(std::make_unique<asio::io_context>(1));
    acceptor_.emplace(*contexts_[0]);
    accept_pause_.emplace(*contexts_[0]);
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
    auto session = std::make_shared<Session>(target, shared_);
    acceptor_->async_accept(session->socket(), [this, session](beast::error_code ec) {
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor_->is_open()) return;
        // Out of file descriptors: accepting again at once would fail again
        // at once (a busy loop). Wait for connections to close; the pending
        // ones wait in the listen backlog meanwhile.
        if (ec == asio::error::no_descriptors || ec.value() == ENFILE || ec == asio::error::no_buffer_space ||
            ec == asio::error::no_memory) {
          accept_pause_->expires_after(std::chrono::milliseconds(50));
          accept_pause_->async_wait([this](beast::error_code wait_ec) {
            if (!wait_ec && acceptor_->is_open()) DoAccept();
          });
          return;
        }
      } else {
        session->socket().set_option(tcp::no_delay(true), ec);
        // Runs on the session's own context from here on.
        asio::dispatch(session->socket().get_executor(), [session] { session->Start(); });
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
  std::optional<asio::steady_timer> accept_pause_;
  size_t next_ = 0;
  uint16_t port_ = 0;
};

}  // namespace

Result<std::unique_ptr<HttpServer>> HttpServer::Bind(Backend& backend, const std::string& host, uint16_t port,
                                                     int threads, std::optional<Credentials> credentials,
                                                     bool allow_unsigned, bool console,
                                                     ConnectionLimits limits) {
  auto server = std::make_unique<BeastServer>(backend, threads < 1 ? 1 : threads, std::move(credentials),
                                              allow_unsigned, console, limits);
  POGI_RETURN_IF_ERROR(server->Listen(host, port));
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace pogi::gateway
