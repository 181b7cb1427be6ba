// The addon's side of the token exchange and the UrlOpener seam. TypeScript sends every grant
// itself (openid-client); only a failed response comes here, to be read into a ClientResult by
// the core's rule. The UrlOpener is the system browser, Electron's shell, or a test driver.
#pragma once
#include <napi.h>

#include "sdkauth/client.hpp"
#include "sdkauth/token_transport.hpp"

namespace sdkauth_addon {

class JsUrlOpener final : public sdkauth::UrlOpener {
 public:
  JsUrlOpener(Napi::Env env, Napi::Function opener);
  void Open(const std::string& url) override;
  void Reset() { opener_.Reset(); }

 private:
  Napi::Env env_;
  Napi::FunctionReference opener_;
};

// A transport response as TypeScript reports it ({ outcome, status, oauthError, … }), bounded.
sdkauth::TransportResponse ParseTransportResponse(const Napi::Value& value);

}  // namespace sdkauth_addon
