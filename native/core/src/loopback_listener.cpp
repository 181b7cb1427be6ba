#include "sdkauth/loopback_listener.hpp"

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cstring>
#include <list>
#include <vector>

#if defined(_WIN32)
#include <winsock2.h>
#include <ws2tcpip.h>
#pragma comment(lib, "ws2_32.lib")
using socket_t = SOCKET;
#define SDKAUTH_POLL WSAPoll
#define SDKAUTH_CLOSE closesocket
#else
#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
using socket_t = int;
#define SDKAUTH_POLL poll
#define SDKAUTH_CLOSE close
#endif

namespace sdkauth {
namespace {

using Clock = std::chrono::steady_clock;

constexpr socket_t kInvalid = static_cast<socket_t>(-1);

socket_t AsSocket(std::intptr_t fd) { return static_cast<socket_t>(fd); }

bool SetNonBlocking(socket_t fd) {
#if defined(_WIN32)
  u_long on = 1;
  return ioctlsocket(fd, FIONBIO, &on) == 0;
#else
  const int flags = fcntl(fd, F_GETFL, 0);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 &&
         fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
#endif
}

long SendSome(socket_t fd, const char* data, std::size_t size) {
#if defined(_WIN32)
  return send(fd, data, static_cast<int>(size), 0);
#elif defined(MSG_NOSIGNAL)
  return send(fd, data, size, MSG_NOSIGNAL);
#else
  return send(fd, data, size, 0);  // SO_NOSIGPIPE is set on the socket instead
#endif
}

bool WouldBlock() {
#if defined(_WIN32)
  return WSAGetLastError() == WSAEWOULDBLOCK;
#else
  return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
#endif
}

int LastSocketError() {
#if defined(_WIN32)
  return WSAGetLastError();
#else
  return errno;
#endif
}

// On failure returns kInvalid and sets `error` to the OS error of the step that failed (read
// before close() can overwrite it).
socket_t BindLoopback(std::uint16_t port, int* error) {
  socket_t fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
  if (fd == kInvalid) {
    *error = LastSocketError();
    return kInvalid;
  }
#if defined(_WIN32)
  BOOL exclusive = TRUE;  // nobody else may bind the same port while we hold it
  setsockopt(fd, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&exclusive),
             sizeof exclusive);
#endif
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // 127.0.0.1 only, never 0.0.0.0
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || listen(fd, 64) != 0 ||
      !SetNonBlocking(fd)) {
    *error = LastSocketError();
    SDKAUTH_CLOSE(fd);
    return kInvalid;
  }
  return fd;
}

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
  }
}

std::string Serialize(const HttpReply& reply) {
  std::string out = "HTTP/1.1 " + std::to_string(reply.status) + " " + Reason(reply.status) +
                    "\r\nContent-Type: " + reply.content_type +
                    "\r\nContent-Length: " + std::to_string(reply.body.size()) +
                    "\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer"
                    "\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
  out += reply.body;
  return out;
}

struct Connection {
  socket_t fd;
  Clock::time_point deadline;
  std::string in;
  std::string out;
  std::size_t written = 0;
  bool replying = false;
};

// Parses "METHOD SP target SP HTTP/x.y" from the head's first line.
bool ParseRequestLine(const std::string& head, HttpRequestHead* request) {
  const std::size_t eol = head.find("\r\n");
  const std::string line = head.substr(0, eol);
  const std::size_t sp1 = line.find(' ');
  if (sp1 == std::string::npos || sp1 == 0) return false;
  const std::size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || sp2 == sp1 + 1) return false;
  if (line.compare(sp2 + 1, 5, "HTTP/") != 0) return false;
  request->method = line.substr(0, sp1);
  request->target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  for (char c : request->method) {
    if (c < 'A' || c > 'Z') return false;
  }
  return !request->target.empty() && request->target[0] == '/';
}

HttpReply Plain(int status, const char* text) {
  HttpReply reply;
  reply.status = status;
  reply.content_type = "text/plain; charset=utf-8";
  reply.body = text;
  return reply;
}

}  // namespace

std::unique_ptr<LoopbackListener> LoopbackListener::Start(std::uint16_t preferred_port,
                                                          Handler handler, LoopbackLimits limits,
                                                          std::string* error) {
#if defined(_WIN32)
  WSADATA wsa;
  WSAStartup(MAKEWORD(2, 2), &wsa);
#endif
  int os_error = 0;
  socket_t fd = BindLoopback(preferred_port, &os_error);
  if (fd == kInvalid && preferred_port != 0) fd = BindLoopback(0, &os_error);
  if (fd == kInvalid) {
    if (error) *error = "could not listen on 127.0.0.1 (OS error " + std::to_string(os_error) + ")";
    return nullptr;
  }
  sockaddr_in bound{};
  socklen_t len = sizeof bound;
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);

  std::unique_ptr<LoopbackListener> self(new LoopbackListener());
  self->handler_ = std::move(handler);
  self->limits_ = limits;
  self->port_ = ntohs(bound.sin_port);
  self->listen_fd_ = static_cast<std::intptr_t>(fd);
#if !defined(_WIN32)
  int pipe_fds[2];
  if (pipe(pipe_fds) == 0) {
    fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(pipe_fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(pipe_fds[1], F_SETFL, O_NONBLOCK);
    self->wake_read_ = pipe_fds[0];
    self->wake_write_ = pipe_fds[1];
  }
#endif
  LoopbackListener* raw = self.get();
  self->thread_ = std::thread([raw] { raw->Run(); });
  return self;
}

LoopbackListener::~LoopbackListener() { Stop(); }

void LoopbackListener::Stop() {
  stop_.store(true);
#if !defined(_WIN32)
  if (wake_write_ >= 0) {
    const char byte = 1;
    (void)!write(static_cast<int>(wake_write_), &byte, 1);
  }
#endif
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
#if !defined(_WIN32)
  if (wake_read_ >= 0) close(static_cast<int>(wake_read_));
  if (wake_write_ >= 0) close(static_cast<int>(wake_write_));
  wake_read_ = wake_write_ = -1;
#endif
}

void LoopbackListener::Run() {
  std::list<Connection> connections;
  socket_t listen_fd = AsSocket(listen_fd_);
  bool finishing = false;
  Clock::time_point finish_deadline{};
  std::vector<pollfd> fds;
  std::vector<std::list<Connection>::iterator> owners;

  while (!stop_.load()) {
    const auto now = Clock::now();
    // Drop connections whose time is up; they never get to hold a slot for long.
    for (auto it = connections.begin(); it != connections.end();) {
      if (now >= it->deadline) {
        SDKAUTH_CLOSE(it->fd);
        it = connections.erase(it);
      } else {
        ++it;
      }
    }
    if (finishing && (connections.empty() || now >= finish_deadline)) break;

    fds.clear();
    owners.clear();
    if (wake_read_ >= 0) fds.push_back({static_cast<socket_t>(wake_read_), POLLIN, 0});
    std::size_t listen_index = SIZE_MAX;
    if (!finishing) {
      listen_index = fds.size();
      fds.push_back({listen_fd, POLLIN, 0});
    }
    const std::size_t first_conn = fds.size();
    for (auto it = connections.begin(); it != connections.end(); ++it) {
      fds.push_back({it->fd, static_cast<short>(it->replying ? POLLOUT : POLLIN), 0});
      owners.push_back(it);
    }
    int timeout_ms = 200;  // also bounds how late a deadline is noticed
#if defined(_WIN32)
    timeout_ms = 50;  // no wake pipe on Windows: poll the stop flag more often
#endif
    const int ready = SDKAUTH_POLL(fds.data(), static_cast<unsigned long>(fds.size()), timeout_ms);
    if (ready < 0) {
      if (WouldBlock()) continue;
      break;
    }
    if (stop_.load()) break;

    for (std::size_t i = first_conn; i < fds.size(); ++i) {
      auto it = owners[i - first_conn];
      const short revents = fds[i].revents;
      if (revents == 0) continue;
      bool drop = false;
      if (!it->replying && (revents & (POLLIN | POLLHUP | POLLERR))) {
        char buf[2048];
        const long n = recv(it->fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && !WouldBlock())) {
          drop = true;
        } else if (n > 0) {
          it->in.append(buf, static_cast<std::size_t>(n));
          const std::size_t end = it->in.find("\r\n\r\n");
          HttpReply reply;
          bool have_reply = false;
          if (end == std::string::npos) {
            if (it->in.size() > limits_.max_head_bytes) {
              reply = Plain(431, "Request too large.\n");
              have_reply = true;
            } else if (it->in.find("\r\n") != std::string::npos) {
              // A first line that can never become a request is answered at once.
              HttpRequestHead probe;
              if (!ParseRequestLine(it->in, &probe)) {
                reply = Plain(400, "Bad request.\n");
                have_reply = true;
              }
            }
          } else if (end + 4 > limits_.max_head_bytes) {
            reply = Plain(431, "Request too large.\n");
            have_reply = true;
          } else {
            HttpRequestHead request;
            if (!ParseRequestLine(it->in, &request)) {
              reply = Plain(400, "Bad request.\n");
            } else if (finishing) {
              reply = Plain(404, "Sign-in is over.\n");
            } else {
              reply = handler_(request);
              if (reply.finish) {
                finishing = true;
                finish_deadline = Clock::now() + std::chrono::seconds(2);
              }
            }
            have_reply = true;
          }
          if (have_reply) {
            it->in.clear();
            it->in.shrink_to_fit();
            it->out = Serialize(reply);
            it->replying = true;
          }
        }
      }
      if (!drop && it->replying && (revents & (POLLOUT | POLLIN | POLLHUP | POLLERR))) {
        const long n = SendSome(it->fd, it->out.data() + it->written, it->out.size() - it->written);
        if (n < 0 && !WouldBlock()) {
          drop = true;
        } else if (n > 0) {
          it->written += static_cast<std::size_t>(n);
          if (it->written >= it->out.size()) drop = true;
        }
      }
      if (drop) {
#if defined(_WIN32)
        shutdown(it->fd, SD_SEND);
#else
        shutdown(it->fd, SHUT_WR);
#endif
        SDKAUTH_CLOSE(it->fd);
        connections.erase(it);
      }
    }

    if (listen_index != SIZE_MAX && (fds[listen_index].revents & POLLIN)) {
      for (int accepted = 0; accepted < 64; ++accepted) {
        socket_t fd = accept(listen_fd, nullptr, nullptr);
        if (fd == kInvalid) break;
        if (!SetNonBlocking(fd)) {
          SDKAUTH_CLOSE(fd);
          continue;
        }
#if defined(SO_NOSIGPIPE)
        int on = 1;
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
        if (connections.size() >= limits_.max_connections) {
          // Full: the oldest connection is the likeliest to be a stalled one.
          SDKAUTH_CLOSE(connections.front().fd);
          connections.pop_front();
        }
        connections.push_back(
            Connection{fd, Clock::now() + std::chrono::milliseconds(limits_.connection_timeout_ms),
                       {}, {}, 0, false});
      }
    }
  }

  for (auto& c : connections) SDKAUTH_CLOSE(c.fd);
  connections.clear();
  SDKAUTH_CLOSE(listen_fd);
  listen_fd_ = -1;
}

}  // namespace sdkauth
