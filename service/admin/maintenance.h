// MaintenanceLoop: runs the engine's background work (TTL deletions, shard
// roll-overs, stream retention) every interval of wall time on a thread of
// its own, until destroyed.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "service/engine/engine.h"

namespace pogi::service {

class MaintenanceLoop {
 public:
  MaintenanceLoop(Engine& engine, double interval_seconds);
  ~MaintenanceLoop();
  MaintenanceLoop(const MaintenanceLoop&) = delete;
  MaintenanceLoop& operator=(const MaintenanceLoop&) = delete;

 private:
  Engine& engine_;
  double interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pogi::service
