// The one table from DynamoDB operation name to the engine method serving it,
// type-erased so both front doors dispatch the same way. An operation that is
// not in the table is not implemented: callers answer UnknownOperationException.
#pragma once

#include <google/protobuf/message.h>

#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"

namespace pogi::service {

class Engine;

// The API an operation belongs to: each answers only under its own
// X-Amz-Target prefix (DynamoDB_20120810. or DynamoDBStreams_20120810.)
// and its own gRPC service.
enum class Api { kDynamoDB, kStreams };

struct Operation {
  std::string_view name;  // "PutItem"
  const google::protobuf::Message* request_prototype;
  const google::protobuf::Message* response_prototype;
  Result<std::unique_ptr<google::protobuf::Message>> (*invoke)(Engine& engine,
                                                               const google::protobuf::Message& request);
  Api api = Api::kDynamoDB;
};

// The DynamoDB operation named `name`, or null.
const Operation* FindOperation(std::string_view name);
// The operation of `api` named `name`, or null.
const Operation* FindOperation(Api api, std::string_view name);

// The TableName a request names, or "" (batches and transactions name
// several tables, ListTables none). For logs and metrics, not the hot path.
std::string TableNameOf(const google::protobuf::Message& request);

}  // namespace pogi::service
