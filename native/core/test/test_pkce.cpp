// PKCE: the RFC 7636 appendix B pair, the verifier's shape and alphabet, and that verifiers
// are not repeated.
#include <set>
#include <string>

#include "harness.hpp"
#include "sdkauth/authorization_args.hpp"
#include "sdkauth/client.hpp"

TEST(Rfc7636AppendixB) {
  CHECK_EQ(sdkauth::S256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
           std::string("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
}

TEST(VerifierShape) {
  sdkauth::Client client;
  for (int i = 0; i < 200; ++i) {
    const auto v = client.CreateAuthorizationCodeVerifier();
    CHECK_EQ(v.Verifier().size(), std::size_t(43));
    CHECK(sdkauth::IsCodeVerifier(v.Verifier()));
    CHECK(v.Challenge().Method() == sdkauth::AuthenticationCodeChallengeMethod::S256);
    CHECK_EQ(v.Challenge().Challenge(), sdkauth::S256Challenge(v.Verifier()));
    CHECK_EQ(v.Challenge().Challenge().size(), std::size_t(43));
  }
}

TEST(VerifiersAreUnique) {
  sdkauth::Client client;
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) seen.insert(client.CreateAuthorizationCodeVerifier().Verifier());
  CHECK_EQ(seen.size(), std::size_t(10000));
}

TEST(VerifierGrammar) {
  CHECK(!sdkauth::IsCodeVerifier(std::string(42, 'a')));
  CHECK(sdkauth::IsCodeVerifier(std::string(43, 'a')));
  CHECK(sdkauth::IsCodeVerifier(std::string(128, '~')));
  CHECK(!sdkauth::IsCodeVerifier(std::string(129, 'a')));
  CHECK(!sdkauth::IsCodeVerifier(std::string(42, 'a') + "+"));
}
