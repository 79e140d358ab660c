// CatalogCheck: two flags per thread.
#include "storage/storage.h"

namespace pogi::storage {
namespace {

thread_local bool active = false;
thread_local bool confirmed_now = false;

}  // namespace

CatalogCheck::CatalogCheck() {
  active = true;
  confirmed_now = false;
}

CatalogCheck::~CatalogCheck() { active = confirmed_now = false; }

bool CatalogCheck::confirmed() const { return confirmed_now; }

bool CatalogCheck::Due() { return active && !confirmed_now; }

void CatalogCheck::Confirm() {
  if (active) confirmed_now = true;
}

}  // namespace pogi::storage
