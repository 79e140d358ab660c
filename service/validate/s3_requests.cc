// The S3 jobs' shared checks, ids and tokens.
#include "service/validate/s3_requests.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace pogi::service {
namespace {

bool IsAlnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$: letters or digits at both ends, and
// '.', '-', '_' allowed between.
bool IsBucketName(const std::string& s) {
  if (s.size() < 2 || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (unsigned char c : s) {
    if (!IsAlnum(c) && c != '.' && c != '-' && c != '_') return false;
  }
  return true;
}

bool IsHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

void CheckClientToken(Constraints& c, const std::string* token, std::string_view path) {
  if (!token) return;
  c.Pattern(token, !token->empty() && token->find('$') == std::string::npos, "^[^\\$]+$", path);
}

void CheckS3Bucket(Constraints& c, const std::string* bucket, std::string_view path) {
  if (!bucket) return;
  c.Length(bucket, 0, 255, path);
  c.Pattern(bucket, IsBucketName(*bucket), "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$", path);
}

void CheckS3BucketOwner(Constraints& c, const std::string* owner, std::string_view path) {
  if (!owner) return;
  bool digits = owner->size() == 12;
  for (char ch : *owner) digits = digits && ch >= '0' && ch <= '9';
  c.Pattern(owner, digits, "[0-9]{12}", path);
}

void CheckS3BucketSource(Constraints& c, const v1::S3BucketSource* source, std::string_view path) {
  if (!source) return;
  std::string at(path);
  CheckS3BucketOwner(c, source->has_s3_bucket_owner() ? &source->s3_bucket_owner() : nullptr,
                     at + ".s3BucketOwner");
  c.Required(source->has_s3_bucket(), at + ".s3Bucket");
  CheckS3Bucket(c, source->has_s3_bucket() ? &source->s3_bucket() : nullptr, at + ".s3Bucket");
  c.Length(source->has_s3_key_prefix() ? &source->s3_key_prefix() : nullptr, 0, 1024, at + ".s3KeyPrefix");
}

void CheckCsvOptions(Constraints& c, const v1::CsvOptions& csv, std::string_view path) {
  std::string at(path);
  if (csv.has_delimiter()) {
    const std::string& d = csv.delimiter();
    c.Length(&d, 1, 1, at + ".delimiter");
    c.Pattern(&d, d.size() == 1 && std::string_view(",;:|\t ").find(d[0]) != std::string_view::npos,
              "[,;:|\\t ]", at + ".delimiter");
  }
  // An absent and an empty list look the same here: no list, no check.
  if (csv.header_list_size() > 255) {
    c.Count(csv.header_list_size(), 1, 255, "[...]", at + ".headerList");
  }
  for (int i = 0; i < csv.header_list_size(); ++i) {
    const std::string& h = csv.header_list(i);
    std::string member = at + ".headerList." + std::to_string(i + 1) + ".member";
    c.Length(&h, 1, 65536, member);
    bool printable = true;
    for (unsigned char ch : h) printable = printable && ch >= 0x20 && ch <= 0x7e && ch != '"' && ch != ',';
    c.Pattern(&h, printable, "[\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*", member);
  }
}

std::string NewJobId(double now) {
  static thread_local std::mt19937 rng{std::random_device{}()};
  char buf[32];
  snprintf(buf, sizeof(buf), "%014lld-%08x", static_cast<long long>(std::llround(now * 1000)),
           static_cast<unsigned>(rng()));
  return buf;
}

std::string ListTokenOf(std::string_view arn) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : arn) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  // Padded with zero bytes to DynamoDB's shape; an ARN has none of its own.
  while (out.size() < 112 || out.size() % 16 != 0) out.push_back('0');
  return out;
}

std::optional<std::string> ArnOfListToken(std::string_view token) {
  if (token.size() < 112 || token.size() % 16 != 0 || !IsHex(token)) return std::nullopt;
  std::string arn;
  for (size_t i = 0; i + 1 < token.size(); i += 2) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    char c = static_cast<char>(nibble(token[i]) << 4 | nibble(token[i + 1]));
    if (c == 0) break;
    arn.push_back(c);
  }
  return arn;
}

}  // namespace pogi::service
