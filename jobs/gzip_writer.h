// A gzip stream into an object: bytes written are deflated (zlib, gzip
// framing) and passed to the object as they come, so memory stays bounded
// whatever the size. Also counts what went in and the MD5 of what came out
// (the export manifest's md5Checksum and ETag).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"
#include "outbound/object_store.h"

namespace pogi::jobs {

class GzipWriter {
 public:
  explicit GzipWriter(std::unique_ptr<outbound::ObjectWriter> out);
  ~GzipWriter();
  Status Write(std::string_view data);
  // Ends the gzip stream and the object.
  Status Finish();
  // The MD5 of the compressed bytes (after Finish).
  const std::string& md5() const { return md5_; }

 private:
  Status Deflate(std::string_view data, int flush);
  struct Stream;
  std::unique_ptr<Stream> z_;
  std::unique_ptr<outbound::ObjectWriter> out_;
  std::string md5_;
};

}  // namespace pogi::jobs
