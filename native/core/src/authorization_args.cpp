#include "sdkauth/authorization_args.hpp"

#include <array>

#include "sdkauth/base64url.hpp"
#include "sdkauth/random.hpp"
#include "sdkauth/sha256.hpp"
#include "failures.hpp"

namespace sdkauth {
namespace {

using failures::Invalid;

constexpr std::size_t kMaxScopesLength = 2048;
constexpr std::size_t kMaxStateLength = 512;
constexpr std::size_t kMaxSchemeLength = 64;

bool IsAlpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool IsScopeList(const std::string& scopes) {
  if (scopes.empty() || scopes.front() == ' ' || scopes.back() == ' ') return false;
  char previous = 0;
  for (char c : scopes) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ') {
      if (previous == ' ') return false;
    } else if (!(u == 0x21 || (u >= 0x23 && u <= 0x5B) || (u >= 0x5D && u <= 0x7E))) {
      return false;
    }
    previous = c;
  }
  return true;
}

bool IsUriScheme(const std::string& scheme) {
  if (scheme.empty() || !IsAlpha(scheme[0])) return false;
  for (char c : scheme) {
    if (!(IsAlpha(c) || IsDigit(c) || c == '+' || c == '-' || c == '.')) return false;
  }
  return true;
}

bool IsVisibleAscii(const std::string& value) {
  if (value.empty()) return false;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E) return false;
  }
  return true;
}

bool IsReservedScheme(const std::string& lower) {
  // The same list as the desktop module's validateScheme (a test keeps them equal).
  static const char* const kReserved[] = {
      "about", "blob", "chrome", "chrome-extension", "content", "data", "discord", "edge",
      "file", "filesystem", "ftp", "ftps", "git", "http", "https", "intent", "irc", "ircs",
      "javascript", "jar", "mailto", "moz-extension", "news", "nntp", "resource", "sftp", "sip",
      "sips", "sms", "smb", "ssh", "tel", "urn", "vbscript", "view-source", "ws", "wss"};
  for (const char* reserved : kReserved) {
    if (lower == reserved) return true;
  }
  return lower.rfind("ms-", 0) == 0 || lower.rfind("web+", 0) == 0;
}

bool IsCodeVerifier(const std::string& verifier) {
  if (verifier.size() < 43 || verifier.size() > 128) return false;
  for (char c : verifier) {
    if (!(IsAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_' || c == '~')) return false;
  }
  return true;
}

std::string S256Challenge(const std::string& verifier) {
  const auto digest = Sha256::Hash(verifier);
  return Base64UrlEncode(digest.data(), digest.size());
}

std::optional<AuthorizationCodeVerifier> NewAuthorizationCodeVerifier() {
  std::array<std::uint8_t, 32> bytes{};
  if (!SecureRandomBytes(bytes.data(), bytes.size())) return std::nullopt;
  std::string verifier = Base64UrlEncode(bytes.data(), bytes.size());
  AuthorizationCodeChallenge challenge(S256Challenge(verifier),
                                       AuthenticationCodeChallengeMethod::S256);
  return AuthorizationCodeVerifier(std::move(challenge), std::move(verifier));
}

ClientResult AuthorizationArgs::Validate(std::uint64_t fallback_client_id) const {
  if (client_id_ == 0 && fallback_client_id == 0) {
    return Invalid(
        "clientId is not set: set the client's applicationId, or the clientId of the "
        "authorization arguments.");
  }
  if (scopes_.empty()) {
    return Invalid(
        "scopes is empty: pass space-separated OAuth scopes, for example the default "
        "communication scopes 'openid sdk.social_layer'.");
  }
  if (scopes_.size() > kMaxScopesLength) {
    return Invalid("scopes is longer than " + std::to_string(kMaxScopesLength) +
                   " characters: request only the scopes the game needs.");
  }
  if (!IsScopeList(scopes_)) {
    return Invalid(
        "scopes must be scope tokens separated by single spaces, each made of printable ASCII "
        "other than space, '\"' and '\\' (RFC 6749 section 3.3).");
  }
  if (state_) {
    if (!IsVisibleAscii(*state_) || state_->size() > kMaxStateLength) {
      return Invalid("state must be 1 to " + std::to_string(kMaxStateLength) +
                     " printable ASCII characters; leave it unset to let the SDK generate one.");
    }
  }
  if (nonce_) {
    if (!IsVisibleAscii(*nonce_) || nonce_->size() > kMaxStateLength) {
      return Invalid("nonce must be 1 to " + std::to_string(kMaxStateLength) +
                     " printable ASCII characters.");
    }
  }
  if (challenge_) {
    if (challenge_->Method() != AuthenticationCodeChallengeMethod::S256) {
      return Invalid("codeChallenge.method must be S256, the only method the service accepts.");
    }
    const std::string& c = challenge_->Challenge();
    const auto decoded = Base64UrlDecode(c);
    if (c.size() != 43 || !decoded || decoded->size() != 32) {
      return Invalid(
          "codeChallenge must be the 43-character base64url SHA-256 challenge of a code "
          "verifier created for this sign-in.");
    }
  }
  if (integration_) {
    const int value = static_cast<int>(*integration_);
    if (value != 0 && value != 1) {
      return Invalid("integrationType must be GuildInstall (0) or UserInstall (1).");
    }
  }
  if (scheme_) {
    if (!IsUriScheme(*scheme_) || scheme_->size() > kMaxSchemeLength) {
      return Invalid("customSchemeParam must be a URI scheme: a letter followed by letters, "
                     "digits, '+', '-' or '.', at most " +
                     std::to_string(kMaxSchemeLength) + " characters (RFC 3986 section 3.1).");
    }
    if (scheme_->size() < 2) {
      return Invalid("customSchemeParam must be at least two characters: Windows reads a "
                     "one-letter scheme as a drive letter.");
    }
    std::string lower;
    for (char c : *scheme_) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (IsReservedScheme(lower)) {
      return Invalid("customSchemeParam must be a scheme of your own, such as 'mygame'; '" +
                     lower + "' belongs to browsers, the operating system or another program.");
    }
  }
  return ClientResult::Success();
}

}  // namespace sdkauth
