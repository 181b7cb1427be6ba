#include "transport.hpp"

#include "util.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace sdkauth_addon {
namespace {

std::string StringField(const Napi::Object& object, const char* name) {
  Napi::Value value = object.Get(name);
  if (!value.IsString()) return std::string();
  std::string text = value.As<Napi::String>().Utf8Value();
  if (text.size() > 65536) text.resize(65536);  // bodies are capped in TypeScript too
  return text;
}

// A finite number clamped to [lo, hi], else `fallback`: the casts to integers and float that
// follow are undefined behaviour for NaN, infinities and out-of-range values.
double NumberField(const Napi::Object& object, const char* name, double fallback, double lo,
                   double hi) {
  Napi::Value value = object.Get(name);
  if (!value.IsNumber()) return fallback;
  const double n = value.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(n)) return fallback;
  return std::min(std::max(n, lo), hi);
}

constexpr double kInt32Min = std::numeric_limits<std::int32_t>::min();
constexpr double kInt32Max = std::numeric_limits<std::int32_t>::max();

}  // namespace

sdkauth::TransportResponse ParseTransportResponse(const Napi::Value& value) {
  sdkauth::TransportResponse r;
  if (!value.IsObject()) {
    r.outcome = sdkauth::TransportResponse::Outcome::InvalidResponse;
    r.message = "the token transport returned no response object";
    return r;
  }
  Napi::Object o = value.As<Napi::Object>();
  const std::string outcome = StringField(o, "outcome");
  using Outcome = sdkauth::TransportResponse::Outcome;
  if (outcome == "ok") r.outcome = Outcome::Ok;
  else if (outcome == "http") r.outcome = Outcome::HttpError;
  else if (outcome == "network") r.outcome = Outcome::NetworkError;
  else r.outcome = Outcome::InvalidResponse;
  r.status = static_cast<std::int32_t>(NumberField(o, "status", 0, 0, 999));
  r.oauth_error = StringField(o, "oauthError");
  r.error_description = StringField(o, "errorDescription");
  r.error_code = static_cast<std::int32_t>(NumberField(o, "errorCode", 0, kInt32Min, kInt32Max));
  r.body = StringField(o, "body");
  r.retry_after = NumberField(o, "retryAfter", -1, -1, 1e9);
  r.message = StringField(o, "message");
  r.access_token = StringField(o, "accessToken");
  r.refresh_token = StringField(o, "refreshToken");
  r.token_type = StringField(o, "tokenType");
  r.expires_in = static_cast<std::int64_t>(NumberField(o, "expiresIn", 0, -1e15, 1e15));
  r.scope = StringField(o, "scope");
  r.id_token = StringField(o, "idToken");
  if (outcome.empty() && r.message.empty()) r.message = "the token transport's response had no outcome";
  return r;
}

JsUrlOpener::JsUrlOpener(Napi::Env env, Napi::Function opener)
    : env_(env), opener_(Napi::Persistent(opener)) {}

void JsUrlOpener::Open(const std::string& url) {
  if (opener_.IsEmpty()) return;
  Napi::HandleScope scope(env_);
  // The TypeScript opener reports its own failures; a throw here must not end the flow.
  CallJs(env_, opener_, {Napi::String::New(env_, url)}, true);
}

}  // namespace sdkauth_addon
