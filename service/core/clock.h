// Clock: where everything time-based in pogi reads the time (creation dates,
// TTL, stream records and shards, iterator expiry, transaction tokens).
// pogi runs on a ControllableClock that tests and operators can set, advance
// and freeze.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

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

// A clock that runs with the system clock from a chosen offset, or stands
// still while frozen. Setting it back is allowed (data already written keeps
// its order: stream sequence numbers come from a counter, not the clock).
// Thread-safe.
class ControllableClock final : public Clock {
 public:
  // Runs at the system time.
  ControllableClock() = default;
  // Runs (or stands, when `frozen`) from `now`.
  ControllableClock(double now, bool frozen);

  double Now() const override;
  void Set(double now);
  // REQUIRES: seconds >= 0.
  void Advance(double seconds);
  // Stops the clock at its current time; Resume lets it run on from there.
  void Freeze();
  void Resume();
  bool frozen() const;

  // Its whole state, to keep with the data and to hand to the clocks of
  // other processes sharing it: running at the system time plus `offset`,
  // or standing at `frozen_at`. Hosts' system clocks are assumed to agree.
  struct State {
    double offset = 0;
    bool frozen = false;
    double frozen_at = 0;
  };
  State state() const;
  void Adopt(const State& state);

 private:
  double NowLocked() const;
  mutable std::mutex mu_;
  double offset_ = 0;  // while running: Now() = system time + offset_
  bool frozen_ = false;
  double frozen_at_ = 0;
};

// "2030-01-01T00:00:00Z" (fractions of a second and a +hh:mm offset also
// accepted) as seconds since the epoch; nullopt when malformed.
std::optional<double> ParseIsoTime(std::string_view text);
// Seconds since the epoch as "2030-01-01T00:00:00.000Z".
std::string FormatIsoTime(double seconds);
// "25h", "90m", "1h30m", "1.5s", "2d", "500ms" as seconds; nullopt when malformed.
std::optional<double> ParseDuration(std::string_view text);

}  // namespace pogi::service
