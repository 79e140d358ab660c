// SHA-256 (FIPS 180-4), HMAC-SHA256 (RFC 2104) and a constant-time
// comparison, for SigV4, from Nettle linked statically (a small library: the
// static OpenSSL 3 pogi once used added 4.3 MB to the binary and 0.8 MB of
// idle memory for these functions).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace pogi {

// The 32-byte digest of `data`.
std::array<uint8_t, 32> Sha256(std::string_view data);
// The 32-byte HMAC-SHA256 of `data` under `key`, as a byte string.
std::string HmacSha256(std::string_view key, std::string_view data);
// Whether a == b, in time that depends only on their length.
bool SecretEquals(std::string_view a, std::string_view b);
// Lower-case hex of bytes.
std::string ToHex(std::string_view bytes);

}  // namespace pogi
