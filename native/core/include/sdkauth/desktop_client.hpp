// The desktop client path of Authorize: the platform's desktop client, when it runs, authorizes
// over its local IPC socket and hands back a code, so the player never sees a browser. The
// DesktopClientAuthorizer seam lets a C++ host replace that path or turn it off (nullptr).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sdkauth {

// Which paths Authorize may take. Auto: the desktop client first, the browser when it fails.
enum class AuthorizeVia { Auto, DesktopClient, Browser };

// The redirect URI a desktop-client code is bound to: the loopback redirect every application
// registers for the SDK, without a port. GetToken must send it with the code.
constexpr const char* kDesktopClientRedirectUri = "http://127.0.0.1/callback";

struct DesktopClientOptions {
  // Directory of the Unix sockets; empty: $XDG_RUNTIME_DIR, else $TMPDIR, $TMP, $TEMP, /tmp.
  // Ignored on Windows, where the sockets are named pipes.
  std::string SocketDir;
  // Per socket: connecting, the handshake and the READY dispatch.
  int ConnectTimeoutMs = 1000;
  // The answer to AUTHORIZE: the time the player has to approve in the desktop client.
  int ApproveTimeoutMs = 120000;
  std::uint32_t MaxFrameBytes = 64 * 1024;
};

struct DesktopAuthorizeRequest {
  std::uint64_t client_id = 0;
  std::string scopes;          // space-separated
  std::string code_challenge;  // S256; empty when the args carry none
  std::string state;
  std::string nonce;  // the OpenID Connect nonce; empty when the args carry none
};

struct DesktopAuthorizeOutcome {
  enum class Kind {
    Code,         // the player approved: `code` holds the authorization code
    Denied,       // the player (or the service) refused: no other path is tried
    Unavailable,  // no desktop client answered usefully: the browser may be tried
  };
  Kind kind = Kind::Unavailable;
  std::string code;
  // For Denied: the OAuth error (e.g. access_denied). For both failures: a sentence, sanitized.
  std::string oauth_error;
  std::string message;
};

// One attempt in flight. Destroying it cancels the attempt and waits for it to stop; `done` is
// not called after the destructor returns. Never destroy it from inside `done`.
class DesktopAuthorization {
 public:
  virtual ~DesktopAuthorization() = default;
};

class DesktopClientAuthorizer {
 public:
  virtual ~DesktopClientAuthorizer() = default;
  using Done = std::function<void(DesktopAuthorizeOutcome)>;
  // Starts an attempt; `done` runs once, on any thread. Returns nullptr (and never calls `done`)
  // when no desktop client can be there at all, so the caller moves on at once.
  virtual std::unique_ptr<DesktopAuthorization> Start(const DesktopAuthorizeRequest& request,
                                                      Done done) = 0;
};

// The socket paths tried, in order: {dir}/discord-ipc-0 … 9, or \\?\pipe\discord-ipc-0 … 9.
std::vector<std::string> DesktopIpcPaths(const std::string& socket_dir);

// The default seam: the desktop client's local RPC over its IPC socket.
class IpcDesktopClient final : public DesktopClientAuthorizer {
 public:
  explicit IpcDesktopClient(DesktopClientOptions options = {}) : options_(std::move(options)) {}
  std::unique_ptr<DesktopAuthorization> Start(const DesktopAuthorizeRequest& request,
                                              Done done) override;
  const DesktopClientOptions& Options() const { return options_; }

 private:
  DesktopClientOptions options_;
};

}  // namespace sdkauth
