// Multi-attribute key encoding: escaped, terminated elements.
#include "service/value/key_tuple.h"

#include "service/value/item.h"

namespace pogi::value {

void AppendKeyElementPrefix(std::string_view encoded, std::string* out) {
  for (char c : encoded) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xFF');
  }
}

void AppendKeyElement(std::string_view encoded, std::string* out) {
  AppendKeyElementPrefix(encoded, out);
  out->push_back('\0');
  out->push_back('\0');
}

std::string EncodeKeyTuple(std::span<const v1::AttributeValue* const> values) {
  if (values.size() == 1) return EncodeKeyValue(*values[0]);
  std::string out;
  for (const v1::AttributeValue* v : values) AppendKeyElement(EncodeKeyValue(*v), &out);
  return out;
}

}  // namespace pogi::value
