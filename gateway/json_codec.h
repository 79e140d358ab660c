// The DynamoDB JSON wire format <-> the engine's proto messages. The mapping
// is mechanical (proto field json_name, first letter capitalized, is the
// DynamoDB member name) except for AttributeValue ({"S": ...}) and Item (a
// bare attribute map). Shape errors are DynamoDB's SerializationException.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pogi::gateway {

// The keys of each attribute map a request's JSON held (an Item, a Key, an
// M value...), in the order the JSON wrote them: pointers to the keys of
// the maps JsonToMessage filled, which live as long as its message.
using MapKeyOrders = std::vector<std::vector<const std::string*>>;

// Fills `out` (cleared first) from a DynamoDB JSON request body. With
// `map_orders`, also records the key order of every attribute map of two
// entries or more (the order pogi stores an item's attributes in depends on
// it: service/value/attribute_order.h).
Status JsonToMessage(std::string_view json, google::protobuf::Message* out,
                     MapKeyOrders* map_orders = nullptr);

// Appends the DynamoDB JSON of `message` to *out.
void MessageToJson(const google::protobuf::Message& message, std::string* out);

// DynamoDB's JSON error body: {"__type": ..., "message": ...} plus the
// details an error carries (Item, CancellationReasons).
std::string ErrorToJson(const Error& error);

}  // namespace pogi::gateway
