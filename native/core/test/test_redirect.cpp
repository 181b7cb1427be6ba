// Redirect evaluation: what a redirect's query means for the flow, how the loopback listener's
// requests are routed, and which custom-scheme URLs are the flow's redirect at all.
#include <string>

#include "harness.hpp"
#include "sdkauth/redirect.hpp"

using sdkauth::LoopbackRoute;
using sdkauth::RedirectVerdict;

namespace {

LoopbackRoute Route(const char* method, const char* target, std::string* query = nullptr) {
  return sdkauth::RouteLoopbackRequest(sdkauth::HttpRequestHead{method, target}, query);
}

RedirectVerdict::Kind Scheme(const std::string& url) {
  return sdkauth::EvaluateCustomSchemeRedirect(url, "mygame", "s").kind;
}

}  // namespace

TEST(RedirectVerdicts) {
  CHECK(sdkauth::EvaluateRedirect("code=c&state=s", "s").kind == RedirectVerdict::Kind::Success);
  CHECK_EQ(sdkauth::EvaluateRedirect("code=c&state=s", "s").code, std::string("c"));
  // Anything without the right state is ignored: it cannot end the flow.
  CHECK(sdkauth::EvaluateRedirect("code=c", "s").kind == RedirectVerdict::Kind::Ignore);
  CHECK(sdkauth::EvaluateRedirect("code=c&state=t", "s").kind == RedirectVerdict::Kind::Ignore);
  CHECK(sdkauth::EvaluateRedirect("code=c&state=s&state=s", "s").kind == RedirectVerdict::Kind::Ignore);
  CHECK(sdkauth::EvaluateRedirect("code=%zz&state=s", "s").kind == RedirectVerdict::Kind::Ignore);
  CHECK(sdkauth::EvaluateRedirect("error=access_denied", "s").kind == RedirectVerdict::Kind::Ignore);
  CHECK(!sdkauth::EvaluateRedirect("code=c&state=t", "s").reason.empty());
  auto denied = sdkauth::EvaluateRedirect("error=access_denied&error_description=no&state=s", "s");
  CHECK(denied.kind == RedirectVerdict::Kind::Fail);
  CHECK(denied.result.Type() == sdkauth::ErrorType::AuthorizationFailed);
  CHECK_EQ(denied.result.OAuthError(), std::string("access_denied"));
  CHECK_EQ(denied.result.Error(), std::string("The player declined the authorization (access_denied)."));
  auto failed = sdkauth::EvaluateRedirect("error=server_error&error_description=%3Cb%3Eoops&state=s", "s");
  CHECK(failed.result.Error().find("<") == std::string::npos);  // markup from the network is dropped
  CHECK_EQ(failed.result.Error(), std::string("The service refused the authorization (server_error): boops."));
  CHECK(sdkauth::EvaluateRedirect("state=s", "s").kind == RedirectVerdict::Kind::Fail);
  CHECK(sdkauth::EvaluateRedirect("code=&state=s", "s").kind == RedirectVerdict::Kind::Fail);
  CHECK(sdkauth::EvaluateRedirect("code=a&code=b&state=s", "s").kind == RedirectVerdict::Kind::Fail);
  CHECK(sdkauth::EvaluateRedirect("code=" + std::string(2049, 'c') + "&state=s", "s").kind ==
        RedirectVerdict::Kind::Fail);
}

TEST(LoopbackRoutes) {
  std::string query = "untouched";
  CHECK(Route("GET", "/callback?code=c&state=s", &query) == LoopbackRoute::Callback);
  CHECK_EQ(query, std::string("code=c&state=s"));
  CHECK(Route("GET", "/callback", &query) == LoopbackRoute::Callback);
  CHECK_EQ(query, std::string());
  CHECK(Route("GET", "/callback?", &query) == LoopbackRoute::Callback);
  CHECK_EQ(query, std::string());
  // The path decides first: a probe of another path is "not found" whatever its method.
  CHECK(Route("POST", "/callback?code=c&state=s") == LoopbackRoute::MethodNotAllowed);
  CHECK(Route("HEAD", "/callback") == LoopbackRoute::MethodNotAllowed);
  CHECK(Route("POST", "/favicon.ico") == LoopbackRoute::NotFound);
  for (const char* target : {"/", "/callback/", "/Callback", "/callback2?state=s", "*", ""}) {
    CHECK(Route("GET", target) == LoopbackRoute::NotFound);
  }
}

TEST(CustomSchemeRedirects) {
  CHECK(Scheme("mygame:/authorize/callback?code=c&state=s") == RedirectVerdict::Kind::Success);
  CHECK(Scheme("MyGame:/authorize/callback?code=c&state=s") == RedirectVerdict::Kind::Success);
  CHECK(Scheme("mygame:///authorize/callback?code=c&state=s") == RedirectVerdict::Kind::Success);
  CHECK(Scheme("mygame:/authorize/callback?error=access_denied&state=s") == RedirectVerdict::Kind::Fail);
  // Not this flow's redirect: another scheme, an authority, another path, junk, or too long.
  for (const std::string url :
       {"other:/authorize/callback?code=c&state=s", "mygame://host/authorize/callback?code=c&state=s",
        "mygame:/authorize/callback/?code=c&state=s", "mygame:/authorize?code=c&state=s",
        "mygame:/authorize/callback?code=c&state=t", "mygame:/authorize/callback?code=c&state=s x",
        "not a url", ""}) {
    CHECK(Scheme(url) == RedirectVerdict::Kind::Ignore);
  }
  const std::string longer = "mygame:/authorize/callback?code=c&state=s&pad=" + std::string(8200, 'p');
  CHECK(Scheme(longer) == RedirectVerdict::Kind::Ignore);
  CHECK_EQ(sdkauth::EvaluateCustomSchemeRedirect(longer, "mygame", "s").reason, std::string("the URL is too long"));
}
