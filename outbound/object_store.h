// Where exports are written and imports and bulk puts read from: an object
// store with S3's model (buckets of objects named by keys), in one of three
// places, chosen once at start:
//   - a folder: bucket B, key K is the file DIR/B/K (a bucket is a folder
//     that exists);
//   - memory, for the life of the process (any bucket exists once written);
//   - an S3-compatible server over HTTP, SigV4-signed, multipart uploads
//     and streaming reads.
// Objects are written and read as streams, so memory stays bounded at any
// object size. Thread-safe: each writer and reader is one caller's.
//
// Failures are pogi::Errors whose message is "CODE: text", CODE being what
// a job reports as its FailureCode: S3NoSuchBucket, S3NoSuchKey,
// S3AccessDenied, S3Unavailable (no connection, a time-out), S3InvalidKey
// (a key a folder cannot hold), or "S3" + the code an S3 server answered.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace pogi::outbound {

// A failure's code and text, split from a store's Error (FailureOf) or made
// (StoreError).
struct StoreFailure {
  std::string code;
  std::string message;
};
StoreFailure FailureOf(const Error& error);
Error StoreError(std::string_view code, std::string_view message);

struct ObjectInfo {
  std::string key;
  int64_t size = 0;
};

// A new object being written. It appears whole at Finish, or not at all
// (destroyed before Finish: abandoned).
class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;
  virtual Status Write(std::string_view data) = 0;
  virtual Status Finish() = 0;
  // Bytes written so far.
  virtual int64_t size() const = 0;
};

// An object being read from its start.
class ObjectReader {
 public:
  virtual ~ObjectReader() = default;
  // Up to `n` bytes; 0 at the end.
  virtual Result<size_t> Read(char* buf, size_t n) = 0;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;
  // OK when `bucket` exists and may be used.
  virtual Status CheckBucket(const std::string& bucket) = 0;
  virtual Result<std::unique_ptr<ObjectWriter>> Create(const std::string& bucket, const std::string& key) = 0;
  virtual Result<std::unique_ptr<ObjectReader>> Open(const std::string& bucket, const std::string& key) = 0;
  // Every object whose key starts with `prefix`, in key (byte) order.
  virtual Result<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix) = 0;
  // What this store is, for logs: "folder /x/s3", "memory", "http://h:p".
  virtual std::string Describe() const = 0;

  // A whole small object in one call.
  Status Put(const std::string& bucket, const std::string& key, std::string_view data);
  // A whole object, failing past `limit` bytes.
  Result<std::string> Get(const std::string& bucket, const std::string& key, size_t limit);
};

struct ObjectStoreOptions {
  // One of: an endpoint URL (an S3-compatible server), a folder, or
  // neither (memory).
  std::string endpoint;
  std::string folder;
  std::string access_key_id;
  std::string secret_access_key;
  std::string region = "us-east-1";
  // Buckets in the path (http://host/bucket/key) rather than the host name
  // (http://bucket.host/key). Without it, path style is used for an IP
  // address or localhost, whose names cannot carry a bucket.
  bool path_style = false;
  // A multipart upload's part size (S3's minimum is 5 MiB).
  size_t part_size = 8 << 20;
};

Result<std::shared_ptr<ObjectStore>> OpenObjectStore(const ObjectStoreOptions& options);

}  // namespace pogi::outbound
