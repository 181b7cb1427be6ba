// The Client: the social SDK's authorization surface (Authorize, CreateAuthorizationCodeVerifier,
// GetToken, RefreshToken, RevokeToken, default scopes) over three seams: UrlOpener,
// TokenTransport and Dispatcher.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sdkauth/authorization_args.hpp"
#include "sdkauth/client_result.hpp"
#include "sdkauth/desktop_client.hpp"
#include "sdkauth/dispatcher.hpp"
#include "sdkauth/loopback_listener.hpp"
#include "sdkauth/redirect.hpp"
#include "sdkauth/token_exchange.hpp"
#include "sdkauth/token_transport.hpp"

namespace sdkauth {

enum class RedirectMode { Loopback, CustomScheme };

struct ClientCreateOptions {
  std::string WebBase = "https://discord.com";
  std::string ApiBase = "https://discord.com/api/v10";
  // Loopback unless set otherwise; a CustomSchemeParam in the args also selects CustomScheme.
  RedirectMode Redirect = RedirectMode::Loopback;
  // Preferred loopback port; 0 or a taken port means an ephemeral one.
  std::uint16_t LoopbackPort = 0;
  LoopbackLimits Limits;
  // Desktop client IPC: where its sockets are and how long each step may take.
  DesktopClientOptions DesktopClient;
};

class UrlOpener {
 public:
  virtual ~UrlOpener() = default;
  // Shows `url` to the player. Called on the thread that called Authorize. A failure must not
  // end the flow: the host shows the URL some other way.
  virtual void Open(const std::string& url) = 0;
};

// Opens an http(s) URL with the platform's handler (xdg-open, open, or the Windows shell).
// Returns false when the URL is not http(s) or the handler could not be started.
bool OpenWithSystemHandler(const std::string& url);

// The default UrlOpener of C++ hosts: OpenWithSystemHandler.
class SystemUrlOpener final : public UrlOpener {
 public:
  void Open(const std::string& url) override;
};

enum class AuthorizationTokenType { User = 0, Bearer = 1 };

using AuthorizationCallback =
    std::function<void(ClientResult result, std::string code, std::string redirectUri)>;
using TokenExchangeCallback = std::function<void(
    ClientResult result, std::string accessToken, std::string refreshToken,
    AuthorizationTokenType tokenType, std::int32_t expiresIn, std::string scopes,
    std::string idToken)>;
using RevokeTokenCallback = std::function<void(ClientResult result)>;

class Client {
 public:
  explicit Client(ClientCreateOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  static std::string GetDefaultCommunicationScopes() { return "openid sdk.social_layer"; }
  static std::string GetDefaultPresenceScopes() { return "openid sdk.social_layer_presence"; }

  void SetApplicationId(std::uint64_t id);
  std::uint64_t GetApplicationId() const;
  const ClientCreateOptions& Options() const { return options_; }

  void SetDispatcher(std::shared_ptr<Dispatcher> dispatcher);
  void SetUrlOpener(std::shared_ptr<UrlOpener> opener);
  void SetTokenTransport(std::shared_ptr<TokenTransport> transport);
  // Desktop client IPC: which paths Authorize takes (Auto by default), and the seam behind the
  // desktop-client path (IpcDesktopClient by default; nullptr turns the path off).
  void SetAuthorizeVia(AuthorizeVia via);
  AuthorizeVia GetAuthorizeVia() const;
  void SetDesktopClient(std::shared_ptr<DesktopClientAuthorizer> desktop);
  // Drains the built-in queue dispatcher (when no other dispatcher was set).
  std::size_t RunCallbacks();

  // Returns a fresh verifier and its S256 challenge. The verifier is empty only if the OS
  // refused to give random bytes.
  AuthorizationCodeVerifier CreateAuthorizationCodeVerifier();

  // Starts a sign-in. A second call while one is pending ends the first with Aborted. With
  // AuthorizeVia::Auto it asks the desktop client first and opens the browser only when that
  // fails; a code from the desktop client comes with kDesktopClientRedirectUri.
  void Authorize(const AuthorizationArgs& args, AuthorizationCallback callback);
  void AbortAuthorize() { AbortAuthorize(ErrorType::Aborted, "Authorization was aborted."); }
  void AbortAuthorize(ErrorType type, std::string message);
  bool IsAuthorizing() const;
  // Delivers a custom-scheme redirect the host received. Returns true when it belonged to the
  // pending flow and completed it; false (and no side effect) otherwise.
  bool HandleRedirect(const std::string& url);

  void GetToken(std::uint64_t applicationId, const std::string& code,
                const std::string& codeVerifier, const std::string& redirectUri,
                TokenExchangeCallback callback);
  void RefreshToken(std::uint64_t applicationId, const std::string& refreshToken,
                    TokenExchangeCallback callback);
  void RevokeToken(std::uint64_t applicationId, const std::string& token,
                   RevokeTokenCallback callback);

 private:
  struct Flow;
  // Ends flow `flow_id` with `result`; false when that flow is no longer the pending one.
  bool Complete(std::uint64_t flow_id, ClientResult result, std::string code);
  // Stops a flow taken out of flow_ (call without the lock) and reports `type` to its callback.
  void EndFlow(std::unique_ptr<Flow> flow, ErrorType type, std::string message);
  HttpReply HandleLoopback(std::uint64_t flow_id, const HttpRequestHead& request);
  // Ends flow `flow_id` as a Fail or Success verdict says; false when it is no longer pending.
  bool Settle(std::uint64_t flow_id, const RedirectVerdict& verdict);
  void Dispatch(std::function<void()> task);
  // Desktop client IPC: the browser part of flow `flow_id` (listener, URL, opener), and what the
  // desktop client answered. `from_host` is false on the attempt's thread: the URL is then
  // opened through the dispatcher, on the host's callback thread.
  void StartBrowser(std::uint64_t flow_id, bool from_host);
  void OnDesktopOutcome(std::uint64_t flow_id, DesktopAuthorizeOutcome outcome);

  // The application id a token request goes out with: the argument's, else the client's.
  std::uint64_t ApplicationIdOr(std::uint64_t applicationId) const;
  // The one path of GetToken, RefreshToken and RevokeToken: reports a grant that could not be
  // prepared, else sends it through the TokenTransport.
  void RequestGrant(PreparedGrant prepared, TokenExchangeCallback callback);

  ClientCreateOptions options_;
  mutable std::mutex mutex_;
  std::uint64_t application_id_ = 0;
  std::shared_ptr<QueueDispatcher> queue_;
  std::shared_ptr<Dispatcher> dispatcher_;
  std::shared_ptr<UrlOpener> opener_;
  std::shared_ptr<TokenTransport> transport_;
  std::unique_ptr<Flow> flow_;
  std::vector<std::unique_ptr<LoopbackListener>> retired_;
  std::uint64_t next_flow_id_ = 1;
  // Desktop client IPC.
  AuthorizeVia via_ = AuthorizeVia::Auto;
  std::shared_ptr<DesktopClientAuthorizer> desktop_;
  std::vector<std::unique_ptr<DesktopAuthorization>> retired_desktop_;
};

}  // namespace sdkauth
