// What the S3 jobs' operations share (ExportTableToPointInTime, ImportTable,
// StartBulkPutItems and their Describe and List calls): the member
// constraints of DynamoDB's model for buckets, prefixes, tokens and CSV
// options, the ids of new jobs, what a ClientToken's request was, and the
// NextToken of a listing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/sigv4.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

// A ClientToken of an import or a bulk operation: ^[^\$]+$.
void CheckClientToken(Constraints& c, const std::string* token, std::string_view path);
// An S3 bucket name (at most 255 characters, DynamoDB's pattern), and a
// bucket owner (an account id, [0-9]{12}).
void CheckS3Bucket(Constraints& c, const std::string* bucket, std::string_view path);
void CheckS3BucketOwner(Constraints& c, const std::string* owner, std::string_view path);
// ImportTable's S3BucketSource at `path` (null: absent).
void CheckS3BucketSource(Constraints& c, const v1::S3BucketSource* source, std::string_view path);
// ImportTable's InputFormatOptions.Csv at `path`: a delimiter of one of
// , ; : | tab space, and 1-255 header names of printable characters but
// '"' and ','.
void CheckCsvOptions(Constraints& c, const v1::CsvOptions& csv, std::string_view path);

// A new job's id, as DynamoDB's exports and imports have them: the start in
// milliseconds (14 digits), '-', 8 hex digits.
std::string NewJobId(double now);

// What a start request was, for its ClientToken: the hex SHA-256 of the
// request without its token.
template <typename Request>
std::string RequestFingerprint(Request req) {
  req.clear_client_token();
  return sigv4::Sha256Hex(req.SerializeAsString());
}

// ListImports' NextToken for a page that goes on after the job `arn`:
// DynamoDB's form (hex digits in groups of 16, at least 112), and back.
std::string ListTokenOf(std::string_view arn);
std::optional<std::string> ArnOfListToken(std::string_view token);

}  // namespace pogi::service
