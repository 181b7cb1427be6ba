// Argument checks for every binding entry point: one line each. Every argument error is built
// by ThrowArgumentError, with the sentence and codes the TypeScript layer's argumentError uses.
#pragma once
#include <napi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sdkauth_addon {

// What is wrong with an argument: its type (TypeError, code ERR_INVALID_ARG_TYPE) or, for a
// value of the right type, the value itself (RangeError, code ERR_OUT_OF_RANGE).
enum class ArgumentProblem { Type, Value };

// Describes a received value without revealing it and without running JavaScript (no getter,
// no proxy trap): strings by length, arrays by length, numbers, booleans and bigints by value.
std::string DescribeValue(const Napi::Value& value);

// The one builder of the addon's argument errors: throws a TypeError or RangeError with `code`
// and the message "<where>: <name> must be <expected>; received <described>." then `hint`.
[[noreturn]] void ThrowArgumentError(Napi::Env env, ArgumentProblem problem, const std::string& where,
                                     const std::string& name, const std::string& expected,
                                     const Napi::Value& received, const std::string& hint = "");

// Throws an Error with `code` (see docs/errors.md) for failures that are not about an argument.
[[noreturn]] void ThrowCodedError(Napi::Env env, const char* code, const std::string& message);

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
bool CallJs(Napi::Env env, const Napi::FunctionReference& fn, const std::vector<napi_value>& args,
            bool clear);

}  // namespace sdkauth_addon
