// TransactionTokens: the ClientRequestToken idempotency of TransactWriteItems.
// A token's first answer is kept in the database, written in the same
// transaction as the changes it answers, for 10 minutes of pogi's clock: the
// same token with the same request, through any process sharing the
// database, gets that answer again without writing; with a different
// request, IdempotentParameterMismatchException. While a request of this
// process still runs it, TransactionInProgressException (through another
// process, the second waits on the database and then gets the kept answer).
// A transaction that failed keeps no answer, so its retry runs again.
// Thread-safe.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/result.h"
#include "pogi/v1/dynamodb.pb.h"
#include "storage/storage.h"

namespace pogi::service {

class TransactionTokens {
 public:
  static constexpr double kWindowSeconds = 10 * 60;

  // In this process: `token` is in flight for the request whose canonical
  // form is `fingerprint` until Leave; DynamoDB's error when it already is.
  Status Enter(const std::string& token, const std::string& fingerprint);
  void Leave(const std::string& token);

  // Inside the transaction's write, before its changes: the answer kept for
  // `token` (write nothing, answer it), nullopt (run the transaction), or
  // DynamoDB's error for a different request. `now`: the clock's seconds.
  static Result<std::optional<v1::TransactWriteItemsResponse>> Find(storage::ReadTxn& txn,
                                                                    const std::string& token,
                                                                    const std::string& fingerprint,
                                                                    double now);
  // Inside the same write, after its changes: keeps `response` as the
  // token's answer; now and then forgets the expired ones.
  Status Keep(storage::WriteTxn& txn, const std::string& token, const std::string& fingerprint,
              const v1::TransactWriteItemsResponse& response, double now);

  // The canonical form of a request for comparison: everything but the token
  // and ReturnConsumedCapacity, serialized deterministically.
  static std::string Fingerprint(const v1::TransactWriteItemsRequest& req);

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::string> in_flight_;  // token -> fingerprint
  std::atomic<double> next_prune_{0};                       // clock seconds
};

}  // namespace pogi::service
