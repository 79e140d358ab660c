// The loop that runs the engine's background work on a timer.
#include "service/admin/maintenance.h"

#include <chrono>

namespace pogi::service {

MaintenanceLoop::MaintenanceLoop(Engine& engine, double interval_seconds)
    : engine_(engine), interval_(interval_seconds) {
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!stop_) {
      cv_.wait_for(lock, std::chrono::duration<double>(interval_));
      if (stop_) break;
      lock.unlock();
      // A failed pass is retried by the next; pogi logs nothing here.
      (void)engine_.RunMaintenance(/*leased=*/true);
      lock.lock();
    }
  });
}

MaintenanceLoop::~MaintenanceLoop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace pogi::service
