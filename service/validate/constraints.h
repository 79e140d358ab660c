// Constraints: DynamoDB's first line of request validation. Each failed
// member constraint is recorded in DynamoDB's words, and Finish() reports them
// together: "1 validation error detected: Value null at 'tableName' failed to
// satisfy constraint: Member must not be null" (several joined by "; ").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

class Constraints {
 public:
  // Member must not be null.
  void Required(bool present, std::string_view path);
  // Length of a string (in characters, as DynamoDB counts them) within [min, max].
  void Length(const std::string* value, size_t min, size_t max, std::string_view path);
  // String matching [a-zA-Z0-9_.-]+ (table and index names).
  void NamePattern(const std::string* value, std::string_view path);
  // A string matching the regular expression `pattern` (`matches`: whether
  // it does, as the caller worked it out).
  void Pattern(const std::string* value, bool matches, std::string_view pattern, std::string_view path);
  // One of `allowed`.
  void OneOf(const std::string* value, std::initializer_list<std::string_view> allowed,
             std::string_view path);
  // Number of elements of a list within [min, max]; `rendered` is how the list is shown.
  void Count(size_t n, size_t min, size_t max, std::string_view rendered, std::string_view path);
  // AttributesToGet (null: absent): at least one name, each at most 65,535
  // characters. An empty list is refused here, as DynamoDB does, not taken
  // for an absent one.
  void AttributeNames(const v1::AttributeNameList* list, std::string_view path);
  // PartiQL Parameters (null: absent): at least one value; an empty list is
  // refused, as DynamoDB does.
  void Parameters(const v1::AttributeValueList* list, std::string_view path);
  // A number no smaller than `min`.
  void AtLeast(std::optional<int64_t> value, int64_t min, std::string_view path);
  // A number no larger than `max`.
  void AtMost(std::optional<int64_t> value, int64_t max, std::string_view path);

  // Every path given from now on is read under `prefix` ("tableCreationParameters."):
  // the members of a structure nested in the request.
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }

  void Add(std::string message) { errors_.push_back(std::move(message)); }
  bool ok() const { return errors_.empty(); }
  // OK, or one ValidationException listing every failure.
  Status Finish() const;

 private:
  std::string At(std::string_view path) const { return prefix_ + std::string(path); }

  std::vector<std::string> errors_;
  std::string prefix_;
};

// ReadCapacityUnits and WriteCapacityUnits of a ProvisionedThroughput at
// `path` ("provisionedThroughput"): both present, both at least 1.
void CheckThroughput(Constraints& c, const v1::ProvisionedThroughput& throughput, std::string_view path);

// Validates a table name the way every operation does (3..255 characters, pattern).
void CheckTableName(Constraints& c, const std::string* name, std::string_view path = "tableName");
// A member that takes a table name or a table ARN (DynamoDB's TableArn
// shape): an ARN is only held to 1-1024 characters here, and is checked
// when resolved (ResolveTableName); anything else is a table name.
void CheckTableNameOrArn(Constraints& c, const std::string* name, std::string_view path = "tableName");
// The table name of an item operation (GetItem, PutItem, UpdateItem,
// DeleteItem, Query, Scan): an empty name is only "length greater than or
// equal to 1" (no pattern error); any other name that is not an ARN is held
// to the pattern and to 3-255 characters, both errors listed together
// (behaviours.md 1.2, recorded 2026-12).
void CheckItemTableName(Constraints& c, const std::string* name, std::string_view path = "tableName");

// DynamoDB's upper bound on provisioned capacity units.
inline constexpr int64_t kMaxCapacityUnits = 1000000000000;
// ReadCapacityUnits, then WriteCapacityUnits, above kMaxCapacityUnits:
// "Given value <n> for ReadCapacityUnits is out of bounds". Checked after the
// member constraints and before the table is looked up.
Status CheckCapacityBounds(const v1::ProvisionedThroughput& throughput);

}  // namespace pogi::service
