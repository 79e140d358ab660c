// Shared vocabulary of the expression module: the item type and the kinds of
// expression DynamoDB names in its error messages.
#pragma once

#include <google/protobuf/map.h>

#include <string>
#include <string_view>

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::expr {

using AttributeValue = pogi::v1::AttributeValue;
// An item, a key, or the ExpressionAttributeValues of a request.
using AttributeMap = google::protobuf::Map<std::string, AttributeValue>;
// The ExpressionAttributeNames of a request.
using NameMap = google::protobuf::Map<std::string, std::string>;

// Which request parameter an expression came from. DynamoDB prefixes every
// expression error with "Invalid <parameter name>: ".
enum class ExpressionKind {
  kCondition,        // ConditionExpression
  kFilter,           // FilterExpression
  kKeyCondition,     // KeyConditionExpression
  kUpdate,           // UpdateExpression
  kProjection,       // ProjectionExpression
  kSearchCondition,  // SearchConditionExpression (SearchVectors)
};

// "ConditionExpression", "UpdateExpression", ...
std::string_view KindName(ExpressionKind kind);

}  // namespace pogi::expr
