#include "sdkauth/url.hpp"

namespace sdkauth {
namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '.' || c == '_' || c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3);
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = HexValue(text[i + 1]);
      const int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>((hi << 4) | lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string EncodeQuery(const QueryParams& params) {
  std::string out;
  for (const auto& [name, value] : params) {
    if (!out.empty()) out += '&';
    out += PercentEncode(name);
    out += '=';
    out += PercentEncode(value);
  }
  return out;
}

std::optional<QueryParams> ParseQuery(std::string_view query, std::size_t max_params) {
  QueryParams params;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    std::string_view part = query.substr(start, end - start);
    if (!part.empty()) {
      if (params.size() >= max_params) return std::nullopt;
      const std::size_t eq = part.find('=');
      auto name = PercentDecode(part.substr(0, eq), true);
      auto value = eq == std::string_view::npos ? std::optional<std::string>("")
                                                : PercentDecode(part.substr(eq + 1), true);
      if (!name || !value) return std::nullopt;
      params.emplace_back(std::move(*name), std::move(*value));
    }
    start = end + 1;
  }
  return params;
}

std::optional<std::string> FindParam(const QueryParams& params, std::string_view name,
                                     bool* duplicate) {
  std::optional<std::string> found;
  if (duplicate) *duplicate = false;
  for (const auto& [n, v] : params) {
    if (n != name) continue;
    if (found && duplicate) *duplicate = true;
    if (!found) found = v;
  }
  return found;
}

std::optional<UrlParts> SplitUrl(std::string_view url) {
  for (char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7F) return std::nullopt;
  }
  const std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  UrlParts parts;
  for (std::size_t i = 0; i < colon; ++i) {
    char c = url[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool ok = alpha || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return std::nullopt;
    parts.scheme += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  std::string_view rest = url.substr(colon + 1);
  const std::size_t hash = rest.find('#');
  if (hash != std::string_view::npos) {
    parts.fragment = std::string(rest.substr(hash + 1));
    parts.has_fragment = true;
    rest = rest.substr(0, hash);
  }
  const std::size_t question = rest.find('?');
  if (question != std::string_view::npos) {
    parts.query = std::string(rest.substr(question + 1));
    parts.has_query = true;
    rest = rest.substr(0, question);
  }
  if (rest.substr(0, 2) == "//") {
    rest = rest.substr(2);
    const std::size_t slash = rest.find('/');
    parts.authority = std::string(rest.substr(0, slash));
    parts.has_authority = true;
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  }
  parts.path = std::string(rest);
  return parts;
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Fold the length difference in, and always walk the expected length.
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(a[i]) ^ y;
  }
  return diff == 0;
}

}  // namespace sdkauth
