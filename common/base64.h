// Standard base64 (RFC 4648, with padding), as DynamoDB JSON carries binary values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pogi {

std::string Base64Encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace pogi
