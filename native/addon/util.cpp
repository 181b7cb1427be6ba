#include "util.hpp"

namespace sdkauth_addon {

const char* TypeName(const Napi::Value& value) {
  switch (value.Type()) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: return "a boolean";
    case napi_number: return "a number";
    case napi_string: return "a string";
    case napi_symbol: return "a symbol";
    case napi_object: return value.IsArray() ? "an array" : "an object";
    case napi_function: return "a function";
    case napi_external: return "an external";
    case napi_bigint: return "a bigint";
  }
  return "an unknown value";
}

void ThrowType(Napi::Env env, const std::string& where, const std::string& name,
               const std::string& expected, const Napi::Value& got) {
  throw Napi::TypeError::New(env, where + ": " + name + " must be " + expected + "; received " +
                                      TypeName(got) + ".");
}

void ThrowRange(Napi::Env env, const std::string& where, const std::string& message) {
  throw Napi::RangeError::New(env, where + ": " + message);
}

std::string ValueToString(const Napi::Value& value, const char* where, const char* name,
                          std::size_t max_bytes) {
  if (!value.IsString()) ThrowType(value.Env(), where, name, "a string", value);
  std::size_t length = 0;
  napi_status status = napi_get_value_string_utf8(value.Env(), value, nullptr, 0, &length);
  if (status != napi_ok) ThrowType(value.Env(), where, name, "a string", value);
  if (length > max_bytes) {
    ThrowRange(value.Env(), where,
               std::string(name) + " is " + std::to_string(length) + " bytes long; at most " +
                   std::to_string(max_bytes) + " are allowed.");
  }
  std::string out(length, '\0');
  napi_get_value_string_utf8(value.Env(), value, out.data(), length + 1, &length);
  return out;
}

std::string RequireString(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                          const char* name, std::size_t max_bytes) {
  return ValueToString(info[index], where, name, max_bytes);
}

std::optional<std::string> OptionalString(const Napi::Value& value, const char* where,
                                          const char* name, std::size_t max_bytes) {
  if (value.IsUndefined() || value.IsNull()) return std::nullopt;
  return ValueToString(value, where, name, max_bytes);
}

std::uint64_t RequireUint64(const Napi::Value& value, const char* where, const char* name) {
  if (!value.IsBigInt()) ThrowType(value.Env(), where, name, "a bigint", value);
  int sign = 0;
  std::size_t words = 2;
  std::uint64_t buffer[2] = {0, 0};
  napi_status status =
      napi_get_value_bigint_words(value.Env(), value, &sign, &words, buffer);
  if (status != napi_ok || sign != 0 || words > 1) {
    ThrowRange(value.Env(), where, std::string(name) + " must be an integer from 0 to 2^64-1.");
  }
  return words == 0 ? 0 : buffer[0];
}

Napi::Function RequireFunction(const Napi::CallbackInfo& info, std::size_t index,
                               const char* where, const char* name) {
  if (!info[index].IsFunction()) ThrowType(info.Env(), where, name, "a function", info[index]);
  return info[index].As<Napi::Function>();
}

Napi::Object RequireObject(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                           const char* name) {
  if (!info[index].IsObject() || info[index].IsFunction()) {
    ThrowType(info.Env(), where, name, "an object", info[index]);
  }
  return info[index].As<Napi::Object>();
}

bool CallJs(Napi::Env env, const Napi::FunctionReference& fn, std::initializer_list<napi_value> args,
            bool clear) {
  if (fn.IsEmpty()) return false;
  napi_value global = nullptr;
  napi_value result = nullptr;
  if (napi_get_global(env, &global) == napi_ok &&
      napi_call_function(env, global, fn.Value(), args.size(), args.begin(), &result) == napi_ok) {
    return true;
  }
  if (clear) {
    napi_value ignored = nullptr;
    napi_get_and_clear_last_exception(env, &ignored);
  }
  return false;
}

}  // namespace sdkauth_addon
