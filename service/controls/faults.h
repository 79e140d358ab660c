// Faults: rules that make chosen requests fail on purpose (a DynamoDB error,
// added latency, a cut connection), so that SDK retries, back-off and
// conflict handling can be tested. With no rule the doors pay one relaxed
// atomic load per request (`active()`).
#pragma once

#include <google/protobuf/message.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pogi::service {

class Catalog;  // core/catalog.h

struct FaultSpec {
  std::string id;
  std::vector<std::string> operations;  // empty: any
  std::vector<std::string> tables;      // empty: any
  std::string key_prefix;               // of the partition key's value
  std::string door;                     // "http", "grpc" or empty
  std::string error;                    // DynamoDB error name
  std::string message;                  // empty: the error's usual message
  int64_t latency_ms = 0;
  bool disconnect = false;
  int64_t count = 0;       // act on the next `count` matching calls
  int64_t every = 0;       // act on every `every`th matching call
  double probability = 0;  // act with this probability...
  uint64_t seed = 0;       // ...drawn from a generator seeded so
  int64_t matched = 0;
  int64_t fired = 0;
};

// What a door does with a request a rule fired on (latency is already spent).
struct FaultAction {
  std::optional<Error> error;
  bool disconnect = false;
};

class Faults {
 public:
  bool active() const { return count_.load(std::memory_order_relaxed) > 0; }

  // Checks and adds a rule; returns it with its id. Bad rules: a Validation
  // error naming the problem. (The operation names are the caller's to
  // check: the operation table sits above this room.)
  Result<FaultSpec> Add(FaultSpec spec);
  std::vector<FaultSpec> List() const;
  // Removes the rule `id`, or every rule when `id` is empty; returns how many.
  Result<int64_t> Clear(const std::string& id);

  // Runs the rules over one request (call only when active()): sleeps for
  // the latency of the rules that fire, and returns the error or cut of the
  // first such rule, if any.
  std::optional<FaultAction> Check(const Catalog& catalog, std::string_view door, std::string_view operation,
                                   const google::protobuf::Message& request);

 private:
  struct Rule {
    FaultSpec spec;
    std::mt19937_64 random;
  };
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<Rule>> rules_;
  int64_t next_id_ = 1;
  std::atomic<int> count_{0};
};

// The error a rule answers with, in DynamoDB's shape for `operation`
// (TransactionConflict becomes a TransactionCanceledException for the
// transactional operations). Unknown names: nullopt.
std::optional<Error> FaultError(std::string_view name, std::string_view message, std::string_view operation,
                                const google::protobuf::Message& request);

}  // namespace pogi::service
