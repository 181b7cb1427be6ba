// A tiny HTTP/1.1 listener on 127.0.0.1 for the OAuth loopback redirect (RFC 8252 §7.3).
// It reads request heads only, answers each connection once and closes it, and bounds what a
// hostile local peer can cost: head size, time per connection and the number of connections.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace sdkauth {

struct HttpRequestHead {
  std::string method;
  std::string target;  // origin-form: path and query
};

struct HttpReply {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  // True when this reply ends the listener's work: it stops accepting and exits once the reply
  // is written.
  bool finish = false;
};

struct LoopbackLimits {
  std::size_t max_head_bytes = 8192;
  int connection_timeout_ms = 10000;  // whole-connection budget, so trickling cannot extend it
  std::size_t max_connections = 128;  // the oldest is dropped to admit a new one
};

class LoopbackListener {
 public:
  using Handler = std::function<HttpReply(const HttpRequestHead&)>;

  // Binds 127.0.0.1 on `preferred_port` (0: an ephemeral port). When the preferred port is
  // taken it falls back to an ephemeral one. Returns nullptr and sets `error` on failure.
  static std::unique_ptr<LoopbackListener> Start(std::uint16_t preferred_port, Handler handler,
                                                 LoopbackLimits limits, std::string* error);
  ~LoopbackListener();
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;

  std::uint16_t Port() const { return port_; }
  // Stops and joins the thread. Idempotent. Must not be called from the handler.
  void Stop();

 private:
  LoopbackListener() = default;
  void Run();

  Handler handler_;
  LoopbackLimits limits_;
  std::uint16_t port_ = 0;
  std::intptr_t listen_fd_ = -1;
  std::intptr_t wake_read_ = -1;
  std::intptr_t wake_write_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace sdkauth
