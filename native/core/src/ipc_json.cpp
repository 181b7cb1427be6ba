#include "sdkauth/ipc_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

// Numbers are read and written in the C locale whatever the host's says (an Electron app may
// set LC_NUMERIC to one whose decimal point is a comma). std::from_chars and std::to_chars do
// that without streams, which keeps the iostream and locale machinery out of the prebuilds'
// statically linked C++ runtime (two fifths of the binary, and 0.3 ms of every first load). A
// standard library without them for double (libc++ before 20, Xcode's) uses classic-locale
// streams instead.
#if !defined(__cpp_lib_to_chars)
#include <locale>
#include <sstream>
#endif

namespace sdkauth {
namespace {

class Parser {
 public:
  Parser(const std::string& text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

  std::optional<JsonValue> Document() {
    JsonValue value;
    SkipSpace();
    if (!Value(&value, 0)) return std::nullopt;
    SkipSpace();
    if (pos_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }

  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) ++pos_;
  }

  bool Literal(const char* word) {
    for (const char* c = word; *c != '\0'; ++c, ++pos_) {
      if (AtEnd() || Peek() != *c) return false;
    }
    return true;
  }

  bool Value(JsonValue* out, std::size_t depth) {
    if (AtEnd()) return false;
    switch (Peek()) {
      case '{': return ObjectValue(out, depth + 1);
      case '[': return ArrayValue(out, depth + 1);
      case '"': out->kind = JsonValue::Kind::String; return StringValue(&out->string);
      case 't': out->kind = JsonValue::Kind::Bool; out->boolean = true; return Literal("true");
      case 'f': out->kind = JsonValue::Kind::Bool; out->boolean = false; return Literal("false");
      case 'n': out->kind = JsonValue::Kind::Null; return Literal("null");
      default: return NumberValue(out);
    }
  }

  bool ObjectValue(JsonValue* out, std::size_t depth) {
    if (depth > max_depth_) return false;
    out->kind = JsonValue::Kind::Object;
    ++pos_;
    SkipSpace();
    if (!AtEnd() && Peek() == '}') { ++pos_; return true; }
    for (;;) {
      SkipSpace();
      if (AtEnd() || Peek() != '"') return false;
      std::string key;
      if (!StringValue(&key)) return false;
      SkipSpace();
      if (AtEnd() || Peek() != ':') return false;
      ++pos_;
      SkipSpace();
      JsonValue member;
      if (!Value(&member, depth)) return false;
      out->members.emplace_back(std::move(key), std::move(member));
      SkipSpace();
      if (AtEnd()) return false;
      if (Peek() == '}') { ++pos_; return true; }
      if (Peek() != ',') return false;
      ++pos_;
    }
  }

  bool ArrayValue(JsonValue* out, std::size_t depth) {
    if (depth > max_depth_) return false;
    out->kind = JsonValue::Kind::Array;
    ++pos_;
    SkipSpace();
    if (!AtEnd() && Peek() == ']') { ++pos_; return true; }
    for (;;) {
      SkipSpace();
      JsonValue item;
      if (!Value(&item, depth)) return false;
      out->items.push_back(std::move(item));
      SkipSpace();
      if (AtEnd()) return false;
      if (Peek() == ']') { ++pos_; return true; }
      if (Peek() != ',') return false;
      ++pos_;
    }
  }

  bool Hex4(unsigned* out) {
    if (text_.size() - pos_ < 4) return false;
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      value <<= 4;
      if (c >= '0' && c <= '9') value |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') value |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') value |= static_cast<unsigned>(c - 'A' + 10);
      else return false;
    }
    *out = value;
    return true;
  }

  static void AppendUtf8(std::string* out, unsigned cp) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool StringValue(std::string* out) {
    ++pos_;  // the opening quote
    for (;;) {
      if (AtEnd()) return false;
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') { out->push_back(c); continue; }
      if (AtEnd()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          unsigned cp = 0;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a lone low surrogate
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            unsigned low = 0;
            if (text_.size() - pos_ < 2 || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') return false;
            pos_ += 2;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default: return false;
      }
    }
  }

  bool Digits() {
    const std::size_t start = pos_;
    while (!AtEnd() && Peek() >= '0' && Peek() <= '9') ++pos_;
    return pos_ > start;
  }

  bool NumberValue(JsonValue* out) {
    const std::size_t start = pos_;
    if (!AtEnd() && Peek() == '-') ++pos_;
    if (AtEnd()) return false;
    if (Peek() == '0') ++pos_;
    else if (!Digits()) return false;
    if (!AtEnd() && Peek() == '.') {
      ++pos_;
      if (!Digits()) return false;
    }
    if (!AtEnd() && (Peek() == 'e' || Peek() == 'E')) {
      ++pos_;
      if (!AtEnd() && (Peek() == '+' || Peek() == '-')) ++pos_;
      if (!Digits()) return false;
    }
    // Out of range either way (1e999, 1e-999) is refused: nothing here needs such numbers.
    // Digits past what a double holds are rounded, as JSON.parse does.
    double value = 0;
#if defined(__cpp_lib_to_chars)
    const auto read = std::from_chars(text_.data() + start, text_.data() + pos_, value);
    const bool fits = read.ec == std::errc() && read.ptr == text_.data() + pos_;
#else
    const std::string digits = text_.substr(start, pos_ - start);
    std::istringstream in(digits);
    in.imbue(std::locale::classic());
    in >> value;
    // Overflow fails the stream; underflow fails it in libc++ but reads as 0 in libstdc++, so
    // a 0 from digits that are not all zeros is refused here too.
    const std::size_t mantissa_end = digits.find_first_of("eE");
    const bool underflow =
        value == 0 && digits.substr(0, mantissa_end).find_first_of("123456789") != std::string::npos;
    const bool fits = !in.fail() && !underflow;
#endif
    if (!fits) return false;
    out->kind = JsonValue::Kind::Number;
    out->number = value;
    return true;
  }

  const std::string& text_;
  std::size_t max_depth_;
  std::size_t pos_ = 0;
};

void WriteString(std::string* out, const std::string& text) {
  out->push_back('"');
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (u < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
          out->append(escaped);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void Write(std::string* out, const JsonValue& value) {
  switch (value.kind) {
    case JsonValue::Kind::Null: out->append("null"); break;
    case JsonValue::Kind::Bool: out->append(value.boolean ? "true" : "false"); break;
    case JsonValue::Kind::Number: {
      if (!std::isfinite(value.number)) { out->append("null"); break; }
#if defined(__cpp_lib_to_chars)
      // The shortest digits that read back as the same double (the digits JSON.stringify picks;
      // its exponent is written 1e+21 rather than 1e21, which JSON reads the same).
      char number[32];
      const auto written = std::to_chars(number, number + sizeof number, value.number);
      out->append(number, written.ptr);
#else
      std::ostringstream number;
      number.imbue(std::locale::classic());
      number.precision(17);
      number << value.number;
      out->append(number.str());
#endif
      break;
    }
    case JsonValue::Kind::String: WriteString(out, value.string); break;
    case JsonValue::Kind::Array: {
      out->push_back('[');
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out->push_back(',');
        Write(out, value.items[i]);
      }
      out->push_back(']');
      break;
    }
    case JsonValue::Kind::Object: {
      out->push_back('{');
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        if (i > 0) out->push_back(',');
        WriteString(out, value.members[i].first);
        out->push_back(':');
        Write(out, value.members[i].second);
      }
      out->push_back('}');
      break;
    }
  }
}

}  // namespace

JsonValue JsonValue::Bool(bool value) {
  JsonValue v;
  v.kind = Kind::Bool;
  v.boolean = value;
  return v;
}

JsonValue JsonValue::Number(double value) {
  JsonValue v;
  v.kind = Kind::Number;
  v.number = value;
  return v;
}

JsonValue JsonValue::String(std::string value) {
  JsonValue v;
  v.kind = Kind::String;
  v.string = std::move(value);
  return v;
}

JsonValue JsonValue::Array(std::vector<JsonValue> values) {
  JsonValue v;
  v.kind = Kind::Array;
  v.items = std::move(values);
  return v;
}

JsonValue JsonValue::Object(std::vector<std::pair<std::string, JsonValue>> values) {
  JsonValue v;
  v.kind = Kind::Object;
  v.members = std::move(values);
  return v;
}

const JsonValue* JsonValue::Find(const std::string& key) const {
  if (kind != Kind::Object) return nullptr;
  for (const auto& member : members) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

const std::string* JsonValue::StringAt(const std::string& key) const {
  const JsonValue* member = Find(key);
  return member && member->kind == Kind::String ? &member->string : nullptr;
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::Null: return true;
    case Kind::Bool: return boolean == other.boolean;
    case Kind::Number: return number == other.number;
    case Kind::String: return string == other.string;
    case Kind::Array: return items == other.items;
    case Kind::Object: return members == other.members;
  }
  return false;
}

std::optional<JsonValue> ParseJson(const std::string& text, std::size_t max_depth) {
  return Parser(text, max_depth).Document();
}

std::string WriteJson(const JsonValue& value) {
  std::string out;
  Write(&out, value);
  return out;
}

}  // namespace sdkauth
