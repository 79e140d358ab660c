// Kinesis' JSON 1.1 API over the signed HTTP client.
#include "outbound/kinesis_client.h"

#include <ctime>

namespace pogi::outbound {

Result<std::unique_ptr<KinesisClient>> KinesisClient::Open(const KinesisOptions& options) {
  POGI_ASSIGN_OR_RETURN(Endpoint endpoint, ParseEndpoint(options.endpoint));
  SigningIdentity identity;
  identity.access_key_id = options.access_key_id;
  identity.secret_access_key = options.secret_access_key;
  identity.region = options.region;
  identity.service = "kinesis";
  return std::unique_ptr<KinesisClient>(
      new KinesisClient(std::move(endpoint), std::move(identity), options.endpoint));
}

Result<KinesisAnswer> KinesisClient::Call(std::string_view operation, std::string_view body) {
  if (!conn_) {
    HttpTimeouts timeouts;
    timeouts.connect_ms = 2000;
    timeouts.io_ms = 10000;
    POGI_ASSIGN_OR_RETURN(conn_, HttpConnection::Connect(endpoint_, timeouts));
  }
  HttpRequest req;
  req.method = "POST";
  req.target = endpoint_.base_path.empty() ? "/" : endpoint_.base_path + "/";
  req.headers = {{"Content-Type", "application/x-amz-json-1.1"},
                 {"X-Amz-Target", "Kinesis_20131202." + std::string(operation)}};
  req.body = body;
  SignRequest(req, endpoint_, identity_, static_cast<int64_t>(time(nullptr)));
  auto resp = conn_->Send(req);
  if (!resp.ok()) {
    conn_.reset();
    return resp.error();
  }
  auto text = conn_->ReadAll();
  if (!text.ok()) {
    conn_.reset();
    return text.error();
  }
  if (!conn_->reusable()) conn_.reset();
  return KinesisAnswer{resp->status, std::move(*text)};
}

}  // namespace pogi::outbound
