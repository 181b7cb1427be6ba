#include "sdkauth/client.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "desktop_failures.hpp"
#include "failures.hpp"
#include "pages.hpp"
#include "sdkauth/base64url.hpp"
#include "sdkauth/random.hpp"
#include "sdkauth/token_exchange.hpp"
#include "sdkauth/url.hpp"
#include "text.hpp"

namespace sdkauth {
namespace {

using detail::Lower;

constexpr std::size_t kMaxCodeLength = 2048;
constexpr std::size_t kMaxTokenLength = 8192;
constexpr std::size_t kMaxUriLength = 2048;

std::optional<std::string> RandomToken() {
  std::array<std::uint8_t, 32> bytes{};
  if (!SecureRandomBytes(bytes.data(), bytes.size())) return std::nullopt;
  return Base64UrlEncode(bytes.data(), bytes.size());
}

// A token callback that carries a failure, and so no tokens.
void Fail(const TokenExchangeCallback& callback, const ClientResult& result) {
  callback(result, "", "", AuthorizationTokenType::Bearer, 0, "", "");
}

// Turns what the transport reported into the callback's arguments, on the dispatcher.
void DeliverResponse(TransportResponse r, GrantKind kind, const std::shared_ptr<Dispatcher>& dispatcher,
                     const TokenExchangeCallback& callback) {
  ClientResult result = TransportResult(r, kind);
  if (!result.Successful()) {
    dispatcher->Post([callback, result = std::move(result)] { Fail(callback, result); });
    return;
  }
  const auto max = static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::max());
  const auto expires = static_cast<std::int32_t>(r.expires_in < 0 ? 0 : std::min(r.expires_in, max));
  dispatcher->Post([callback, r = std::move(r), expires] {
    callback(ClientResult::Success(), r.access_token, r.refresh_token,
             AuthorizationTokenType::Bearer, expires, r.scope, r.id_token);
  });
}

// One argument of a grant: its form parameter, its value, and the sentence when it is invalid.
struct GrantArgument {
  const char* form_name;
  std::string value;
  bool valid;
  const char* problem;
};

// The one builder of every grant: checks the application id and the arguments, in that order.
PreparedGrant Prepare(GrantKind kind, const std::string& api_base, std::uint64_t app,
                      std::vector<GrantArgument> arguments) {
  PreparedGrant prepared;
  if (app == 0) {
    prepared.result = failures::Invalid(
        "applicationId is not set: pass it, or set the client's applicationId first.");
    return prepared;
  }
  for (const auto& argument : arguments) {
    if (!argument.valid) {
      prepared.result = failures::Invalid(argument.problem);
      return prepared;
    }
  }
  TokenGrant grant;
  grant.kind = kind;
  grant.endpoint = api_base + (kind == GrantKind::Revoke ? "/oauth2/token/revoke" : "/oauth2/token");
  grant.client_id = std::to_string(app);
  if (kind == GrantKind::AuthorizationCode) grant.grant_type = "authorization_code";
  if (kind == GrantKind::RefreshToken) grant.grant_type = "refresh_token";
  for (auto& argument : arguments) grant.parameters.emplace_back(argument.form_name, std::move(argument.value));
  prepared.grant = std::move(grant);
  return prepared;
}

}  // namespace

struct Client::Flow {
  std::uint64_t id = 0;
  std::string state;
  std::string redirect_uri;
  std::string scheme;  // custom-scheme mode only, lower-cased
  RedirectMode mode = RedirectMode::Loopback;
  AuthorizationCallback callback;
  std::unique_ptr<LoopbackListener> listener;
  // Desktop client IPC: what the browser part needs if it starts later, and the attempt.
  AuthorizationArgs args;
  std::uint64_t client_id = 0;
  AuthorizeVia via = AuthorizeVia::Auto;
  std::unique_ptr<DesktopAuthorization> desktop;
};

void SystemUrlOpener::Open(const std::string& url) { OpenWithSystemHandler(url); }

Client::Client(ClientCreateOptions options)
    : options_(std::move(options)), queue_(std::make_shared<QueueDispatcher>()) {
  options_.WebBase = detail::TrimSlash(options_.WebBase);
  options_.ApiBase = detail::TrimSlash(options_.ApiBase);
  dispatcher_ = queue_;
  desktop_ = std::make_shared<IpcDesktopClient>(options_.DesktopClient);
}

Client::~Client() {
  AbortAuthorize(ErrorType::ClientDestroyed, "The client was destroyed before sign-in ended.");
}

void Client::SetApplicationId(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  application_id_ = id;
}

std::uint64_t Client::GetApplicationId() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return application_id_;
}

void Client::SetDispatcher(std::shared_ptr<Dispatcher> dispatcher) {
  std::lock_guard<std::mutex> lock(mutex_);
  dispatcher_ = dispatcher ? std::move(dispatcher) : queue_;
}

void Client::SetUrlOpener(std::shared_ptr<UrlOpener> opener) {
  std::lock_guard<std::mutex> lock(mutex_);
  opener_ = std::move(opener);
}

void Client::SetTokenTransport(std::shared_ptr<TokenTransport> transport) {
  std::lock_guard<std::mutex> lock(mutex_);
  transport_ = std::move(transport);
}

void Client::SetAuthorizeVia(AuthorizeVia via) {
  std::lock_guard<std::mutex> lock(mutex_);
  via_ = via;
}

AuthorizeVia Client::GetAuthorizeVia() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return via_;
}

void Client::SetDesktopClient(std::shared_ptr<DesktopClientAuthorizer> desktop) {
  std::lock_guard<std::mutex> lock(mutex_);
  desktop_ = std::move(desktop);
}

std::size_t Client::RunCallbacks() { return queue_->RunCallbacks(); }

void Client::Dispatch(std::function<void()> task) {
  std::shared_ptr<Dispatcher> dispatcher;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dispatcher = dispatcher_;
  }
  dispatcher->Post(std::move(task));
}

AuthorizationCodeVerifier Client::CreateAuthorizationCodeVerifier() {
  auto verifier = NewAuthorizationCodeVerifier();
  return verifier ? *verifier : AuthorizationCodeVerifier();
}

bool Client::IsAuthorizing() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return flow_ != nullptr;
}

void Client::Authorize(const AuthorizationArgs& args, AuthorizationCallback callback) {
  AbortAuthorize(ErrorType::Aborted, "This sign-in was replaced by a newer one.");
  const std::uint64_t fallback = GetApplicationId();
  ClientResult valid = args.Validate(fallback);
  if (!valid.Successful()) {
    Dispatch([callback, valid] { callback(valid, "", ""); });
    return;
  }
  const std::uint64_t client_id = args.ClientId() != 0 ? args.ClientId() : fallback;
  auto state = args.State() ? std::optional<std::string>(*args.State()) : RandomToken();
  if (!state) {
    Dispatch([callback] { callback(failures::NoRandomState(), "", ""); });
    return;
  }

  auto flow = std::make_unique<Flow>();
  flow->state = *state;
  flow->callback = std::move(callback);
  flow->mode = args.CustomSchemeParam() ? RedirectMode::CustomScheme : options_.Redirect;
  flow->args = args;
  flow->client_id = client_id;
  if (flow->mode == RedirectMode::CustomScheme) {
    flow->scheme = Lower(args.CustomSchemeParam() ? *args.CustomSchemeParam()
                                                  : "discord-" + std::to_string(client_id));
    flow->redirect_uri = flow->scheme + ":/authorize/callback";
  }
  std::shared_ptr<DesktopClientAuthorizer> desktop;
  std::unique_ptr<Flow> displaced;  // another thread's Authorize may have got in meanwhile
  std::uint64_t id = 0;
  AuthorizeVia via = AuthorizeVia::Auto;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    id = flow->id = next_flow_id_++;
    via = flow->via = via_;
    desktop = desktop_;
    displaced = std::move(flow_);
    flow_ = std::move(flow);
  }
  EndFlow(std::move(displaced), ErrorType::Aborted,
          "This sign-in was replaced by a newer one.");

  if (via != AuthorizeVia::Browser && desktop) {
    DesktopAuthorizeRequest request;
    request.client_id = client_id;
    request.scopes = args.Scopes();
    request.state = *state;
    if (args.CodeChallenge()) request.code_challenge = args.CodeChallenge()->Challenge();
    if (args.Nonce()) request.nonce = *args.Nonce();
    auto attempt = desktop->Start(request, [this, id](DesktopAuthorizeOutcome outcome) {
      OnDesktopOutcome(id, std::move(outcome));
    });
    if (attempt) {
      std::unique_ptr<DesktopAuthorization> ended;  // the flow ended before it could be kept
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (flow_ && flow_->id == id) flow_->desktop = std::move(attempt);
        else ended = std::move(attempt);
      }
      return;
    }
  }
  if (via == AuthorizeVia::DesktopClient) {
    Complete(id, failures::NoDesktopClient(), "");
    return;
  }
  StartBrowser(id, true);
}

void Client::OnDesktopOutcome(std::uint64_t flow_id, DesktopAuthorizeOutcome outcome) {
  AuthorizeVia via = AuthorizeVia::Auto;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != flow_id) return;
    via = flow_->via;
    if (outcome.kind == DesktopAuthorizeOutcome::Kind::Code) flow_->redirect_uri = kDesktopClientRedirectUri;
  }
  switch (outcome.kind) {
    case DesktopAuthorizeOutcome::Kind::Code:
      Complete(flow_id, ClientResult::Success(), std::move(outcome.code));
      return;
    case DesktopAuthorizeOutcome::Kind::Denied:
      Complete(flow_id, failures::DesktopClientDenied(outcome.oauth_error, outcome.message), "");
      return;
    case DesktopAuthorizeOutcome::Kind::Unavailable:
      if (via == AuthorizeVia::DesktopClient) {
        Complete(flow_id, failures::DesktopClientFailed(outcome.message), "");
      } else {
        StartBrowser(flow_id, false);
      }
      return;
  }
}

void Client::StartBrowser(std::uint64_t flow_id, bool from_host) {
  RedirectMode mode = RedirectMode::Loopback;
  AuthorizationArgs args;
  std::uint64_t client_id = 0;
  std::string state, redirect_uri;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != flow_id) return;
    mode = flow_->mode;
    args = flow_->args;
    client_id = flow_->client_id;
    state = flow_->state;
    redirect_uri = flow_->redirect_uri;
  }
  std::unique_ptr<LoopbackListener> listener;
  if (mode == RedirectMode::Loopback) {
    std::string error;
    listener = LoopbackListener::Start(
        options_.LoopbackPort,
        [this, flow_id](const HttpRequestHead& request) { return HandleLoopback(flow_id, request); },
        options_.Limits, &error);
    if (!listener) {
      Complete(flow_id, failures::ListenerFailed(error), "");
      return;
    }
    redirect_uri = "http://127.0.0.1:" + std::to_string(listener->Port()) + "/callback";
  }

  QueryParams params = {{"client_id", std::to_string(client_id)},
                        {"response_type", "code"},
                        {"redirect_uri", redirect_uri},
                        {"scope", args.Scopes()},
                        {"state", state}};
  if (args.Nonce()) params.emplace_back("nonce", *args.Nonce());
  if (args.CodeChallenge()) {
    params.emplace_back("code_challenge", args.CodeChallenge()->Challenge());
    params.emplace_back("code_challenge_method", "S256");
  }
  if (args.IntegrationType()) {
    params.emplace_back("integration_type",
                        std::to_string(static_cast<int>(*args.IntegrationType())));
  }
  const std::string url = options_.WebBase + "/oauth2/authorize?" + EncodeQuery(params);

  std::shared_ptr<UrlOpener> opener;
  bool current = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current = flow_ && flow_->id == flow_id;
    if (current) {
      flow_->listener = std::move(listener);
      flow_->redirect_uri = redirect_uri;
      opener = opener_;
    }
  }
  if (!current) {
    if (listener) listener->Stop();  // the flow ended meanwhile
    return;
  }
  if (!opener) opener = std::make_shared<SystemUrlOpener>();
  if (from_host) {
    opener->Open(url);
  } else {
    Dispatch([opener, url] { opener->Open(url); });
  }
}

void Client::AbortAuthorize(ErrorType type, std::string message) {
  std::unique_ptr<Flow> flow;
  std::vector<std::unique_ptr<LoopbackListener>> retired;
  std::vector<std::unique_ptr<DesktopAuthorization>> retired_desktop;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    flow = std::move(flow_);
    retired.swap(retired_);
    retired_desktop.swap(retired_desktop_);
  }
  retired.clear();  // joins listeners that ended on their own
  retired_desktop.clear();  // and desktop client attempts
  EndFlow(std::move(flow), type, std::move(message));
}

void Client::EndFlow(std::unique_ptr<Flow> flow, ErrorType type, std::string message) {
  if (!flow) return;
  // Called without the lock held: the listener's handler takes the same lock.
  if (flow->listener) flow->listener->Stop();
  flow->desktop.reset();  // cancels and joins a desktop client attempt
  Dispatch([cb = std::move(flow->callback), type, message = std::move(message),
            redirect = flow->redirect_uri] {
    cb(ClientResult::Failure(type, message), "", redirect);
  });
}

bool Client::Complete(std::uint64_t flow_id, ClientResult result, std::string code) {
  std::unique_ptr<Flow> flow;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != flow_id) return false;
    flow = std::move(flow_);
    // The listener thread is the caller here: it exits by itself; join it later.
    if (flow->listener) retired_.push_back(std::move(flow->listener));
    // Likewise the desktop client attempt, which may be the caller.
    if (flow->desktop) retired_desktop_.push_back(std::move(flow->desktop));
  }
  Dispatch([cb = std::move(flow->callback), result = std::move(result), code = std::move(code),
            redirect = flow->redirect_uri] { cb(result, code, redirect); });
  return true;
}

bool Client::Settle(std::uint64_t flow_id, const RedirectVerdict& verdict) {
  switch (verdict.kind) {
    case RedirectVerdict::Kind::Fail: return Complete(flow_id, verdict.result, "");
    case RedirectVerdict::Kind::Success: return Complete(flow_id, ClientResult::Success(), verdict.code);
    case RedirectVerdict::Kind::Ignore: break;
  }
  return false;
}

HttpReply Client::HandleLoopback(std::uint64_t flow_id, const HttpRequestHead& request) {
  std::string query;
  switch (RouteLoopbackRequest(request, &query)) {
    case LoopbackRoute::NotFound: return pages::NotFound();
    case LoopbackRoute::MethodNotAllowed: return pages::MethodNotAllowed();
    case LoopbackRoute::Callback: break;
  }
  std::string state;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != flow_id) return pages::SignInOver();
    state = flow_->state;
  }
  const RedirectVerdict verdict = EvaluateRedirect(query, state);
  if (verdict.kind == RedirectVerdict::Kind::Ignore) return pages::ForeignRedirect();
  // The flow may have been aborted between the state check and now: say what happened.
  if (!Settle(flow_id, verdict)) return pages::SignInOver();
  return verdict.kind == RedirectVerdict::Kind::Fail ? pages::SignInFailed(verdict.result)
                                                     : pages::SignInReceived();
}

bool Client::HandleRedirect(const std::string& url) {
  std::uint64_t id = 0;
  std::string scheme, state;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->mode != RedirectMode::CustomScheme) return false;
    id = flow_->id;
    scheme = flow_->scheme;
    state = flow_->state;
  }
  // False for a URL that is not this flow's redirect, and when the flow ended meanwhile.
  return Settle(id, EvaluateCustomSchemeRedirect(url, scheme, state));
}

PreparedGrant PrepareAuthorizationCodeGrant(const std::string& api_base, std::uint64_t application_id,
                                            const std::string& code, const std::string& code_verifier,
                                            const std::string& redirect_uri) {
  return Prepare(
      GrantKind::AuthorizationCode, api_base, application_id,
      {{"code", code, IsVisibleAscii(code) && code.size() <= kMaxCodeLength,
        "code must be the authorization code the sign-in returned."},
       {"code_verifier", code_verifier, IsCodeVerifier(code_verifier),
        "codeVerifier must be the 43 to 128 character code verifier created for this sign-in "
        "(RFC 7636 section 4.1)."},
       {"redirect_uri", redirect_uri,
        redirect_uri.size() <= kMaxUriLength && SplitUrl(redirect_uri).has_value(),
        "redirectUri must be the exact redirect URI the sign-in returned."}});
}

PreparedGrant PrepareRefreshTokenGrant(const std::string& api_base, std::uint64_t application_id,
                                       const std::string& refresh_token) {
  return Prepare(GrantKind::RefreshToken, api_base, application_id,
                 {{"refresh_token", refresh_token,
                   IsVisibleAscii(refresh_token) && refresh_token.size() <= kMaxTokenLength,
                   "refreshToken must be the refresh token of the last token response."}});
}

PreparedGrant PrepareRevokeGrant(const std::string& api_base, std::uint64_t application_id,
                                 const std::string& token) {
  return Prepare(GrantKind::Revoke, api_base, application_id,
                 {{"token", token, IsVisibleAscii(token) && token.size() <= kMaxTokenLength,
                   "token must be an access or refresh token this client received."}});
}

ClientResult TransportResult(const TransportResponse& r, GrantKind kind) {
  if (r.outcome == TransportResponse::Outcome::Ok) {
    if (kind == GrantKind::Revoke || (!r.access_token.empty() && Lower(r.token_type) == "bearer")) {
      return ClientResult::Success();
    }
    TransportResponse refused = r;
    refused.outcome = TransportResponse::Outcome::InvalidResponse;
    refused.message = "expected a Bearer access_token";
    return failures::FromTransport(refused, kind);
  }
  return failures::FromTransport(r, kind);
}

void Client::GetToken(std::uint64_t applicationId, const std::string& code,
                      const std::string& codeVerifier, const std::string& redirectUri,
                      TokenExchangeCallback callback) {
  RequestGrant(PrepareAuthorizationCodeGrant(options_.ApiBase, ApplicationIdOr(applicationId), code,
                                             codeVerifier, redirectUri),
               std::move(callback));
}

void Client::RefreshToken(std::uint64_t applicationId, const std::string& refreshToken,
                          TokenExchangeCallback callback) {
  RequestGrant(PrepareRefreshTokenGrant(options_.ApiBase, ApplicationIdOr(applicationId), refreshToken),
               std::move(callback));
}

void Client::RevokeToken(std::uint64_t applicationId, const std::string& token,
                         RevokeTokenCallback callback) {
  RequestGrant(PrepareRevokeGrant(options_.ApiBase, ApplicationIdOr(applicationId), token),
               [callback = std::move(callback)](ClientResult result, std::string, std::string,
                                                AuthorizationTokenType, std::int32_t, std::string,
                                                std::string) { callback(std::move(result)); });
}

std::uint64_t Client::ApplicationIdOr(std::uint64_t applicationId) const {
  return applicationId != 0 ? applicationId : GetApplicationId();
}

void Client::RequestGrant(PreparedGrant prepared, TokenExchangeCallback callback) {
  std::shared_ptr<TokenTransport> transport;
  std::shared_ptr<Dispatcher> dispatcher;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    transport = transport_;
    dispatcher = dispatcher_;
  }
  std::optional<ClientResult> invalid;
  if (!prepared.grant) invalid = prepared.result;
  else if (!transport) invalid = failures::NoTransport();
  if (invalid) {
    dispatcher->Post([callback, result = *invalid] { Fail(callback, result); });
    return;
  }
  const GrantKind kind = prepared.grant->kind;
  // Captures no `this`: the response may arrive after the client is gone.
  transport->Send(*prepared.grant, [dispatcher, callback = std::move(callback), kind](TransportResponse r) {
    DeliverResponse(std::move(r), kind, dispatcher, callback);
  });
}

}  // namespace sdkauth
