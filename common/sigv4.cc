// SigV4's canonical forms and key derivation (AWS General Reference,
// "Create a signed AWS API request"), over common/sha256.
#include "common/sigv4.h"

#include "common/sha256.h"

namespace pogi::sigv4 {

std::string Sha256Hex(std::string_view data) {
  auto digest = Sha256(data);
  return ToHex(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

std::string CanonicalHeaderValue(std::string_view v) {
  std::string out;
  bool space = false;
  for (char c : v) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

std::string UriEncode(std::string_view s, bool encode_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved || (c == '/' && !encode_slash)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, std::string_view canonical_headers,
                             std::string_view signed_headers, std::string_view payload_hash) {
  std::string out;
  out.reserve(method.size() + canonical_uri.size() + canonical_query.size() + canonical_headers.size() +
              signed_headers.size() + payload_hash.size() + 8);
  out.append(method).append("\n");
  out.append(canonical_uri.empty() ? std::string_view("/") : canonical_uri).append("\n");
  out.append(canonical_query).append("\n");
  out.append(canonical_headers).append("\n");
  out.append(signed_headers).append("\n");
  out.append(payload_hash);
  return out;
}

std::string CredentialScope(std::string_view amz_date, std::string_view region, std::string_view service) {
  std::string out(amz_date.substr(0, 8));
  out.append("/").append(region).append("/").append(service).append("/aws4_request");
  return out;
}

std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request) {
  std::string out(kAlgorithm);
  out.append("\n").append(amz_date).append("\n").append(scope).append("\n");
  out.append(Sha256Hex(canonical_request));
  return out;
}

std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service) {
  std::string key = HmacSha256("AWS4" + std::string(secret), date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  return HmacSha256(key, "aws4_request");
}

std::string Signature(std::string_view signing_key, std::string_view string_to_sign) {
  return ToHex(HmacSha256(signing_key, string_to_sign));
}

}  // namespace pogi::sigv4
