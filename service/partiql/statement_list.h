// The member constraints BatchExecuteStatement and ExecuteTransaction share
// on their lists of statements.
#pragma once

#include <google/protobuf/repeated_ptr_field.h>

#include <string>

#include "pogi/v1/dynamodb.pb.h"
#include "service/validate/constraints.h"

namespace pogi::service {

// Between 1 and `max` statements (the request echoed when not), each with a
// Statement of 1 to 8192 characters, Parameters (when given) not empty and a
// valid ReturnValuesOnConditionCheckFailure; `member` names the list in messages
// ("statements", "transactStatements").
void CheckStatementList(Constraints& c,
                        const google::protobuf::RepeatedPtrField<v1::BatchStatementRequest>& statements,
                        int max, const std::string& member);
void CheckStatementList(Constraints& c,
                        const google::protobuf::RepeatedPtrField<v1::ParameterizedStatement>& statements,
                        int max, const std::string& member);

}  // namespace pogi::service
