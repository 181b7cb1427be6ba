#include "sdkauth/redirect.hpp"

#include <cstddef>

#include "failures.hpp"
#include "sdkauth/authorization_args.hpp"
#include "sdkauth/url.hpp"

namespace sdkauth {
namespace {

constexpr std::size_t kMaxCodeLength = 2048;
// A custom-scheme redirect is a short URL; anything longer is refused before it is parsed.
constexpr std::size_t kMaxRedirectUrlLength = 8192;

RedirectVerdict IgnoreBecause(const char* reason) {
  RedirectVerdict verdict;
  verdict.reason = reason;
  return verdict;
}

}  // namespace

RedirectVerdict EvaluateRedirect(const std::string& query, const std::string& expected_state) {
  const auto params = ParseQuery(query);
  if (!params) return IgnoreBecause("the redirect's query is malformed");
  bool duplicate = false;
  const auto state = FindParam(*params, "state", &duplicate);
  if (!state || duplicate) return IgnoreBecause("the redirect carries no single state parameter");
  if (!ConstantTimeEquals(expected_state, *state)) {
    return IgnoreBecause("the redirect's state does not match the sign-in in progress");
  }
  RedirectVerdict verdict;
  if (const auto error = FindParam(*params, "error")) {
    verdict.kind = RedirectVerdict::Kind::Fail;
    verdict.result = failures::AuthorizationRefused(*error, FindParam(*params, "error_description"));
    return verdict;
  }
  const auto code = FindParam(*params, "code", &duplicate);
  if (!code || duplicate || !IsVisibleAscii(*code) || code->size() > kMaxCodeLength) {
    verdict.kind = RedirectVerdict::Kind::Fail;
    verdict.result = failures::NoUsableCode();
    return verdict;
  }
  verdict.kind = RedirectVerdict::Kind::Success;
  verdict.code = *code;
  return verdict;
}

LoopbackRoute RouteLoopbackRequest(const HttpRequestHead& request, std::string* query) {
  const std::size_t question = request.target.find('?');
  if (request.target.substr(0, question) != "/callback") return LoopbackRoute::NotFound;
  if (request.method != "GET") return LoopbackRoute::MethodNotAllowed;
  if (query != nullptr) {
    *query = question == std::string::npos ? std::string() : request.target.substr(question + 1);
  }
  return LoopbackRoute::Callback;
}

RedirectVerdict EvaluateCustomSchemeRedirect(const std::string& url, const std::string& scheme,
                                             const std::string& expected_state) {
  if (url.size() > kMaxRedirectUrlLength) return IgnoreBecause("the URL is too long");
  const auto parts = SplitUrl(url);
  if (!parts) return IgnoreBecause("the URL is not a URI");
  if (parts->scheme != scheme) return IgnoreBecause("the URL has another scheme");
  if (parts->has_authority && !parts->authority.empty()) {
    return IgnoreBecause("the URL names an authority");
  }
  if (parts->path != "/authorize/callback") return IgnoreBecause("the URL has another path");
  return EvaluateRedirect(parts->query, expected_state);
}

}  // namespace sdkauth
