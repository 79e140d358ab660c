// The region pogi answers as, and the shape of a region name.
#include "service/core/region.h"

namespace pogi::service {
namespace {

std::string& TheRegion() {
  static std::string region(kDefaultRegion);
  return region;
}

bool IsLowerWord(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

}  // namespace

bool IsRegionName(std::string_view name) {
  // AWS's longest region names are ~20 characters; the bound keeps a typo
  // from becoming a megabyte of every ARN.
  if (name.size() > 32) return false;
  size_t last = name.rfind('-');
  if (last == std::string_view::npos || last + 1 == name.size() || name.size() - last - 1 > 2) return false;
  for (char c : name.substr(last + 1)) {
    if (c < '0' || c > '9') return false;
  }
  int words = 0;
  std::string_view rest = name.substr(0, last);
  while (true) {
    size_t dash = rest.find('-');
    if (!IsLowerWord(rest.substr(0, dash))) return false;
    ++words;
    if (dash == std::string_view::npos) break;
    rest.remove_prefix(dash + 1);
  }
  return words >= 2;
}

const std::string& Region() { return TheRegion(); }

void SetRegion(std::string_view name) { TheRegion().assign(name); }

}  // namespace pogi::service
