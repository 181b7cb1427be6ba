// The TokenTransport seam: how a grant the core built reaches the token endpoint. The Node
// addon implements it by calling TypeScript (openid-client); a C++ engine plugs in its own.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "sdkauth/url.hpp"

namespace sdkauth {

enum class GrantKind { AuthorizationCode, RefreshToken, Revoke };

struct TokenGrant {
  GrantKind kind = GrantKind::AuthorizationCode;
  std::string endpoint;      // absolute URL of the token or revocation endpoint
  std::string client_id;     // decimal application id; public client, no secret
  std::string grant_type;    // "authorization_code" or "refresh_token"; empty for Revoke
  QueryParams parameters;    // form parameters other than grant_type and client_id
};

struct TransportResponse {
  enum class Outcome { Ok, HttpError, NetworkError, InvalidResponse };
  Outcome outcome = Outcome::NetworkError;
  std::int32_t status = 0;          // HTTP status, 0 when no response arrived
  std::string oauth_error;          // RFC 6749 §5.2 `error`
  std::string error_description;    // RFC 6749 §5.2 `error_description`, already redacted
  std::int32_t error_code = 0;      // the service's numeric `code`, when its body had one
  std::string body;                 // response body, already redacted
  double retry_after = -1;          // seconds from Retry-After or `retry_after`; -1 when absent
  std::string message;              // what failed, for network and invalid responses
  // Ok only:
  std::string access_token;
  std::string refresh_token;
  std::string token_type;
  std::int64_t expires_in = 0;
  std::string scope;
  std::string id_token;
};

class TokenTransport {
 public:
  virtual ~TokenTransport() = default;
  // Sends `grant`; calls `done` exactly once, from any thread.
  virtual void Send(const TokenGrant& grant, std::function<void(TransportResponse)> done) = 0;
};

}  // namespace sdkauth
