// The desktop client's local RPC over its IPC socket: handshake, READY, AUTHORIZE. Each socket
// gets a bounded time; anything unexpected on one socket moves on to the next, so a squatting or
// broken program never stops the sign-in, and the caller falls back to the browser after the last.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <thread>

#include "sdkauth/base64url.hpp"
#include "sdkauth/desktop_client.hpp"
#include "sdkauth/ipc_frame.hpp"
#include "sdkauth/ipc_json.hpp"
#include "sdkauth/random.hpp"
#include "text.hpp"

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#endif

namespace sdkauth {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kSliceMs = 20;  // how often a blocked step looks at the stop flag
constexpr std::size_t kMaxCodeLength = 2048;
constexpr int kSocketCount = 10;

int MsLeft(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, kSliceMs));
}

enum class ReadStatus { Data, Closed, TimedOut };

#ifdef _WIN32
class Connection {
 public:
  static std::unique_ptr<Connection> Open(const std::string& path, Clock::time_point,
                                          const std::atomic<bool>&) {
    HANDLE pipe = CreateFileA(path.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING, 0, nullptr);
    if (pipe == INVALID_HANDLE_VALUE) return nullptr;
    return std::unique_ptr<Connection>(new Connection(pipe));
  }
  ~Connection() { CloseHandle(pipe_); }
  bool WriteAll(const std::string& bytes, Clock::time_point, const std::atomic<bool>&) {
    // Frames sent here are a few hundred bytes: they fit the pipe's buffer, so this cannot block.
    DWORD written = 0;
    return WriteFile(pipe_, bytes.data(), static_cast<DWORD>(bytes.size()), &written, nullptr) &&
           written == bytes.size();
  }
  ReadStatus Read(char* out, std::size_t want, std::size_t* got, Clock::time_point deadline,
                  const std::atomic<bool>& stop) {
    for (;;) {
      DWORD available = 0;
      if (!PeekNamedPipe(pipe_, nullptr, 0, nullptr, &available, nullptr)) return ReadStatus::Closed;
      if (available > 0) {
        DWORD read = 0;
        const DWORD ask = static_cast<DWORD>(std::min<std::size_t>(want, available));
        if (!ReadFile(pipe_, out, ask, &read, nullptr) || read == 0) return ReadStatus::Closed;
        *got = read;
        return ReadStatus::Data;
      }
      if (stop.load() || MsLeft(deadline) == 0) return ReadStatus::TimedOut;
      Sleep(static_cast<DWORD>(std::max(1, std::min(MsLeft(deadline), 10))));
    }
  }

 private:
  explicit Connection(HANDLE pipe) : pipe_(pipe) {}
  HANDLE pipe_;
};
#else
class Connection {
 public:
  static std::unique_ptr<Connection> Open(const std::string& path, Clock::time_point deadline,
                                          const std::atomic<bool>& stop) {
    sockaddr_un address{};
    if (path.size() >= sizeof(address.sun_path)) return nullptr;
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return nullptr;
    std::unique_ptr<Connection> connection(new Connection(fd));
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
#ifdef SO_NOSIGPIPE
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) return connection;
    if (errno != EINPROGRESS && errno != EAGAIN) return nullptr;
    if (!connection->WaitFor(POLLOUT, deadline, stop)) return nullptr;
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) return nullptr;
    return connection;
  }
  ~Connection() { close(fd_); }
  bool WriteAll(const std::string& bytes, Clock::time_point deadline, const std::atomic<bool>& stop) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
#ifdef MSG_NOSIGNAL
      const ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
#else
      const ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, 0);
#endif
      if (n > 0) { sent += static_cast<std::size_t>(n); continue; }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && WaitFor(POLLOUT, deadline, stop)) continue;
      return false;
    }
    return true;
  }
  ReadStatus Read(char* out, std::size_t want, std::size_t* got, Clock::time_point deadline,
                  const std::atomic<bool>& stop) {
    for (;;) {
      const ssize_t n = recv(fd_, out, want, 0);
      if (n > 0) { *got = static_cast<std::size_t>(n); return ReadStatus::Data; }
      if (n == 0) return ReadStatus::Closed;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return ReadStatus::Closed;
      if (!WaitFor(POLLIN, deadline, stop)) return ReadStatus::TimedOut;
    }
  }

 private:
  explicit Connection(int fd) : fd_(fd) {}
  // Waits in short slices so a stop request is seen quickly. False on timeout or stop.
  bool WaitFor(short events, Clock::time_point deadline, const std::atomic<bool>& stop) {
    for (;;) {
      if (stop.load()) return false;
      const int slice = MsLeft(deadline);
      if (slice == 0) return false;
      pollfd p{fd_, events, 0};
      const int ready = poll(&p, 1, slice);
      if (ready > 0) return true;  // errors and hang-ups show up on the next recv/send
      if (ready < 0 && errno != EINTR) return false;
    }
  }
  int fd_;
};
#endif

bool IsUsableCode(const std::string& code) {
  if (code.empty() || code.size() > kMaxCodeLength) return false;
  return std::all_of(code.begin(), code.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7F;
  });
}

bool Contains(const std::string& text, const char* needle) {
  return detail::Lower(text).find(needle) != std::string::npos;
}

// What one socket gave: a final outcome, or the reason to try the next one.
struct SocketResult {
  bool final = false;
  bool connected = false;
  DesktopAuthorizeOutcome outcome;
  std::string reason;
};

SocketResult Skip(std::string reason) {
  SocketResult r;
  r.connected = true;
  r.reason = std::move(reason);
  return r;
}

std::vector<std::string> SplitScopes(const std::string& scopes) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= scopes.size()) {
    const std::size_t end = std::min(scopes.find(' ', start), scopes.size());
    if (end > start) out.push_back(scopes.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

class IpcAttempt final : public DesktopAuthorization {
 public:
  IpcAttempt(DesktopClientOptions options, DesktopAuthorizeRequest request,
             std::vector<std::string> paths, DesktopClientAuthorizer::Done done)
      : options_(std::move(options)),
        request_(std::move(request)),
        paths_(std::move(paths)),
        done_(std::move(done)),
        thread_([this] { Run(); }) {}

  ~IpcAttempt() override {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }

 private:
  enum class FrameStatus { Frame, Closed, TimedOut, TooLarge, Malformed };

  void Run() {
    std::string reason = "no desktop client is running";
    for (const auto& path : paths_) {
      if (stop_.load()) return;
      SocketResult result = TrySocket(path);
      if (stop_.load()) return;
      if (result.final) {
        done_(std::move(result.outcome));
        return;
      }
      if (result.connected) reason = detail::Sanitize(result.reason, 200);
    }
    DesktopAuthorizeOutcome outcome;
    outcome.kind = DesktopAuthorizeOutcome::Kind::Unavailable;
    outcome.message = "The desktop client did not authorize this sign-in (" + reason + ").";
    done_(std::move(outcome));
  }

  FrameStatus ReadFrame(Connection& connection, IpcFrameReader& reader, IpcFrame* frame,
                        Clock::time_point deadline) {
    std::array<char, 4096> buffer{};
    for (;;) {
      switch (reader.Next(frame)) {
        case IpcFrameReader::Status::Frame: return FrameStatus::Frame;
        case IpcFrameReader::Status::TooLarge: return FrameStatus::TooLarge;
        case IpcFrameReader::Status::BadOpcode: return FrameStatus::Malformed;
        case IpcFrameReader::Status::NeedMore: break;
      }
      std::size_t got = 0;
      // Never more than the frame in progress needs: the buffer stays within one frame.
      const std::size_t want = std::min(buffer.size(), reader.Wanted());
      switch (connection.Read(buffer.data(), want, &got, deadline, stop_)) {
        case ReadStatus::Data: reader.Feed(buffer.data(), got); break;
        case ReadStatus::Closed: return FrameStatus::Closed;
        case ReadStatus::TimedOut: return FrameStatus::TimedOut;
      }
    }
  }

  // Reads until a FRAME arrives, answering PINGs. Sets `why` when it returns no frame.
  std::optional<JsonValue> NextMessage(Connection& connection, IpcFrameReader& reader,
                                       Clock::time_point deadline, const char* waiting_for,
                                       std::string* why) {
    for (;;) {
      IpcFrame frame;
      switch (ReadFrame(connection, reader, &frame, deadline)) {
        case FrameStatus::Frame: break;
        case FrameStatus::Closed: *why = std::string("the socket closed while waiting for ") + waiting_for; return std::nullopt;
        case FrameStatus::TimedOut: *why = std::string("no ") + waiting_for + " in time"; return std::nullopt;
        case FrameStatus::TooLarge: *why = "a frame over the size limit"; return std::nullopt;
        case FrameStatus::Malformed: *why = "a frame with an unknown opcode"; return std::nullopt;
      }
      switch (frame.opcode) {
        case IpcOpcode::Ping:
          if (!connection.WriteAll(EncodeIpcFrame(IpcOpcode::Pong, frame.body), deadline, stop_)) {
            *why = "the socket failed";
            return std::nullopt;
          }
          continue;
        case IpcOpcode::Pong: continue;
        case IpcOpcode::Close: {
          const auto body = ParseJson(frame.body);
          const std::string* message = body ? body->StringAt("message") : nullptr;
          *why = "the desktop client closed the connection" + (message ? ": " + *message : std::string());
          return std::nullopt;
        }
        case IpcOpcode::Handshake: *why = "an unexpected handshake frame"; return std::nullopt;
        case IpcOpcode::Frame: break;
      }
      auto message = ParseJson(frame.body);
      if (!message || message->kind != JsonValue::Kind::Object) {
        *why = "a malformed frame";
        return std::nullopt;
      }
      return message;
    }
  }

  SocketResult TrySocket(const std::string& path) {
    const auto ready_deadline = Clock::now() + std::chrono::milliseconds(options_.ConnectTimeoutMs);
    auto connection = Connection::Open(path, ready_deadline, stop_);
    if (!connection) return SocketResult{};
    IpcFrameReader reader(options_.MaxFrameBytes);
    const std::string client_id = std::to_string(request_.client_id);
    const JsonValue handshake = JsonValue::Object(
        {{"v", JsonValue::Number(1)}, {"client_id", JsonValue::String(client_id)}});
    if (!connection->WriteAll(EncodeIpcFrame(IpcOpcode::Handshake, WriteJson(handshake)), ready_deadline, stop_)) {
      return Skip("the handshake could not be sent");
    }
    std::string why;
    for (;;) {
      auto message = NextMessage(*connection, reader, ready_deadline, "READY", &why);
      if (!message) return Skip(why);
      const std::string* evt = message->StringAt("evt");
      const std::string* cmd = message->StringAt("cmd");
      if (evt && *evt == "READY" && cmd && *cmd == "DISPATCH") break;
      if (evt && *evt == "ERROR") return Skip("the handshake was refused");
    }

    std::array<std::uint8_t, 16> random{};
    if (!SecureRandomBytes(random.data(), random.size())) return Skip("no random nonce");
    const std::string nonce = Base64UrlEncode(random.data(), random.size());
    std::vector<JsonValue> scopes;
    for (auto& scope : SplitScopes(request_.scopes)) scopes.push_back(JsonValue::String(scope));
    std::vector<std::pair<std::string, JsonValue>> args = {
        {"client_id", JsonValue::String(client_id)},
        {"scopes", JsonValue::Array(std::move(scopes))},
        {"state", JsonValue::String(request_.state)},
        {"response_type", JsonValue::String("code")}};
    if (!request_.nonce.empty()) args.emplace_back("nonce", JsonValue::String(request_.nonce));
    if (!request_.code_challenge.empty()) {
      args.emplace_back("code_challenge", JsonValue::String(request_.code_challenge));
      args.emplace_back("code_challenge_method", JsonValue::String("S256"));
    }
    const JsonValue authorize = JsonValue::Object({{"cmd", JsonValue::String("AUTHORIZE")},
                                                   {"nonce", JsonValue::String(nonce)},
                                                   {"args", JsonValue::Object(std::move(args))}});
    const auto approve_deadline = Clock::now() + std::chrono::milliseconds(options_.ApproveTimeoutMs);
    if (!connection->WriteAll(EncodeIpcFrame(IpcOpcode::Frame, WriteJson(authorize)), approve_deadline, stop_)) {
      return Skip("AUTHORIZE could not be sent");
    }
    for (;;) {
      auto message = NextMessage(*connection, reader, approve_deadline, "answer to AUTHORIZE", &why);
      if (!message) return Skip(why);
      const std::string* their_nonce = message->StringAt("nonce");
      const std::string* evt = message->StringAt("evt");
      const JsonValue* data = message->Find("data");
      if (!their_nonce || *their_nonce != nonce) {
        // Errors about a frame it could not read come back without our nonce.
        if (evt && *evt == "ERROR" && !their_nonce) return Skip("it refused AUTHORIZE");
        continue;
      }
      if (evt && *evt == "ERROR") {
        const std::string* text = data ? data->StringAt("message") : nullptr;
        const std::string said = text ? *text : std::string();
        if (Contains(said, "unknown command")) return Skip("it does not know AUTHORIZE");
        if (Contains(said, "access_denied")) {
          SocketResult r;
          r.final = true;
          r.connected = true;
          r.outcome.kind = DesktopAuthorizeOutcome::Kind::Denied;
          r.outcome.oauth_error = "access_denied";
          r.outcome.message = detail::Sanitize(said, 300);
          return r;
        }
        return Skip("it refused AUTHORIZE" + (said.empty() ? std::string() : ": " + said));
      }
      const std::string* code = data ? data->StringAt("code") : nullptr;
      if (!code || !IsUsableCode(*code)) return Skip("a malformed answer to AUTHORIZE");
      SocketResult r;
      r.final = true;
      r.connected = true;
      r.outcome.kind = DesktopAuthorizeOutcome::Kind::Code;
      r.outcome.code = *code;
      return r;
    }
  }

  const DesktopClientOptions options_;
  const DesktopAuthorizeRequest request_;
  const std::vector<std::string> paths_;
  const DesktopClientAuthorizer::Done done_;
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: it starts once every member above is ready
};

}  // namespace

std::vector<std::string> DesktopIpcPaths(const std::string& socket_dir) {
  std::vector<std::string> paths;
#ifdef _WIN32
  (void)socket_dir;
  for (int n = 0; n < kSocketCount; ++n) paths.push_back("\\\\?\\pipe\\discord-ipc-" + std::to_string(n));
#else
  std::string dir = socket_dir;
  for (const char* name : {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}) {
    if (!dir.empty()) break;
    const char* value = std::getenv(name);
    if (value != nullptr) dir = value;
  }
  if (dir.empty()) dir = "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  for (int n = 0; n < kSocketCount; ++n) paths.push_back(dir + "/discord-ipc-" + std::to_string(n));
#endif
  return paths;
}

std::unique_ptr<DesktopAuthorization> IpcDesktopClient::Start(const DesktopAuthorizeRequest& request,
                                                              Done done) {
  std::vector<std::string> paths = DesktopIpcPaths(options_.SocketDir);
#ifndef _WIN32
  // Only sockets that exist: with no desktop client the sign-in goes on without a thread.
  paths.erase(std::remove_if(paths.begin(), paths.end(),
                             [](const std::string& path) {
                               struct stat info {};
                               return stat(path.c_str(), &info) != 0 || !S_ISSOCK(info.st_mode);
                             }),
              paths.end());
#endif
  if (paths.empty()) return nullptr;
  return std::make_unique<IpcAttempt>(options_, request, std::move(paths), std::move(done));
}

}  // namespace sdkauth
