// Standard base64 (RFC 4648, with padding), as DynamoDB JSON carries binary values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pogi {

std::string Base64Encode(std::string_view bytes);
// nullopt when `text` is not canonical padded base64: a length that is not
// a multiple of 4, a character outside the alphabet, a misplaced pad, or a
// last quantum whose unused bits are not zero (DynamoDB refuses "YR==").
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace pogi
