// What an OAuth redirect means for the sign-in waiting for it (RFC 6749 §4.1.2, RFC 8252 §7):
// the loopback listener's requests and custom-scheme URLs are evaluated here, by pure functions
// with no I/O and no lock; the Client applies the verdict to its pending flow.
#pragma once
#include <string>

#include "sdkauth/client_result.hpp"
#include "sdkauth/loopback_listener.hpp"

namespace sdkauth {

// What a redirect's query means for the flow whose state is `expected_state`.
struct RedirectVerdict {
  enum class Kind { Ignore, Fail, Success } kind = Kind::Ignore;
  std::string reason;  // for Ignore: why it was not taken
  ClientResult result; // for Fail
  std::string code;    // for Success
};
RedirectVerdict EvaluateRedirect(const std::string& query, const std::string& expected_state);

// Where a request to the loopback listener is aimed: only `GET /callback` can carry a redirect.
enum class LoopbackRoute { Callback, NotFound, MethodNotAllowed };
// Routes `request`; for Callback, `query` receives the request's query without the '?'.
LoopbackRoute RouteLoopbackRequest(const HttpRequestHead& request, std::string* query);

// Evaluates `url` as the redirect `{scheme}:/authorize/callback?…` of the flow whose state is
// `expected_state` (`scheme` lower-cased). Ignore, with a reason, when the URL is not that
// redirect at all: another scheme, an authority, another path, or too long.
RedirectVerdict EvaluateCustomSchemeRedirect(const std::string& url, const std::string& scheme,
                                             const std::string& expected_state);

}  // namespace sdkauth
