// MD5 (RFC 1321), through Nettle: what S3 and DynamoDB's export manifests
// name objects' checksums by (ETag, md5Checksum). Not for security.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace pogi {

// An MD5 computed over pieces fed in turn.
class Md5 {
 public:
  Md5();
  ~Md5();
  void Update(std::string_view data);
  // The 16-byte digest (the object is spent afterwards).
  std::string Digest();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pogi
