// Listing the input objects, an export's manifest read in place of its folder.
#include "jobs/input_objects.h"

#include <set>

#include "gateway/json_doc.h"

namespace pogi::jobs {
namespace {

constexpr size_t kMaxManifestBytes = 64 << 20;
constexpr std::string_view kManifest = "manifest-files.json";

}  // namespace

Result<InputObjects> ListInputObjects(outbound::ObjectStore& store, const std::string& bucket,
                                      const std::string& prefix) {
  POGI_ASSIGN_OR_RETURN(auto objects, store.List(bucket, prefix));
  InputObjects out;
  std::set<std::string> present;
  for (const auto& o : objects) present.insert(o.key);
  std::vector<std::string> export_folders;
  std::set<std::string> listed;
  for (const auto& o : objects) {
    if (!o.key.ends_with(kManifest)) continue;
    std::string folder = o.key.substr(0, o.key.size() - kManifest.size());
    if (!folder.empty() && folder.back() != '/') continue;
    POGI_ASSIGN_OR_RETURN(std::string text, store.Get(bucket, o.key, kMaxManifestBytes));
    export_folders.push_back(folder);
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      std::string_view line =
          std::string_view(text).substr(start, nl == std::string::npos ? std::string::npos : nl - start);
      start = nl == std::string::npos ? text.size() : nl + 1;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      gateway::JsonDoc doc;
      std::string data_key;
      if (doc.Parse(line) && doc.root().is_object()) {
        doc.root().ForEachMember([&](std::string_view name, gateway::JsonRef v) {
          if (name == "dataFileS3Key" && v.is_string()) data_key = v.string();
          return true;
        });
      }
      if (data_key.empty()) {
        out.bad_manifest_lines.emplace_back(o.key, "The line of the export's manifest names no dataFileS3Key");
        continue;
      }
      if (!present.count(data_key)) {
        return outbound::StoreError("S3NoSuchKey",
                                    "The specified key does not exist. (" + data_key + ", listed in " + o.key + ")");
      }
      listed.insert(data_key);
    }
  }
  for (auto& o : objects) {
    bool in_export = false;
    for (const auto& f : export_folders) in_export = in_export || o.key.starts_with(f);
    if (!in_export || listed.count(o.key)) out.objects.push_back(std::move(o));
  }
  return out;
}

}  // namespace pogi::jobs
