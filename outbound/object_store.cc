// What every object store shares: failures as "CODE: text", whole-object
// reads and writes, and the choice of store.
#include "outbound/object_store.h"

#include "outbound/store_kinds.h"

namespace pogi::outbound {

StoreFailure FailureOf(const Error& error) {
  const std::string& m = error.message();
  size_t colon = m.find(": ");
  if (colon != std::string::npos && m.starts_with("S3")) return {m.substr(0, colon), m.substr(colon + 2)};
  return {"S3Unavailable", m};
}

Error StoreError(std::string_view code, std::string_view message) {
  return Error(ErrorCode::kInternalServerError, std::string(code) + ": " + std::string(message));
}

Status ObjectStore::Put(const std::string& bucket, const std::string& key, std::string_view data) {
  POGI_ASSIGN_OR_RETURN(auto writer, Create(bucket, key));
  POGI_RETURN_IF_ERROR(writer->Write(data));
  return writer->Finish();
}

Result<std::string> ObjectStore::Get(const std::string& bucket, const std::string& key, size_t limit) {
  POGI_ASSIGN_OR_RETURN(auto reader, Open(bucket, key));
  std::string out;
  char buf[65536];
  for (;;) {
    POGI_ASSIGN_OR_RETURN(size_t n, reader->Read(buf, sizeof(buf)));
    if (n == 0) return out;
    if (out.size() + n > limit) {
      return StoreError("S3ObjectTooLarge",
                        "s3://" + bucket + "/" + key + " is larger than " + std::to_string(limit) + " bytes");
    }
    out.append(buf, n);
  }
}

Result<std::shared_ptr<ObjectStore>> OpenObjectStore(const ObjectStoreOptions& options) {
  if (!options.endpoint.empty()) return MakeS3Store(options);
  if (!options.folder.empty()) return MakeFolderStore(options.folder);
  return MakeMemoryStore();
}

}  // namespace pogi::outbound
