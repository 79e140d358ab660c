// Which TTL attribute values have expired.
#include "service/engine/ttl.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace pogi::service {

bool IsExpired(const v1::AttributeValue& value, double now) {
  if (value.value_case() != v1::AttributeValue::kN) return false;
  const std::string& n = value.n();
  char* end = nullptr;
  double at = std::strtod(n.c_str(), &end);
  if (end == n.c_str() || *end != '\0' || !std::isfinite(at)) return false;
  constexpr double kFiveYears = 5 * 365.0 * 86400;
  return at <= now && at >= now - kFiveYears;
}

}  // namespace pogi::service
