// The HTTP edge's judgements: media types, Authorization form, compression,
// dates. The Authorization texts are DynamoDB's, as recorded by dynalite's
// connection tests; the date texts are AWS's SigV4 ones.
#include "gateway/edge.h"

#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace pogi::gateway {
namespace {

bool IEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (tolower(static_cast<unsigned char>(a[i])) != tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Whether the query string of `target` has `key` (with or without a value),
// and whether that value is non-empty.
struct QueryParam {
  bool present = false;
  bool has_value = false;
};

QueryParam FindQueryParam(std::string_view target, std::string_view key) {
  QueryParam found;
  size_t q = target.find('?');
  if (q == std::string_view::npos) return found;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    size_t eq = part.find('=');
    if (part.substr(0, eq) == key) {
      found.present = true;
      found.has_value = eq != std::string_view::npos && eq + 1 < part.size();
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return found;
}

// Parses "YYYYMMDDTHHMMSSZ" into seconds since the epoch.
std::optional<int64_t> ParseBasicDate(std::string_view s) {
  if (s.size() != 16 || s[8] != 'T' || s[15] != 'Z') return std::nullopt;
  auto digits = [&](size_t at, size_t n) -> std::optional<int> {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  auto year = digits(0, 4), month = digits(4, 2), day = digits(6, 2);
  auto hour = digits(9, 2), minute = digits(11, 2), second = digits(13, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = *year - 1900;
  tm.tm_mon = *month - 1;
  tm.tm_mday = *day;
  tm.tm_hour = *hour;
  tm.tm_min = *minute;
  tm.tm_sec = *second;
  return static_cast<int64_t>(timegm(&tm));
}

std::string BasicDate(int64_t unix_seconds) {
  time_t t = static_cast<time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

Error Broken() {
  // What DynamoDB answers (HTTP 500) for a body its Content-Encoding does
  // not decode; the message is pogi's choice, DynamoDB's is not recorded.
  return Error(ErrorCode::kInternalServerError,
               "The request processing has failed because the request body could not be decoded.");
}

}  // namespace

std::string_view MediaType(std::string_view content_type) {
  return Trim(content_type.substr(0, content_type.find(';')));
}

std::optional<Error> AuthorizationFormError(const AuthView& auth, std::string_view* credential_value) {
  QueryParam algorithm = FindQueryParam(auth.target, "X-Amz-Algorithm");
  if (auth.has_header && algorithm.present) {
    return Error(ErrorCode::kInvalidSignature,
                 "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
  }
  std::string_view header = Trim(auth.header);
  if ((!auth.has_header && !algorithm.present) || (auth.has_header && !header.starts_with("AWS4-"))) {
    return Error(ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token");
  }
  std::string message;
  if (auth.has_header) {
    // After the algorithm: "k=v" pairs separated by commas and/or spaces.
    // One pass with plain comparisons: string_view::find_first_of calls
    // memchr once per character, ~3,000 instructions for a usual header on
    // every request.
    bool credential = false, signature = false, signed_headers = false;
    auto separator = [](char c) { return c == ',' || c == ' '; };
    size_t i = 0;
    while (i < header.size() && !separator(header[i])) ++i;  // the algorithm
    while (i < header.size()) {
      size_t start = ++i;
      while (i < header.size() && !separator(header[i])) ++i;
      std::string_view token = header.substr(start, i - start);
      size_t eq = token.find('=');
      if (eq != std::string_view::npos) {
        std::string_view key = token.substr(0, eq);
        std::string_view value = token.substr(eq + 1);
        value = value.substr(0, value.find('='));
        if (!value.empty()) {
          if (key == "Credential") {
            credential = true;
            if (credential_value) *credential_value = value;
          }
          if (key == "Signature") signature = true;
          if (key == "SignedHeaders") signed_headers = true;
        }
      }
    }
    if (!credential) message += "Authorization header requires 'Credential' parameter. ";
    if (!signature) message += "Authorization header requires 'Signature' parameter. ";
    if (!signed_headers) message += "Authorization header requires 'SignedHeaders' parameter. ";
    if (!auth.has_date) {
      message += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
    }
    if (!message.empty()) message += "Authorization=" + std::string(auth.header);
  } else {
    for (std::string_view param :
         {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders", "X-Amz-Date"}) {
      if (!FindQueryParam(auth.target, param).has_value) {
        message += "AWS query-string parameters must include '" + std::string(param) + "'. ";
      }
    }
    if (!message.empty()) message += "Re-examine the query-string parameters.";
  }
  if (message.empty()) return std::nullopt;
  return Error(ErrorCode::kIncompleteSignature, std::move(message));
}

std::optional<Error> SignatureDateError(std::string_view amz_date, int64_t now_unix) {
  std::optional<int64_t> when = ParseBasicDate(amz_date);
  if (!when) {
    return Error(ErrorCode::kIncompleteSignature, "Date must be in ISO-8601 'basic format'. Got '" +
                                                      std::string(amz_date) +
                                                      "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  constexpr int64_t kSkew = 15 * 60;
  if (*when < now_unix - kSkew) {
    return Error(ErrorCode::kInvalidSignature, "Signature expired: " + std::string(amz_date) +
                                                   " is now earlier than " + BasicDate(now_unix - kSkew) +
                                                   " (" + BasicDate(now_unix) + " - 15 min.)");
  }
  if (*when > now_unix + kSkew) {
    return Error(ErrorCode::kInvalidSignature, "Signature not yet current: " + std::string(amz_date) +
                                                   " is still later than " + BasicDate(now_unix + kSkew) +
                                                   " (" + BasicDate(now_unix) + " + 15 min.)");
  }
  return std::nullopt;
}

Status InflateBody(std::string_view encoding, std::string_view body, size_t limit, std::string* out) {
  encoding = Trim(encoding);
  bool gzip = IEquals(encoding, "gzip") || IEquals(encoding, "x-gzip");
  if (!gzip && !IEquals(encoding, "deflate")) return Broken();
  out->clear();
  z_stream z{};
  // 32 + 15: zlib or gzip framing, told apart by the header. A "deflate"
  // body without zlib framing (some clients send raw deflate) is retried raw.
  bool raw = false;
  for (;;) {
    if (inflateInit2(&z, raw ? -15 : 32 + 15) != Z_OK) return Broken();
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    z.avail_in = static_cast<uInt>(body.size());
    int rc = Z_OK;
    char chunk[16384];
    while (rc == Z_OK) {
      z.next_out = reinterpret_cast<Bytef*>(chunk);
      z.avail_out = sizeof chunk;
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) break;
      size_t got = sizeof chunk - z.avail_out;
      if (out->size() + got > limit) {
        inflateEnd(&z);
        return Error(ErrorCode::kRequestEntityTooLarge, "Request size exceeded 16777216 bytes");
      }
      out->append(chunk, got);
      // Another gzip member follows: the body is their concatenation.
      if (rc == Z_STREAM_END && gzip && z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b) {
        if (inflateReset(&z) != Z_OK) break;
        rc = Z_OK;
      }
      if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
        rc = Z_BUF_ERROR;  // input ended before the stream did
        break;
      }
    }
    inflateEnd(&z);
    if (rc == Z_STREAM_END) return Status::Ok();
    if (!gzip && !raw && out->empty()) {
      raw = true;
      z = z_stream{};
      continue;
    }
    return Broken();
  }
}

namespace {

// An Accept-Encoding q value: a plain decimal ("1", "0.5", "0.", ".5",
// "-1", "31"), clamped to at most 1; nullopt when it is not one.
std::optional<double> ParseQ(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  bool digits = false, whole = false;  // any digit; a non-zero digit before the point
  double fraction = 0, scale = 1;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    digits = true;
    whole |= s[i] != '0';
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      digits = true;
      scale /= 10;
      fraction += (s[i] - '0') * scale;
    }
  }
  if (!digits || i != s.size()) return std::nullopt;
  double q = whole ? 1.0 : fraction;  // q > 1 counts as 1
  return negative ? -q : q;
}

// Where the first "q=" of an entry's parameters begins, any case. DynamoDB
// matches it inside other parameters too: "gzip;nq=0;q=1" is refused.
size_t FindQ(std::string_view params) {
  for (size_t i = 0; i + 1 < params.size(); ++i) {
    if ((params[i] == 'q' || params[i] == 'Q') && params[i + 1] == '=') return i;
  }
  return std::string_view::npos;
}

}  // namespace

Compression ChosenCompression(std::string_view accept_encoding) {
  // What the entries say of each encoding pogi produces: its highest q and
  // the position of the first entry giving it; `*` the same.
  struct Offer {
    bool named = false;
    double q = 0;
    int position = 0;
  };
  Offer gzip, deflate, star;
  int position = 0;
  while (!accept_encoding.empty()) {
    size_t comma = accept_encoding.find(',');
    std::string_view entry = accept_encoding.substr(0, comma);
    accept_encoding.remove_prefix(comma == std::string_view::npos ? accept_encoding.size() : comma + 1);
    size_t semi = entry.find(';');
    std::string_view name = Trim(entry.substr(0, semi));
    Offer* offer = IEquals(name, "gzip")      ? &gzip
                   : IEquals(name, "deflate") ? &deflate
                   : name == "*"              ? &star
                                              : nullptr;
    if (!offer) continue;  // identity, unknown or malformed ("\"gzip\"", "gzip br", "gzip:q=1")
    double q = 1;
    if (semi != std::string_view::npos) {
      // Only the first q= counts; its value runs to the next ';'.
      std::string_view params = entry.substr(semi + 1);
      if (size_t at = FindQ(params); at != std::string_view::npos) {
        std::string_view value = params.substr(at + 2);
        std::optional<double> parsed = ParseQ(Trim(value.substr(0, value.find(';'))));
        if (!parsed) continue;  // a malformed q: the entry is ignored
        q = *parsed;
      }
    }
    ++position;
    // A name repeated keeps its best q: "gzip;q=0, gzip;q=1" accepts gzip.
    if (!offer->named || q > offer->q) {
      offer->q = q;
      offer->position = position;
    }
    offer->named = true;
  }
  // An encoding not named takes `*`'s q; named, it beats `*` at equal q.
  struct Choice {
    Compression how;
    double q;
    bool named;
    int position;
  };
  auto choice = [&](Compression how, const Offer& own) {
    if (own.named) return Choice{how, own.q, true, own.position};
    if (star.named) return Choice{how, star.q, false, star.position};
    return Choice{how, 0, false, 0};
  };
  Choice g = choice(Compression::kGzip, gzip), d = choice(Compression::kDeflate, deflate);
  // Highest q; then a named encoding over `*`; then the earliest listed;
  // then gzip (so that `*` alone is gzip).
  auto better = [](const Choice& a, const Choice& b) {
    if (a.q != b.q) return a.q > b.q;
    if (a.named != b.named) return a.named;
    return a.position <= b.position;
  };
  const Choice& best = better(g, d) ? g : d;
  return best.q > 0 ? best.how : Compression::kNone;  // q=0, q=0. and negative q refuse
}

bool Compress(Compression how, std::string_view in, std::string* out) {
  z_stream z{};
  // Fast compression: the answer's latency matters more than its last bytes.
  if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, how == Compression::kGzip ? 16 + 15 : 15, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return false;
  }
  out->resize(deflateBound(&z, in.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out->data());
  z.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&z, Z_FINISH);
  out->resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END;
}

std::string_view HttpDateNow() {
  thread_local time_t last = 0;
  thread_local char buf[40];
  thread_local size_t len = 0;
  time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  if (now != last) {
    last = now;
    std::tm tm{};
    gmtime_r(&now, &tm);
    static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int n = snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
                     kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    len = n > 0 ? static_cast<size_t>(n) : 0;
  }
  return {buf, len};
}

}  // namespace pogi::gateway
