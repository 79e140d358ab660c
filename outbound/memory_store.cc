// Objects in memory, for `pogi start --in-memory`: enough to export and
// import again within one process. A bucket exists once something was
// written to it.
#include <algorithm>
#include <map>
#include <mutex>

#include "outbound/store_kinds.h"

namespace pogi::outbound {
namespace {

using Objects = std::map<std::string, std::shared_ptr<const std::string>>;

class MemoryStore final : public ObjectStore, public std::enable_shared_from_this<MemoryStore> {
 public:
  Status CheckBucket(const std::string& bucket) override { return Status::Ok(); }

  Result<std::unique_ptr<ObjectWriter>> Create(const std::string& bucket, const std::string& key) override;

  Result<std::unique_ptr<ObjectReader>> Open(const std::string& bucket, const std::string& key) override {
    std::lock_guard lock(mu_);
    auto b = buckets_.find(bucket);
    if (b == buckets_.end()) return StoreError("S3NoSuchBucket", "The specified bucket does not exist");
    auto o = b->second.find(key);
    if (o == b->second.end()) return StoreError("S3NoSuchKey", "The specified key does not exist: " + key);
    return std::unique_ptr<ObjectReader>(new Reader(o->second));
  }

  Result<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix) override {
    std::lock_guard lock(mu_);
    auto b = buckets_.find(bucket);
    if (b == buckets_.end()) return StoreError("S3NoSuchBucket", "The specified bucket does not exist");
    std::vector<ObjectInfo> out;
    for (auto it = b->second.lower_bound(prefix); it != b->second.end() && it->first.starts_with(prefix);
         ++it) {
      out.push_back({it->first, static_cast<int64_t>(it->second->size())});
    }
    return out;
  }

  std::string Describe() const override { return "memory"; }

  void Store(const std::string& bucket, const std::string& key, std::string data) {
    std::lock_guard lock(mu_);
    buckets_[bucket][key] = std::make_shared<const std::string>(std::move(data));
  }

 private:
  class Writer final : public ObjectWriter {
   public:
    Writer(std::shared_ptr<MemoryStore> store, std::string bucket, std::string key)
        : store_(std::move(store)), bucket_(std::move(bucket)), key_(std::move(key)) {}
    Status Write(std::string_view data) override {
      data_.append(data);
      return Status::Ok();
    }
    Status Finish() override {
      store_->Store(bucket_, key_, std::move(data_));
      return Status::Ok();
    }
    int64_t size() const override { return static_cast<int64_t>(data_.size()); }

   private:
    std::shared_ptr<MemoryStore> store_;
    std::string bucket_, key_, data_;
  };

  class Reader final : public ObjectReader {
   public:
    explicit Reader(std::shared_ptr<const std::string> data) : data_(std::move(data)) {}
    Result<size_t> Read(char* buf, size_t n) override {
      size_t take = std::min(n, data_->size() - pos_);
      std::copy_n(data_->data() + pos_, take, buf);
      pos_ += take;
      return take;
    }

   private:
    std::shared_ptr<const std::string> data_;
    size_t pos_ = 0;
  };

  std::mutex mu_;
  std::map<std::string, Objects> buckets_;
};

Result<std::unique_ptr<ObjectWriter>> MemoryStore::Create(const std::string& bucket, const std::string& key) {
  return std::unique_ptr<ObjectWriter>(new Writer(shared_from_this(), bucket, key));
}

}  // namespace

std::shared_ptr<ObjectStore> MakeMemoryStore() { return std::make_shared<MemoryStore>(); }

}  // namespace pogi::outbound
