// The objects an import or a bulk put reads under a bucket's prefix, in key
// order: every object there, except that where an export's
// manifest-files.json is among them, the data files its manifest lists
// stand for that export's folder (its manifests and _started are no
// input). A listed data file that is missing is S3NoSuchKey.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "outbound/object_store.h"

namespace pogi::jobs {

struct InputObjects {
  std::vector<outbound::ObjectInfo> objects;
  // Lines of a manifest that name no data file: the manifest's key, and why.
  std::vector<std::pair<std::string, std::string>> bad_manifest_lines;
};

Result<InputObjects> ListInputObjects(outbound::ObjectStore& store, const std::string& bucket,
                                      const std::string& prefix);

}  // namespace pogi::jobs
