// AWS Signature Version 4 verification of DynamoDB requests, for
// `pogi start --check-signatures`. Off by default, as in the emulators users
// know; when on, a request must be signed with the configured credentials.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace pogi::gateway {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
};

// What the verifier needs of a request: method, path, every header (names as
// sent) and the body.
struct SignedRequest {
  std::string_view method;
  std::string_view path;
  std::vector<std::pair<std::string_view, std::string_view>> headers;
  std::string_view body;
};

// OK when the request carries a valid SigV4 signature made with
// `credentials`; otherwise DynamoDB's error (MissingAuthenticationToken,
// IncompleteSignature, UnrecognizedClient or InvalidSignature). A signature
// whose X-Amz-Date is more than 15 minutes from `now_unix` (seconds since the
// epoch) is refused as expired or not yet current.
Status VerifySignature(const SignedRequest& request, const Credentials& credentials, int64_t now_unix);

}  // namespace pogi::gateway
