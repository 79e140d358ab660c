// The one error type of pogi: a DynamoDB error code, DynamoDB's message, and
// optional details (the item of a failed condition, transaction reasons).
// error.cc holds the single table from code to __type, HTTP and gRPC status.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace pogi::v1 {
class ErrorDetail;
}

namespace pogi {

// DO NOT REORDER without checking error.cc's table, which is indexed by code.
enum class ErrorCode {
  kValidation,
  kSerialization,
  kUnknownOperation,
  kMissingAuthenticationToken,
  kIncompleteSignature,
  kInvalidSignature,
  kUnrecognizedClient,
  kAccessDenied,
  kRequestEntityTooLarge,
  kResourceNotFound,
  kResourceInUse,
  kConditionalCheckFailed,
  kLimitExceeded,
  kTransactionCanceled,
  kTransactionConflict,
  kTransactionInProgress,
  kIdempotentParameterMismatch,
  kItemCollectionSizeLimitExceeded,
  kProvisionedThroughputExceeded,
  kRequestLimitExceeded,
  kInternalServerError,
  kExpiredIterator,
  kTrimmedDataAccess,
  kPolicyNotFound,
  kBackupNotFound,
  kBackupInUse,
  kTableAlreadyExists,
  kTableInUse,
  kTableNotFound,
  kContinuousBackupsUnavailable,
  kPointInTimeRecoveryUnavailable,
  kInvalidRestoreTime,
  kDuplicateItem,  // PartiQL INSERT of an existing key
  kThrottling,
  kServiceUnavailable,
  // Exports and imports (S3).
  kExportNotFound,
  kExportConflict,
  kInvalidExportTime,
  kImportNotFound,
  kImportConflict,
  // Multi-region strong consistency: a write meeting one from another region.
  kReplicatedWriteConflict,
  // Global tables version 2017.11.29 (legacy).
  kGlobalTableAlreadyExists,
  kGlobalTableNotFound,
  kReplicaAlreadyExists,
  kReplicaNotFound,
  kIndexNotFound,
  // Internal: a request's transaction found that another process sharing
  // the database changed the catalog (storage::CatalogCheck); the engine
  // reloads it and runs the request again. An InternalServerError if it
  // ever reached a client.
  kCatalogMoved,
};

struct ErrorInfo {
  std::string_view type;        // full __type, e.g. "com.amazon.coral.validate#ValidationException"
  std::string_view short_name;  // "ValidationException"
  int http_status;
  int grpc_code;  // grpc::StatusCode value
};

// The row of the error table for `code`.
const ErrorInfo& InfoOf(ErrorCode code);
// The code whose short name is `short_name` ("ValidationException"), or
// nullopt: how an error carried by name (over gRPC) is known again.
std::optional<ErrorCode> ErrorCodeOf(std::string_view short_name);

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Error Validation(std::string m) { return {ErrorCode::kValidation, std::move(m)}; }
  static Error Serialization(std::string m) { return {ErrorCode::kSerialization, std::move(m)}; }
  static Error ResourceNotFound(std::string m) { return {ErrorCode::kResourceNotFound, std::move(m)}; }
  static Error ResourceInUse(std::string m) { return {ErrorCode::kResourceInUse, std::move(m)}; }
  static Error LimitExceeded(std::string m) { return {ErrorCode::kLimitExceeded, std::move(m)}; }
  static Error Internal(std::string m) { return {ErrorCode::kInternalServerError, std::move(m)}; }
  static Error ConditionalCheckFailed() {
    return {ErrorCode::kConditionalCheckFailed, "The conditional request failed"};
  }
  // "One or more parameter values were invalid: " + detail, DynamoDB's most common form.
  static Error InvalidParameter(std::string_view detail);

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const ErrorInfo& info() const { return InfoOf(code_); }

  // Extra payload; null when there is none.
  const v1::ErrorDetail* detail() const { return detail_.get(); }
  void set_detail(std::shared_ptr<const v1::ErrorDetail> d) { detail_ = std::move(d); }

 private:
  ErrorCode code_;
  std::string message_;
  std::shared_ptr<const v1::ErrorDetail> detail_;
};

}  // namespace pogi
