// Storage::Open: the backend the options name, and the partition hash both
// backends store.
#include "storage/backends.h"
#include "storage/storage.h"

namespace pogi::storage {

Result<std::unique_ptr<Storage>> Storage::Open(const Options& options) {
  if (!options.postgres.empty()) return OpenPostgres(options);
  return OpenSqlite(options);
}

// FNV-1a over the bytes, then a 64-bit finalizer (splitmix64's) so that
// similar keys ("k001", "k002") land far apart: parallel scan segments are
// hash ranges and must split the keys evenly. 63 bits, so that SQLite's
// signed integers sort it as unsigned.
int64_t PartitionHash(std::string_view partition) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : partition) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return static_cast<int64_t>(h >> 1);
}

int VectorSlot(const EncodedKey& table_key) {
  uint64_t h = static_cast<uint64_t>(PartitionHash(table_key.partition));
  h ^= static_cast<uint64_t>(PartitionHash(table_key.sort)) * 0x9e3779b97f4a7c15ull;
  return static_cast<int>((h >> 7) % kVectorSlots);
}

}  // namespace pogi::storage
