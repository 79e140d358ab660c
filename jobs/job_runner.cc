// The runner's loop: wake on a started job or every 2 s, start what is due.
#include "jobs/job_runner.h"

#include <chrono>

#include "common/log.h"
#include "jobs/bulk_put_job.h"
#include "jobs/export_job.h"
#include "jobs/import_job.h"

namespace pogi::jobs {
namespace {

constexpr auto kScanInterval = std::chrono::seconds(2);

bool InProgress(const v1::StoredJob& job) {
  if (job.has_export_()) return job.export_().export_status() == "IN_PROGRESS";
  if (job.has_import()) {
    const std::string& s = job.import().import_status();
    return s == "IN_PROGRESS" || s == "CANCELLING";
  }
  if (job.has_bulk()) {
    const std::string& s = job.bulk().bulk_operation_status();
    return s == "IN_PROGRESS" || s == "CANCELLING";
  }
  return false;
}

const std::string& ArnOf(const v1::StoredJob& job) {
  if (job.has_bulk()) return job.bulk().bulk_operation_arn();
  return job.has_import() ? job.import().import_arn() : job.export_().export_arn();
}

}  // namespace

JobRunner::JobRunner(service::Engine& engine, std::shared_ptr<outbound::ObjectStore> store, int workers)
    : engine_(engine), store_(std::move(store)), workers_(workers) {
  engine_.set_job_started([this] {
    std::lock_guard lock(mu_);
    wake_ = true;
    cv_.notify_all();
  });
  loop_ = std::thread([this] { Loop(); });
}

JobRunner::~JobRunner() {
  engine_.set_job_started(nullptr);
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  loop_.join();
  for (auto& t : threads_) t.join();
}

void JobRunner::Loop() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    lock.unlock();
    StartDueJobs();
    lock.lock();
    cv_.wait_for(lock, kScanInterval, [this] { return stop_ || wake_; });
    wake_ = false;
  }
}

void JobRunner::StartDueJobs() {
  for (const char* kind : {"export", "import", "bulk"}) {
    auto jobs = engine_.ListJobs(kind);
    if (!jobs.ok()) {
      log::Warn("jobs: cannot list " + std::string(kind) + "s: " + jobs.error().message());
      continue;
    }
    for (const v1::StoredJob& job : *jobs) {
      if (!InProgress(job)) continue;
      const std::string& arn = ArnOf(job);
      {
        std::lock_guard lock(mu_);
        if (stop_ || running_.count(arn) || static_cast<int>(running_.size()) >= workers_) continue;
      }
      auto held = engine_.HoldJobLease(arn);
      if (!held.ok() || !*held) continue;  // another process runs it
      std::lock_guard lock(mu_);
      running_.insert(arn);
      threads_.emplace_back([this, arn, kind = std::string(kind)] { RunOne(arn, kind); });
    }
  }
}

bool JobRunner::KeepGoing(const std::string& arn) {
  {
    std::lock_guard lock(mu_);
    if (stop_) return false;
  }
  thread_local auto last = std::chrono::steady_clock::time_point();
  auto now = std::chrono::steady_clock::now();
  if (now - last < std::chrono::seconds(1)) return true;
  last = now;
  auto held = engine_.HoldJobLease(arn);
  return held.ok() && *held;
}

void JobRunner::RunOne(std::string arn, std::string kind) {
  auto job = engine_.GetJob(arn);
  if (job.ok() && *job && InProgress(**job)) {
    log::Info("jobs: running " + kind + " " + arn);
    auto keep_going = [this, &arn] { return KeepGoing(arn); };
    Status s = kind == "import" ? RunImport(engine_, *store_, arn, std::move(**job), keep_going)
               : kind == "bulk" ? RunBulkPut(engine_, *store_, arn, std::move(**job), keep_going)
                                : RunExport(engine_, *store_, arn, std::move(**job), keep_going);
    if (!s.ok()) log::Warn("jobs: " + kind + " " + arn + " could not be recorded: " + s.error().message());
  }
  std::lock_guard lock(mu_);
  running_.erase(arn);
}

}  // namespace pogi::jobs
