// MD5 through Nettle (common/sha256.cc's library).
#include "common/md5.h"

#include <nettle/md5.h>

namespace pogi {

struct Md5::State {
  md5_ctx ctx;
};

Md5::Md5() : state_(std::make_unique<State>()) { md5_init(&state_->ctx); }
Md5::~Md5() = default;

void Md5::Update(std::string_view data) {
  md5_update(&state_->ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
}

std::string Md5::Digest() {
  std::string out(MD5_DIGEST_SIZE, '\0');
  md5_digest(&state_->ctx, MD5_DIGEST_SIZE, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

}  // namespace pogi
