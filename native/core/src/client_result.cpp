#include "sdkauth/client_result.hpp"

#include <cstdio>

namespace sdkauth {

const char* ErrorTypeName(ErrorType type) {
  switch (type) {
    case ErrorType::None: return "None";
    case ErrorType::NetworkError: return "NetworkError";
    case ErrorType::HTTPError: return "HTTPError";
    case ErrorType::ClientNotReady: return "ClientNotReady";
    case ErrorType::Disabled: return "Disabled";
    case ErrorType::ClientDestroyed: return "ClientDestroyed";
    case ErrorType::ValidationError: return "ValidationError";
    case ErrorType::Aborted: return "Aborted";
    case ErrorType::AuthorizationFailed: return "AuthorizationFailed";
    case ErrorType::RPCError: return "RPCError";
  }
  return "Unknown";
}

ClientResult ClientResult::Failure(ErrorType type, std::string error) {
  ClientResult r;
  r.type_ = type;
  r.error_ = std::move(error);
  return r;
}

std::string ClientResult::ToString() const {
  if (Successful()) return "ClientResult(None)";
  std::string out = "ClientResult(";
  out += ErrorTypeName(type_);
  if (status_ != 0) out += ", status " + std::to_string(status_);
  if (!oauth_error_.empty()) out += ", " + oauth_error_;
  if (error_code_ != 0) out += ", code " + std::to_string(error_code_);
  if (retryable_) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ", retryable after %.3gs", double(retry_after_));
    out += buf;
  }
  out += "): " + error_;
  return out;
}

}  // namespace sdkauth
