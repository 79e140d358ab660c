// The DynamoDB JSON wire format <-> the engine's proto messages. The mapping
// is mechanical (proto field json_name, first letter capitalized, is the
// DynamoDB member name) except for AttributeValue ({"S": ...}) and Item (a
// bare attribute map). Shape errors are DynamoDB's SerializationException.
#pragma once

#include <google/protobuf/message.h>

#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::gateway {

// Fills `out` (cleared first) from a DynamoDB JSON request body.
Status JsonToMessage(std::string_view json, google::protobuf::Message* out);

// Appends the DynamoDB JSON of `message` to *out.
void MessageToJson(const google::protobuf::Message& message, std::string* out);

// DynamoDB's JSON error body: {"__type": ..., "message": ...} plus the
// details an error carries (Item, CancellationReasons).
std::string ErrorToJson(const Error& error);

}  // namespace pogi::gateway
