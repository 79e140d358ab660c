// TailRequests: each answered request streamed as it is published, through
// a bounded queue (a slow reader loses events rather than slowing requests).
#include <deque>
#include <memory>
#include <mutex>

#include "service/rpc/admin_service.h"

namespace pogi::rpc {
namespace {

constexpr size_t kMaxQueued = 10000;
constexpr size_t kMaxBody = 1024;

// Shared by the observer (request threads) and the reactor; the observer
// may outlive the reactor for a moment (Publish works on a copy of the
// observer list), so it holds this, never the reactor.
struct TailState {
  std::recursive_mutex mu;  // a reaction may run inline inside StartWrite
  grpc::ServerWriteReactor<v1::RequestEvent>* reactor = nullptr;  // null once done
  std::deque<v1::RequestEvent> queue;
  v1::RequestEvent writing;
  bool write_pending = false;
  bool finished = false;
  bool with_body = false;

  // Under mu: starts the next write if none is pending.
  void Pump() {
    if (write_pending || finished || !reactor || queue.empty()) return;
    writing = std::move(queue.front());
    queue.pop_front();
    write_pending = true;
    reactor->StartWrite(&writing);
  }
};

class TailReactor final : public grpc::ServerWriteReactor<v1::RequestEvent> {
 public:
  TailReactor(service::Engine& engine, const v1::TailRequestsRequest& req)
      : engine_(engine), state_(std::make_shared<TailState>()) {
    state_->reactor = this;
    state_->with_body = req.with_body();
    std::weak_ptr<TailState> weak = state_;
    const service::Clock* clock = &engine.clock();
    observer_ = engine.request_observers().Add([weak, clock](const service::RequestRecord& r) {
      auto state = weak.lock();
      if (!state) return;
      v1::RequestEvent e;
      e.set_time(clock->Now());
      e.set_door(std::string(r.door));
      e.set_operation(std::string(r.operation));
      e.set_table_name(std::string(r.table));
      e.set_status(r.status);
      e.set_error_type(std::string(r.error_type));
      e.set_latency_us(r.latency_us);
      e.set_request_id(std::string(r.request_id));
      e.set_bytes_in(static_cast<int64_t>(r.bytes_in));
      e.set_bytes_out(static_cast<int64_t>(r.bytes_out));
      std::lock_guard lock(state->mu);
      if (state->with_body) e.set_body(std::string(r.request_body.substr(0, kMaxBody)));
      if (state->queue.size() >= kMaxQueued) return;
      state->queue.push_back(std::move(e));
      state->Pump();
    });
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard lock(state_->mu);
    state_->write_pending = false;
    if (!ok) {
      FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "tail cancelled"));
      return;
    }
    state_->Pump();
  }

  void OnCancel() override {
    std::lock_guard lock(state_->mu);
    FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "tail cancelled"));
  }

  void OnDone() override {
    engine_.request_observers().Remove(observer_);
    {
      std::lock_guard lock(state_->mu);
      state_->reactor = nullptr;
    }
    delete this;
  }

 private:
  void FinishLocked(const grpc::Status& s) {
    if (state_->finished) return;
    state_->finished = true;
    Finish(s);
  }

  service::Engine& engine_;
  std::shared_ptr<TailState> state_;
  int observer_ = -1;
};

}  // namespace

grpc::ServerWriteReactor<v1::RequestEvent>* AdminRpcs::TailRequests(grpc::CallbackServerContext*,
                                                                    const v1::TailRequestsRequest* req) {
  return new TailReactor(engine_, *req);
}

}  // namespace pogi::rpc
