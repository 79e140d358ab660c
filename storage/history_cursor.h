// The cursor of a paged history read (ReadTxn::ReadHistoryPage and
// ReadHistoryChanges): the position of the last key read, as a backend
// orders history (hash, then its partition-key column, then the sort key).
// Opaque above storage.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace pogi::storage {

struct HistoryPosition {
  int64_t hash = -1;      // below every hash: the start
  std::string order_key;  // SQLite: pk; PostgreSQL: pkd
  std::string sort;
};

inline std::string EncodeHistoryCursor(const HistoryPosition& p) {
  std::string out(8, '\0');
  std::memcpy(out.data(), &p.hash, 8);
  uint32_t n = static_cast<uint32_t>(p.order_key.size());
  out.append(reinterpret_cast<const char*>(&n), 4).append(p.order_key).append(p.sort);
  return out;
}

// False when `cursor` is not one EncodeHistoryCursor made; an empty cursor
// is the start.
inline bool DecodeHistoryCursor(std::string_view cursor, HistoryPosition* p) {
  *p = HistoryPosition();
  if (cursor.empty()) return true;
  if (cursor.size() < 12) return false;
  std::memcpy(&p->hash, cursor.data(), 8);
  uint32_t n;
  std::memcpy(&n, cursor.data() + 8, 4);
  if (cursor.size() - 12 < n) return false;
  p->order_key = std::string(cursor.substr(12, n));
  p->sort = std::string(cursor.substr(12 + n));
  return true;
}

}  // namespace pogi::storage
