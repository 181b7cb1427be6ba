// A small JSON reader and writer for the desktop client's IPC frames (RFC 8259). It reads any
// JSON text, bounded in nesting depth, and never throws: malformed text yields no value.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sdkauth {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;  // in document order

  static JsonValue Null() { return JsonValue(); }
  static JsonValue Bool(bool value);
  static JsonValue Number(double value);
  static JsonValue String(std::string value);
  static JsonValue Array(std::vector<JsonValue> values);
  static JsonValue Object(std::vector<std::pair<std::string, JsonValue>> values);

  // The first member named `key` of an object; nullptr for other kinds or when absent.
  const JsonValue* Find(const std::string& key) const;
  // The member `key` when it is a string; nullptr otherwise.
  const std::string* StringAt(const std::string& key) const;
  bool operator==(const JsonValue& other) const;
};

constexpr std::size_t kMaxJsonDepth = 32;

// Parses a whole JSON text. No value for malformed text, invalid UTF-8 escapes, nesting deeper
// than `max_depth`, or trailing bytes.
std::optional<JsonValue> ParseJson(const std::string& text, std::size_t max_depth = kMaxJsonDepth);
// Writes `value` as compact JSON; strings are escaped so any bytes round-trip.
std::string WriteJson(const JsonValue& value);

}  // namespace sdkauth
