// ClientRequestToken bookkeeping for TransactWriteItems.
#include "service/write/transaction_tokens.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cmath>

#include "pogi/v1/control_state.pb.h"

namespace pogi::service {
namespace {

// Where a token's answer is kept among storage's shared values.
std::string KeyOf(const std::string& token) { return "token/" + token; }

int64_t Micros(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e6)); }

Error Mismatch() {
  return Error(ErrorCode::kIdempotentParameterMismatch,
               "DynamoDB rejected the request because you retried a request with a different payload but "
               "with an idempotent token that was already used.");
}

}  // namespace

Status TransactionTokens::Enter(const std::string& token, const std::string& fingerprint) {
  std::lock_guard lock(mu_);
  auto [it, added] = in_flight_.emplace(token, fingerprint);
  if (added) return Status::Ok();
  if (it->second != fingerprint) return Mismatch();
  return Error(ErrorCode::kTransactionInProgress, "Transaction from previous request is still in progress");
}

void TransactionTokens::Leave(const std::string& token) {
  std::lock_guard lock(mu_);
  in_flight_.erase(token);
}

Result<std::optional<v1::TransactWriteItemsResponse>> TransactionTokens::Find(storage::ReadTxn& txn,
                                                                              const std::string& token,
                                                                              const std::string& fingerprint,
                                                                              double now) {
  POGI_ASSIGN_OR_RETURN(auto bytes, txn.GetSharedValue(KeyOf(token), Micros(now)));
  if (!bytes) return std::optional<v1::TransactWriteItemsResponse>();
  v1::StoredRequestToken kept;
  if (!kept.ParseFromString(*bytes)) return Error::Internal("the answer kept for a request token is corrupt");
  if (kept.fingerprint() != fingerprint) return Mismatch();
  return std::optional<v1::TransactWriteItemsResponse>(std::move(*kept.mutable_response()));
}

Status TransactionTokens::Keep(storage::WriteTxn& txn, const std::string& token,
                               const std::string& fingerprint, const v1::TransactWriteItemsResponse& response,
                               double now) {
  // Expired answers are forgotten about once a minute of the clock, by a
  // transaction that keeps one: no work at all where no token is used.
  double due = next_prune_.load();
  if (now >= due && next_prune_.compare_exchange_strong(due, now + 60)) {
    POGI_RETURN_IF_ERROR(txn.PruneSharedValues(Micros(now)));
  }
  v1::StoredRequestToken kept;
  kept.set_fingerprint(fingerprint);
  *kept.mutable_response() = response;
  return txn.PutSharedValue(KeyOf(token), kept.SerializeAsString(), Micros(now + kWindowSeconds));
}

std::string TransactionTokens::Fingerprint(const v1::TransactWriteItemsRequest& req) {
  v1::TransactWriteItemsRequest copy = req;
  copy.clear_client_request_token();
  copy.clear_return_consumed_capacity();
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);  // maps in key order
    copy.SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace pogi::service
