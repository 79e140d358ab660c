// The choice of decompressor for InputCompressionType.
#include "jobs/decompress.h"

namespace pogi::jobs {

std::unique_ptr<outbound::ObjectReader> Decompressing(std::unique_ptr<outbound::ObjectReader> in,
                                                      std::string_view compression) {
  if (compression == "GZIP") return GunzipReader(std::move(in));
  if (compression == "ZSTD") return UnzstdReader(std::move(in));
  return in;
}

}  // namespace pogi::jobs
