// The aws:rep:* attributes of legacy global tables' items.
#include "service/write/legacy_attributes.h"

#include <cmath>
#include <cstdio>

namespace pogi::service {

value::AttributeMap WithLegacyAttributes(const value::AttributeMap& item, std::string_view region,
                                         double now) {
  value::AttributeMap out = item;
  // Microseconds, as DynamoDB shows them; printed from integers so that no
  // binary fraction leaks into the decimal.
  const auto micros = static_cast<long long>(std::llround(now * 1e6));
  char time[40];
  std::snprintf(time, sizeof time, "%lld.%06lld", micros / 1000000, micros % 1000000);
  // DynamoDB's canonical number form: no trailing zeros in the fraction.
  std::string n(time);
  while (n.back() == '0') n.pop_back();
  if (n.back() == '.') n.pop_back();
  out["aws:rep:updateregion"].set_s(std::string(region));
  out["aws:rep:updatetime"].set_n(std::move(n));
  out["aws:rep:deleting"].set_bool_value(false);
  return out;
}

}  // namespace pogi::service
