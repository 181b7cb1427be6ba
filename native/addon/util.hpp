// Argument checks for every binding entry point: one line each, and a TypeError or RangeError
// with a sentence that names the parameter, the expected type and what was received.
#pragma once
#include <napi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace sdkauth_addon {

const char* TypeName(const Napi::Value& value);

[[noreturn]] void ThrowType(Napi::Env env, const std::string& where, const std::string& name,
                            const std::string& expected, const Napi::Value& got);
[[noreturn]] void ThrowRange(Napi::Env env, const std::string& where, const std::string& message);

// A string of at most `max_bytes` UTF-8 bytes.
std::string RequireString(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                          const char* name, std::size_t max_bytes);
// undefined or null → nullopt; otherwise RequireString.
std::optional<std::string> OptionalString(const Napi::Value& value, const char* where,
                                          const char* name, std::size_t max_bytes);
std::string ValueToString(const Napi::Value& value, const char* where, const char* name,
                          std::size_t max_bytes);
// A BigInt in [0, 2^64): 0 means "not set" for ids that fall back to the client's.
std::uint64_t RequireUint64(const Napi::Value& value, const char* where, const char* name);
Napi::Function RequireFunction(const Napi::CallbackInfo& info, std::size_t index,
                               const char* where, const char* name);
Napi::Object RequireObject(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                           const char* name);

// Calls a JS function through plain Node-API, never through Napi::Error. When a Worker is being
// terminated the call fails, and building a Napi::Error from that failure aborts the whole
// process (node-addon-api treats the failed property definition as fatal). Returns false when
// the call threw; with `clear`, the exception is dropped, otherwise it stays pending for Node.
bool CallJs(Napi::Env env, const Napi::FunctionReference& fn, std::initializer_list<napi_value> args,
            bool clear);

}  // namespace sdkauth_addon
