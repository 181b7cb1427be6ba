// Text helpers the core's sources share: making network text safe to show, and case folding.
#pragma once
#include <cstddef>
#include <string>

namespace sdkauth {
namespace detail {

// Keeps only printable ASCII other than markup characters, and at most `max` of them, so a
// value from the network is safe in a message and in an HTML page.
std::string Sanitize(const std::string& text, std::size_t max);
// ASCII lower case: schemes and token types compare case-insensitively.
std::string Lower(std::string text);
// Drops trailing slashes, so "{base}/oauth2/token" never holds "//".
std::string TrimSlash(std::string base);

}  // namespace detail
}  // namespace sdkauth
