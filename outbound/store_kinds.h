// The three kinds of object store behind OpenObjectStore
// (outbound/object_store.h); each in its own file.
#pragma once

#include <memory>
#include <string>

#include "outbound/object_store.h"

namespace pogi::outbound {

// Buckets are folders of `root` (neither is created here).
Result<std::shared_ptr<ObjectStore>> MakeFolderStore(const std::string& root);
std::shared_ptr<ObjectStore> MakeMemoryStore();
Result<std::shared_ptr<ObjectStore>> MakeS3Store(const ObjectStoreOptions& options);

}  // namespace pogi::outbound
