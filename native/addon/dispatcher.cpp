#include "dispatcher.hpp"

namespace sdkauth_addon {

TsfnDispatcher::TsfnDispatcher(Napi::Env env) {
  tsfn_ = Tsfn::New(env, "social-sdk-auth callbacks", 0, 1);
  tsfn_.Unref(env);
}

TsfnDispatcher::~TsfnDispatcher() { Close(); }

void TsfnDispatcher::CallTask(Napi::Env env, Napi::Function, std::nullptr_t*,
                              std::function<void()>* task) {
  // env is null when the environment is being torn down: drop the task unrun.
  if (env != nullptr && task != nullptr && *task) {
    (*task)();
    // A callback that threw: report it as an uncaught exception, as Node does for its own.
    bool pending = false;
    napi_value error = nullptr;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
        napi_get_and_clear_last_exception(env, &error) == napi_ok) {
      napi_fatal_exception(env, error);
    }
  }
  delete task;
}

void TsfnDispatcher::Post(std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  auto* heap = new std::function<void()>(std::move(task));
  if (tsfn_.NonBlockingCall(heap) != napi_ok) delete heap;
}

void TsfnDispatcher::Hold(Napi::Env env) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  if (holds_++ == 0) tsfn_.Ref(env);
}

void TsfnDispatcher::Release(Napi::Env env) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_ || holds_ == 0) return;
  if (--holds_ == 0) tsfn_.Unref(env);
}

void TsfnDispatcher::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  closed_ = true;
  tsfn_.Release();
}

}  // namespace sdkauth_addon
