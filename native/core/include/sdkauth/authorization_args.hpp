// AuthorizationArgs and the PKCE value types, named as in the social SDK.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "sdkauth/client_result.hpp"

namespace sdkauth {

enum class AuthenticationCodeChallengeMethod : int { S256 = 0 };

enum class IntegrationType : int { GuildInstall = 0, UserInstall = 1 };

class AuthorizationCodeChallenge {
 public:
  AuthorizationCodeChallenge() = default;
  AuthorizationCodeChallenge(std::string challenge, AuthenticationCodeChallengeMethod method)
      : challenge_(std::move(challenge)), method_(method) {}
  AuthenticationCodeChallengeMethod Method() const { return method_; }
  void SetMethod(AuthenticationCodeChallengeMethod method) { method_ = method; }
  const std::string& Challenge() const { return challenge_; }
  void SetChallenge(std::string challenge) { challenge_ = std::move(challenge); }

 private:
  std::string challenge_;
  AuthenticationCodeChallengeMethod method_ = AuthenticationCodeChallengeMethod::S256;
};

class AuthorizationCodeVerifier {
 public:
  AuthorizationCodeVerifier() = default;
  AuthorizationCodeVerifier(AuthorizationCodeChallenge challenge, std::string verifier)
      : challenge_(std::move(challenge)), verifier_(std::move(verifier)) {}
  const AuthorizationCodeChallenge& Challenge() const { return challenge_; }
  void SetChallenge(AuthorizationCodeChallenge challenge) { challenge_ = std::move(challenge); }
  const std::string& Verifier() const { return verifier_; }
  void SetVerifier(std::string verifier) { verifier_ = std::move(verifier); }

 private:
  AuthorizationCodeChallenge challenge_;
  std::string verifier_;
};

// Derives the S256 challenge of a verifier: base64url(SHA-256(verifier)), RFC 7636 §4.2.
std::string S256Challenge(const std::string& verifier);

// Draws 32 bytes from the OS CSPRNG and encodes them base64url (43 characters). Returns
// nullopt only when the OS refuses to give random bytes.
std::optional<AuthorizationCodeVerifier> NewAuthorizationCodeVerifier();

class AuthorizationArgs {
 public:
  std::uint64_t ClientId() const { return client_id_; }
  void SetClientId(std::uint64_t id) { client_id_ = id; }
  const std::string& Scopes() const { return scopes_; }
  void SetScopes(std::string scopes) { scopes_ = std::move(scopes); }
  const std::optional<std::string>& State() const { return state_; }
  void SetState(std::optional<std::string> state) { state_ = std::move(state); }
  const std::optional<std::string>& Nonce() const { return nonce_; }
  void SetNonce(std::optional<std::string> nonce) { nonce_ = std::move(nonce); }
  const std::optional<AuthorizationCodeChallenge>& CodeChallenge() const { return challenge_; }
  void SetCodeChallenge(std::optional<AuthorizationCodeChallenge> c) { challenge_ = std::move(c); }
  const std::optional<sdkauth::IntegrationType>& IntegrationType() const { return integration_; }
  void SetIntegrationType(std::optional<sdkauth::IntegrationType> t) { integration_ = t; }
  const std::optional<std::string>& CustomSchemeParam() const { return scheme_; }
  void SetCustomSchemeParam(std::optional<std::string> s) { scheme_ = std::move(s); }

  // Checks every field against its rule. `fallback_client_id` is the client's application id,
  // used when ClientId is 0. The error sentence names the field and the rule.
  ClientResult Validate(std::uint64_t fallback_client_id) const;

 private:
  std::uint64_t client_id_ = 0;
  std::string scopes_;
  std::optional<std::string> state_;
  std::optional<std::string> nonce_;
  std::optional<AuthorizationCodeChallenge> challenge_;
  std::optional<sdkauth::IntegrationType> integration_;
  std::optional<std::string> scheme_;
};

// Grammar checks shared by the args and the redirect handling.
bool IsScopeList(const std::string& scopes);           // RFC 6749 §3.3
bool IsUriScheme(const std::string& scheme);           // RFC 3986 §3.1
bool IsVisibleAscii(const std::string& value);         // 1*VSCHAR, RFC 6749 appendix A
bool IsCodeVerifier(const std::string& verifier);      // RFC 7636 §4.1
// Schemes that browsers, the OS or well-known programs own (lower-case input).
bool IsReservedScheme(const std::string& lower);

}  // namespace sdkauth
