// The pieces of AWS Signature Version 4 that signing a request and checking
// one share: the canonical forms, the string to sign, the signing key and
// the signature. pogi checks signatures at its HTTP door
// (gateway/sigv4.cc) and signs its own requests to S3 and Kinesis
// (outbound/sigv4_signer.cc) with these same functions.
#pragma once

#include <string>
#include <string_view>

namespace pogi::sigv4 {

inline constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

// Lower-case hex SHA-256 of `data` (the payload hash, the canonical
// request's hash).
std::string Sha256Hex(std::string_view data);

// A header value as the canonical request holds it: trimmed, inner runs of
// spaces and tabs collapsed to one space.
std::string CanonicalHeaderValue(std::string_view value);

// RFC 3986 percent-encoding as SigV4 wants it: unreserved characters
// (A-Z a-z 0-9 - . _ ~) kept, every other byte as %XX (upper-case hex);
// '/' kept unless `encode_slash` (a path keeps its slashes, a query value
// does not).
std::string UriEncode(std::string_view s, bool encode_slash);

// The canonical request: METHOD\nURI\nQUERY\nHEADERS\n\nSIGNED\nPAYLOAD_HASH,
// where `canonical_headers` is "name:value\n" for each signed header in
// order (names lower-case, values canonical) and `signed_headers` their
// names joined by ';'.
std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, std::string_view canonical_headers,
                             std::string_view signed_headers, std::string_view payload_hash);

// "DATE/REGION/SERVICE/aws4_request" for an X-Amz-Date of YYYYMMDDTHHMMSSZ.
std::string CredentialScope(std::string_view amz_date, std::string_view region, std::string_view service);

// ALGORITHM\nAMZ_DATE\nSCOPE\nhex(sha256(canonical_request)).
std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request);

// The key HMAC chain AWS4+secret -> date -> region -> service ->
// "aws4_request" (raw bytes).
std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service);

// Lower-case hex HMAC-SHA256 of the string to sign under the signing key.
std::string Signature(std::string_view signing_key, std::string_view string_to_sign);

}  // namespace pogi::sigv4
