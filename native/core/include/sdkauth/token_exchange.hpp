// A token request's two halves, free of any Client state: the grant the arguments make, and
// what the transport's response to it means. Client::GetToken, RefreshToken and RevokeToken are
// built from them; a host that sends the grant itself (the Node addon hands it to TypeScript and
// gets no response back on success) calls them directly, so the rules stay in one place.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "sdkauth/client_result.hpp"
#include "sdkauth/token_transport.hpp"

namespace sdkauth {

// The grant to send, or why the arguments make none (then `grant` is empty and `result` is the
// ValidationError).
struct PreparedGrant {
  ClientResult result;
  std::optional<TokenGrant> grant;
};

// `api_base` without a trailing slash; `application_id` 0 means none is set (a ValidationError).
PreparedGrant PrepareAuthorizationCodeGrant(const std::string& api_base, std::uint64_t application_id,
                                            const std::string& code, const std::string& code_verifier,
                                            const std::string& redirect_uri);
PreparedGrant PrepareRefreshTokenGrant(const std::string& api_base, std::uint64_t application_id,
                                       const std::string& refresh_token);
PreparedGrant PrepareRevokeGrant(const std::string& api_base, std::uint64_t application_id,
                                 const std::string& token);

// What a transport response to a grant of `kind` means: Success for a Bearer token set (any
// Ok response for Revoke), else the failure to report.
ClientResult TransportResult(const TransportResponse& response, GrantKind kind);

}  // namespace sdkauth
