// Every failed ClientResult the core reports is built here, so the same failure reads the same
// wherever it arises, and text from the network is sanitized in one place.
#pragma once
#include <optional>
#include <string>

#include "sdkauth/client_result.hpp"
#include "sdkauth/token_transport.hpp"

namespace sdkauth {
namespace failures {

// A ValidationError: an argument the caller passed breaks a rule; `message` says which and why.
ClientResult Invalid(std::string message);
// A token or revocation request that did not succeed, from what the transport reported.
ClientResult FromTransport(const TransportResponse& response, GrantKind kind);
// Token requests before a TokenTransport was set (C++ hosts only: the addon always sets one).
ClientResult NoTransport();
// The redirect carried `error` (and maybe `error_description`) instead of a code.
ClientResult AuthorizationRefused(const std::string& error,
                                  const std::optional<std::string>& description);
// The redirect carried the right state but no code that can be exchanged.
ClientResult NoUsableCode();
// The loopback listener could not be opened; `reason` is the socket error.
ClientResult ListenerFailed(const std::string& reason);
// The operating system refused random bytes for the state parameter.
ClientResult NoRandomState();

}  // namespace failures
}  // namespace sdkauth
