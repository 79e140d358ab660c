// What `pogi --version` prints: the release version, the git commit it was
// built from ("-dirty" when the tree had changes) and the build date (the
// commit's date, or SOURCE_DATE_EPOCH, so that a build is reproducible).
// Defined in the build folder's version.cc (cmake/version.cmake).
#pragma once

namespace pogi::cli {

extern const char kVersion[];
extern const char kCommit[];
extern const char kBuildDate[];

}  // namespace pogi::cli
