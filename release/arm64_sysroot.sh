#!/usr/bin/env bash
# Unpacks Debian 12's arm64 builds of pogi's libraries into a sysroot folder
# for cmake/arm64-linux.cmake, without installing them on the host:
#
#   release/arm64_sysroot.sh SYSROOT
#
# Needs root (or sudo) once, to let apt know arm64 packages
# (dpkg --add-architecture arm64); the packages themselves are only
# downloaded and unpacked. The C and C++ runtime comes from Debian's cross
# compiler instead (crossbuild-essential-arm64), so those packages are left
# out. Does nothing when SYSROOT is already complete.
set -euo pipefail
sysroot=${1:?usage: release/arm64_sysroot.sh SYSROOT}
[ -f "$sysroot/.complete" ] && exit 0

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The arm64 twins of ./dev's BUILD_PACKAGES libraries. libpq-dev and
# postgresql-server-dev-15 (libpq.a, libpgcommon.a, libpgport.a) conflict
# with their amd64 builds, so apt is asked for the dependencies of the rest
# only, and those three are named explicitly.
LIBS=(libgrpc++-dev libprotobuf-dev libboost-dev libspdlog-dev libsqlite3-dev zlib1g-dev nettle-dev
  libzstd-dev libssl-dev libgtest-dev)
EXTRA=(libpq-dev:arm64 libpq5:arm64 postgresql-server-dev-15:arm64 nlohmann-json3-dev)

if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  as_root dpkg --add-architecture arm64
  as_root apt-get update -qq
fi
# apt's would-be install (-s) names every arm64 package the libraries need.
mapfile -t deps < <(apt-get install -s -qq "${LIBS[@]/%/:arm64}" 2>/dev/null |
  awk '$1 == "Inst" && $2 ~ /:arm64$/ { print $2 }')
if [ ${#deps[@]} -eq 0 ]; then
  as_root apt-get update -qq
  mapfile -t deps < <(apt-get install -s -qq "${LIBS[@]/%/:arm64}" | awk '$1 == "Inst" && $2 ~ /:arm64$/ { print $2 }')
fi

debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
chmod 777 "$debs"  # apt downloads as its _apt user
(cd "$debs" && apt-get download -qq "${deps[@]}" "${EXTRA[@]}")
rm -rf "$sysroot"
mkdir -p "$sysroot"
for deb in "$debs"/*.deb; do
  case $(basename "$deb") in
    # The cross compiler's own C/C++ runtime and headers.
    libc6* | libstdc++* | libgcc* | gcc-12-base* | linux-libc-dev* | libcrypt* | libnsl* | libtirpc* | \
      libasan* | libtsan* | liblsan* | libubsan* | libhwasan* | libitm* | libgomp* | libatomic*) continue ;;
  esac
  dpkg-deb -x "$deb" "$sysroot"
done
touch "$sysroot/.complete"
echo "arm64 sysroot: $(find "$debs" -name '*.deb' | wc -l) packages in $sysroot" >&2
