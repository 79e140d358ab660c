// The single table from ErrorCode to DynamoDB's __type, HTTP status and gRPC status.
#include "common/error.h"

#include <array>

namespace pogi {
namespace {

// gRPC status codes, spelled out so this file needs no gRPC header.
constexpr int kGrpcAborted = 10, kGrpcInvalidArgument = 3, kGrpcNotFound = 5, kGrpcFailedPrecondition = 9,
              kGrpcResourceExhausted = 8, kGrpcUnimplemented = 12, kGrpcUnauthenticated = 16,
              kGrpcPermissionDenied = 7, kGrpcInternal = 13, kGrpcAlreadyExists = 6, kGrpcUnavailable = 14;

// The three families of __type prefixes DynamoDB uses. Indexed by ErrorCode.
const std::array<ErrorInfo, 47> kTable = {{
    {"com.amazon.coral.validate#ValidationException", "ValidationException", 400, kGrpcInvalidArgument},
    {"com.amazon.coral.service#SerializationException", "SerializationException", 400, kGrpcInvalidArgument},
    {"com.amazon.coral.service#UnknownOperationException", "UnknownOperationException", 400,
     kGrpcUnimplemented},
    {"com.amazon.coral.service#MissingAuthenticationTokenException", "MissingAuthenticationTokenException",
     400, kGrpcUnauthenticated},
    {"com.amazon.coral.service#IncompleteSignatureException", "IncompleteSignatureException", 400,
     kGrpcUnauthenticated},
    {"com.amazon.coral.service#InvalidSignatureException", "InvalidSignatureException", 400,
     kGrpcUnauthenticated},
    {"com.amazon.coral.service#UnrecognizedClientException", "UnrecognizedClientException", 400,
     kGrpcUnauthenticated},
    {"com.amazon.coral.service#AccessDeniedException", "AccessDeniedException", 400, kGrpcPermissionDenied},
    {"com.amazon.coral.service#RequestEntityTooLargeException", "RequestEntityTooLargeException", 413,
     kGrpcResourceExhausted},
    {"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "ResourceNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#ResourceInUseException", "ResourceInUseException", 400,
     kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", "ConditionalCheckFailedException",
     400, kGrpcAborted},
    {"com.amazonaws.dynamodb.v20120810#LimitExceededException", "LimitExceededException", 400,
     kGrpcResourceExhausted},
    {"com.amazonaws.dynamodb.v20120810#TransactionCanceledException", "TransactionCanceledException", 400,
     kGrpcAborted},
    {"com.amazonaws.dynamodb.v20120810#TransactionConflictException", "TransactionConflictException", 400,
     kGrpcAborted},
    {"com.amazonaws.dynamodb.v20120810#TransactionInProgressException", "TransactionInProgressException", 400,
     kGrpcAborted},
    {"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
     "IdempotentParameterMismatchException", 400, kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException",
     "ItemCollectionSizeLimitExceededException", 400, kGrpcResourceExhausted},
    {"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
     "ProvisionedThroughputExceededException", 400, kGrpcResourceExhausted},
    {"com.amazonaws.dynamodb.v20120810#RequestLimitExceeded", "RequestLimitExceeded", 400,
     kGrpcResourceExhausted},
    {"com.amazonaws.dynamodb.v20120810#InternalServerError", "InternalServerError", 500, kGrpcInternal},
    // DynamoDB Streams' own (its other errors are the rows above).
    {"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", "ExpiredIteratorException", 400,
     kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", "TrimmedDataAccessException", 400,
     kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#PolicyNotFoundException", "PolicyNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#BackupNotFoundException", "BackupNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#BackupInUseException", "BackupInUseException", 400,
     kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException", "TableAlreadyExistsException", 400,
     kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#TableInUseException", "TableInUseException", 400,
     kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#TableNotFoundException", "TableNotFoundException", 400, kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#ContinuousBackupsUnavailableException",
     "ContinuousBackupsUnavailableException", 400, kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException",
     "PointInTimeRecoveryUnavailableException", 400, kGrpcFailedPrecondition},
    {"com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException", "InvalidRestoreTimeException", 400,
     kGrpcInvalidArgument},
    {"com.amazonaws.dynamodb.v20120810#DuplicateItemException", "DuplicateItemException", 400,
     kGrpcAlreadyExists},
    // Answered only by fault rules (pogi is never throttled or unavailable).
    {"com.amazon.coral.availability#ThrottlingException", "ThrottlingException", 400, kGrpcResourceExhausted},
    // DynamoDB's __type for a 503 is not documented; this one follows the
    // coral family of ThrottlingException.
    {"com.amazon.coral.availability#ServiceUnavailableException", "ServiceUnavailable", 503,
     kGrpcUnavailable},
    {"com.amazonaws.dynamodb.v20120810#ExportNotFoundException", "ExportNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#ExportConflictException", "ExportConflictException", 400,
     kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#InvalidExportTimeException", "InvalidExportTimeException", 400,
     kGrpcInvalidArgument},
    {"com.amazonaws.dynamodb.v20120810#ImportNotFoundException", "ImportNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#ImportConflictException", "ImportConflictException", 400,
     kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException", "ReplicatedWriteConflictException",
     400, kGrpcAborted},
    {"com.amazonaws.dynamodb.v20120810#GlobalTableAlreadyExistsException",
     "GlobalTableAlreadyExistsException", 400, kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException", "GlobalTableNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#ReplicaAlreadyExistsException", "ReplicaAlreadyExistsException", 400,
     kGrpcAlreadyExists},
    {"com.amazonaws.dynamodb.v20120810#ReplicaNotFoundException", "ReplicaNotFoundException", 400,
     kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#IndexNotFoundException", "IndexNotFoundException", 400, kGrpcNotFound},
    {"com.amazonaws.dynamodb.v20120810#InternalServerError", "InternalServerError", 500, kGrpcInternal},
}};

}  // namespace

const ErrorInfo& InfoOf(ErrorCode code) { return kTable[static_cast<size_t>(code)]; }

std::optional<ErrorCode> ErrorCodeOf(std::string_view short_name) {
  for (size_t i = 0; i < kTable.size(); ++i) {
    if (kTable[i].short_name == short_name) return static_cast<ErrorCode>(i);
  }
  return std::nullopt;
}

Error Error::InvalidParameter(std::string_view detail) {
  std::string m = "One or more parameter values were invalid: ";
  m.append(detail);
  return Validation(std::move(m));
}

}  // namespace pogi
