// Signs pogi's own requests to AWS-compatible services with Signature
// Version 4, from the primitives the HTTP door's verifier uses
// (common/sigv4.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "outbound/http_client.h"

namespace pogi::outbound {

struct SigningIdentity {
  std::string access_key_id;
  std::string secret_access_key;
  std::string region = "us-east-1";
  std::string service;  // "s3", "kinesis"
};

// "UNSIGNED-PAYLOAD": S3 accepts it in x-amz-content-sha256 in place of the
// body's hash.
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";

// YYYYMMDDTHHMMSSZ of `unix_seconds`.
std::string AmzDate(int64_t unix_seconds);

// Adds Host, X-Amz-Date, X-Amz-Content-Sha256 and Authorization to
// `request` (whose target holds the path and the query as sent), signing
// every header it then has. `payload_hash` is the body's lower-case hex
// SHA-256, or kUnsignedPayload; empty: computed from request.body.
void SignRequest(HttpRequest& request, const Endpoint& endpoint, const SigningIdentity& identity,
                 int64_t unix_seconds, std::string_view payload_hash = {});

}  // namespace pogi::outbound
