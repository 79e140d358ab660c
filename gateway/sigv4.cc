// SigV4: rebuild the canonical request and the string to sign from what was
// received, derive the signing key from the secret, compare signatures.
#include "gateway/sigv4.h"

#include <algorithm>
#include <map>
#include <optional>

#include "common/sha256.h"
#include "common/sigv4.h"
#include "gateway/edge.h"
#include "service/core/region.h"

namespace pogi::gateway {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

// "k1=v1, k2=v2" after the algorithm name.
std::map<std::string, std::string> AuthorizationFields(std::string_view rest) {
  std::map<std::string, std::string> fields;
  size_t pos = 0;
  while (pos < rest.size()) {
    size_t comma = rest.find(',', pos);
    std::string_view part =
        rest.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    size_t eq = part.find('=');
    if (eq != std::string_view::npos)
      fields[std::string(part.substr(0, eq))] = std::string(part.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return fields;
}

Error Incomplete(const std::string& what) { return Error(ErrorCode::kIncompleteSignature, what); }

Error Invalid(const std::string& what) { return Error(ErrorCode::kInvalidSignature, what); }

// The credential scope DATE/REGION/SERVICE/aws4_request must name the day
// of X-Amz-Date, a region pogi answers, DynamoDB (DynamoDB Streams
// signs as "dynamodb" too) and the SigV4 terminator. The region and service
// texts, trailing spaces included, are AWS's as SDK users have reported
// them; the date and terminator texts follow AWS's form but were not found
// verbatim (AWS documents only that such requests are rejected). AWS's
// order of these checks is not known; pogi's is the scope's.
std::optional<Error> CredentialScopeError(const std::vector<std::string>& scope, std::string_view amz_date) {
  std::string_view day = amz_date.substr(0, 8);
  if (scope[0] != day) {
    return Invalid(
        "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '" +
        scope[0] + "' != '" + std::string(day) + "', from '" + std::string(amz_date) + "'.");
  }
  // pogi serves its own region, every region under --strict-regions, and
  // the regions of global tables' replicas.
  if (!service::ServesRegion(scope[1])) {
    return Invalid("Credential should be scoped to a valid region, not '" + scope[1] + "'. ");
  }
  if (scope[2] != "dynamodb") return Invalid("Credential should be scoped to correct service: 'dynamodb'. ");
  if (scope[3] != "aws4_request") {
    return Invalid("Credential should be scoped with a valid terminator: 'aws4_request', not '" + scope[3] +
                   "'. ");
  }
  return std::nullopt;
}

}  // namespace

Status VerifySignature(const SignedRequest& req, const Credentials& creds, int64_t now_unix) {
  std::map<std::string, std::string> headers;  // lower-case name -> value
  for (const auto& [name, value] : req.headers) headers[Lower(name)] = std::string(value);
  auto auth = headers.find("authorization");
  if (auth == headers.end()) {
    return Error(ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token");
  }
  constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256 ";
  if (!std::string_view(auth->second).starts_with(kAlgorithm)) {
    return Incomplete(
        "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. "
        "Authorization=" +
        auth->second);
  }
  auto fields = AuthorizationFields(std::string_view(auth->second).substr(kAlgorithm.size()));
  if (!fields.count("Credential") || !fields.count("SignedHeaders") || !fields.count("Signature")) {
    return Incomplete(
        "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. "
        "Authorization=" +
        auth->second);
  }
  // Credential=AKID/date/region/service/aws4_request
  const std::string& credential = fields["Credential"];
  size_t slash = credential.find('/');
  if (slash == std::string::npos) return Incomplete("Credential should be scoped to a valid region.");
  std::string access_key = credential.substr(0, slash);
  std::string scope = credential.substr(slash + 1);
  std::vector<std::string> parts;
  for (size_t p = 0; p <= scope.size();) {
    size_t q = scope.find('/', p);
    parts.push_back(scope.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  if (parts.size() != 4) return Incomplete("Credential should be scoped correctly.");
  auto date = headers.find("x-amz-date");
  if (date == headers.end()) {
    return Incomplete("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  }
  // DynamoDB refuses a signature dated more than 15 minutes away from now,
  // before it looks the access key up (the HTTP server checks it earlier
  // still, before reading the body: HttpRequestReader).
  if (std::optional<Error> e = SignatureDateError(date->second, now_unix)) return *e;
  if (access_key != creds.access_key_id) {
    return Error(ErrorCode::kUnrecognizedClient, "The security token included in the request is invalid.");
  }
  if (std::optional<Error> e = CredentialScopeError(parts, date->second)) return *e;

  std::string canonical_headers;
  const std::string& signed_headers = fields["SignedHeaders"];
  for (size_t p = 0; p <= signed_headers.size();) {
    size_t q = signed_headers.find(';', p);
    std::string name = signed_headers.substr(p, q == std::string::npos ? std::string::npos : q - p);
    auto it = headers.find(name);
    canonical_headers +=
        name + ":" + (it == headers.end() ? std::string() : sigv4::CanonicalHeaderValue(it->second)) + "\n";
    if (q == std::string::npos) break;
    p = q + 1;
  }
  auto payload_hash = headers.find("x-amz-content-sha256");
  std::string canonical = sigv4::CanonicalRequest(
      req.method, req.path, "", canonical_headers, signed_headers,
      payload_hash != headers.end() ? payload_hash->second : sigv4::Sha256Hex(req.body));
  std::string to_sign = sigv4::StringToSign(date->second, scope, canonical);
  std::string expected =
      sigv4::Signature(sigv4::SigningKey(creds.secret_access_key, parts[0], parts[1], parts[2]), to_sign);
  // Constant-time: no timing oracle on how much of a guess was right.
  if (!SecretEquals(fields["Signature"], expected)) {
    return Error(
        ErrorCode::kInvalidSignature,
        "The request signature we calculated does not match the signature you provided. Check your AWS "
        "Secret Access Key and signing method. Consult the service documentation for details.");
  }
  return Status::Ok();
}

}  // namespace pogi::gateway
