// UTF-8 well-formedness (RFC 3629: no overlong forms, no surrogates, at
// most U+10FFFF), and the encoding of one code point.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pogi {

bool IsValidUtf8(std::string_view s);
// Appends `code_point` (REQUIRES: at most 0x10FFFF, not a surrogate).
void AppendUtf8(uint32_t code_point, std::string* out);

}  // namespace pogi
