// DynamoDB's legacy (pre-expression) parameters converted to the expression
// AST, so that one evaluator serves both: Expected and QueryFilter /
// ScanFilter / KeyConditions (with ConditionalOperator) become a Condition,
// AttributeUpdates an Update, AttributesToGet a Projection. Validation uses
// DynamoDB's messages, all ValidationExceptions.
//
// Legacy attribute names are literal top-level names: "a.b" names the
// attribute "a.b", never a nested path.
//
// Validation order, as in DynamoDB: member constraints first (enum values of
// ComparisonOperator, ConditionalOperator and Action; a Condition without
// ComparisonOperator), all reported together in one "N validation error(s)
// detected: ..." message; then each entry whole, in turn: of two bad
// entries, the one the client wrote first answers (common/entry_order.h).
//
// The AttributeValues inside the parameters are checked by the caller's rule
// (`check_value`, service/validate's, since expr/ sits below it), at the
// point DynamoDB checks them: after the member constraints, and for each
// entry before its argument counts, operator types and actions; an Expected
// entry's shape (Value with AttributeValueList, Exists with an operator, a
// list without one, a Value with Exists false) comes before its values.
// Without a `check_value` the values must have been validated already.
//
// An empty AttributeValueList is told from an absent one only through
// `list_sent` (Expected); an empty AttributesToGet must be refused by the
// caller ("Member must have length greater than or equal to 1").
#pragma once

#include <google/protobuf/map.h>
#include <google/protobuf/repeated_ptr_field.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::expr {

// An Expected, KeyConditions, QueryFilter or ScanFilter entry sent as JSON
// null is not an absent entry: DynamoDB refuses it by name, in its turn
// among the entries. The reader keeps it, empty, with this unknown field
// (varint 1) on the entry: unknown fields cross the gRPC door with the
// request, and no client can set them through the HTTP door.
inline constexpr int kSentNullField = 536870910;
bool SentNull(const google::protobuf::Message& entry);

// Checks one AttributeValue of a legacy parameter (DynamoDB's value rules).
using ValueCheck = Status (*)(const AttributeValue& v);

// The member constraints inside the legacy parameters, which DynamoDB lists
// with the request's other member constraints, before any other check: a
// ComparisonOperator outside the enumeration (or, in filters and
// KeyConditions, absent) and an Action outside [ADD, PUT, DELETE]. The
// Convert functions below check them again (for callers without a list).
std::vector<std::string> ExpectedConstraints(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected);
std::vector<std::string> FilterConstraints(const google::protobuf::Map<std::string, v1::Condition>& filter,
                                           std::string_view parameter_name);
std::vector<std::string> UpdateConstraints(
    const google::protobuf::Map<std::string, v1::AttributeValueUpdate>& updates);

// Expected + ConditionalOperator ("AND" when null, or "OR") -> Condition.
// An empty map gives Condition::Kind::kTrue. Per entry:
//   Value alone, or with Exists true   ->  a = Value
//   Exists false (no Value)            ->  attribute_not_exists(a)
//   ComparisonOperator with AttributeValueList, or with Value as its single
//   argument                           ->  as ConvertFilter's operators.
// Messages ("One or more parameter values were invalid: " + ...), in the
// order DynamoDB checks them:
//   "Exists and ComparisonOperator cannot be used together for Attribute: a"
//   "Value and AttributeValueList cannot be used together for Attribute: a"
//   "AttributeValueList can only be used with a ComparisonOperator for Attribute: a"
//   "Value cannot be used when Exists is false for Attribute: a"
//   "Value or AttributeValueList must be used with ComparisonOperator: X for Attribute: a"
//   "Value must be provided when Exists is null for Attribute: a" (or "is true")
//   then the argument checks listed at ConvertFilter.
// Bad enum values: "1 validation error detected: Value 'X' at
// 'expected.a.member.comparisonOperator' failed to satisfy constraint: Member
// must satisfy enum value set: [IN, NULL, BETWEEN, ...]" and likewise
// 'conditionalOperator' ([OR, AND]).
// ConditionalOperator with an empty map: "ConditionalOperator cannot be used
// without Filter or Expected"; with one entry: "ConditionalOperator can only
// be used when Filter or Expected has two or more elements" (the wording of
// DynamoDB Local and the DAX client; the service's exact text is unverified,
// its refusal of the empty case is). So a caller that got ConditionalOperator
// without Expected may simply pass the empty map.
//
// `list_sent` tells an AttributeValueList sent as [] from one left out (the
// reader of the request knows; this room does not): [] is present, so with
// EQ it is "Invalid number of argument(s)", not "Value or AttributeValueList
// must be used" (behaviours.md V1). Without it, an empty list is absent.
using ListSent = bool (*)(const v1::ExpectedAttributeValue& e);
Result<Condition> ConvertExpected(
    const google::protobuf::Map<std::string, v1::ExpectedAttributeValue>& expected,
    const std::string* conditional_operator, ValueCheck check_value = nullptr, ListSent list_sent = nullptr);

// QueryFilter / ScanFilter / KeyConditions entries + ConditionalOperator ->
// Condition (kTrue for an empty map). `parameter_name` is "QueryFilter",
// "ScanFilter" or "KeyConditions"; it names the member in constraint messages
// ('scanFilter.a.member.comparisonOperator'). KeyConditions are always ANDed:
// `conditional_operator` is ignored for them (in a Query it belongs to
// QueryFilter). The key-specific rules of KeyConditions (only EQ, LE, LT, GE,
// GT, BEGINS_WITH, BETWEEN; key attributes of the schema; "Attempted
// conditional constraint is not an indexable operation") need the table's
// schema and are the engine's, as for KeyConditionExpression.
//
// Operators, as DynamoDB evaluates them (a = the attribute, v = the values):
//   EQ, NE, LT, LE, GT, GE   a <op> v0        (NE is true when a is missing)
//   IN                       a IN (v0, ...)   (a scalar equal to one of them)
//   BETWEEN                  a BETWEEN v0 AND v1
//   NULL / NOT_NULL          attribute_not_exists(a) / attribute_exists(a)
//   CONTAINS                 contains(a, v0)  (substring, set member, list element)
//   NOT_CONTAINS             attribute_exists(a) AND NOT contains(a, v0)
//                            (false when a is missing, unlike NE)
//   BEGINS_WITH              begins_with(a, v0)
// Argument checks ("One or more parameter values were invalid: " + ...):
//   "Invalid number of argument(s) for the X ComparisonOperator"
//      (NULL, NOT_NULL: 0; BETWEEN: 2; IN: 1 or more; others: 1), then
//   "AttributeValues inside AttributeValueList must be of same type", then
//   per value: "ComparisonOperator X is not valid for T AttributeValue type"
//      (EQ, NE: any type; LT LE GT GE IN BETWEEN: S N B; BEGINS_WITH: S B;
//       CONTAINS, NOT_CONTAINS: S N B BOOL NULL)
//   and, unprefixed, "The BETWEEN condition was provided a range where the
//   lower bound is greater than the upper bound".
// A missing ComparisonOperator: "1 validation error detected: Value null at
// 'scanFilter.a.member.comparisonOperator' failed to satisfy constraint:
// Member must not be null".
Result<Condition> ConvertFilter(const google::protobuf::Map<std::string, v1::Condition>& filter,
                                const std::string* conditional_operator, std::string_view parameter_name,
                                ValueCheck check_value = nullptr);

// AttributeUpdates -> Update. Action (PUT when omitted):
//   PUT     SET a = Value
//   DELETE  without Value: REMOVE a; with a set Value: DELETE a Value
//           (set difference; an emptied set removes the attribute)
//   ADD     N, SS, NS, BS Value: ADD a Value (sum / union; a missing
//           attribute becomes Value). L Value: unlike UpdateExpression,
//           legacy ADD appends to a list, expressed as
//           SET a = list_append(if_not_exists(a, []), Value).
// Messages ("One or more parameter values were invalid: " + ...):
//   "Only DELETE action is allowed when no attribute value is specified"
//   "DELETE action with value is not supported for the type S"
//   "ADD action is not supported for the type S"
// and "1 validation error detected: Value 'X' at 'attributeUpdates.a.member.action'
// failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]".
// REQUIRES: the caller refuses updates of key attributes.
Result<Update> ConvertAttributeUpdates(
    const google::protobuf::Map<std::string, v1::AttributeValueUpdate>& updates,
    ValueCheck check_value = nullptr);

// Applies an Update from ConvertAttributeUpdates: expr::Apply, with the
// run-time type error worded as DynamoDB words it for AttributeUpdates
// ("Type mismatch for attribute to update" where an UpdateExpression gets
// "An operand in the update expression has an incorrect data type"), e.g.
// ADD of a number to a string set, DELETE of SS from an NS, ADD of a list to
// a number. Other errors (number overflow) pass through unchanged.
Status ApplyAttributeUpdates(const Update& update, AttributeMap* item, std::vector<Path>* updated_paths);

// AttributesToGet -> Projection of top-level names, in the order given.
// A repeated name: "One or more parameter values were invalid: Duplicate
// value in attribute name: a".
Result<Projection> ConvertAttributesToGet(const google::protobuf::RepeatedPtrField<std::string>& names);

}  // namespace pogi::expr
