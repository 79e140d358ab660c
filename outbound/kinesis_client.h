// The Kinesis Data Streams client of streaming destinations: Kinesis' JSON
// 1.1 API (POST /, X-Amz-Target: Kinesis_20131202.OPERATION,
// application/x-amz-json-1.1), every request SigV4-signed for service
// "kinesis", to any Kinesis-compatible endpoint (Kinesis itself,
// LocalStack, kinesalite). It carries bodies the caller wrote and answers
// the caller reads (jobs/kinesis_delivery), so it knows nothing of JSON.
// Not thread-safe: one caller at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"
#include "outbound/http_client.h"
#include "outbound/sigv4_signer.h"

namespace pogi::outbound {

struct KinesisOptions {
  std::string endpoint;  // http[s]://host[:port]
  std::string access_key_id = "pogi";
  std::string secret_access_key = "pogi";
  std::string region = "us-east-1";
};

// One answer: its HTTP status and body.
struct KinesisAnswer {
  int status = 0;
  std::string body;
};

class KinesisClient {
 public:
  // ValidationException when the endpoint is not an http[s] URL.
  static Result<std::unique_ptr<KinesisClient>> Open(const KinesisOptions& options);

  // Calls `operation` ("PutRecords") with the JSON `body`. An error when no
  // answer came (no connection, a time-out); any answer otherwise, a 4xx or
  // 5xx included. Reconnects as needed; retries are the caller's.
  Result<KinesisAnswer> Call(std::string_view operation, std::string_view body);

  const std::string& endpoint_url() const { return url_; }

 private:
  KinesisClient(Endpoint endpoint, SigningIdentity identity, std::string url)
      : endpoint_(std::move(endpoint)), identity_(std::move(identity)), url_(std::move(url)) {}

  Endpoint endpoint_;
  SigningIdentity identity_;
  std::string url_;
  std::unique_ptr<HttpConnection> conn_;
};

}  // namespace pogi::outbound
