// Items as the engine holds them (a map of attribute name to proto value),
// their stored byte form, DynamoDB's size accounting, and key encoding.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::value {

using AttributeMap = google::protobuf::Map<std::string, v1::AttributeValue>;

// Stored form of an item: a format byte, then the serialized pogi.v1.Item.
// DO NOT CHANGE the meaning of an existing format byte: embedded in on-disk data.
std::string EncodeItem(const AttributeMap& item);
Result<v1::Item> DecodeItem(std::string_view bytes);

// DynamoDB's item size: the sum over attributes of the UTF-8 length of the
// name plus the size of the value (numbers: 1 byte per two significant digits
// plus 1; lists and maps: 3 bytes plus 1 byte per element; BOOL and NULL 1).
int64_t ItemSize(const AttributeMap& item);
int64_t ValueSize(const v1::AttributeValue& v);

// The order-preserving encoding of one key attribute value (S, N or B):
// strings and binaries as their bytes, numbers by Decimal's key encoding.
// REQUIRES: the value is of a key type and numbers are valid.
// DO NOT CHANGE: embedded in on-disk data.
std::string EncodeKeyValue(const v1::AttributeValue& v);

// DynamoDB's one-letter type name of a value ("S", "N", "SS", "NULL", "BOOL", ...).
std::string_view TypeName(const v1::AttributeValue& v);

}  // namespace pogi::value
