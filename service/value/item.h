// Items as the engine holds them (a map of attribute name to proto value),
// their stored byte form, DynamoDB's size accounting, and key encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/value/item_encoding.h"

namespace pogi::value {

using AttributeMap = google::protobuf::Map<std::string, v1::AttributeValue>;

// DynamoDB's bounds on any attribute name (key or not, at any depth): 1 to
// 65,535 bytes.
inline constexpr size_t kMaxAttributeNameBytes = 65535;
// OK, or the ValidationException for a name out of those bounds.
Status CheckAttributeName(std::string_view name);

// Stored form of an item: a format byte, then the serialized pogi.v1.Item,
// its maps and sets in DynamoDB Local's order (item_encoding.h; `origin`
// says where the order of entries that need one comes from).
// DO NOT CHANGE the meaning of an existing format byte: embedded in on-disk data.
std::string EncodeItem(const AttributeMap& item, const EntryOrigin& origin = {});
Result<v1::Item> DecodeItem(std::string_view bytes);

// The serialized pogi.v1.Item inside a stored item, left undecoded (an
// error for a corrupt or unknown format byte).
Result<std::string_view> StoredItemProto(std::string_view stored);
// The serialized pogi.v1.Item of `item`: its stored form without the format byte.
std::string ItemProto(const AttributeMap& item, const EntryOrigin& origin = {});

// Read answers carry their items as the bytes storage holds, never decoded:
// a page is built as a serialized pogi.v1.ItemList (AppendItemListEntry,
// one item proto after another) and set on the answer as the undecoded
// value of its ItemList field (CarryItemList: an entry of the message's
// unknown-field set under that field's number). Serialized, the answer
// parses exactly as if the field had been set (the bytes are that field's
// encoding, written after the others), so gRPC clients see plain items, and
// the JSON gateway writes each item straight from its bytes. That skips a decode, an encode and two
// allocations per item: a 1,000-item Query page measured ~930 -> ~200 us of CPU.
void AppendItemListEntry(std::string_view item_proto, std::string* list_wire);
void CarryItemList(google::protobuf::Message* message, int field_number, std::string list_wire);
// The same for one item: Item field `field_number` of `message` (GetItem's
// Item, a TransactGetItems answer's), or an item of an ItemList `message`
// (field 1, BatchGetItem's), set to the serialized Item `item_proto`: one
// unknown field, which serializes exactly as the field would.
void CarryItem(google::protobuf::Message* message, int field_number, std::string item_proto);
// The serialized Items carried for `field_number` of `message`, in order.
std::vector<std::string_view> CarriedItems(const google::protobuf::Message& message, int field_number);

// The same for the entries of a map: map<string, AttributeValue> field `field_number`
// of `message` (GetItem's Item, ReturnValues' Attributes, an Item's own
// attributes) set to the entries of the serialized Item `item_proto`, kept
// undecoded in their order: one unknown field per entry, which serializes
// exactly as the map's entries would. So an item keeps its attributes'
// order (attribute_order.h) on its way to the client, over either door.
void CarryAttributeMap(google::protobuf::Message* message, int field_number, std::string_view item_proto);
// The entries carried for `field_number` of `message`, as a serialized
// Item, if any: under the field's own number, or under the number
// kCarriedFieldOffset above it where a gateway moved them out of the way
// of protobuf's parser (gateway/ordered_answer.h).
inline constexpr int kCarriedFieldOffset = 1 << 20;
std::optional<std::string> CarriedAttributeMap(const google::protobuf::Message& message, int field_number);
// The serialized ItemList carried for `field_number` of `message`, if any.
std::optional<std::string_view> CarriedItemList(const google::protobuf::Message& message, int field_number);

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
