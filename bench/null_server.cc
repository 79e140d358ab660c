// A do-nothing HTTP server: the bench's ceiling. It answers every request
// with `200` and a fixed JSON body, so whatever rate a load generator reaches
// against it is the most that generator can measure on this machine.
//
//   null_server PORT [BODY_BYTES]
//
// Listens on 127.0.0.1:PORT (SO_REUSEADDR), prints "Ready." (flushed) once
// listening. The body is `{}` by default, or a JSON object padded to exactly
// BODY_BYTES bytes (`{"pad":"xxx..."}`) to stand in for GetItem/Query-sized
// reads. HTTP/1.1 keeps the connection alive unless `Connection: close`;
// HTTP/1.0 closes right after the response unless `Connection: keep-alive`
// (ab without -k reads until the server closes). Pipelined requests are
// answered in order. One thread, level-triggered epoll, non-blocking sockets.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

struct Conn {
  std::string in;
  std::string out;
  size_t out_pos = 0;
  bool close_after_write = false;
};

std::string body;  // the response body, fixed for the process

// Case-insensitive search for header `name` in the header block; returns its
// value (trimmed) or an empty view.
std::string_view Header(std::string_view head, std::string_view name) {
  size_t pos = head.find("\r\n");
  while (pos != std::string_view::npos && pos + 2 < head.size()) {
    size_t start = pos + 2;
    size_t end = head.find("\r\n", start);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(start, end - start);
    if (line.size() > name.size() && line[name.size()] == ':' &&
        strncasecmp(line.data(), name.data(), name.size()) == 0) {
      std::string_view v = line.substr(name.size() + 1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) {
        v.remove_prefix(1);
      }
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) {
        v.remove_suffix(1);
      }
      return v;
    }
    pos = end;
  }
  return {};
}

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// Consumes every complete request in c.in, appending responses to c.out.
void Serve(Conn& c) {
  size_t off = 0;
  while (!c.close_after_write) {
    size_t head_end = c.in.find("\r\n\r\n", off);
    if (head_end == std::string::npos) break;
    std::string_view head(c.in.data() + off, head_end - off);
    size_t len = 0;
    std::string_view cl = Header(head, "Content-Length");
    if (!cl.empty()) len = std::strtoul(std::string(cl).c_str(), nullptr, 10);
    size_t total = head_end + 4 + len - off;
    if (c.in.size() - off < total) break;
    size_t line_end = head.find("\r\n");
    std::string_view request_line = head.substr(0, line_end);
    bool http10 = request_line.size() >= 8 && request_line.substr(request_line.size() - 8) == "HTTP/1.0";
    std::string_view conn = Header(head, "Connection");
    bool keep = http10 ? IEquals(conn, "keep-alive") : !IEquals(conn, "close");
    c.out += "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n";
    c.out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    c.out += keep ? (http10 ? "Connection: keep-alive\r\n\r\n" : "\r\n") : "Connection: close\r\n\r\n";
    c.out += body;
    c.close_after_write = !keep;
    off += total;
  }
  c.in.erase(0, off);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PORT [BODY_BYTES]\n", argv[0]);
    return 2;
  }
  int port = std::atoi(argv[1]);
  size_t body_bytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2;
  body = "{}";
  if (body_bytes > 11) {  // {"pad":""} is 10 bytes
    body = "{\"pad\":\"" + std::string(body_bytes - 10, 'x') + "\"}";
  }
  std::signal(SIGPIPE, SIG_IGN);

  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(lfd, 1024) != 0) {
    std::perror("bind/listen");
    return 1;
  }
  int ep = epoll_create1(0);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = lfd;
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  std::printf("Ready.\n");
  std::fflush(stdout);

  std::unordered_map<int, Conn> conns;
  auto drop = [&](int fd) {
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
    close(fd);
    conns.erase(fd);
  };
  // Writes what is pending; returns false once the connection is gone.
  auto flush = [&](int fd, Conn& c) {
    while (c.out_pos < c.out.size()) {
      ssize_t n = send(fd, c.out.data() + c.out_pos, c.out.size() - c.out_pos, MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n <= 0) {
        drop(fd);
        return false;
      }
      c.out_pos += static_cast<size_t>(n);
    }
    epoll_event e{};
    e.data.fd = fd;
    if (c.out_pos < c.out.size()) {
      e.events = EPOLLOUT;  // stop reading until the response is out
      epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
      return true;
    }
    c.out.clear();
    c.out_pos = 0;
    if (c.close_after_write) {
      drop(fd);
      return false;
    }
    e.events = EPOLLIN;
    epoll_ctl(ep, EPOLL_CTL_MOD, fd, &e);
    return true;
  };

  epoll_event events[256];
  char buf[65536];
  for (;;) {
    int n = epoll_wait(ep, events, 256, -1);
    if (n < 0 && errno == EINTR) continue;
    for (int i = 0; i < n; ++i) {
      int fd = events[i].data.fd;
      if (fd == lfd) {
        for (;;) {
          int cfd = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK);
          if (cfd < 0) break;
          setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          conns.emplace(cfd, Conn{});
          epoll_event e{};
          e.events = EPOLLIN;
          e.data.fd = cfd;
          epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &e);
        }
        continue;
      }
      auto it = conns.find(fd);
      if (it == conns.end()) continue;
      Conn& c = it->second;
      if (events[i].events & EPOLLOUT) {
        if (!flush(fd, c) || !c.out.empty()) continue;
        Serve(c);  // requests that arrived while the response was going out
        if (!c.out.empty()) flush(fd, c);
        continue;
      }
      if (!(events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
      bool gone = false;
      for (;;) {
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r > 0) {
          c.in.append(buf, static_cast<size_t>(r));
          if (static_cast<size_t>(r) < sizeof buf) break;
          continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        gone = true;  // peer closed or error
        break;
      }
      if (gone) {
        drop(fd);
        continue;
      }
      Serve(c);
      if (!c.out.empty()) flush(fd, c);
    }
  }
}
