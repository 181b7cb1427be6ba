// The outcome of every asynchronous operation, shaped like the social SDK's ClientResult.
#pragma once
#include <cstdint>
#include <string>

namespace sdkauth {

enum class ErrorType : int {
  None = 0,
  NetworkError = 1,
  HTTPError = 2,
  ClientNotReady = 3,
  Disabled = 4,
  ClientDestroyed = 5,
  ValidationError = 6,
  Aborted = 7,
  AuthorizationFailed = 8,
  RPCError = 9,
};

const char* ErrorTypeName(ErrorType type);

class ClientResult {
 public:
  ClientResult() = default;
  static ClientResult Success() { return ClientResult(); }
  static ClientResult Failure(ErrorType type, std::string error);

  ErrorType Type() const { return type_; }
  void SetType(ErrorType type) { type_ = type; }
  // A sentence for people: what went wrong and what to do. Never holds a secret.
  const std::string& Error() const { return error_; }
  void SetError(std::string error) { error_ = std::move(error); }
  // The service's numeric JSON error code, 0 when it sent none.
  std::int32_t ErrorCode() const { return error_code_; }
  void SetErrorCode(std::int32_t code) { error_code_ = code; }
  // The OAuth `error` value (RFC 6749 §4.1.2.1 / §5.2), e.g. "invalid_grant"; empty when none.
  const std::string& OAuthError() const { return oauth_error_; }
  void SetOAuthError(std::string error) { oauth_error_ = std::move(error); }
  // HTTP status of the response that failed, 0 when there was no response.
  std::int32_t Status() const { return status_; }
  void SetStatus(std::int32_t status) { status_ = status; }
  // The response body, with secrets redacted.
  const std::string& ResponseBody() const { return response_body_; }
  void SetResponseBody(std::string body) { response_body_ = std::move(body); }
  bool Successful() const { return type_ == ErrorType::None; }
  bool Retryable() const { return retryable_; }
  void SetRetryable(bool retryable) { retryable_ = retryable; }
  // Seconds to wait before retrying, as the service asked; 0 when it did not say.
  float RetryAfter() const { return retry_after_; }
  void SetRetryAfter(float seconds) { retry_after_ = seconds; }
  std::string ToString() const;

 private:
  ErrorType type_ = ErrorType::None;
  std::string error_;
  std::int32_t error_code_ = 0;
  std::string oauth_error_;
  std::int32_t status_ = 0;
  std::string response_body_;
  bool retryable_ = false;
  float retry_after_ = 0;
};

}  // namespace sdkauth
