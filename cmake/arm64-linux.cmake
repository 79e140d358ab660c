# Cross-compiling pogi for arm64 Linux on an x86-64 Debian 12 (`./dev release
# --arch arm64`): Debian's cross compiler (crossbuild-essential-arm64) with
# its own arm64 C and C++ libraries, and the arm64 builds of every other
# library unpacked into a sysroot folder (release/arm64_sysroot.sh), never
# installed on the host: Debian's libpq-dev cannot be installed for two
# architectures at once. protoc and grpc_cpp_plugin are the host's.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

if(DEFINED ENV{POGI_ARM64_SYSROOT})
  set(POGI_ARM64_SYSROOT $ENV{POGI_ARM64_SYSROOT})
else()
  get_filename_component(POGI_ARM64_SYSROOT ${CMAKE_CURRENT_LIST_DIR}/../build-arm64/sysroot ABSOLUTE)
endif()
set(CMAKE_FIND_ROOT_PATH ${POGI_ARM64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config reads the sysroot's .pc files and prefixes their paths with it.
set(ENV{PKG_CONFIG_LIBDIR}
    ${POGI_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${POGI_ARM64_SYSROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${POGI_ARM64_SYSROOT})
# Multiarch headers (OpenSSL's configuration, for one) sit in the sysroot's
# include/aarch64-linux-gnu, which the compiler searches only under its own
# system folders.
set(CMAKE_CXX_FLAGS_INIT "-isystem ${POGI_ARM64_SYSROOT}/usr/include/aarch64-linux-gnu")
set(CMAKE_C_FLAGS_INIT "-isystem ${POGI_ARM64_SYSROOT}/usr/include/aarch64-linux-gnu")
# The cross gcc looks for lld as aarch64-linux-gnu-ld.lld; LLVM's folder has
# it under its plain name (ld.lld links every target). The static link names
# gRPC's and absl's archives by -l alone (pkg-config --libs-only-l).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-B/usr/lib/llvm-14/bin/ -L${POGI_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
# Test binaries built here (pogi_unit_tests) run under qemu-user: CTest and
# GoogleTest's test discovery go through it.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
