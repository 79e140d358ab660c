// ReplicationLoop: delivers global tables' replication queues
// (Engine::ReplicateDue) on a thread of its own, every few milliseconds of
// wall time, until destroyed. Of several processes sharing a database, the
// one holding the "replication" lease replicates.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "service/engine/engine.h"

namespace pogi::service {

class ReplicationLoop {
 public:
  explicit ReplicationLoop(Engine& engine);
  ~ReplicationLoop();
  ReplicationLoop(const ReplicationLoop&) = delete;
  ReplicationLoop& operator=(const ReplicationLoop&) = delete;

 private:
  void Run();

  Engine& engine_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pogi::service
