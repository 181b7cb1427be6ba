// AuthorizationArgs exposed to JavaScript with the same getters and setters as the core.
#pragma once
#include <napi.h>

#include "sdkauth/authorization_args.hpp"

namespace sdkauth_addon {

class ArgsWrap : public Napi::ObjectWrap<ArgsWrap> {
 public:
  static Napi::Function Init(Napi::Env env);
  explicit ArgsWrap(const Napi::CallbackInfo& info);
  const sdkauth::AuthorizationArgs& Args() const { return args_; }

 private:
  Napi::Value ClientId(const Napi::CallbackInfo& info);
  void SetClientId(const Napi::CallbackInfo& info);
  Napi::Value Scopes(const Napi::CallbackInfo& info);
  void SetScopes(const Napi::CallbackInfo& info);
  Napi::Value State(const Napi::CallbackInfo& info);
  void SetState(const Napi::CallbackInfo& info);
  Napi::Value Nonce(const Napi::CallbackInfo& info);
  void SetNonce(const Napi::CallbackInfo& info);
  Napi::Value CodeChallenge(const Napi::CallbackInfo& info);
  void SetCodeChallenge(const Napi::CallbackInfo& info);
  Napi::Value IntegrationType(const Napi::CallbackInfo& info);
  void SetIntegrationType(const Napi::CallbackInfo& info);
  Napi::Value CustomSchemeParam(const Napi::CallbackInfo& info);
  void SetCustomSchemeParam(const Napi::CallbackInfo& info);
  Napi::Value Validate(const Napi::CallbackInfo& info);

  sdkauth::AuthorizationArgs args_;
};

Napi::Object ResultToJs(Napi::Env env, const sdkauth::ClientResult& result);

}  // namespace sdkauth_addon
