// The order of a set's members, as DynamoDB Local keeps them (measured
// against DynamoDB Local 3.3.1, tests/e2e/test_dynamodb_local_order.py):
// a set a request writes whole (PutItem, SET, a legacy PUT, ADD of a new
// attribute) is sorted as Java compares its members; the union an
// UpdateExpression's ADD makes is sorted by their bytes; a legacy ADD puts
// its new members after the old ones; DELETE keeps the order of what stays.
#pragma once

#include "pogi/v1/dynamodb.pb.h"

namespace pogi::value {

// Sorts the members of a set value written whole: SS as Java orders
// strings (UTF-16 code units), NS by value, BS byte by byte as Java
// compares bytes (signed: 0x80 first, 0x7F last). Anything else, and a
// number set with a number that does not parse, is left as it is.
void SortAsWritten(v1::AttributeValue* set);

// Sorts the members of the union ADD made: SS and BS by their bytes
// (unsigned), NS by value.
void SortAsUnion(v1::AttributeValue* set);

}  // namespace pogi::value
