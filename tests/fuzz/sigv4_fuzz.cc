// libFuzzer target: the Authorization header and SigV4 code, gateway/sigv4.cc
// (canonical request, credential scope, signed headers) and the edge's form
// and date checks of gateway/edge.cc.
//
// Input: "METHOD\nTARGET\nName: value\n...\n\nbody", as an HTTP request
// reaches them once Beast has split it (the http target covers that split).
#include <cstdint>
#include <string_view>

#include "gateway/edge.h"
#include "gateway/sigv4.h"

namespace {

// Splits off the text up to the next '\n' (all of it when there is none).
std::string_view Line(std::string_view* rest) {
  size_t nl = rest->find('\n');
  std::string_view line = rest->substr(0, nl);
  rest->remove_prefix(nl == std::string_view::npos ? rest->size() : nl + 1);
  return line;
}

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? a[i] + 32 : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? b[i] + 32 : b[i];
    if (x != y) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  pogi::gateway::SignedRequest req;
  req.method = Line(&rest);
  req.path = Line(&rest);
  pogi::gateway::AuthView auth;
  auth.target = req.path;
  std::string_view amz_date;
  while (!rest.empty()) {
    std::string_view line = Line(&rest);
    if (line.empty()) break;
    size_t colon = line.find(':');
    std::string_view name = line.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    req.headers.emplace_back(name, value);
    if (SameName(name, "authorization")) {
      auth.has_header = true;
      auth.header = value;
    } else if (SameName(name, "x-amz-date") || SameName(name, "date")) {
      auth.has_date = true;
      if (SameName(name, "x-amz-date")) amz_date = value;
    }
  }
  req.body = rest;
  // 2026-01-01T00:00:00Z, the date of the seeds' signatures.
  constexpr int64_t kNow = 1767225600;
  (void)pogi::gateway::AuthorizationFormError(auth);
  (void)pogi::gateway::SignatureDateError(amz_date, kNow);
  pogi::gateway::Credentials creds{"pogi", "pogisecret"};
  (void)pogi::gateway::VerifySignature(req, creds, kNow);
  return 0;
}
