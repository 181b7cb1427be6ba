// The Client exposed to JavaScript. Callbacks (of authorize) are kept here, on the JS thread, and the core's
// completions only carry ids, so nothing JavaScript is touched or freed on another thread.
#pragma once
#include <napi.h>

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "dispatcher.hpp"
#include "sdkauth/client.hpp"
#include "transport.hpp"

namespace sdkauth_addon {

class Addon;

class ClientWrap : public Napi::ObjectWrap<ClientWrap> {
 public:
  static Napi::Function Init(Napi::Env env);
  explicit ClientWrap(const Napi::CallbackInfo& info);
  ~ClientWrap() override;
  // Ends every pending operation and releases native resources. Idempotent.
  void Close();
  void DetachAddon() { addon_ = nullptr; }

 private:
  struct Pending {
    std::map<std::uint64_t, Napi::FunctionReference> callbacks;
  };

  Napi::Value SetApplicationId(const Napi::CallbackInfo& info);
  Napi::Value GetApplicationId(const Napi::CallbackInfo& info);
  Napi::Value CreateAuthorizationCodeVerifier(const Napi::CallbackInfo& info);
  Napi::Value Authorize(const Napi::CallbackInfo& info);
  Napi::Value AbortAuthorize(const Napi::CallbackInfo& info);
  Napi::Value IsAuthorizing(const Napi::CallbackInfo& info);
  Napi::Value HandleRedirect(const Napi::CallbackInfo& info);
  // getToken, refreshToken, revokeToken: synchronous; the grant the arguments make (TypeScript
  // sends it and reads the response), or the ValidationError that stops it.
  Napi::Value GetToken(const Napi::CallbackInfo& info);
  Napi::Value RefreshToken(const Napi::CallbackInfo& info);
  Napi::Value RevokeToken(const Napi::CallbackInfo& info);
  Napi::Value CloseMethod(const Napi::CallbackInfo& info);
  Napi::Value IsClosed(const Napi::CallbackInfo& info);
  // Desktop client IPC.
  Napi::Value SetAuthorizeVia(const Napi::CallbackInfo& info);
  static void ReadDesktopClientOptions(const Napi::Object& options, sdkauth::DesktopClientOptions* out);

  void EnsureOpen(Napi::Env env, const char* where);
  // Registers a JS callback for one operation and holds the loop until it is called.
  std::uint64_t Track(Napi::Env env, Napi::Function callback);
  // Takes the callback of operation `id` and releases the hold; empty if already taken.
  Napi::FunctionReference Take(Napi::Env env, std::uint64_t id);

  // Adds what a callback receives after the result (code and redirect URI, tokens).
  using ExtraValues = std::function<void(Napi::Env, std::vector<napi_value>&)>;
  // Calls the callback of operation `id`, once, with the result and `extra`. JS thread only.
  // False when the callback threw; the exception is left pending.
  bool Deliver(Napi::Env env, std::uint64_t id, const sdkauth::ClientResult& result,
               const ExtraValues& extra);
  // The one completion every operation's core callback ends in: it runs on the JS thread
  // (posted by the dispatcher, which drops it when the environment is gone) and does nothing
  // once this wrapper is gone.
  struct Completion {
    ClientWrap* wrap;
    std::weak_ptr<Pending> alive;
    std::uint64_t id;
    void operator()(const sdkauth::ClientResult& result, const ExtraValues& extra = nullptr) const;
  };
  Completion CompletionFor(std::uint64_t id) { return Completion{this, pending_, id}; }
  // The application id a token request goes out with: the argument's, else the client's.
  std::uint64_t ApplicationIdOr(std::uint64_t app) const;

  Addon* addon_ = nullptr;
  std::unique_ptr<sdkauth::Client> client_;
  std::shared_ptr<TsfnDispatcher> dispatcher_;
  std::shared_ptr<JsUrlOpener> opener_;
  std::shared_ptr<Pending> pending_;  // completions hold a weak_ptr to it
  std::uint64_t next_id_ = 1;
  bool closed_ = false;
};

}  // namespace sdkauth_addon
