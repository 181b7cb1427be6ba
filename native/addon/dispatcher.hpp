// The addon's Dispatcher: posts core completions to the JS thread with a thread-safe function
// instead of a RunCallbacks polling loop. It keeps the event loop alive only while an operation
// is pending, so a process with nothing left to do exits.
#pragma once
#include <napi.h>

#include <functional>
#include <mutex>

#include "sdkauth/dispatcher.hpp"

namespace sdkauth_addon {

class TsfnDispatcher final : public sdkauth::Dispatcher {
 public:
  explicit TsfnDispatcher(Napi::Env env);
  ~TsfnDispatcher() override;
  void Post(std::function<void()> task) override;
  // JS thread only: an operation started / ended. The loop is held while any is pending.
  void Hold(Napi::Env env);
  void Release(Napi::Env env);
  // Stops accepting tasks; queued ones still run (or are dropped if the environment is gone).
  void Close();

 private:
  static void CallTask(Napi::Env env, Napi::Function, std::nullptr_t*, std::function<void()>* task);
  using Tsfn = Napi::TypedThreadSafeFunction<std::nullptr_t, std::function<void()>, CallTask>;
  std::mutex mutex_;
  Tsfn tsfn_;
  bool closed_ = false;
  int holds_ = 0;
};

}  // namespace sdkauth_addon
