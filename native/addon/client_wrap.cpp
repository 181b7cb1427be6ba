#include "client_wrap.hpp"

#include "addon.hpp"
#include "args_wrap.hpp"
#include "util.hpp"

namespace sdkauth_addon {

extern const napi_type_tag kAuthorizationArgsTag;  // defined in args_wrap.cpp

namespace {

constexpr std::size_t kMaxUrl = 8192;
constexpr std::size_t kMaxToken = 65536;

std::string RequireBase(const Napi::Object& options, const char* name, const std::string& fallback) {
  Napi::Value value = options.Get(name);
  if (value.IsUndefined()) return fallback;
  std::string base = ValueToString(value, "new Client", name, kMaxUrl);
  const auto parts = sdkauth::SplitUrl(base);
  if (!parts || (parts->scheme != "http" && parts->scheme != "https") || !parts->has_authority ||
      parts->authority.empty() || parts->has_query || parts->has_fragment) {
    ThrowArgumentError(options.Env(), ArgumentProblem::Value, "new Client", name,
                       "an absolute http or https URL with no query or fragment", value);
  }
  return base;
}

}  // namespace

Napi::Function ClientWrap::Init(Napi::Env env) {
  return DefineClass(
      env, "NativeClient",
      {InstanceMethod<&ClientWrap::SetApplicationId>("setApplicationId"),
       InstanceMethod<&ClientWrap::GetApplicationId>("getApplicationId"),
       InstanceMethod<&ClientWrap::CreateAuthorizationCodeVerifier>("createAuthorizationCodeVerifier"),
       InstanceMethod<&ClientWrap::Authorize>("authorize"),
       InstanceMethod<&ClientWrap::AbortAuthorize>("abortAuthorize"),
       InstanceMethod<&ClientWrap::IsAuthorizing>("isAuthorizing"),
       InstanceMethod<&ClientWrap::HandleRedirect>("handleRedirect"),
       InstanceMethod<&ClientWrap::GetToken>("getToken"),
       InstanceMethod<&ClientWrap::RefreshToken>("refreshToken"),
       InstanceMethod<&ClientWrap::RevokeToken>("revokeToken"),
       InstanceMethod<&ClientWrap::CloseMethod>("close"),
       InstanceMethod<&ClientWrap::IsClosed>("isClosed"),
       // Desktop client IPC.
       InstanceMethod<&ClientWrap::SetAuthorizeVia>("setAuthorizeVia")});
}

ClientWrap::ClientWrap(const Napi::CallbackInfo& info)
    : Napi::ObjectWrap<ClientWrap>(info), pending_(std::make_shared<Pending>()) {
  Napi::Env env = info.Env();
  if (!info.IsConstructCall()) {
    throw Napi::TypeError::New(env, "NativeClient must be called with new.");
  }
  Napi::Object options = RequireObject(info, 0, "new Client", "options");
  sdkauth::ClientCreateOptions create;
  create.WebBase = RequireBase(options, "webBase", create.WebBase);
  create.ApiBase = RequireBase(options, "apiBase", create.ApiBase);
  Napi::Value redirect = options.Get("redirect");
  if (!redirect.IsUndefined()) {
    const std::string mode = ValueToString(redirect, "new Client", "redirect", 64);
    if (mode == "loopback") create.Redirect = sdkauth::RedirectMode::Loopback;
    else if (mode == "customScheme") create.Redirect = sdkauth::RedirectMode::CustomScheme;
    else {
      ThrowArgumentError(env, ArgumentProblem::Value, "new Client", "redirect",
                         "'loopback' or 'customScheme'", redirect);
    }
  }
  Napi::Value port = options.Get("loopbackPort");
  if (!port.IsUndefined()) {
    if (!port.IsNumber()) {
      ThrowArgumentError(env, ArgumentProblem::Type, "new Client", "loopbackPort", "a number", port);
    }
    const double p = port.As<Napi::Number>().DoubleValue();
    if (!(p >= 0 && p <= 65535) || p != static_cast<double>(static_cast<int>(p))) {
      ThrowArgumentError(env, ArgumentProblem::Value, "new Client", "loopbackPort",
                         "an integer from 0 to 65535", port);
    }
    create.LoopbackPort = static_cast<std::uint16_t>(p);
  }
  Napi::Value timeout = options.Get("connectionTimeoutMs");
  if (!timeout.IsUndefined()) {
    if (!timeout.IsNumber()) {
      ThrowArgumentError(env, ArgumentProblem::Type, "new Client", "connectionTimeoutMs", "a number",
                         timeout);
    }
    const double t = timeout.As<Napi::Number>().DoubleValue();
    if (!(t >= 100 && t <= 600000) || t != static_cast<double>(static_cast<int>(t))) {
      ThrowArgumentError(env, ArgumentProblem::Value, "new Client", "connectionTimeoutMs",
                         "an integer from 100 to 600000", timeout);
    }
    create.Limits.connection_timeout_ms = static_cast<int>(t);
  }
  ReadDesktopClientOptions(options, &create.DesktopClient);
  Napi::Value opener = options.Get("openUrl");
  if (!opener.IsFunction()) {
    ThrowArgumentError(env, ArgumentProblem::Type, "new Client", "openUrl", "a function", opener);
  }

  client_ = std::make_unique<sdkauth::Client>(create);
  dispatcher_ = std::make_shared<TsfnDispatcher>(env);
  opener_ = std::make_shared<JsUrlOpener>(env, opener.As<Napi::Function>());
  client_->SetDispatcher(dispatcher_);
  client_->SetUrlOpener(opener_);
  addon_ = env.GetInstanceData<Addon>();
  if (addon_) addon_->live_clients.insert(this);
}

ClientWrap::~ClientWrap() {
  Close();
  if (addon_) addon_->live_clients.erase(this);
}

void ClientWrap::Close() {
  if (closed_) return;
  closed_ = true;
  // Ends a pending flow; its ClientDestroyed completion still reaches JS if the loop runs.
  client_.reset();
  if (dispatcher_) dispatcher_->Close();
  if (opener_) opener_->Reset();
}

void ClientWrap::EnsureOpen(Napi::Env env, const char* where) {
  if (closed_) {
    ThrowCodedError(env, "ERR_CLIENT_DESTROYED",
                    std::string(where) + ": the client is closed; create a new Client to sign in again.");
  }
}

std::uint64_t ClientWrap::Track(Napi::Env env, Napi::Function callback) {
  const std::uint64_t id = next_id_++;
  pending_->callbacks.emplace(id, Napi::Persistent(callback));
  if (pending_->callbacks.size() == 1) {
    dispatcher_->Hold(env);
    Ref();  // the wrapper must outlive the operation even if JS drops the client
  }
  return id;
}

Napi::FunctionReference ClientWrap::Take(Napi::Env env, std::uint64_t id) {
  auto it = pending_->callbacks.find(id);
  if (it == pending_->callbacks.end()) return Napi::FunctionReference();
  Napi::FunctionReference ref = std::move(it->second);
  pending_->callbacks.erase(it);
  if (pending_->callbacks.empty()) {
    if (dispatcher_) dispatcher_->Release(env);
    Unref();
  }
  return ref;
}

bool ClientWrap::Deliver(Napi::Env env, std::uint64_t id, const sdkauth::ClientResult& result,
                         const ExtraValues& extra) {
  Napi::FunctionReference fn = Take(env, id);
  if (fn.IsEmpty()) return true;  // already settled (close() ran first)
  std::vector<napi_value> values{ResultToJs(env, result)};
  if (extra) extra(env, values);
  return CallJs(env, fn, values, false);
}

void ClientWrap::Completion::operator()(const sdkauth::ClientResult& result,
                                        const ExtraValues& extra) const {
  if (alive.expired()) return;  // the wrapper was finalized: no callback is left to call
  Napi::Env env = wrap->Env();
  Napi::HandleScope scope(env);
  wrap->Deliver(env, id, result, extra);
}

Napi::Value ClientWrap::SetApplicationId(const Napi::CallbackInfo& info) {
  EnsureOpen(info.Env(), "client.setApplicationId");
  client_->SetApplicationId(RequireUint64(info[0], "client.setApplicationId", "applicationId"));
  return info.Env().Undefined();
}

Napi::Value ClientWrap::GetApplicationId(const Napi::CallbackInfo& info) {
  EnsureOpen(info.Env(), "client.getApplicationId");
  return Napi::BigInt::New(info.Env(), static_cast<std::uint64_t>(client_->GetApplicationId()));
}

Napi::Value ClientWrap::CreateAuthorizationCodeVerifier(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EnsureOpen(env, "client.createAuthorizationCodeVerifier");
  sdkauth::AuthorizationCodeVerifier v = client_->CreateAuthorizationCodeVerifier();
  if (v.Verifier().empty()) {
    ThrowCodedError(env, "ERR_RANDOM_UNAVAILABLE",
                    "client.createAuthorizationCodeVerifier: the operating system refused to "
                    "provide random bytes; try again, and check the system's entropy source.");
  }
  Napi::Object challenge = Napi::Object::New(env);
  challenge.Set("challenge", v.Challenge().Challenge());
  challenge.Set("method", "S256");
  Napi::Object out = Napi::Object::New(env);
  out.Set("verifier", v.Verifier());
  out.Set("challenge", challenge);
  return out;
}

Napi::Value ClientWrap::Authorize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "client.authorize";
  EnsureOpen(env, where);
  // The type tag, not instanceof: a prototype can be faked (a NativeClient given the args
  // prototype would be unwrapped as the wrong class), and a proxy wraps nothing.
  bool tagged = false;
  void* wrapped = nullptr;
  if (!info[0].IsObject() ||
      napi_check_object_type_tag(env, info[0], &kAuthorizationArgsTag, &tagged) != napi_ok ||
      !tagged || napi_unwrap(env, info[0], &wrapped) != napi_ok || wrapped == nullptr) {
    ThrowArgumentError(env, ArgumentProblem::Type, where, "args", "an AuthorizationArgs instance",
                       info[0]);
  }
  const sdkauth::AuthorizationArgs args = static_cast<ArgsWrap*>(wrapped)->Args();
  Napi::Function callback = RequireFunction(info, 1, where, "callback");
  client_->Authorize(args, [done = CompletionFor(Track(env, callback))](
                               sdkauth::ClientResult result, std::string code, std::string redirect) {
    done(result, [&](Napi::Env env, std::vector<napi_value>& values) {
      values.push_back(Napi::String::New(env, code));
      values.push_back(Napi::String::New(env, redirect));
    });
  });
  return env.Undefined();
}

Napi::Value ClientWrap::AbortAuthorize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsUndefined() && !info[0].IsString()) {
    ThrowArgumentError(env, ArgumentProblem::Type, "client.abortAuthorize", "reason", "a string or undefined",
                       info[0]);
  }
  if (closed_) return env.Undefined();
  if (info[0].IsString()) {
    const std::string reason = ValueToString(info[0], "client.abortAuthorize", "reason", 1024);
    client_->AbortAuthorize(sdkauth::ErrorType::Aborted, reason);
  } else {
    client_->AbortAuthorize();
  }
  return env.Undefined();
}

Napi::Value ClientWrap::IsAuthorizing(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !closed_ && client_->IsAuthorizing());
}

Napi::Value ClientWrap::HandleRedirect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EnsureOpen(env, "client.handleRedirect");
  if (!info[0].IsString()) {
    ThrowArgumentError(env, ArgumentProblem::Type, "client.handleRedirect", "url", "a string", info[0]);
  }
  std::size_t length = 0;
  napi_get_value_string_utf8(env, info[0], nullptr, 0, &length);
  if (length > kMaxUrl) return Napi::Boolean::New(env, false);  // refused, no side effect
  const std::string url = info[0].As<Napi::String>().Utf8Value();
  return Napi::Boolean::New(env, client_->HandleRedirect(url));
}

namespace {

const char* GrantKindName(sdkauth::GrantKind kind) {
  switch (kind) {
    case sdkauth::GrantKind::AuthorizationCode: return "authorization_code";
    case sdkauth::GrantKind::RefreshToken: return "refresh_token";
    case sdkauth::GrantKind::Revoke: return "revoke";
  }
  return "unknown";
}

// The grant to send, or the ValidationError that stops it: TypeScript sends the grant itself.
Napi::Value PreparedToJs(Napi::Env env, const sdkauth::PreparedGrant& prepared) {
  if (!prepared.grant) return ResultToJs(env, prepared.result);
  const sdkauth::TokenGrant& grant = *prepared.grant;
  Napi::Object out = Napi::Object::New(env);
  out.Set("kind", GrantKindName(grant.kind));
  out.Set("endpoint", grant.endpoint);
  out.Set("clientId", grant.client_id);
  out.Set("grantType", grant.grant_type);
  Napi::Object params = Napi::Object::New(env);
  for (const auto& [name, value] : grant.parameters) params.Set(name, value);
  out.Set("parameters", params);
  return out;
}

}  // namespace

std::uint64_t ClientWrap::ApplicationIdOr(std::uint64_t app) const {
  return app != 0 ? app : client_->GetApplicationId();
}

Napi::Value ClientWrap::GetToken(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "client.getToken";
  EnsureOpen(env, where);
  const std::uint64_t app = RequireUint64(info[0], where, "applicationId");
  const std::string code = RequireString(info, 1, where, "code", kMaxToken);
  const std::string verifier = RequireString(info, 2, where, "codeVerifier", kMaxToken);
  const std::string redirect = RequireString(info, 3, where, "redirectUri", kMaxUrl);
  return PreparedToJs(env, sdkauth::PrepareAuthorizationCodeGrant(client_->Options().ApiBase,
                                                                  ApplicationIdOr(app), code,
                                                                  verifier, redirect));
}

Napi::Value ClientWrap::RefreshToken(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "client.refreshToken";
  EnsureOpen(env, where);
  const std::uint64_t app = RequireUint64(info[0], where, "applicationId");
  const std::string token = RequireString(info, 1, where, "refreshToken", kMaxToken);
  return PreparedToJs(env, sdkauth::PrepareRefreshTokenGrant(client_->Options().ApiBase,
                                                             ApplicationIdOr(app), token));
}

Napi::Value ClientWrap::RevokeToken(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "client.revokeToken";
  EnsureOpen(env, where);
  const std::uint64_t app = RequireUint64(info[0], where, "applicationId");
  const std::string token = RequireString(info, 1, where, "token", kMaxToken);
  return PreparedToJs(env, sdkauth::PrepareRevokeGrant(client_->Options().ApiBase,
                                                       ApplicationIdOr(app), token));
}

Napi::Value ClientWrap::CloseMethod(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Close();
  // Token requests in flight can no longer complete: settle every waiting callback now.
  const auto destroyed = sdkauth::ClientResult::Failure(
      sdkauth::ErrorType::ClientDestroyed, "The client was closed before the operation ended.");
  // Every callback runs even if one throws; the first exception is rethrown afterwards.
  napi_value first_error = nullptr;
  while (!pending_->callbacks.empty()) {
    if (!Deliver(env, pending_->callbacks.begin()->first, destroyed, nullptr)) {
      napi_value error = nullptr;
      if (napi_get_and_clear_last_exception(env, &error) == napi_ok && first_error == nullptr) first_error = error;
    }
  }
  if (first_error != nullptr) napi_throw(env, first_error);
  return env.Undefined();
}

Napi::Value ClientWrap::IsClosed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), closed_);
}

// ---- Desktop client IPC ----

namespace {

int RequireMs(const Napi::Object& options, const char* name, int fallback) {
  Napi::Value value = options.Get(name);
  if (value.IsUndefined()) return fallback;
  if (!value.IsNumber()) {
    ThrowArgumentError(options.Env(), ArgumentProblem::Type, "new Client", name, "a number", value);
  }
  const double ms = value.As<Napi::Number>().DoubleValue();
  if (!(ms >= 1 && ms <= 2147483647) || ms != static_cast<double>(static_cast<int>(ms))) {
    ThrowArgumentError(options.Env(), ArgumentProblem::Value, "new Client", name,
                       "a whole number of milliseconds from 1 to 2147483647", value);
  }
  return static_cast<int>(ms);
}

}  // namespace

void ClientWrap::ReadDesktopClientOptions(const Napi::Object& options, sdkauth::DesktopClientOptions* out) {
  Napi::Value dir = options.Get("desktopClientSocketDir");
  if (!dir.IsUndefined()) out->SocketDir = ValueToString(dir, "new Client", "desktopClientSocketDir", 4096);
  out->ConnectTimeoutMs = RequireMs(options, "desktopClientConnectTimeoutMs", out->ConnectTimeoutMs);
  out->ApproveTimeoutMs = RequireMs(options, "desktopClientApproveTimeoutMs", out->ApproveTimeoutMs);
}

Napi::Value ClientWrap::SetAuthorizeVia(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "client.setAuthorizeVia";
  EnsureOpen(env, where);
  const std::string via = RequireString(info, 0, where, "authorizeVia", 64);
  if (via == "auto") client_->SetAuthorizeVia(sdkauth::AuthorizeVia::Auto);
  else if (via == "desktopClient") client_->SetAuthorizeVia(sdkauth::AuthorizeVia::DesktopClient);
  else if (via == "browser") client_->SetAuthorizeVia(sdkauth::AuthorizeVia::Browser);
  else {
    ThrowArgumentError(env, ArgumentProblem::Value, where, "authorizeVia",
                       "'auto', 'desktopClient' or 'browser'", info[0]);
  }
  return env.Undefined();
}

}  // namespace sdkauth_addon
