// ClientRequestToken bookkeeping for TransactWriteItems.
#include "service/write/transaction_tokens.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

namespace pogi::service {

Result<TransactionTokens::Claim> TransactionTokens::Begin(const std::string& token,
                                                          const std::string& fingerprint, double now) {
  std::lock_guard lock(mu_);
  SweepLocked(now);
  auto it = entries_.find(token);
  if (it != entries_.end() && it->second.done && it->second.expires <= now) {
    entries_.erase(it);
    it = entries_.end();
  }
  if (it == entries_.end()) {
    entries_[token].fingerprint = fingerprint;
    return Claim{};
  }
  const Entry& e = it->second;
  if (e.fingerprint != fingerprint) {
    return Error(ErrorCode::kIdempotentParameterMismatch,
                 "DynamoDB rejected the request because you retried a request with a different payload but "
                 "with an idempotent token that was already used.");
  }
  if (!e.done) {
    return Error(ErrorCode::kTransactionInProgress, "Transaction from previous request is still in progress");
  }
  Claim c;
  c.replay = true;
  c.response = e.response;
  return c;
}

void TransactionTokens::Complete(const std::string& token, const v1::TransactWriteItemsResponse& response,
                                 double now) {
  std::lock_guard lock(mu_);
  Entry& e = entries_[token];
  e.done = true;
  e.expires = now + kWindowSeconds;
  e.response = response;
}

void TransactionTokens::Abandon(const std::string& token) {
  std::lock_guard lock(mu_);
  entries_.erase(token);
}

void TransactionTokens::SweepLocked(double now) {
  if (now < next_sweep_) return;
  next_sweep_ = now + 60;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.done && it->second.expires <= now) {
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
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
