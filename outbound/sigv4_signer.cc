// SigV4 over an HttpRequest: the canonical URI and query from its target,
// every header signed, lower-case names in order.
#include "outbound/sigv4_signer.h"

#include <algorithm>
#include <ctime>
#include <vector>

#include "common/sigv4.h"

namespace pogi::outbound {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

// Decodes %XX (the target holds encoded text; SigV4 encodes it once more
// from the decoded form).
std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// The query's parameters, each name and value encoded, sorted by name
// then value, joined by '&'.
std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  size_t p = 0;
  while (p < query.size()) {
    size_t amp = query.find('&', p);
    std::string_view part = query.substr(p, amp == std::string_view::npos ? std::string_view::npos : amp - p);
    if (!part.empty()) {
      size_t eq = part.find('=');
      std::string name = PercentDecode(part.substr(0, eq));
      std::string value = eq == std::string_view::npos ? "" : PercentDecode(part.substr(eq + 1));
      params.emplace_back(sigv4::UriEncode(name, true), sigv4::UriEncode(value, true));
    }
    if (amp == std::string_view::npos) break;
    p = amp + 1;
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out.push_back('&');
    out.append(k).append("=").append(v);
  }
  return out;
}

}  // namespace

std::string AmzDate(int64_t unix_seconds) {
  time_t t = static_cast<time_t>(unix_seconds);
  tm parts;
  gmtime_r(&t, &parts);
  char buf[20];
  strftime(buf, sizeof(buf), "%Y%m%dT%H%M%SZ", &parts);
  return buf;
}

void SignRequest(HttpRequest& request, const Endpoint& endpoint, const SigningIdentity& identity,
                 int64_t unix_seconds, std::string_view payload_hash) {
  std::string amz_date = AmzDate(unix_seconds);
  std::string hash = payload_hash.empty() ? sigv4::Sha256Hex(request.body) : std::string(payload_hash);
  if (FindHeader(request.headers, "host").empty())
    request.headers.emplace_back("Host", endpoint.HostHeader());
  request.headers.emplace_back("X-Amz-Date", amz_date);
  request.headers.emplace_back("X-Amz-Content-Sha256", hash);

  std::string full_target = endpoint.base_path + request.target;
  size_t q = full_target.find('?');
  std::string path = full_target.substr(0, q);
  std::string query = q == std::string::npos ? "" : full_target.substr(q + 1);
  // S3 signs the path as sent (each segment encoded once); pogi's targets
  // are built encoded already, so the path is taken as it is.
  std::vector<std::pair<std::string, std::string>> signed_headers;
  for (const auto& [k, v] : request.headers) {
    signed_headers.emplace_back(Lower(k), sigv4::CanonicalHeaderValue(v));
  }
  std::sort(signed_headers.begin(), signed_headers.end());
  std::string canonical_headers, names;
  for (const auto& [k, v] : signed_headers) {
    canonical_headers.append(k).append(":").append(v).append("\n");
    if (!names.empty()) names.push_back(';');
    names.append(k);
  }
  std::string canonical =
      sigv4::CanonicalRequest(request.method, path, CanonicalQuery(query), canonical_headers, names, hash);
  std::string scope = sigv4::CredentialScope(amz_date, identity.region, identity.service);
  std::string signature = sigv4::Signature(
      sigv4::SigningKey(identity.secret_access_key, amz_date.substr(0, 8), identity.region, identity.service),
      sigv4::StringToSign(amz_date, scope, canonical));
  request.headers.emplace_back("Authorization", std::string(sigv4::kAlgorithm) +
                                                    " Credential=" + identity.access_key_id + "/" + scope +
                                                    ", SignedHeaders=" + names + ", Signature=" + signature);
}

}  // namespace pogi::outbound
