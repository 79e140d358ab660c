// The home region, the request's region, the shape of a region name, and
// the account id.
#include "service/core/region.h"

#include <atomic>
#include <map>
#include <mutex>

namespace pogi::service {
namespace {

std::string& TheRegion() {
  static std::string region(kDefaultRegion);
  return region;
}

std::string& TheAccountId() {
  static std::string id(kDefaultAccountId);
  return id;
}

bool strict_regions = false;

// Empty: the home region.
thread_local std::string request_region;

bool IsLowerWord(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

struct TableRegions {
  std::mutex mu;
  std::map<std::string, int, std::less<>> count;
  std::atomic<bool> any{false};
};

TableRegions& Regions() {
  static TableRegions* regions = new TableRegions;  // never destroyed: read at exit
  return *regions;
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

const std::string& AccountId() { return TheAccountId(); }

bool IsAccountId(std::string_view id) {
  return id.size() == 12 && id.find_first_not_of("0123456789") == std::string_view::npos;
}

void SetAccountId(std::string_view id) { TheAccountId().assign(id); }

void SetRegion(std::string_view name) { TheRegion().assign(name); }

bool StrictRegions() { return strict_regions; }

void SetStrictRegions(bool strict) { strict_regions = strict; }

const std::string& RequestRegion() { return request_region.empty() ? TheRegion() : request_region; }

bool InOtherRegion() { return !request_region.empty(); }

RequestRegionScope::RequestRegionScope(std::string_view region) {
  if (region.empty() || region == TheRegion() || !IsRegionName(region)) return;
  request_region.assign(region);
  set_ = true;
}

RequestRegionScope::~RequestRegionScope() {
  if (set_) request_region.clear();
}

std::string_view CredentialRegion(std::string_view credential) {
  // AKID / DATE / REGION / ...
  for (int skip = 0; skip < 2; ++skip) {
    size_t slash = credential.find('/');
    if (slash == std::string_view::npos) return {};
    credential.remove_prefix(slash + 1);
  }
  return credential.substr(0, credential.find('/'));
}

void AddTableRegion(std::string_view region) {
  TableRegions& r = Regions();
  std::lock_guard lock(r.mu);
  auto it = r.count.find(region);
  if (it == r.count.end()) it = r.count.emplace(std::string(region), 0).first;
  ++it->second;
  r.any = true;
}

void RemoveTableRegion(std::string_view region) {
  TableRegions& r = Regions();
  std::lock_guard lock(r.mu);
  auto it = r.count.find(region);
  if (it == r.count.end()) return;
  if (--it->second == 0) r.count.erase(it);
  r.any = !r.count.empty();
}

bool RegionsMatter() { return strict_regions || Regions().any.load(std::memory_order_relaxed); }

bool ServesRegion(std::string_view region) {
  if (region == TheRegion() || strict_regions) return true;
  TableRegions& r = Regions();
  if (!r.any.load(std::memory_order_relaxed)) return false;
  std::lock_guard lock(r.mu);
  return r.count.count(region) > 0;
}

}  // namespace pogi::service
