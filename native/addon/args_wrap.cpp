#include "args_wrap.hpp"

#include "util.hpp"

namespace sdkauth_addon {

// Marks objects that really are AuthorizationArgs, so an argument can be checked before it is
// unwrapped (see ClientWrap::Authorize).
extern const napi_type_tag kAuthorizationArgsTag;
const napi_type_tag kAuthorizationArgsTag = {0x5d1c0a7e2b9f4c31ULL, 0x8e6a4f20c7d35b19ULL};

namespace {
// Generous caps: the core's own rules are stricter and say why; these only stop a huge string
// from being copied at all.
constexpr std::size_t kMaxField = 65536;

Napi::Value OptionalToJs(Napi::Env env, const std::optional<std::string>& value) {
  return value ? Napi::Value(Napi::String::New(env, *value)) : env.Undefined();
}
}  // namespace

Napi::Object ResultToJs(Napi::Env env, const sdkauth::ClientResult& result) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("type", sdkauth::ErrorTypeName(result.Type()));
  o.Set("error", result.Error());
  o.Set("errorCode", result.ErrorCode());
  o.Set("oauthError", result.OAuthError());
  o.Set("status", result.Status());
  o.Set("responseBody", result.ResponseBody());
  o.Set("successful", result.Successful());
  o.Set("retryable", result.Retryable());
  o.Set("retryAfter", result.RetryAfter());
  o.Set("text", result.ToString());
  return o;
}

Napi::Function ArgsWrap::Init(Napi::Env env) {
  return DefineClass(
      env, "NativeAuthorizationArgs",
      {InstanceMethod<&ArgsWrap::ClientId>("clientId"),
       InstanceMethod<&ArgsWrap::SetClientId>("setClientId"),
       InstanceMethod<&ArgsWrap::Scopes>("scopes"),
       InstanceMethod<&ArgsWrap::SetScopes>("setScopes"),
       InstanceMethod<&ArgsWrap::State>("state"),
       InstanceMethod<&ArgsWrap::SetState>("setState"),
       InstanceMethod<&ArgsWrap::Nonce>("nonce"),
       InstanceMethod<&ArgsWrap::SetNonce>("setNonce"),
       InstanceMethod<&ArgsWrap::CodeChallenge>("codeChallenge"),
       InstanceMethod<&ArgsWrap::SetCodeChallenge>("setCodeChallenge"),
       InstanceMethod<&ArgsWrap::IntegrationType>("integrationType"),
       InstanceMethod<&ArgsWrap::SetIntegrationType>("setIntegrationType"),
       InstanceMethod<&ArgsWrap::CustomSchemeParam>("customSchemeParam"),
       InstanceMethod<&ArgsWrap::SetCustomSchemeParam>("setCustomSchemeParam"),
       InstanceMethod<&ArgsWrap::Validate>("validate")});
}

ArgsWrap::ArgsWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ArgsWrap>(info) {
  napi_type_tag_object(info.Env(), info.This(), &kAuthorizationArgsTag);
}

Napi::Value ArgsWrap::ClientId(const Napi::CallbackInfo& info) {
  return Napi::BigInt::New(info.Env(), static_cast<std::uint64_t>(args_.ClientId()));
}
void ArgsWrap::SetClientId(const Napi::CallbackInfo& info) {
  args_.SetClientId(RequireUint64(info[0], "AuthorizationArgs.setClientId", "clientId"));
}
Napi::Value ArgsWrap::Scopes(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), args_.Scopes());
}
void ArgsWrap::SetScopes(const Napi::CallbackInfo& info) {
  args_.SetScopes(RequireString(info, 0, "AuthorizationArgs.setScopes", "scopes", kMaxField));
}
Napi::Value ArgsWrap::State(const Napi::CallbackInfo& info) {
  return OptionalToJs(info.Env(), args_.State());
}
void ArgsWrap::SetState(const Napi::CallbackInfo& info) {
  args_.SetState(OptionalString(info[0], "AuthorizationArgs.setState", "state", kMaxField));
}
Napi::Value ArgsWrap::Nonce(const Napi::CallbackInfo& info) {
  return OptionalToJs(info.Env(), args_.Nonce());
}
void ArgsWrap::SetNonce(const Napi::CallbackInfo& info) {
  args_.SetNonce(OptionalString(info[0], "AuthorizationArgs.setNonce", "nonce", kMaxField));
}
Napi::Value ArgsWrap::CodeChallenge(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!args_.CodeChallenge()) return env.Undefined();
  Napi::Object o = Napi::Object::New(env);
  o.Set("challenge", args_.CodeChallenge()->Challenge());
  o.Set("method", "S256");
  return o;
}
void ArgsWrap::SetCodeChallenge(const Napi::CallbackInfo& info) {
  const char* where = "AuthorizationArgs.setCodeChallenge";
  Napi::Value value = info[0];
  if (value.IsUndefined() || value.IsNull()) {
    args_.SetCodeChallenge(std::nullopt);
    return;
  }
  if (!value.IsObject()) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, where, "codeChallenge",
                       "the challenge object from createAuthorizationCodeVerifier()", value);
  }
  Napi::Object o = value.As<Napi::Object>();
  std::string challenge = ValueToString(o.Get("challenge"), where, "codeChallenge.challenge", kMaxField);
  Napi::Value method_value = o.Get("method");
  std::string method = ValueToString(method_value, where, "codeChallenge.method", 64);
  if (method != "S256") {
    ThrowArgumentError(info.Env(), ArgumentProblem::Value, where, "codeChallenge.method", "'S256'",
                       method_value, "S256 is the only method the service accepts.");
  }
  args_.SetCodeChallenge(sdkauth::AuthorizationCodeChallenge(
      std::move(challenge), sdkauth::AuthenticationCodeChallengeMethod::S256));
}
Napi::Value ArgsWrap::IntegrationType(const Napi::CallbackInfo& info) {
  if (!args_.IntegrationType()) return info.Env().Undefined();
  return Napi::Number::New(info.Env(), static_cast<int>(*args_.IntegrationType()));
}
void ArgsWrap::SetIntegrationType(const Napi::CallbackInfo& info) {
  const char* where = "AuthorizationArgs.setIntegrationType";
  Napi::Value value = info[0];
  if (value.IsUndefined() || value.IsNull()) {
    args_.SetIntegrationType(std::nullopt);
    return;
  }
  if (!value.IsNumber()) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, where, "integrationType", "a number", value);
  }
  const double n = value.As<Napi::Number>().DoubleValue();
  if (n != 0 && n != 1) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Value, where, "integrationType",
                       "0 (GuildInstall) or 1 (UserInstall)", value);
  }
  args_.SetIntegrationType(static_cast<sdkauth::IntegrationType>(static_cast<int>(n)));
}
Napi::Value ArgsWrap::CustomSchemeParam(const Napi::CallbackInfo& info) {
  return OptionalToJs(info.Env(), args_.CustomSchemeParam());
}
void ArgsWrap::SetCustomSchemeParam(const Napi::CallbackInfo& info) {
  args_.SetCustomSchemeParam(OptionalString(info[0], "AuthorizationArgs.setCustomSchemeParam",
                                            "customSchemeParam", kMaxField));
}
Napi::Value ArgsWrap::Validate(const Napi::CallbackInfo& info) {
  const std::uint64_t fallback =
      info[0].IsUndefined() ? 0 : RequireUint64(info[0], "AuthorizationArgs.validate", "fallbackClientId");
  return ResultToJs(info.Env(), args_.Validate(fallback));
}

}  // namespace sdkauth_addon
