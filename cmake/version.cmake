# Writes OUT, the C++ file of pogi's version line: the version, the git
# commit and the build date. The build date is SOURCE_DATE_EPOCH when set,
# else the commit's own date, so the same commit builds the same bytes.
# The file is rewritten only when its text changes (nothing recompiles
# otherwise). Run as: cmake -DSRC=... -DOUT=... -DVERSION=... -P version.cmake
find_program(GIT git)
set(commit "unknown")
set(epoch "")
if(GIT AND EXISTS "${SRC}/.git")
  execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --short=12 HEAD OUTPUT_VARIABLE commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR commit STREQUAL "")
    set(commit "unknown")
  else()
    execute_process(COMMAND ${GIT} -C ${SRC} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT dirty STREQUAL "")
      set(commit "${commit}-dirty")
    endif()
    execute_process(COMMAND ${GIT} -C ${SRC} log -1 --format=%ct OUTPUT_VARIABLE epoch
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
endif()
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(epoch "$ENV{SOURCE_DATE_EPOCH}")
endif()
if(epoch STREQUAL "")
  set(date "unknown")
else()
  # string(TIMESTAMP) gives the time of SOURCE_DATE_EPOCH when it is set.
  set(ENV{SOURCE_DATE_EPOCH} "${epoch}")
  string(TIMESTAMP date "%Y-%m-%dT%H:%M:%SZ" UTC)
endif()
set(text "// Written by cmake/version.cmake at build time.\n#include \"cli/version.h\"\n\nnamespace pogi::cli {\n\nconst char kVersion[] = \"${VERSION}\";\nconst char kCommit[] = \"${commit}\";\nconst char kBuildDate[] = \"${date}\";\n\n}  // namespace pogi::cli\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
