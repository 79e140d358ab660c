// Clock: where the engine reads the time (creation dates, later TTL). Tests
// and operators can replace the system clock with a controllable one.
#pragma once

#include <atomic>
#include <chrono>

namespace pogi::service {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since the Unix epoch, with sub-second precision.
  virtual double Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  double Now() const override {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() / 1e6;
  }
};

}  // namespace pogi::service
