// TransactionTokens: the ClientRequestToken idempotency of TransactWriteItems.
// A token is remembered for 10 minutes after the transaction that used it
// completed: the same token with the same request gets the first answer again
// without writing; with a different request, IdempotentParameterMismatchException;
// while the first is still running, TransactionInProgressException. A
// transaction that failed leaves no token behind, so its retry runs again.
// Thread-safe.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"

namespace pogi::service {

class TransactionTokens {
 public:
  static constexpr double kWindowSeconds = 10 * 60;

  // What a request holding a token should do.
  struct Claim {
    bool replay = false;  // answer `response`, write nothing
    v1::TransactWriteItemsResponse response;
  };

  // Claims `token` for the request whose canonical form is `fingerprint`, at
  // time `now` (seconds). OK with replay=false: run the transaction, then
  // call Complete or Abandon. Otherwise a replay, or DynamoDB's error.
  Result<Claim> Begin(const std::string& token, const std::string& fingerprint, double now);
  // The transaction of `token` succeeded with `response`.
  void Complete(const std::string& token, const v1::TransactWriteItemsResponse& response, double now);
  // The transaction of `token` failed: forget the token.
  void Abandon(const std::string& token);

  // The canonical form of a request for comparison: everything but the token
  // and ReturnConsumedCapacity, serialized deterministically.
  static std::string Fingerprint(const v1::TransactWriteItemsRequest& req);

 private:
  struct Entry {
    std::string fingerprint;
    bool done = false;
    double expires = 0;  // when done
    v1::TransactWriteItemsResponse response;
  };
  void SweepLocked(double now);

  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
  double next_sweep_ = 0;
};

}  // namespace pogi::service
