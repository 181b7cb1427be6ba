// The small part of RFC 3986 and the form-urlencoded format that OAuth redirects need.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sdkauth {

using QueryParams = std::vector<std::pair<std::string, std::string>>;

// Percent-encodes everything but RFC 3986 unreserved characters.
std::string PercentEncode(std::string_view text);
// Decodes %XX and, when `plus_is_space`, '+' (form encoding). nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space);
// name=value&... with both parts percent-encoded.
std::string EncodeQuery(const QueryParams& params);
// Parses a query or form body. nullopt when any part is malformed or there are more than
// `max_params` parameters.
std::optional<QueryParams> ParseQuery(std::string_view query, std::size_t max_params = 64);
// The value of the only parameter named `name`; nullopt when absent. `duplicate` is set when
// the name occurs more than once (RFC 6749 §3.1: parameters must not be repeated).
std::optional<std::string> FindParam(const QueryParams& params, std::string_view name,
                                     bool* duplicate = nullptr);

struct UrlParts {
  std::string scheme;     // lower-cased
  std::string authority;  // empty when the URL has none (e.g. "mygame:/authorize/callback")
  bool has_authority = false;
  std::string path;
  std::string query;      // without '?'
  bool has_query = false;
  std::string fragment;   // without '#'
  bool has_fragment = false;
};
// Splits an absolute URI into its RFC 3986 §3 components. nullopt when there is no valid
// scheme or the text holds characters a URI cannot (controls, spaces, non-ASCII).
std::optional<UrlParts> SplitUrl(std::string_view url);

// Compares in time that depends only on the lengths, so a caller cannot learn how much of a
// secret matched from timing.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace sdkauth
