#include "addon.hpp"

#include "args_wrap.hpp"
#include "client_wrap.hpp"
#include "sdkauth/base64url.hpp"
#include "sdkauth/client.hpp"
#include "sdkauth/sha256.hpp"
#include "sdkauth/token_exchange.hpp"
#include "transport.hpp"
#include "util.hpp"

namespace sdkauth_addon {

Addon::Addon(Napi::Env env, Napi::Object exports) {
  Napi::Function client = ClientWrap::Init(env);
  Napi::Function args = ArgsWrap::Init(env);
  DefineAddon(exports,
              {InstanceValue("NativeClient", client, napi_enumerable),
               InstanceValue("NativeAuthorizationArgs", args, napi_enumerable),
               InstanceMethod<&Addon::GetDefaultCommunicationScopes>("getDefaultCommunicationScopes",
                                                                     napi_enumerable),
               InstanceMethod<&Addon::GetDefaultPresenceScopes>("getDefaultPresenceScopes",
                                                                napi_enumerable),
               InstanceMethod<&Addon::Sha256>("sha256", napi_enumerable),
               InstanceMethod<&Addon::Base64UrlEncode>("base64UrlEncode", napi_enumerable),
               InstanceMethod<&Addon::LiveClientCount>("liveClientCount", napi_enumerable),
               InstanceMethod<&Addon::TransportResult>("transportResult", napi_enumerable)});
  // Runs when this environment ends (process exit, Worker terminate, Electron reload), before
  // finalizers: stop listener threads and release thread-safe functions while it is safe.
  env_ = env;
  napi_add_env_cleanup_hook(env, &Addon::OnCleanup, this);
}

Addon::~Addon() {
  napi_remove_env_cleanup_hook(env_, &Addon::OnCleanup, this);
  CloseAll();
}

void Addon::OnCleanup(void* self) { static_cast<Addon*>(self)->CloseAll(); }

void Addon::CloseAll() {
  auto clients = live_clients;
  for (ClientWrap* client : clients) {
    client->Close();
    client->DetachAddon();
  }
  live_clients.clear();
}

Napi::Value Addon::GetDefaultCommunicationScopes(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), sdkauth::Client::GetDefaultCommunicationScopes());
}

Napi::Value Addon::GetDefaultPresenceScopes(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), sdkauth::Client::GetDefaultPresenceScopes());
}

Napi::Value Addon::Sha256(const Napi::CallbackInfo& info) {
  if (!info[0].IsTypedArray() ||
      info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, "sha256", "data", "a Uint8Array", info[0]);
  }
  auto data = info[0].As<Napi::Uint8Array>();
  const auto digest = sdkauth::Sha256::Hash(data.Data(), data.ByteLength());
  return Napi::Buffer<std::uint8_t>::Copy(info.Env(), digest.data(), digest.size());
}

Napi::Value Addon::Base64UrlEncode(const Napi::CallbackInfo& info) {
  if (!info[0].IsTypedArray() ||
      info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, "base64UrlEncode", "data", "a Uint8Array",
                       info[0]);
  }
  auto data = info[0].As<Napi::Uint8Array>();
  return Napi::String::New(info.Env(), sdkauth::Base64UrlEncode(data.Data(), data.ByteLength()));
}

Napi::Value Addon::LiveClientCount(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live_clients.size()));
}

Napi::Value Addon::TransportResult(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* where = "transportResult";
  const std::string kind = RequireString(info, 0, where, "kind", 64);
  sdkauth::GrantKind grant = sdkauth::GrantKind::AuthorizationCode;
  if (kind == "refresh_token") grant = sdkauth::GrantKind::RefreshToken;
  else if (kind == "revoke") grant = sdkauth::GrantKind::Revoke;
  else if (kind != "authorization_code") {
    ThrowArgumentError(env, ArgumentProblem::Value, where, "kind",
                       "'authorization_code', 'refresh_token' or 'revoke'", info[0]);
  }
  return ResultToJs(env, sdkauth::TransportResult(ParseTransportResponse(info[1]), grant));
}

}  // namespace sdkauth_addon

// Registration by hand instead of NODE_API_ADDON: when a Worker is terminated while it loads
// the addon, every Node-API call fails, and node-addon-api's wrapper then throws a C++
// exception out of its own error handler, which aborts the whole process. Here a failure is
// reported to JavaScript with plain napi_throw, whose own failure is ignored.
NAPI_MODULE_INIT() {
  try {
    return Napi::Addon<sdkauth_addon::Addon>::Init(Napi::Env(env), Napi::Object(env, exports));
  } catch (const Napi::Error& error) {
    napi_throw(env, error.Value());
  } catch (...) {
    napi_throw_error(env, "ERR_NATIVE_INIT", "social-sdk-auth: the native addon failed to initialise.");
  }
  return nullptr;
}
