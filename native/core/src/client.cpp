#include "sdkauth/client.hpp"

#include <array>
#include <limits>

#include "sdkauth/base64url.hpp"
#include "sdkauth/random.hpp"
#include "sdkauth/url.hpp"

namespace sdkauth {
namespace {

constexpr std::size_t kMaxCodeLength = 2048;
constexpr std::size_t kMaxTokenLength = 8192;
constexpr std::size_t kMaxUriLength = 2048;

const char kPageStyle[] =
    "<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;"
    "padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>";

std::string Page(const std::string& title, const std::string& text) {
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title +
         "</title>" + kPageStyle + "</head><body><h1>" + title + "</h1><p>" + text +
         "</p></body></html>\n";
}

HttpReply SignInOver() {
  HttpReply reply;
  reply.status = 404;
  reply.body = Page("Sign-in is over", "No sign-in is waiting for this page. Start it again from the game.");
  return reply;
}

HttpReply PageReply(int status, const std::string& title, const std::string& text, bool finish) {
  HttpReply reply;
  reply.status = status;
  reply.body = Page(title, text);
  reply.finish = finish;
  return reply;
}

// Keeps only printable ASCII other than markup characters, and at most `max` of them, so a
// value from the network is safe in a message and in an HTML page.
std::string Sanitize(const std::string& text, std::size_t max) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E || c == '<' || c == '>' || c == '&' || c == '"') continue;
    if (out.size() >= max) {
      out += "...";
      break;
    }
    out += c;
  }
  return out;
}

std::string TrimSlash(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

std::string Lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return text;
}

std::optional<std::string> RandomToken() {
  std::array<std::uint8_t, 32> bytes{};
  if (!SecureRandomBytes(bytes.data(), bytes.size())) return std::nullopt;
  return Base64UrlEncode(bytes.data(), bytes.size());
}

ClientResult Invalid(std::string message) {
  return ClientResult::Failure(ErrorType::ValidationError, std::move(message));
}

ClientResult MapFailure(const TransportResponse& r, GrantKind kind) {
  const char* what = kind == GrantKind::Revoke ? "revocation endpoint" : "token endpoint";
  ClientResult result;
  switch (r.outcome) {
    case TransportResponse::Outcome::NetworkError:
      result = ClientResult::Failure(
          ErrorType::NetworkError,
          std::string("Could not reach the ") + what + ": " + Sanitize(r.message, 300) +
              ". Check the network connection and the client's apiBase, then try again.");
      result.SetRetryable(true);
      return result;
    case TransportResponse::Outcome::InvalidResponse:
      result = ClientResult::Failure(
          ErrorType::HTTPError, std::string("The ") + what +
                                    " sent a response this client cannot use: " +
                                    Sanitize(r.message, 300) + ".");
      break;
    default: {
      std::string message = std::string("The ") + what + " answered HTTP " +
                            std::to_string(r.status);
      if (!r.oauth_error.empty()) message += " " + Sanitize(r.oauth_error, 64);
      if (!r.error_description.empty()) message += ": " + Sanitize(r.error_description, 300);
      if (message.back() != '.') message += ".";
      if (r.oauth_error == "invalid_grant") {
        message += kind == GrantKind::RefreshToken
                       ? " The refresh token is no longer valid: sign the player in again."
                       : " The authorization code is invalid, expired, already used, or was "
                         "issued for another redirect URI or code verifier: sign in again.";
      } else if (r.status == 429) {
        message += " Too many requests: wait before retrying.";
      } else if (r.status >= 500) {
        message += " The service had a problem: try again later.";
      }
      result = ClientResult::Failure(ErrorType::HTTPError, std::move(message));
      result.SetRetryable(r.status == 429 || r.status >= 500);
      break;
    }
  }
  result.SetStatus(r.status);
  result.SetOAuthError(Sanitize(r.oauth_error, 64));
  result.SetErrorCode(r.error_code);
  result.SetResponseBody(r.body);
  if (r.retry_after >= 0) result.SetRetryAfter(static_cast<float>(r.retry_after));
  return result;
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
};

RedirectVerdict EvaluateRedirect(const std::string& query, const std::string& expected_state) {
  RedirectVerdict verdict;
  const auto params = ParseQuery(query);
  if (!params) {
    verdict.reason = "the redirect's query is malformed";
    return verdict;
  }
  bool duplicate = false;
  const auto state = FindParam(*params, "state", &duplicate);
  if (!state || duplicate) {
    verdict.reason = "the redirect carries no single state parameter";
    return verdict;
  }
  if (!ConstantTimeEquals(expected_state, *state)) {
    verdict.reason = "the redirect's state does not match the sign-in in progress";
    return verdict;
  }
  const auto error = FindParam(*params, "error");
  if (error) {
    const std::string code = Sanitize(*error, 64);
    const auto description = FindParam(*params, "error_description");
    std::string message =
        code == "access_denied"
            ? "The player declined the authorization (access_denied)."
            : "The service refused the authorization (" + code + ")";
    if (description && !description->empty() && code != "access_denied") {
      message += ": " + Sanitize(*description, 300);
    }
    if (code != "access_denied" && message.back() != '.') message += ".";
    verdict.kind = RedirectVerdict::Kind::Fail;
    verdict.result = ClientResult::Failure(ErrorType::AuthorizationFailed, std::move(message));
    verdict.result.SetOAuthError(code);
    return verdict;
  }
  const auto code = FindParam(*params, "code", &duplicate);
  if (!code || duplicate || !IsVisibleAscii(*code) || code->size() > kMaxCodeLength) {
    verdict.kind = RedirectVerdict::Kind::Fail;
    verdict.result = ClientResult::Failure(
        ErrorType::AuthorizationFailed,
        "The redirect carried the right state but no usable authorization code.");
    return verdict;
  }
  verdict.kind = RedirectVerdict::Kind::Success;
  verdict.code = *code;
  return verdict;
}

void SystemUrlOpener::Open(const std::string& url) { OpenWithSystemHandler(url); }

Client::Client(ClientCreateOptions options)
    : options_(std::move(options)), queue_(std::make_shared<QueueDispatcher>()) {
  options_.WebBase = TrimSlash(options_.WebBase);
  options_.ApiBase = TrimSlash(options_.ApiBase);
  dispatcher_ = queue_;
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
  AbortAuthorize(ErrorType::Aborted, "Authorization was replaced by a newer Authorize call.");
  const std::uint64_t fallback = GetApplicationId();
  ClientResult valid = args.Validate(fallback);
  if (!valid.Successful()) {
    Dispatch([callback, valid] { callback(valid, "", ""); });
    return;
  }
  const std::uint64_t client_id = args.ClientId() != 0 ? args.ClientId() : fallback;
  auto state = args.State() ? std::optional<std::string>(*args.State()) : RandomToken();
  if (!state) {
    Dispatch([callback] {
      callback(ClientResult::Failure(ErrorType::AuthorizationFailed,
                                     "The operating system refused to provide random bytes "
                                     "for the state parameter."),
               "", "");
    });
    return;
  }

  auto flow = std::make_unique<Flow>();
  flow->state = *state;
  flow->callback = std::move(callback);
  flow->mode = args.CustomSchemeParam() ? RedirectMode::CustomScheme : options_.Redirect;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    flow->id = next_flow_id_++;
  }
  const std::uint64_t id = flow->id;
  if (flow->mode == RedirectMode::Loopback) {
    std::string error;
    flow->listener = LoopbackListener::Start(
        options_.LoopbackPort,
        [this, id](const HttpRequestHead& request) { return HandleLoopback(id, request); },
        options_.Limits, &error);
    if (!flow->listener) {
      Dispatch([cb = flow->callback, error] {
        auto result = ClientResult::Failure(
            ErrorType::NetworkError,
            "Could not open the loopback redirect listener (" + error +
                "). Allow the game to listen on 127.0.0.1, or use a custom URI scheme.");
        cb(result, "", "");
      });
      return;
    }
    flow->redirect_uri =
        "http://127.0.0.1:" + std::to_string(flow->listener->Port()) + "/callback";
  } else {
    flow->scheme = Lower(args.CustomSchemeParam() ? *args.CustomSchemeParam()
                                                  : "discord-" + std::to_string(client_id));
    flow->redirect_uri = flow->scheme + ":/authorize/callback";
  }

  QueryParams params = {{"client_id", std::to_string(client_id)},
                        {"response_type", "code"},
                        {"redirect_uri", flow->redirect_uri},
                        {"scope", args.Scopes()},
                        {"state", flow->state}};
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
  std::unique_ptr<Flow> displaced;  // another thread's Authorize may have got in meanwhile
  {
    std::lock_guard<std::mutex> lock(mutex_);
    displaced = std::move(flow_);
    flow_ = std::move(flow);
    opener = opener_;
  }
  EndFlow(std::move(displaced), ErrorType::Aborted,
          "Authorization was replaced by a newer Authorize call.");
  if (!opener) opener = std::make_shared<SystemUrlOpener>();
  opener->Open(url);
}

void Client::AbortAuthorize(ErrorType type, std::string message) {
  std::unique_ptr<Flow> flow;
  std::vector<std::unique_ptr<LoopbackListener>> retired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    flow = std::move(flow_);
    retired.swap(retired_);
  }
  retired.clear();  // joins listeners that ended on their own
  EndFlow(std::move(flow), type, std::move(message));
}

void Client::EndFlow(std::unique_ptr<Flow> flow, ErrorType type, std::string message) {
  if (!flow) return;
  // Called without the lock held: the listener's handler takes the same lock.
  if (flow->listener) flow->listener->Stop();
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
  }
  Dispatch([cb = std::move(flow->callback), result = std::move(result), code = std::move(code),
            redirect = flow->redirect_uri] { cb(result, code, redirect); });
  return true;
}

HttpReply Client::HandleLoopback(std::uint64_t flow_id, const HttpRequestHead& request) {
  const std::size_t question = request.target.find('?');
  const std::string path = request.target.substr(0, question);
  const std::string query =
      question == std::string::npos ? std::string() : request.target.substr(question + 1);
  if (path != "/callback") return PageReply(404, "Not found", "Nothing here.", false);
  if (request.method != "GET") {
    return PageReply(405, "Not allowed", "The sign-in callback accepts GET only.", false);
  }
  std::string state;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != flow_id) {
      return SignInOver();
    }
    state = flow_->state;
  }
  RedirectVerdict verdict = EvaluateRedirect(query, state);
  switch (verdict.kind) {
    case RedirectVerdict::Kind::Ignore:
      return PageReply(400, "This link does not belong to this sign-in",
                       "Start the sign-in again from the game.", false);
    case RedirectVerdict::Kind::Fail: {
      const std::string text = verdict.result.Error() + " You can close this tab and return to the game.";
      if (!Complete(flow_id, verdict.result, "")) return SignInOver();
      return PageReply(200, "Sign-in did not complete", Sanitize(text, 600), true);
    }
    case RedirectVerdict::Kind::Success:
      // The flow may have been aborted between the state check and now: say what happened.
      if (!Complete(flow_id, ClientResult::Success(), verdict.code)) return SignInOver();
      return PageReply(200, "Signed in", "You can close this tab and return to the game.", true);
  }
  return PageReply(500, "Error", "Unexpected state.", false);
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
  if (url.size() > kMaxUriLength * 4) return false;
  const auto parts = SplitUrl(url);
  if (!parts || parts->scheme != scheme) return false;
  if (parts->has_authority && !parts->authority.empty()) return false;
  if (parts->path != "/authorize/callback") return false;
  RedirectVerdict verdict = EvaluateRedirect(parts->query, state);
  if (verdict.kind == RedirectVerdict::Kind::Ignore) return false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!flow_ || flow_->id != id) return false;
  }
  // False when the flow was aborted between the checks above and now.
  if (verdict.kind == RedirectVerdict::Kind::Fail) return Complete(id, verdict.result, "");
  return Complete(id, ClientResult::Success(), verdict.code);
}

void Client::GetToken(std::uint64_t applicationId, const std::string& code,
                      const std::string& codeVerifier, const std::string& redirectUri,
                      TokenExchangeCallback callback) {
  const std::uint64_t app = applicationId != 0 ? applicationId : GetApplicationId();
  ClientResult invalid;
  if (app == 0) {
    invalid = Invalid("applicationId is not set: pass it, or call SetApplicationId first.");
  } else if (!IsVisibleAscii(code) || code.size() > kMaxCodeLength) {
    invalid = Invalid("code must be the authorization code that Authorize returned.");
  } else if (!IsCodeVerifier(codeVerifier)) {
    invalid = Invalid(
        "codeVerifier must be the 43 to 128 character verifier from "
        "CreateAuthorizationCodeVerifier (RFC 7636 section 4.1).");
  } else if (redirectUri.size() > kMaxUriLength || !SplitUrl(redirectUri)) {
    invalid = Invalid("redirectUri must be the exact redirect URI that Authorize returned.");
  }
  if (!invalid.Successful()) {
    Dispatch([callback, invalid] {
      callback(invalid, "", "", AuthorizationTokenType::Bearer, 0, "", "");
    });
    return;
  }
  TokenGrant grant;
  grant.kind = GrantKind::AuthorizationCode;
  grant.endpoint = options_.ApiBase + "/oauth2/token";
  grant.client_id = std::to_string(app);
  grant.grant_type = "authorization_code";
  grant.parameters = {{"code", code}, {"code_verifier", codeVerifier}, {"redirect_uri", redirectUri}};
  SendGrant(std::move(grant), std::move(callback));
}

void Client::RefreshToken(std::uint64_t applicationId, const std::string& refreshToken,
                          TokenExchangeCallback callback) {
  const std::uint64_t app = applicationId != 0 ? applicationId : GetApplicationId();
  ClientResult invalid;
  if (app == 0) {
    invalid = Invalid("applicationId is not set: pass it, or call SetApplicationId first.");
  } else if (!IsVisibleAscii(refreshToken) || refreshToken.size() > kMaxTokenLength) {
    invalid = Invalid("refreshToken must be the refresh token of the last token response.");
  }
  if (!invalid.Successful()) {
    Dispatch([callback, invalid] {
      callback(invalid, "", "", AuthorizationTokenType::Bearer, 0, "", "");
    });
    return;
  }
  TokenGrant grant;
  grant.kind = GrantKind::RefreshToken;
  grant.endpoint = options_.ApiBase + "/oauth2/token";
  grant.client_id = std::to_string(app);
  grant.grant_type = "refresh_token";
  grant.parameters = {{"refresh_token", refreshToken}};
  SendGrant(std::move(grant), std::move(callback));
}

void Client::RevokeToken(std::uint64_t applicationId, const std::string& token,
                         RevokeTokenCallback callback) {
  const std::uint64_t app = applicationId != 0 ? applicationId : GetApplicationId();
  ClientResult invalid;
  if (app == 0) {
    invalid = Invalid("applicationId is not set: pass it, or call SetApplicationId first.");
  } else if (!IsVisibleAscii(token) || token.size() > kMaxTokenLength) {
    invalid = Invalid("token must be an access or refresh token this client received.");
  }
  if (!invalid.Successful()) {
    Dispatch([callback, invalid] { callback(invalid); });
    return;
  }
  TokenGrant grant;
  grant.kind = GrantKind::Revoke;
  grant.endpoint = options_.ApiBase + "/oauth2/token/revoke";
  grant.client_id = std::to_string(app);
  grant.parameters = {{"token", token}};
  SendGrant(std::move(grant), [callback](ClientResult result, std::string, std::string,
                                         AuthorizationTokenType, std::int32_t, std::string,
                                         std::string) { callback(std::move(result)); });
}

void Client::SendGrant(TokenGrant grant, TokenExchangeCallback callback) {
  std::shared_ptr<TokenTransport> transport;
  std::shared_ptr<Dispatcher> dispatcher;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    transport = transport_;
    dispatcher = dispatcher_;
  }
  if (!transport) {
    dispatcher->Post([callback] {
      callback(ClientResult::Failure(ErrorType::ClientNotReady,
                                     "No TokenTransport is set on the client: call "
                                     "SetTokenTransport before requesting tokens."),
               "", "", AuthorizationTokenType::Bearer, 0, "", "");
    });
    return;
  }
  const GrantKind kind = grant.kind;
  // Captures no `this`: the response may arrive after the client is gone.
  transport->Send(grant, [dispatcher, callback, kind](TransportResponse r) {
    ClientResult result;
    if (r.outcome == TransportResponse::Outcome::Ok && kind != GrantKind::Revoke) {
      if (r.access_token.empty() || Lower(r.token_type) != "bearer") {
        r.outcome = TransportResponse::Outcome::InvalidResponse;
        r.message = "expected a Bearer access_token";
      }
    }
    if (r.outcome != TransportResponse::Outcome::Ok) {
      result = MapFailure(r, kind);
      dispatcher->Post([callback, result] {
        callback(result, "", "", AuthorizationTokenType::Bearer, 0, "", "");
      });
      return;
    }
    const auto max = static_cast<std::int64_t>(std::numeric_limits<std::int32_t>::max());
    const auto expires = static_cast<std::int32_t>(r.expires_in < 0 ? 0 : std::min(r.expires_in, max));
    dispatcher->Post([callback, r = std::move(r), expires] {
      callback(ClientResult::Success(), r.access_token, r.refresh_token,
               AuthorizationTokenType::Bearer, expires, r.scope, r.id_token);
    });
  });
}

}  // namespace sdkauth
