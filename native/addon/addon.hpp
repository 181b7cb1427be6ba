// Per-environment state of the addon: the set of live clients. One instance
// per Node environment (main thread, each Worker, each Electron context); no mutable statics.
#pragma once
#include <napi.h>

#include <set>

namespace sdkauth_addon {

class ClientWrap;

class Addon : public Napi::Addon<Addon> {
 public:
  Addon(Napi::Env env, Napi::Object exports);
  ~Addon();

  std::set<ClientWrap*> live_clients;

 private:
  Napi::Value GetDefaultCommunicationScopes(const Napi::CallbackInfo& info);
  Napi::Value GetDefaultPresenceScopes(const Napi::CallbackInfo& info);
  Napi::Value Sha256(const Napi::CallbackInfo& info);
  Napi::Value Base64UrlEncode(const Napi::CallbackInfo& info);
  Napi::Value LiveClientCount(const Napi::CallbackInfo& info);
  // transportResult(kind, response): what a token or revocation response TypeScript received
  // means, by the core's rule (a failed one becomes the ClientResult the caller rejects with).
  Napi::Value TransportResult(const Napi::CallbackInfo& info);
  // Closes every live client: their listeners stop and their callbacks are dropped.
  void CloseAll();
  static void OnCleanup(void* self);
  napi_env env_ = nullptr;
};

}  // namespace sdkauth_addon
