// zlib's deflate with gzip framing (windowBits 15 + 16), 64 KB out at a time.
#include "jobs/gzip_writer.h"

#include <zlib.h>

#include "common/md5.h"

namespace pogi::jobs {

struct GzipWriter::Stream {
  z_stream z{};
  Md5 md5;
  std::string buf = std::string(64 << 10, '\0');
};

GzipWriter::GzipWriter(std::unique_ptr<outbound::ObjectWriter> out)
    : z_(std::make_unique<Stream>()), out_(std::move(out)) {
  deflateInit2(&z_->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

GzipWriter::~GzipWriter() { deflateEnd(&z_->z); }

Status GzipWriter::Deflate(std::string_view data, int flush) {
  z_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z_->z.avail_in = static_cast<uInt>(data.size());
  for (;;) {
    z_->z.next_out = reinterpret_cast<Bytef*>(z_->buf.data());
    z_->z.avail_out = static_cast<uInt>(z_->buf.size());
    int rc = deflate(&z_->z, flush);
    if (rc == Z_STREAM_ERROR) return Error::Internal("gzip: deflate failed");
    size_t n = z_->buf.size() - z_->z.avail_out;
    if (n) {
      std::string_view piece(z_->buf.data(), n);
      z_->md5.Update(piece);
      POGI_RETURN_IF_ERROR(out_->Write(piece));
    }
    if (flush == Z_FINISH ? rc == Z_STREAM_END : z_->z.avail_in == 0 && z_->z.avail_out != 0) break;
  }
  return Status::Ok();
}

Status GzipWriter::Write(std::string_view data) {
  // zlib counts in 32 bits: feed very large pieces in parts.
  while (data.size() > (1u << 30)) {
    POGI_RETURN_IF_ERROR(Deflate(data.substr(0, 1u << 30), Z_NO_FLUSH));
    data.remove_prefix(1u << 30);
  }
  return Deflate(data, Z_NO_FLUSH);
}

Status GzipWriter::Finish() {
  POGI_RETURN_IF_ERROR(Deflate({}, Z_FINISH));
  md5_ = z_->md5.Digest();
  return out_->Finish();
}

}  // namespace pogi::jobs
