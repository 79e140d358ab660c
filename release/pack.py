#!/usr/bin/env python3
"""Packs a built pogi into what users download, reproducibly: the same
binary and sources give the same bytes (fixed timestamps, owners and order).

    python3 release/pack.py [--binary build/pogi] [--out dist]

Writes into OUT:
  pogi-VERSION-linux-ARCH.tar.gz         the stripped static binary, LICENSE, README, completions
  pogi-VERSION-linux-ARCH.tar.gz.sha256  its SHA-256, as sha256sum -c reads it
  pogi-VERSION-linux-ARCH.tar.xz         the same tar, xz-compressed: the smallest download
  pogi-VERSION-linux-ARCH.tar.xz.sha256
  pogi-VERSION-oci.tar                   an OCI image (FROM scratch: the binary alone), for
                                         `docker load` and `podman load`; tagged pogi:VERSION
  pogi-VERSION.tgz                       the npm package (npm install ./pogi-VERSION.tgz)
and prints one line per file with its size. ARCH is x86_64 or arm64, taken
from the binary; an arm64 binary's image and npm package are named
pogi-VERSION-oci-arm64.tar and pogi-VERSION-linux-arm64.tgz. Timestamps are
SOURCE_DATE_EPOCH when set, else the commit date of HEAD. Needs strip
(binutils; aarch64-linux-gnu-strip and qemu-aarch64-static for an arm64
binary on x86-64), and npm for the npm package (skipped with a note without
it).
"""

import argparse
import datetime
import gzip
import hashlib
import io
import json
import lzma
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARCHES = {"x86_64": ("x86_64", "amd64", "x64"), "aarch64": ("arm64", "arm64", "arm64")}


def source_epoch():
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    try:
        out = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%ct"], capture_output=True,
                             text=True, check=True).stdout.strip()
        return int(out)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 0


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(pogi VERSION ([0-9.]+)", f.read()).group(1)


def binary_arch(path):
    with open(path, "rb") as f:
        head = f.read(20)
    machine = int.from_bytes(head[18:20], "little")
    return {62: "x86_64", 183: "aarch64"}.get(machine, "unknown")


def tar_bytes(entries, epoch):
    """A tar of (name, bytes or None for a folder, mode), sorted by name, with
    every timestamp `epoch` and owner root: the same entries, the same bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data, mode in sorted(entries, key=lambda e: e[0]):
            info = tarfile.TarInfo(name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = epoch, 0, 0, "root", "root"
            info.mode = mode
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def gzip_bytes(data):
    # mtime 0 and no file name in the header: gzip's own reproducible form.
    return gzip.compress(data, compresslevel=9, mtime=0)


def xz_bytes(data, arch):
    # xz writes no timestamp or name: the same tar, the same bytes. CRC32
    # rather than the default CRC64, for the smallest xz-embedded readers.
    # For x86-64 the x86 branch filter first turns call and jump targets into
    # absolute addresses, which repeat, so LZMA2 finds more matches: 8% off
    # the download. Every xz decoder since 2009 knows the filter. arm64's
    # filter needs xz 5.4 to unpack, too new for many users' systems: not used.
    filters = [{"id": lzma.FILTER_X86}] if arch == "x86_64" else []
    filters.append({"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME})
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=filters)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def foreign(arch):
    """Whether a binary of `arch` is not this machine's: it is stripped with
    the cross binutils and run under qemu-user (Debian's qemu-user-static)."""
    return arch != platform.machine()


def stripped(binary, arch, workdir):
    out = os.path.join(workdir, "pogi")
    strip = arch + "-linux-gnu-strip" if foreign(arch) else "strip"
    subprocess.run([strip, "--strip-all", "-o", out, binary], check=True)
    with open(out, "rb") as f:
        return f.read()


def completions(binary, arch):
    run = ["qemu-%s-static" % arch, binary] if foreign(arch) else [binary]
    out = {}
    for shell, name in (("bash", "completions/pogi.bash"), ("zsh", "completions/_pogi"),
                        ("fish", "completions/pogi.fish")):
        out[name] = subprocess.run(run + ["completion", shell], capture_output=True, check=True).stdout
    return out


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def release_tar(name, pogi, binary, arch, epoch):
    """The release archive's tar, uncompressed: one folder NAME/ with the
    binary, LICENSE, README.md and completions/."""
    entries = [(name + "/", None, 0o755), (name + "/pogi", pogi, 0o755),
               (name + "/LICENSE", read("LICENSE"), 0o644),
               (name + "/README.md", read("release/README.md"), 0o644),
               (name + "/completions/", None, 0o755)]
    for path, data in completions(binary, arch).items():
        entries.append((name + "/" + path, data, 0o644))
    return tar_bytes(entries, epoch)


def oci_image(version, pogi, goarch, epoch):
    """An OCI image layout, FROM scratch: /pogi, an empty /data volume and
    /tmp. It runs `pogi start` on every interface (POGI_CONTAINER=1) with
    its data in /data; DynamoDB Local's flags work as the command too."""
    layer_tar = tar_bytes([("data/", None, 0o755), ("pogi", pogi, 0o755), ("tmp/", None, 0o1777)], epoch)
    layer = gzip_bytes(layer_tar)
    created = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    config = {
        "created": created,
        "architecture": goarch,
        "os": "linux",
        "config": {
            "Entrypoint": ["/pogi"],
            "Cmd": ["start"],
            "Env": ["POGI_CONTAINER=1", "POGI_DATA_DIR=/data"],
            "ExposedPorts": {"7644/tcp": {}, "7645/tcp": {}, "8000/tcp": {}},
            "Volumes": {"/data": {}},
            "WorkingDir": "/",
            "StopSignal": "SIGTERM",
            "Labels": {"org.opencontainers.image.title": "pogi",
                       "org.opencontainers.image.version": version,
                       "org.opencontainers.image.description":
                           "A local DynamoDB: ready when it prints Ready. and GET / answers 200"},
        },
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + sha256(layer_tar)]},
        "history": [{"created": created, "created_by": "release/pack.py"}],
    }
    config_bytes = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                   "digest": "sha256:" + sha256(config_bytes), "size": len(config_bytes)},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip",
                    "digest": "sha256:" + sha256(layer), "size": len(layer)}],
    }
    manifest_bytes = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    index = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
                       "digest": "sha256:" + sha256(manifest_bytes), "size": len(manifest_bytes),
                       "platform": {"architecture": goarch, "os": "linux"},
                       "annotations": {"org.opencontainers.image.ref.name": version,
                                       "io.containerd.image.name": "docker.io/library/pogi:" + version}}],
    }
    blobs = [config_bytes, manifest_bytes, layer]
    entries = [("blobs/", None, 0o755), ("blobs/sha256/", None, 0o755),
               ("oci-layout", json.dumps({"imageLayoutVersion": "1.0.0"}).encode(), 0o644),
               ("index.json", json.dumps(index, sort_keys=True, separators=(",", ":")).encode(), 0o644)]
    # Docker's `docker load` reads manifest.json (an OCI layout with it loads
    # on Docker 25 and later, and on Podman).
    docker_manifest = [{"Config": "blobs/sha256/" + sha256(config_bytes),
                        "RepoTags": ["pogi:" + version],
                        "Layers": ["blobs/sha256/" + sha256(layer)]}]
    entries.append(("manifest.json", json.dumps(docker_manifest, separators=(",", ":")).encode(), 0o644))
    for blob in blobs:
        entries.append(("blobs/sha256/" + sha256(blob), blob, 0o644))
    return tar_bytes(entries, epoch), "sha256:" + sha256(manifest_bytes)


def npm_package(version, pogi, npm_arch, workdir, out):
    """The npm package: the binary under bin/, a `pogi` command and a small
    API for test runners (release/npm/index.js). npm pack fixes every
    timestamp itself."""
    if not shutil.which("npm"):
        print("pack: npm not found, no npm package", file=sys.stderr)
        return None
    pkg = os.path.join(workdir, "npm")
    shutil.copytree(os.path.join(ROOT, "release", "npm"), pkg)
    with open(os.path.join(pkg, "package.json")) as f:
        manifest = json.load(f)
    manifest["version"] = version
    manifest["cpu"] = [npm_arch]
    manifest["bin"] = {"pogi": "bin/pogi-linux-" + npm_arch}
    with open(os.path.join(pkg, "package.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.makedirs(os.path.join(pkg, "bin"), exist_ok=True)
    with open(os.path.join(pkg, "bin", "pogi-linux-" + npm_arch), "wb") as f:
        f.write(pogi)
    os.chmod(os.path.join(pkg, "bin", "pogi-linux-" + npm_arch), 0o755)
    shutil.copy(os.path.join(ROOT, "LICENSE"), os.path.join(pkg, "LICENSE"))
    result = subprocess.run(["npm", "pack", "--json", "--pack-destination", out], cwd=pkg,
                            capture_output=True, text=True, check=True)
    return os.path.join(out, json.loads(result.stdout)[0]["filename"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "pogi"))
    parser.add_argument("--out", default=os.path.join(ROOT, "dist"))
    args = parser.parse_args()
    # npm pack runs inside the package's temporary folder: a relative --out
    # (./dev release's "dist") must not be taken from there.
    args.out = os.path.abspath(args.out)
    arch = binary_arch(args.binary)
    if arch not in ARCHES:
        sys.exit("pack: %s is not an x86-64 or arm64 ELF binary" % args.binary)
    name_arch, goarch, npm_arch = ARCHES[arch]
    version, epoch = project_version(), source_epoch()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pogi-pack-") as work:
        pogi = stripped(args.binary, arch, work)
        name = "pogi-%s-linux-%s" % (version, name_arch)
        tar = release_tar(name, pogi, args.binary, arch, epoch)
        written = []
        for suffix, compress in ((".tar.gz", gzip_bytes), (".tar.xz", lambda t: xz_bytes(t, arch))):
            archive = compress(tar)
            path = os.path.join(args.out, name + suffix)
            with open(path, "wb") as f:
                f.write(archive)
            with open(path + ".sha256", "w") as f:
                f.write("%s  %s\n" % (sha256(archive), name + suffix))
            written += [path, path + ".sha256"]
        image, digest = oci_image(version, pogi, goarch, epoch)
        # x86-64's names carry no architecture (the one most users take).
        tail = "" if arch == "x86_64" else "-" + name_arch
        path = os.path.join(args.out, "pogi-%s-oci%s.tar" % (version, tail))
        with open(path, "wb") as f:
            f.write(image)
        written.append(path)
        npm = npm_package(version, pogi, npm_arch, work, args.out)
        if npm and tail:
            renamed = npm[:-len(".tgz")] + "-linux" + tail + ".tgz"
            os.replace(npm, renamed)
            npm = renamed
        if npm:
            written.append(npm)
    print("binary (stripped): %d bytes" % len(pogi))
    print("image: pogi:%s, manifest %s" % (version, digest))
    for path in written:
        print("%s: %d bytes" % (path, os.path.getsize(path)))


if __name__ == "__main__":
    main()
