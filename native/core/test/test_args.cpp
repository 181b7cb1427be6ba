// AuthorizationArgs validation: each rule gives a ValidationError whose sentence names the field.
#include <string>
#include <vector>

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
  CHECK(Mentions(Valid().Validate(0), "clientId"));
}

TEST(ScopesRules) {
  auto args = Valid();
  args.SetScopes("");
  CHECK(Mentions(args.Validate(1), "scopes"));
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
  CHECK(Mentions(args.Validate(1), "state"));
  args.SetState(std::string("ok\nnot"));
  CHECK(Mentions(args.Validate(1), "state"));
  args.SetState(std::string("fine state"));
  CHECK(args.Validate(1).Successful());
  args.SetNonce(std::string(600, 'n'));
  CHECK(Mentions(args.Validate(1), "nonce"));
}

TEST(CodeChallengeRules) {
  auto args = Valid();
  args.SetCodeChallenge(sdkauth::AuthorizationCodeChallenge(
      "short", sdkauth::AuthenticationCodeChallengeMethod::S256));
  CHECK(Mentions(args.Validate(1), "codeChallenge"));
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
  CHECK(Mentions(args.Validate(1), "integrationType"));
}

TEST(CustomSchemeRules) {
  auto args = Valid();
  for (const char* bad : {"", "1game", "my game", "my_game", "mygame:", "https", "HTTP", "javascript", "discord", "ms-settings", "web+game", "c"}) {
    args.SetCustomSchemeParam(std::string(bad));
    CHECK(Mentions(args.Validate(1), "customSchemeParam"));
  }
  for (const char* good : {"mygame", "com.example.game", "a+b-c.d", "Discord-123"}) {
    args.SetCustomSchemeParam(std::string(good));
    CHECK(args.Validate(1).Successful());
  }
}

TEST(MessagesNameFieldsAsCallersDo) {
  // Every broken rule, each on an otherwise valid AuthorizationArgs.
  std::vector<sdkauth::AuthorizationArgs> broken(9, Valid());
  broken[0].SetScopes("");
  broken[1].SetScopes(std::string(3000, 'a'));
  broken[2].SetState(std::string(""));
  broken[3].SetNonce(std::string("a\nb"));
  broken[4].SetCodeChallenge(sdkauth::AuthorizationCodeChallenge("short", sdkauth::AuthenticationCodeChallengeMethod::S256));
  broken[5].SetIntegrationType(static_cast<sdkauth::IntegrationType>(5));
  broken[6].SetCustomSchemeParam(std::string("1game"));
  broken[7].SetCustomSchemeParam(std::string("c"));
  broken[8].SetCustomSchemeParam(std::string("https"));
  std::vector<std::string> messages = {Valid().Validate(0).Error()};
  for (const auto& args : broken) messages.push_back(args.Validate(1).Error());
  for (const auto& message : messages) {
    CHECK(!message.empty());
    // A TypeScript caller reaches these through validate(): no C++ names or call syntax.
    CHECK(message.find("::") == std::string::npos);
    CHECK(message.find("()") == std::string::npos);
    CHECK(message.find("Client") == std::string::npos);
    const char first = message.front();
    CHECK(first >= 'a' && first <= 'z');  // the field's own name comes first, as callers spell it
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
