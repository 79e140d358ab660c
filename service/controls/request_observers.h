// RequestObservers: who wants to hear of each answered request (the request
// log, metrics, the admin request tail). Both front doors publish one
// RequestRecord per request after answering it. With nobody registered the
// doors pay one relaxed atomic load per request: no record is built, nothing
// is formatted or allocated.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace pogi::service {

// One answered request. Views are valid during the call to the observer only.
struct RequestRecord {
  std::string_view door;          // "http" or "grpc"
  std::string_view operation;     // "PutItem"; empty when the request named no known operation
  std::string_view table;         // the table the request names, if any
  int status = 0;                 // HTTP status, or the gRPC status code
  std::string_view error_type;    // DynamoDB's short __type on errors ("ValidationException")
  int64_t latency_us = 0;         // from the request read to the answer ready
  std::string_view request_id;    // x-amzn-RequestId (HTTP) or the call's id
  size_t bytes_in = 0;            // request body bytes
  size_t bytes_out = 0;           // response body bytes
  std::string_view request_body;  // the request body (HTTP JSON; empty over gRPC)
};

class RequestObservers {
 public:
  using Observer = std::function<void(const RequestRecord&)>;

  // True when someone listens. The doors check it before building a record.
  bool active() const { return count_.load(std::memory_order_relaxed) > 0; }

  // Registers `observer`; returns the id to Remove it with. Thread-safe.
  int Add(Observer observer) {
    std::lock_guard lock(mu_);
    int id = next_id_++;
    auto next = std::make_shared<std::map<int, Observer>>(*observers_);
    (*next)[id] = std::move(observer);
    observers_ = std::move(next);
    count_.store(static_cast<int>(observers_->size()), std::memory_order_relaxed);
    return id;
  }

  void Remove(int id) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<std::map<int, Observer>>(*observers_);
    next->erase(id);
    observers_ = std::move(next);
    count_.store(static_cast<int>(observers_->size()), std::memory_order_relaxed);
  }

  // Calls every observer with `record`. Observers must be quick and must not
  // throw: they run on the thread that answered the request.
  void Publish(const RequestRecord& record) const {
    std::shared_ptr<const std::map<int, Observer>> current;
    {
      std::lock_guard lock(mu_);
      current = observers_;
    }
    for (const auto& [id, observer] : *current) observer(record);
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const std::map<int, Observer>> observers_ = std::make_shared<std::map<int, Observer>>();
  std::atomic<int> count_{0};
  int next_id_ = 0;
};

}  // namespace pogi::service
