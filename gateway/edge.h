// The DynamoDB HTTP edge's small judgements, kept free of Beast: media types,
// the Authorization header's presence and form (checked on every request,
// even when signatures are not verified), request body inflation, response
// compression and the Date header.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::gateway {

// The media type of a Content-Type value: what precedes ';', spaces trimmed.
std::string_view MediaType(std::string_view content_type);

// What the edge knows of a request's authentication.
struct AuthView {
  bool has_header = false;  // an Authorization header was sent
  std::string_view header;  // its value
  bool has_date = false;    // an X-Amz-Date or Date header was sent
  std::string_view target;  // the request target, for query-string signing
};

// DynamoDB's answer when the Authorization header (or query-string signing)
// is missing or malformed: MissingAuthenticationToken, IncompleteSignature
// with DynamoDB's composed message, or InvalidSignature when both forms are
// present. nullopt when the form is right (the signature itself is not
// verified here).
// When the form is right and `credential` is given, it receives the
// header's Credential value (AKID/DATE/REGION/SERVICE/aws4_request), which
// names the request's region.
std::optional<Error> AuthorizationFormError(const AuthView& auth, std::string_view* credential = nullptr);

// Why a signature's X-Amz-Date is refused, as DynamoDB words it: not in
// ISO-8601 basic format, or more than 15 minutes before or after `now_unix`.
std::optional<Error> SignatureDateError(std::string_view amz_date, int64_t now_unix);

// Inflates a body sent with Content-Encoding `encoding` ("gzip" or
// "deflate", any case) into *out. Concatenated gzip members are one body.
// Errors: an unknown encoding or a broken stream is InternalServerError (what
// DynamoDB answers), an inflated body over `limit` bytes
// RequestEntityTooLarge.
Status InflateBody(std::string_view encoding, std::string_view body, size_t limit, std::string* out);

enum class Compression { kNone, kGzip, kDeflate };

// The compression one Accept-Encoding value (the request's first such
// header) asks for, as DynamoDB chooses among the encodings pogi produces
// (gzip, deflate):
// - names are case-insensitive; identity, unknown names and malformed
//   entries ("\"gzip\"", "gzip br", "gzip:q=1", a q that is no number)
//   are ignored;
// - an entry's q is its first "q=" (found even inside another parameter:
//   "gzip;nq=0;q=1" is q=0), trimmed; q > 1 counts as 1; q <= 0 refuses;
//   a name repeated keeps its highest q;
// - an encoding not named takes `*`'s q;
// - the highest q wins; at equal q a named encoding beats `*`, then the
//   earliest listed wins, then gzip ("*" alone is gzip).
// kNone when nothing acceptable is offered.
Compression ChosenCompression(std::string_view accept_encoding);

// Compresses `in` into *out (replaced); false if zlib failed.
bool Compress(Compression how, std::string_view in, std::string* out);

// The current time as an HTTP Date value ("Tue, 01 Dec 2026 09:36:34 GMT"),
// formatted once a second per thread.
std::string_view HttpDateNow();

}  // namespace pogi::gateway
