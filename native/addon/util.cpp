#include "util.hpp"

namespace sdkauth_addon {
namespace {

// Numbers and bigints are never secrets. ToString of a primitive runs no JavaScript.
std::string PrimitiveText(napi_env env, napi_value value) {
  napi_value text = nullptr;
  std::size_t length = 0;
  char buffer[48];
  if (napi_coerce_to_string(env, value, &text) != napi_ok ||
      napi_get_value_string_utf8(env, text, buffer, sizeof buffer, &length) != napi_ok) {
    return "?";
  }
  std::string out(buffer, length);
  if (length == sizeof buffer - 1) out += "...";  // a bigint of hundreds of digits
  return out;
}

const char* TypedArrayName(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array: return "Int8Array";
    case napi_uint8_array: return "Uint8Array";
    case napi_uint8_clamped_array: return "Uint8ClampedArray";
    case napi_int16_array: return "Int16Array";
    case napi_uint16_array: return "Uint16Array";
    case napi_int32_array: return "Int32Array";
    case napi_uint32_array: return "Uint32Array";
    case napi_float32_array: return "Float32Array";
    case napi_float64_array: return "Float64Array";
    case napi_bigint64_array: return "BigInt64Array";
    case napi_biguint64_array: return "BigUint64Array";
    default: return "a typed array";
  }
}

std::string DescribeObject(napi_env env, napi_value value) {
  bool is = false;
  if (napi_is_array(env, value, &is) == napi_ok && is) {
    std::uint32_t length = 0;
    napi_get_array_length(env, value, &length);
    return "an array of length " + std::to_string(length);
  }
  if (napi_is_typedarray(env, value, &is) == napi_ok && is) {
    napi_typedarray_type type = napi_uint8_array;
    std::size_t length = 0;
    if (napi_get_typedarray_info(env, value, &type, &length, nullptr, nullptr, nullptr) == napi_ok) {
      return std::string("an instance of ") + TypedArrayName(type);
    }
  }
  if (napi_is_dataview(env, value, &is) == napi_ok && is) return "an instance of DataView";
  if (napi_is_arraybuffer(env, value, &is) == napi_ok && is) return "an instance of ArrayBuffer";
  // The constructor's name would need a property read, which a proxy or getter could hijack.
  return "an object";
}

}  // namespace

std::string DescribeValue(const Napi::Value& value) {
  napi_env env = value.Env();
  napi_valuetype type = napi_undefined;
  if (value.IsEmpty() || napi_typeof(env, value, &type) != napi_ok) return "an unknown value";
  switch (type) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: {
      bool flag = false;
      napi_get_value_bool(env, value, &flag);
      return flag ? "the boolean true" : "the boolean false";
    }
    case napi_number: return "the number " + PrimitiveText(env, value);
    case napi_bigint: return "the bigint " + PrimitiveText(env, value) + "n";
    case napi_string: {
      // UTF-16 units, as JavaScript's length counts them.
      std::size_t length = 0;
      napi_get_value_string_utf16(env, value, nullptr, 0, &length);
      return length == 0 ? "an empty string" : "a string of length " + std::to_string(length);
    }
    case napi_symbol: return "a symbol";
    case napi_function: return "a function";
    case napi_external: return "an external";
    case napi_object: return DescribeObject(env, value);
  }
  return "an unknown value";
}

void ThrowArgumentError(Napi::Env env, ArgumentProblem problem, const std::string& where,
                        const std::string& name, const std::string& expected,
                        const Napi::Value& received, const std::string& hint) {
  std::string message = where + ": " + name + " must be " + expected + "; received " +
                        DescribeValue(received) + ".";
  if (!hint.empty()) message += " " + hint;
  const bool type = problem == ArgumentProblem::Type;
  napi_value code = nullptr;
  napi_value text = nullptr;
  napi_value error = nullptr;
  if (napi_create_string_utf8(env, type ? "ERR_INVALID_ARG_TYPE" : "ERR_OUT_OF_RANGE",
                              NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, message.data(), message.size(), &text) == napi_ok &&
      (type ? napi_create_type_error(env, code, text, &error)
            : napi_create_range_error(env, code, text, &error)) == napi_ok) {
    if (type) throw Napi::TypeError(env, error);
    throw Napi::RangeError(env, error);
  }
  // Only when the environment is ending: nothing will read the code.
  if (type) throw Napi::TypeError::New(env, message);
  throw Napi::RangeError::New(env, message);
}

void ThrowCodedError(Napi::Env env, const char* code, const std::string& message) {
  napi_value code_value = nullptr;
  napi_value text = nullptr;
  napi_value error = nullptr;
  if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) == napi_ok &&
      napi_create_string_utf8(env, message.data(), message.size(), &text) == napi_ok &&
      napi_create_error(env, code_value, text, &error) == napi_ok) {
    throw Napi::Error(env, error);
  }
  throw Napi::Error::New(env, message);
}

std::string ValueToString(const Napi::Value& value, const char* where, const char* name,
                          std::size_t max_bytes) {
  Napi::Env env = value.Env();
  if (!value.IsString()) ThrowArgumentError(env, ArgumentProblem::Type, where, name, "a string", value);
  std::size_t length = 0;
  napi_status status = napi_get_value_string_utf8(env, value, nullptr, 0, &length);
  if (status != napi_ok) ThrowArgumentError(env, ArgumentProblem::Type, where, name, "a string", value);
  if (length > max_bytes) {
    ThrowArgumentError(env, ArgumentProblem::Value, where, name,
                       "a string of at most " + std::to_string(max_bytes) + " UTF-8 bytes", value);
  }
  std::string out(length, '\0');
  napi_get_value_string_utf8(env, value, out.data(), length + 1, &length);
  return out;
}

std::string RequireString(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                          const char* name, std::size_t max_bytes) {
  return ValueToString(info[index], where, name, max_bytes);
}

std::optional<std::string> OptionalString(const Napi::Value& value, const char* where,
                                          const char* name, std::size_t max_bytes) {
  if (value.IsUndefined() || value.IsNull()) return std::nullopt;
  if (!value.IsString()) {
    ThrowArgumentError(value.Env(), ArgumentProblem::Type, where, name, "a string or undefined", value);
  }
  return ValueToString(value, where, name, max_bytes);
}

std::uint64_t RequireUint64(const Napi::Value& value, const char* where, const char* name) {
  Napi::Env env = value.Env();
  if (!value.IsBigInt()) ThrowArgumentError(env, ArgumentProblem::Type, where, name, "a bigint", value);
  int sign = 0;
  std::size_t words = 2;
  std::uint64_t buffer[2] = {0, 0};
  napi_status status = napi_get_value_bigint_words(env, value, &sign, &words, buffer);
  if (status != napi_ok || sign != 0 || words > 1) {
    ThrowArgumentError(env, ArgumentProblem::Value, where, name, "an integer from 0 to 2^64-1", value);
  }
  return words == 0 ? 0 : buffer[0];
}

Napi::Function RequireFunction(const Napi::CallbackInfo& info, std::size_t index,
                               const char* where, const char* name) {
  if (!info[index].IsFunction()) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, where, name, "a function", info[index]);
  }
  return info[index].As<Napi::Function>();
}

Napi::Object RequireObject(const Napi::CallbackInfo& info, std::size_t index, const char* where,
                           const char* name) {
  if (!info[index].IsObject() || info[index].IsFunction()) {
    ThrowArgumentError(info.Env(), ArgumentProblem::Type, where, name, "an object", info[index]);
  }
  return info[index].As<Napi::Object>();
}

bool CallJs(Napi::Env env, const Napi::FunctionReference& fn, const std::vector<napi_value>& args,
            bool clear) {
  if (fn.IsEmpty()) return false;
  napi_value global = nullptr;
  napi_value result = nullptr;
  if (napi_get_global(env, &global) == napi_ok &&
      napi_call_function(env, global, fn.Value(), args.size(), args.data(), &result) == napi_ok) {
    return true;
  }
  if (clear) {
    napi_value ignored = nullptr;
    napi_get_and_clear_last_exception(env, &ignored);
  }
  return false;
}

}  // namespace sdkauth_addon
