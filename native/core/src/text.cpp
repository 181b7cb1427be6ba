#include "text.hpp"

namespace sdkauth {
namespace detail {

std::string Sanitize(const std::string& text, std::size_t max) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E || c == '<' || c == '>' || c == '&' || c == '"') continue;
    if (out.size() >= max) {
      out += "...";
      break;
    }
    out += c;
  }
  return out;
}

std::string Lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return text;
}

std::string TrimSlash(std::string base) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

}  // namespace detail
}  // namespace sdkauth
