// The input objects of imports and bulk puts, decompressed as they are read
// (InputCompressionType GZIP, ZSTD or NONE), in bounded memory at any size.
// A failure to read the object is the store's Error, as it came; bytes that
// do not decompress are an Error of code kValidation whose message says
// why in DynamoDB's terms ("...is not in GZIP format"): the object's data
// is bad, not the store.
#pragma once

#include <memory>
#include <string_view>

#include "common/result.h"
#include "outbound/object_store.h"

namespace pogi::jobs {

// `in` read through the decompressor `compression` names ("GZIP", "ZSTD";
// "NONE" or "": as it is).
std::unique_ptr<outbound::ObjectReader> Decompressing(std::unique_ptr<outbound::ObjectReader> in,
                                                      std::string_view compression);

// Whether `error` (from a reader above) is about the object's bytes rather
// than the store.
inline bool IsDataError(const Error& error) { return error.code() == ErrorCode::kValidation; }

// The two decompressors (gzip_reader.cc, zstd_reader.cc).
std::unique_ptr<outbound::ObjectReader> GunzipReader(std::unique_ptr<outbound::ObjectReader> in);
std::unique_ptr<outbound::ObjectReader> UnzstdReader(std::unique_ptr<outbound::ObjectReader> in);

}  // namespace pogi::jobs
