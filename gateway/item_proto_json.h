// DynamoDB JSON straight from a serialized pogi.v1.Item: read answers carry
// items as the bytes storage holds (value::AppendItemProto), and this writes
// them without building a message.
#pragma once

#include <cstdint>
#include <string_view>

#include "gateway/json_text.h"

namespace pogi::gateway {

// Appends the JSON attribute map of the serialized pogi.v1.Item `proto`
// ({"name":{"S":"..."},...}). False, and *out unchanged, when the bytes are
// not a well-formed Item.
bool AppendItemProtoJson(std::string_view proto, JsonOut& out);

// The same for the entries of map<string, AttributeValue> field `field` of
// the serialized message `message` (a stream record's Keys, NewImage and
// OldImage), other fields skipped.
bool AppendMapFieldJson(std::string_view message, uint32_t field, JsonOut& out);

// Appends the items of the serialized pogi.v1.ItemList `list_wire` as JSON
// attribute maps separated by commas (and preceded by one unless *first;
// *first turns false after the first item). False, and *out unchanged, when
// the bytes are not a well-formed ItemList.
bool AppendItemListJson(std::string_view list_wire, bool* first, JsonOut& out);

}  // namespace pogi::gateway
