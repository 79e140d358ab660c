// The controllable clock, and the time and duration notations of its admin
// commands.
#include "service/core/clock.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace pogi::service {
namespace {

double SystemNow() { return SystemClock().Now(); }

// Days from 1970-01-01 to the civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

bool Digits(std::string_view s, size_t at, size_t n, int* out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

ControllableClock::ControllableClock(double now, bool frozen) {
  offset_ = now - SystemNow();
  frozen_ = frozen;
  frozen_at_ = now;
}

double ControllableClock::NowLocked() const { return frozen_ ? frozen_at_ : SystemNow() + offset_; }

double ControllableClock::Now() const {
  std::lock_guard lock(mu_);
  return NowLocked();
}

void ControllableClock::Set(double now) {
  std::lock_guard lock(mu_);
  if (frozen_) {
    frozen_at_ = now;
  } else {
    offset_ = now - SystemNow();
  }
}

void ControllableClock::Advance(double seconds) {
  std::lock_guard lock(mu_);
  if (frozen_) {
    frozen_at_ += seconds;
  } else {
    offset_ += seconds;
  }
}

void ControllableClock::Freeze() {
  std::lock_guard lock(mu_);
  if (frozen_) return;
  frozen_at_ = NowLocked();
  frozen_ = true;
}

void ControllableClock::Resume() {
  std::lock_guard lock(mu_);
  if (!frozen_) return;
  offset_ = frozen_at_ - SystemNow();
  frozen_ = false;
}

ControllableClock::State ControllableClock::state() const {
  std::lock_guard lock(mu_);
  return State{offset_, frozen_, frozen_at_};
}

void ControllableClock::Adopt(const State& state) {
  std::lock_guard lock(mu_);
  offset_ = state.offset;
  frozen_ = state.frozen;
  frozen_at_ = state.frozen_at;
}

bool ControllableClock::frozen() const {
  std::lock_guard lock(mu_);
  return frozen_;
}

std::optional<double> ParseIsoTime(std::string_view s) {
  int y, mo, d, h = 0, mi = 0, sec = 0;
  if (!Digits(s, 0, 4, &y) || s.size() < 10 || s[4] != '-' || !Digits(s, 5, 2, &mo) || s[7] != '-' ||
      !Digits(s, 8, 2, &d)) {
    return std::nullopt;
  }
  size_t at = 10;
  double fraction = 0;
  if (at < s.size() && (s[at] == 'T' || s[at] == 't' || s[at] == ' ')) {
    if (!Digits(s, at + 1, 2, &h) || at + 3 >= s.size() || s[at + 3] != ':' || !Digits(s, at + 4, 2, &mi))
      return std::nullopt;
    at += 6;
    if (at < s.size() && s[at] == ':') {
      if (!Digits(s, at + 1, 2, &sec)) return std::nullopt;
      at += 3;
      if (at < s.size() && s[at] == '.') {
        double scale = 0.1;
        ++at;
        size_t start = at;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
          fraction += (s[at] - '0') * scale;
          scale /= 10;
          ++at;
        }
        if (at == start) return std::nullopt;
      }
    }
  }
  double offset = 0;
  if (at < s.size()) {
    if (s[at] == 'Z' || s[at] == 'z') {
      ++at;
    } else if (s[at] == '+' || s[at] == '-') {
      int oh, om;
      if (!Digits(s, at + 1, 2, &oh) || at + 3 >= s.size() || s[at + 3] != ':' || !Digits(s, at + 4, 2, &om))
        return std::nullopt;
      offset = (s[at] == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
      at += 6;
    }
  }
  if (at != s.size()) return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  double days = static_cast<double>(DaysFromCivil(y, mo, d));
  return days * 86400 + h * 3600.0 + mi * 60.0 + sec + fraction - offset;
}

std::string FormatIsoTime(double seconds) {
  double whole = std::floor(seconds);
  int millis = static_cast<int>(std::lround((seconds - whole) * 1000));
  if (millis == 1000) {
    whole += 1;
    millis = 0;
  }
  time_t t = static_cast<time_t>(whole);
  struct tm tm;
  gmtime_r(&t, &tm);
  char buf[64];
  snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
           tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

std::optional<double> ParseDuration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double total = 0;
  size_t at = 0;
  while (at < s.size()) {
    size_t start = at;
    double v = 0, scale = 0;
    while (at < s.size() && ((s[at] >= '0' && s[at] <= '9') || s[at] == '.')) {
      if (s[at] == '.') {
        if (scale != 0) return std::nullopt;
        scale = 0.1;
      } else if (scale == 0) {
        v = v * 10 + (s[at] - '0');
      } else {
        v += (s[at] - '0') * scale;
        scale /= 10;
      }
      ++at;
    }
    if (at == start) return std::nullopt;
    std::string_view unit;
    size_t ustart = at;
    while (at < s.size() && s[at] >= 'a' && s[at] <= 'z') ++at;
    unit = s.substr(ustart, at - ustart);
    double mult;
    if (unit == "ms") {
      mult = 0.001;
    } else if (unit == "s") {
      mult = 1;
    } else if (unit == "m") {
      mult = 60;
    } else if (unit == "h") {
      mult = 3600;
    } else if (unit == "d") {
      mult = 86400;
    } else {
      return std::nullopt;
    }
    total += v * mult;
  }
  return total;
}

}  // namespace pogi::service
