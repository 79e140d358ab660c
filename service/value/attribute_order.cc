// java.util.HashMap's iteration order and Java's String order, for
// attribute_order.h.
#include "service/value/attribute_order.h"

#include <algorithm>

namespace pogi::value {
namespace {

constexpr float kLoadFactor = 0.75f;  // HashMap's default
constexpr size_t kDefaultCapacity = 16;

// HashMap.tableSizeFor: the least power of two at least `n` (1 for 0).
size_t TableSizeFor(size_t n) {
  size_t c = 1;
  while (c < n) c <<= 1;
  return c;
}

// A HashMap doubles its table when a put takes its size past capacity *
// load factor (truncated, as Java's (int) cast does).
size_t GrowFor(size_t capacity, size_t n) {
  while (n > static_cast<size_t>(static_cast<float>(capacity) * kLoadFactor)) capacity <<= 1;
  return capacity;
}

}  // namespace

uint32_t JavaStringHash(std::string_view utf8) {
  uint32_t h = 0;
  auto add = [&h](uint32_t unit) { h = 31 * h + unit; };
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > utf8.size()) {
      add(c);
      ++i;
      continue;
    }
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      add(0xD800 + (cp >> 10));
      add(0xDC00 + (cp & 0x3FF));
    } else {
      add(cp);
    }
    i += len;
  }
  return h;
}

uint32_t JavaMapHash(std::string_view utf8) {
  uint32_t h = JavaStringHash(utf8);
  return h ^ (h >> 16);
}

size_t SizedCapacity(size_t n) {
  // new HashMap<>(n): the table is tableSizeFor(n); the puts may grow it.
  return GrowFor(TableSizeFor(n), n);
}

size_t GrownCapacity(size_t n) { return GrowFor(kDefaultCapacity, n); }

size_t CopiedCapacity(size_t n) {
  // HashMap(Map m): tableSizeFor(m.size() / loadFactor + 1).
  return TableSizeFor(static_cast<size_t>(static_cast<float>(n) / kLoadFactor + 1.0f));
}

bool Utf16Less(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    auto x = static_cast<uint8_t>(a[i]), y = static_cast<uint8_t>(b[i]);
    if (x == y) continue;
    // Lead bytes EE and EF start U+E000..U+FFFF, F0 to F4 a character
    // above U+FFFF, whose UTF-16 form starts with a surrogate (D800..DBFF):
    // first in Java's order, last in UTF-8's. Elsewhere the orders agree.
    bool x_astral = x >= 0xF0, y_astral = y >= 0xF0;
    if (x_astral != y_astral && (x == 0xEE || x == 0xEF || y == 0xEE || y == 0xEF)) return x_astral;
    return x < y;
  }
  return a.size() < b.size();
}

void SortAsHashMap(std::vector<OrderedName>& names, size_t capacity) {
  uint32_t mask = static_cast<uint32_t>(capacity - 1);
  std::sort(names.begin(), names.end(), [mask](const OrderedName& a, const OrderedName& b) {
    uint32_t x = a.hash & mask, y = b.hash & mask;
    return x != y ? x < y : a.rank < b.rank;
  });
}

bool BucketsCollide(const std::vector<OrderedName>& names, size_t capacity) {
  if (names.size() < 2) return false;
  uint32_t mask = static_cast<uint32_t>(capacity - 1);
  // Small maps are the common case: compare pairs rather than allocate.
  if (names.size() <= 16) {
    for (size_t i = 0; i < names.size(); ++i) {
      for (size_t j = i + 1; j < names.size(); ++j) {
        if ((names[i].hash & mask) == (names[j].hash & mask)) return true;
      }
    }
    return false;
  }
  std::vector<uint32_t> buckets;
  buckets.reserve(names.size());
  for (const OrderedName& n : names) buckets.push_back(n.hash & mask);
  std::sort(buckets.begin(), buckets.end());
  return std::adjacent_find(buckets.begin(), buckets.end()) != buckets.end();
}

void OrderAsRebuilt(std::vector<OrderedName>& names) {
  std::sort(names.begin(), names.end(),
            [](const OrderedName& a, const OrderedName& b) { return Utf16Less(a.name, b.name); });
  for (size_t i = 0; i < names.size(); ++i) names[i].rank = static_cast<uint32_t>(i);
  SortAsHashMap(names, GrownCapacity(names.size()));
  for (size_t i = 0; i < names.size(); ++i) names[i].rank = static_cast<uint32_t>(i);
  SortAsHashMap(names, SizedCapacity(names.size()));
}

}  // namespace pogi::value
