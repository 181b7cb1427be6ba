// AuthorizationArgs validation: each rule gives a ValidationError whose sentence names the field.
#include <string>

#include "harness.hpp"
#include "sdkauth/authorization_args.hpp"

namespace {
sdkauth::AuthorizationArgs Valid() {
  sdkauth::AuthorizationArgs args;
  args.SetScopes("openid sdk.social_layer");
  return args;
}
bool Mentions(const sdkauth::ClientResult& r, const std::string& word) {
  return r.Type() == sdkauth::ErrorType::ValidationError && r.Error().find(word) != std::string::npos;
}
}  // namespace

TEST(ValidArgsPass) {
  CHECK(Valid().Validate(42).Successful());
  auto args = Valid();
  args.SetClientId(7);
  CHECK(args.Validate(0).Successful());
}

TEST(ClientIdFallsBackButMustExist) {
  CHECK(Mentions(Valid().Validate(0), "ClientId"));
}

TEST(ScopesRules) {
  auto args = Valid();
  args.SetScopes("");
  CHECK(Mentions(args.Validate(1), "Scopes"));
  for (const char* bad : {" openid", "openid ", "openid  email", "open\"id", "open\\id", "openid\temail",
                          "caf\xc3\xa9"}) {
    args.SetScopes(bad);
    CHECK(Mentions(args.Validate(1), "RFC 6749"));
  }
  args.SetScopes(std::string(3000, 'a'));
  CHECK(Mentions(args.Validate(1), "longer"));
  args.SetScopes("a!#[]~ b");
  CHECK(args.Validate(1).Successful());
}

TEST(StateAndNonceRules) {
  auto args = Valid();
  args.SetState(std::string(""));
  CHECK(Mentions(args.Validate(1), "State"));
  args.SetState(std::string("ok\nnot"));
  CHECK(Mentions(args.Validate(1), "State"));
  args.SetState(std::string("fine state"));
  CHECK(args.Validate(1).Successful());
  args.SetNonce(std::string(600, 'n'));
  CHECK(Mentions(args.Validate(1), "Nonce"));
}

TEST(CodeChallengeRules) {
  auto args = Valid();
  args.SetCodeChallenge(sdkauth::AuthorizationCodeChallenge(
      "short", sdkauth::AuthenticationCodeChallengeMethod::S256));
  CHECK(Mentions(args.Validate(1), "CodeChallenge"));
  args.SetCodeChallenge(sdkauth::AuthorizationCodeChallenge(
      std::string(43, 'A'), static_cast<sdkauth::AuthenticationCodeChallengeMethod>(1)));
  CHECK(Mentions(args.Validate(1), "S256"));
  args.SetCodeChallenge(sdkauth::AuthorizationCodeChallenge(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", sdkauth::AuthenticationCodeChallengeMethod::S256));
  CHECK(args.Validate(1).Successful());
}

TEST(IntegrationTypeRules) {
  auto args = Valid();
  args.SetIntegrationType(sdkauth::IntegrationType::UserInstall);
  CHECK(args.Validate(1).Successful());
  args.SetIntegrationType(static_cast<sdkauth::IntegrationType>(5));
  CHECK(Mentions(args.Validate(1), "IntegrationType"));
}

TEST(CustomSchemeRules) {
  auto args = Valid();
  for (const char* bad : {"", "1game", "my game", "my_game", "mygame:", "https", "HTTP", "javascript", "discord", "ms-settings", "web+game", "c"}) {
    args.SetCustomSchemeParam(std::string(bad));
    CHECK(Mentions(args.Validate(1), "CustomSchemeParam"));
  }
  for (const char* good : {"mygame", "com.example.game", "a+b-c.d", "Discord-123"}) {
    args.SetCustomSchemeParam(std::string(good));
    CHECK(args.Validate(1).Successful());
  }
}

TEST(ClientResultToString) {
  auto r = sdkauth::ClientResult::Failure(sdkauth::ErrorType::HTTPError, "boom");
  r.SetStatus(429);
  r.SetRetryable(true);
  r.SetRetryAfter(2.5f);
  CHECK_EQ(r.ToString(), std::string("ClientResult(HTTPError, status 429, retryable after 2.5s): boom"));
  CHECK_EQ(sdkauth::ClientResult::Success().ToString(), std::string("ClientResult(None)"));
  CHECK(!r.Successful());
}
