// The seams the addon fills with JavaScript: the TokenTransport (openid-client in TypeScript)
// and the UrlOpener (the system browser, Electron's shell, or a test driver).
#pragma once
#include <napi.h>

#include "sdkauth/client.hpp"
#include "sdkauth/token_transport.hpp"

namespace sdkauth_addon {

// Calls `transport(grant, done)` on the JS thread. TypeScript sends the grant and calls
// `done(response)` exactly once.
class JsTokenTransport final : public sdkauth::TokenTransport {
 public:
  JsTokenTransport(Napi::Env env, Napi::Function transport);
  void Send(const sdkauth::TokenGrant& grant,
            std::function<void(sdkauth::TransportResponse)> done) override;
  void Reset() { transport_.Reset(); }

 private:
  Napi::Env env_;
  Napi::FunctionReference transport_;
};

class JsUrlOpener final : public sdkauth::UrlOpener {
 public:
  JsUrlOpener(Napi::Env env, Napi::Function opener);
  void Open(const std::string& url) override;
  void Reset() { opener_.Reset(); }

 private:
  Napi::Env env_;
  Napi::FunctionReference opener_;
};

sdkauth::TransportResponse ParseTransportResponse(const Napi::Value& value);

}  // namespace sdkauth_addon
