// The order-preserving encoding of a key made of several attribute values:
// the partition or sort key of a global secondary index with multi-attribute
// keys (up to four attributes each, DynamoDB since November 2025).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::value {

// A key of ONE attribute is that value's EncodeKeyValue, unchanged (every
// table, LSI and single-attribute GSI key stored so far). A key of SEVERAL
// attributes is the concatenation of one element per value: the value's
// EncodeKeyValue with each 0x00 byte written as 0x00 0xFF, closed by 0x00
// 0x00. No element is a prefix of another (0x00 is always followed by 0x00
// or 0xFF, and 0x00 0x00 only ends an element), and an element compares
// against another as the values do, so byte order of the concatenation is
// the order of the tuples: by the first value in its type's order, then the
// second, and so on.
// DO NOT CHANGE: embedded in on-disk data (index entries).

// Appends the element of one encoded value (EncodeKeyValue's output).
void AppendKeyElement(std::string_view encoded, std::string* out);
// Appends the element's escaped bytes without its terminator: every element
// of a value that starts with `encoded`'s bytes starts with these (for
// begins_with on an element).
void AppendKeyElementPrefix(std::string_view encoded, std::string* out);

// The key of `values` (REQUIRES: at least one, each of a key type): one
// value's EncodeKeyValue, or the elements of several.
std::string EncodeKeyTuple(std::span<const v1::AttributeValue* const> values);

}  // namespace pogi::value
