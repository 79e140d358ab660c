// JobRunner: runs exports, imports and bulk operations in the
// background, on threads of its own, until destroyed. It picks up a job the
// moment an action starts one (Engine::set_job_started), and every few
// seconds looks for jobs left IN_PROGRESS: one that was running when pogi
// stopped or died starts again: an export or an import from the beginning
// (an export's files come out the same; see export_job.h), a bulk put from
// its last stored progress (bulk_put_job.h). Of several processes sharing a
// database, the one holding a job's lease runs it; when it dies, another
// takes the job over once the lease lapses.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "outbound/object_store.h"
#include "service/engine/engine.h"

namespace pogi::jobs {

class JobRunner {
 public:
  // At most `workers` jobs run at once.
  JobRunner(service::Engine& engine, std::shared_ptr<outbound::ObjectStore> store, int workers = 2);
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

 private:
  void Loop();
  // Starts every IN_PROGRESS job not running here whose lease this process
  // gets, while workers are free.
  void StartDueJobs();
  void RunOne(std::string arn, std::string kind);
  // Renews the job's lease about every second; false once it is lost or
  // the runner stops.
  bool KeepGoing(const std::string& arn);

  service::Engine& engine_;
  std::shared_ptr<outbound::ObjectStore> store_;
  int workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool wake_ = false;
  std::set<std::string> running_;  // ARNs of jobs on a worker now
  std::vector<std::thread> threads_;
  std::thread loop_;
};

}  // namespace pogi::jobs
