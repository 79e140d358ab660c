// Operations on single AttributeValues that DynamoDB's expressions need:
// type names, equality (sets as sets, numbers numerically), ordering, size().
// Numbers always go through pogi::value::Decimal, never double.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "service/expr/types.h"

namespace pogi::expr {

// DynamoDB's short type name: "S", "N", "B", "SS", "NS", "BS", "M", "L",
// "NULL", "BOOL"; "" for a value with no type set.
std::string_view TypeName(const AttributeValue& v);

// The long name used in update-expression messages: "STRING", "NUMBER",
// "BINARY", "NULL", "BOOLEAN", "LIST", "MAP" (sets: "" as DynamoDB names none).
std::string_view LongTypeName(const AttributeValue& v);

bool IsSet(const AttributeValue& v);

// DynamoDB's equality: same type and same value. Numbers compare numerically
// (1e3 = 1000), sets as sets (order-insensitive), maps and lists deeply.
bool ValuesEqual(const AttributeValue& a, const AttributeValue& b);

// Order of two values of the same scalar type N, S or B (strings and binaries
// by bytes, numbers numerically): -1, 0, 1. nullopt when the types differ or
// are not ordered; DynamoDB then evaluates the comparison to false.
std::optional<int> CompareOrdered(const AttributeValue& a, const AttributeValue& b);

// size(): length of S (bytes of its UTF-8) and B, element count of sets, L
// and M. nullopt for other types (the condition then evaluates to false).
std::optional<int64_t> SizeOf(const AttributeValue& v);

// As DynamoDB prints a literal in messages: "AttributeValue: {N:5}",
// "AttributeValue: {S:abc}", binaries in base64.
std::string DescribeForMessage(const AttributeValue& v);

// A number value with the given text.
AttributeValue NumberValue(std::string text);

}  // namespace pogi::expr
