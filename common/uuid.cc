#include "common/uuid.h"

#include <cstdint>
#include <cstdio>
#include <random>

namespace pogi {

std::string RandomUuid() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng(), b = rng();
  char buf[40];
  // The version nibble is 4 and the variant bits are 10, as RFC 4122 says.
  snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
           static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
           static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3fff)),
           static_cast<unsigned long long>(b & 0xffffffffffffull));
  return buf;
}

}  // namespace pogi
