#include "failures.hpp"

#include "text.hpp"

namespace sdkauth {
namespace failures {

using detail::Sanitize;

ClientResult Invalid(std::string message) {
  return ClientResult::Failure(ErrorType::ValidationError, std::move(message));
}

ClientResult FromTransport(const TransportResponse& r, GrantKind kind) {
  const char* what = kind == GrantKind::Revoke ? "revocation endpoint" : "token endpoint";
  ClientResult result;
  switch (r.outcome) {
    case TransportResponse::Outcome::NetworkError:
      result = ClientResult::Failure(
          ErrorType::NetworkError,
          std::string("Could not reach the ") + what + ": " + Sanitize(r.message, 300) +
              ". Check the network connection and the client's apiBase, then try again.");
      result.SetRetryable(true);
      return result;
    case TransportResponse::Outcome::InvalidResponse:
      result = ClientResult::Failure(
          ErrorType::HTTPError, std::string("The ") + what +
                                    " sent a response this client cannot use: " +
                                    Sanitize(r.message, 300) + ".");
      break;
    default: {
      std::string message = std::string("The ") + what + " answered HTTP " +
                            std::to_string(r.status);
      if (!r.oauth_error.empty()) message += " " + Sanitize(r.oauth_error, 64);
      if (!r.error_description.empty()) message += ": " + Sanitize(r.error_description, 300);
      if (message.back() != '.') message += ".";
      if (r.oauth_error == "invalid_grant") {
        message += kind == GrantKind::RefreshToken
                       ? " The refresh token is no longer valid: sign the player in again."
                       : " The authorization code is invalid, expired, already used, or was "
                         "issued for another redirect URI or code verifier: sign in again.";
      } else if (r.status == 429) {
        message += " Too many requests: wait before retrying.";
      } else if (r.status >= 500) {
        message += " The service had a problem: try again later.";
      }
      result = ClientResult::Failure(ErrorType::HTTPError, std::move(message));
      result.SetRetryable(r.status == 429 || r.status >= 500);
      break;
    }
  }
  result.SetStatus(r.status);
  result.SetOAuthError(Sanitize(r.oauth_error, 64));
  result.SetErrorCode(r.error_code);
  result.SetResponseBody(r.body);
  if (r.retry_after >= 0) result.SetRetryAfter(static_cast<float>(r.retry_after));
  return result;
}

ClientResult NoTransport() {
  return ClientResult::Failure(ErrorType::ClientNotReady,
                               "No TokenTransport is set on the client: call SetTokenTransport "
                               "before requesting tokens.");
}

ClientResult AuthorizationRefused(const std::string& error,
                                  const std::optional<std::string>& description) {
  const std::string code = Sanitize(error, 64);
  std::string message;
  if (code == "access_denied") {
    // The player's own choice: the service's description adds nothing the player needs.
    message = "The player declined the authorization (access_denied).";
  } else {
    message = "The service refused the authorization (" + code + ")";
    if (description && !description->empty()) message += ": " + Sanitize(*description, 300);
    if (message.back() != '.') message += ".";
  }
  ClientResult result = ClientResult::Failure(ErrorType::AuthorizationFailed, std::move(message));
  result.SetOAuthError(code);
  return result;
}

ClientResult NoUsableCode() {
  return ClientResult::Failure(
      ErrorType::AuthorizationFailed,
      "The redirect carried the right state but no usable authorization code.");
}

ClientResult ListenerFailed(const std::string& reason) {
  return ClientResult::Failure(
      ErrorType::NetworkError,
      "Could not open the loopback redirect listener (" + reason +
          "). Allow the game to listen on 127.0.0.1, or use a custom URI scheme.");
}

ClientResult NoRandomState() {
  return ClientResult::Failure(ErrorType::AuthorizationFailed,
                               "The operating system refused to provide random bytes for the "
                               "state parameter.");
}

}  // namespace failures
}  // namespace sdkauth
