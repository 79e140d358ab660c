// Zstandard input (RFC 8878), through libzstd's streaming decompressor
// (Debian's libzstd-dev, linked statically). A file of several frames reads
// as their concatenation, as the zstd tool writes and reads them.
#include <zstd.h>

#include <string>

#include "jobs/decompress.h"

namespace pogi::jobs {
namespace {

class Unzstd final : public outbound::ObjectReader {
 public:
  explicit Unzstd(std::unique_ptr<outbound::ObjectReader> in)
      : reader_(std::move(in)), z_(ZSTD_createDStream()), in_buf_(ZSTD_DStreamInSize(), '\0') {
    // A window larger than 128 MiB (zstd --long=31) is refused rather than
    // allocated: imports hold bounded memory.
    ZSTD_DCtx_setParameter(z_, ZSTD_d_windowLogMax, 27);
  }
  ~Unzstd() override { ZSTD_freeDStream(z_); }

  Result<size_t> Read(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (n > 0 && out.pos == 0) {
      if (in_.pos == in_.size) {
        POGI_ASSIGN_OR_RETURN(size_t got, reader_->Read(in_buf_.data(), in_buf_.size()));
        if (got == 0) {
          if (in_frame_) return Error::Validation("the object ends inside its ZSTD data (cut short?)");
          return size_t{0};
        }
        in_ = ZSTD_inBuffer{in_buf_.data(), got, 0};
      }
      size_t rc = ZSTD_decompressStream(z_, &out, &in_);
      if (ZSTD_isError(rc)) {
        if (produced_ == 0 && out.pos == 0) {
          return Error::Validation(std::string("the object is not in ZSTD format (") + ZSTD_getErrorName(rc) +
                                   ")");
        }
        return Error::Validation(std::string("the object's ZSTD data is damaged (") + ZSTD_getErrorName(rc) +
                                 ")");
      }
      in_frame_ = rc != 0;  // 0: a frame ended here
    }
    produced_ += out.pos;
    return out.pos;
  }

 private:
  std::unique_ptr<outbound::ObjectReader> reader_;
  ZSTD_DStream* z_;
  std::string in_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool in_frame_ = false;
  uint64_t produced_ = 0;
};

}  // namespace

std::unique_ptr<outbound::ObjectReader> UnzstdReader(std::unique_ptr<outbound::ObjectReader> in) {
  return std::make_unique<Unzstd>(std::move(in));
}

}  // namespace pogi::jobs
