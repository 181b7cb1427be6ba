// base64url without padding (RFC 4648 §5), as PKCE and JWTs use it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sdkauth {

std::string Base64UrlEncode(const void* data, std::size_t size);
inline std::string Base64UrlEncode(std::string_view bytes) {
  return Base64UrlEncode(bytes.data(), bytes.size());
}
// Accepts unpadded input only; returns nullopt on any character outside the alphabet or an
// impossible length.
std::optional<std::vector<std::uint8_t>> Base64UrlDecode(std::string_view text);

}  // namespace sdkauth
