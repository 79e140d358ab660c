// Objects as files: bucket B, key K is ROOT/B/K. A bucket is a folder that
// exists (mkdir ROOT/B makes one). A new object is written to a hidden file
// in its bucket and renamed into place at Finish, so a reader never sees
// half an object; keys whose '/'-separated parts are empty, "." or ".."
// cannot be files and are refused (S3InvalidKey).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>

#include "outbound/store_kinds.h"

namespace pogi::outbound {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

Error IoFailure(const std::string& what) {
  if (errno == EACCES || errno == EPERM || errno == EROFS)
    return StoreError("S3AccessDenied", what + ": " + ErrnoText());
  return StoreError("S3InternalError", what + ": " + ErrnoText());
}

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Status CheckKey(const std::string& key) {
  if (key.empty()) return StoreError("S3InvalidKey", "an object key may not be empty");
  size_t p = 0;
  for (;;) {
    size_t q = key.find('/', p);
    std::string_view part =
        std::string_view(key).substr(p, q == std::string::npos ? std::string::npos : q - p);
    if (part.empty() || part == "." || part == ".." || part.starts_with(".pogi-upload-")) {
      return StoreError("S3InvalidKey", "the key " + key + " cannot be a file in a folder store");
    }
    if (q == std::string::npos) return Status::Ok();
    p = q + 1;
  }
}

// mkdir -p of the folders above `path`, inside `bucket_dir`.
Status MakeParents(const std::string& bucket_dir, const std::string& key) {
  for (size_t q = key.find('/'); q != std::string::npos; q = key.find('/', q + 1)) {
    std::string dir = bucket_dir + "/" + key.substr(0, q);
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) return IoFailure("cannot create " + dir);
  }
  return Status::Ok();
}

class FolderStore final : public ObjectStore {
 public:
  explicit FolderStore(std::string root) : root_(std::move(root)) {}

  Status CheckBucket(const std::string& bucket) override {
    if (bucket.empty() || bucket.find('/') != std::string::npos || bucket == "." || bucket == "..") {
      return StoreError("S3NoSuchBucket", "The specified bucket does not exist: " + bucket);
    }
    if (!IsDir(root_ + "/" + bucket)) {
      return StoreError("S3NoSuchBucket", "The specified bucket does not exist: " + bucket + " (no folder " +
                                              root_ + "/" + bucket + ")");
    }
    return Status::Ok();
  }

  Result<std::unique_ptr<ObjectWriter>> Create(const std::string& bucket, const std::string& key) override {
    POGI_RETURN_IF_ERROR(CheckBucket(bucket));
    POGI_RETURN_IF_ERROR(CheckKey(key));
    std::string dir = root_ + "/" + bucket;
    std::string temp = dir + "/.pogi-upload-" + std::to_string(getpid()) + "-" + std::to_string(++counter_);
    int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return IoFailure("cannot write in " + dir);
    return std::unique_ptr<ObjectWriter>(new Writer(fd, temp, dir, key));
  }

  Result<std::unique_ptr<ObjectReader>> Open(const std::string& bucket, const std::string& key) override {
    POGI_RETURN_IF_ERROR(CheckBucket(bucket));
    POGI_RETURN_IF_ERROR(CheckKey(key));
    std::string path = root_ + "/" + bucket + "/" + key;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT || errno == ENOTDIR) {
        return StoreError("S3NoSuchKey", "The specified key does not exist: " + key);
      }
      return IoFailure("cannot read " + path);
    }
    if (IsDir(path)) {
      close(fd);
      return StoreError("S3NoSuchKey", "The specified key does not exist: " + key);
    }
    return std::unique_ptr<ObjectReader>(new Reader(fd, path));
  }

  Result<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix) override {
    POGI_RETURN_IF_ERROR(CheckBucket(bucket));
    std::vector<ObjectInfo> out;
    std::string base = root_ + "/" + bucket;
    // Only the folders the prefix can reach are walked.
    std::function<Status(const std::string&)> walk = [&](const std::string& rel) -> Status {
      std::string dir = rel.empty() ? base : base + "/" + rel;
      DIR* d = opendir(dir.c_str());
      if (!d) return IoFailure("cannot list " + dir);
      std::vector<std::string> names;
      while (dirent* e = readdir(d)) {
        std::string name = e->d_name;
        if (name == "." || name == ".." || name.starts_with(".pogi-upload-")) continue;
        names.push_back(name);
      }
      closedir(d);
      for (const std::string& name : names) {
        std::string key = rel.empty() ? name : rel + "/" + name;
        std::string path = base + "/" + key;
        struct stat st;
        if (stat(path.c_str(), &st) != 0) continue;  // gone meanwhile
        if (S_ISDIR(st.st_mode)) {
          std::string as_prefix = key + "/";
          if (as_prefix.starts_with(prefix) || prefix.starts_with(as_prefix)) POGI_RETURN_IF_ERROR(walk(key));
        } else if (S_ISREG(st.st_mode) && key.starts_with(prefix)) {
          out.push_back({key, static_cast<int64_t>(st.st_size)});
        }
      }
      return Status::Ok();
    };
    POGI_RETURN_IF_ERROR(walk(""));
    std::sort(out.begin(), out.end(), [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
    return out;
  }

  std::string Describe() const override { return "folder " + root_; }

 private:
  class Writer final : public ObjectWriter {
   public:
    Writer(int fd, std::string temp, std::string dir, std::string key)
        : fd_(fd), temp_(std::move(temp)), dir_(std::move(dir)), key_(std::move(key)) {}
    ~Writer() override {
      if (fd_ >= 0) close(fd_);
      if (!finished_) unlink(temp_.c_str());
    }
    Status Write(std::string_view data) override {
      while (!data.empty()) {
        ssize_t n = write(fd_, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          if (errno == ENOSPC) return StoreError("S3InternalError", "no space left in " + dir_);
          return IoFailure("cannot write in " + dir_);
        }
        data.remove_prefix(static_cast<size_t>(n));
        size_ += n;
      }
      return Status::Ok();
    }
    Status Finish() override {
      if (close(fd_) != 0) {
        fd_ = -1;
        return IoFailure("cannot write in " + dir_);
      }
      fd_ = -1;
      POGI_RETURN_IF_ERROR(MakeParents(dir_, key_));
      std::string path = dir_ + "/" + key_;
      if (rename(temp_.c_str(), path.c_str()) != 0) {
        if (errno == ENOENT) {
          return StoreError("S3NoSuchBucket", "The specified bucket does not exist (" + dir_ + " is gone)");
        }
        return IoFailure("cannot write " + path);
      }
      finished_ = true;
      return Status::Ok();
    }
    int64_t size() const override { return size_; }

   private:
    int fd_;
    std::string temp_, dir_, key_;
    int64_t size_ = 0;
    bool finished_ = false;
  };

  class Reader final : public ObjectReader {
   public:
    Reader(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    ~Reader() override { close(fd_); }
    Result<size_t> Read(char* buf, size_t n) override {
      for (;;) {
        ssize_t got = read(fd_, buf, n);
        if (got >= 0) return static_cast<size_t>(got);
        if (errno != EINTR) return IoFailure("cannot read " + path_);
      }
    }

   private:
    int fd_;
    std::string path_;
  };

  std::string root_;
  std::atomic<int64_t> counter_{0};
};

}  // namespace

Result<std::shared_ptr<ObjectStore>> MakeFolderStore(const std::string& root) {
  std::string path = root;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  // Nothing is made here: a bucket is a folder the user makes (mkdir -p
  // ROOT/B), and a pogi that never exports leaves no trace.
  return std::shared_ptr<ObjectStore>(std::make_shared<FolderStore>(path));
}

}  // namespace pogi::outbound
