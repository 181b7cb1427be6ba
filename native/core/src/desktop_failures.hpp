// The failed ClientResults of the desktop client path, built in one place like failures.hpp.
#pragma once
#include <string>

#include "sdkauth/client_result.hpp"
#include "text.hpp"

namespace sdkauth {
namespace failures {

// AuthorizeVia::DesktopClient, and no desktop client socket exists (or the path is turned off).
inline ClientResult NoDesktopClient() {
  return ClientResult::Failure(
      ErrorType::RPCError,
      "No desktop client is running (no IPC socket was found): start the desktop client, or "
      "let the sign-in use the browser.");
}

// AuthorizeVia::DesktopClient, and no socket gave a code; `message` says why (already sanitized).
inline ClientResult DesktopClientFailed(const std::string& message) {
  return ClientResult::Failure(ErrorType::RPCError,
                               message + " Start the desktop client, or let the sign-in use the browser.");
}

// The player refused the sign-in in the desktop client.
inline ClientResult DesktopClientDenied(const std::string& oauth_error, const std::string& said) {
  ClientResult result = ClientResult::Failure(
      ErrorType::AuthorizationFailed,
      "The sign-in was refused in the desktop client" +
          (said.empty() ? std::string() : " (" + detail::Sanitize(said, 300) + ")") +
          ". Sign in again if the player wants to.");
  result.SetOAuthError(detail::Sanitize(oauth_error, 64));
  return result;
}

}  // namespace failures
}  // namespace sdkauth
