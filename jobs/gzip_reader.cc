// gzip input (RFC 1952), through zlib's inflate with gzip framing
// (windowBits 15 + 16). A file of several gzip members, as concatenated
// gzip files are, reads as their concatenation.
#include <zlib.h>

#include <algorithm>
#include <string>

#include "jobs/decompress.h"

namespace pogi::jobs {
namespace {

class Gunzip final : public outbound::ObjectReader {
 public:
  explicit Gunzip(std::unique_ptr<outbound::ObjectReader> in) : in_(std::move(in)) {
    inflateInit2(&z_, 15 + 16);
  }
  ~Gunzip() override { inflateEnd(&z_); }

  Result<size_t> Read(char* buf, size_t n) override {
    const uInt want = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = want;
    while (want > 0 && z_.avail_out == want) {  // until something comes out
      if (z_.avail_in == 0) {
        POGI_ASSIGN_OR_RETURN(size_t got, in_->Read(in_buf_.data(), in_buf_.size()));
        if (got == 0) {
          if (in_member_) return Error::Validation("the object ends inside its GZIP data (cut short?)");
          return size_t{0};
        }
        z_.next_in = reinterpret_cast<Bytef*>(in_buf_.data());
        z_.avail_in = static_cast<uInt>(got);
      }
      if (!in_member_) {  // the first member, or another after the last
        inflateReset(&z_);
        in_member_ = true;
      }
      int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
      } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z_.avail_in == 0)) {
        if (produced_ == 0) return Error::Validation("the object is not in GZIP format");
        return Error::Validation(std::string("the object's GZIP data is damaged (") +
                                 (z_.msg ? z_.msg : "inflate failed") + ")");
      }
    }
    size_t out = want - z_.avail_out;
    produced_ += out;
    return out;
  }

 private:
  std::unique_ptr<outbound::ObjectReader> in_;
  z_stream z_{};
  std::string in_buf_ = std::string(64 << 10, '\0');
  bool in_member_ = false;
  uint64_t produced_ = 0;
};

}  // namespace

std::unique_ptr<outbound::ObjectReader> GunzipReader(std::unique_ptr<outbound::ObjectReader> in) {
  return std::make_unique<Gunzip>(std::move(in));
}

}  // namespace pogi::jobs
