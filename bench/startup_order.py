#!/usr/bin/env python3
"""Writes cmake/startup.order, the linker's symbol ordering file: every
function pogi runs from exec to 0.5 s after `Ready.` (the idle-RSS moment of
bench/measure.py), as counted by valgrind's callgrind.

    python3 bench/startup_order.py [BINARY] [--out FILE]   (default build/pogi)

Why: the kernel maps a binary's text in 64 KB windows around each page fault
(fault-around), so idle RSS is the number of 64 KB windows start-up touches,
not the size of the code it runs. Left to the linker, the ~2,600 start-up
functions of pogi, gRPC, protobuf, absl, SQLite and glibc sit in ~110
windows spread over 10 MB of text; listed here, lld puts their sections
first, together (CMakeLists.txt, `--symbol-ordering-file`).

Run it again after a change that moves what start-up runs (a new subsystem
started in main, a library upgrade): a stale file still links and runs, the
functions it no longer names simply fall back to the linker's own order, and
only idle RSS creeps up. Names are sorted, so a regenerated file diffs
readably. Needs valgrind (Debian's package)."""

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def startup_profile(binary, work):
    """callgrind's profile of exec .. Ready. + 0.5 s (its first dump)."""
    out = os.path.join(work, "cg.out")
    data = os.path.join(work, "data")
    os.mkdir(data)
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--demangle=no",
         "--callgrind-out-file=" + out, binary, "start",
         "--port", str(free_port()), "--grpc-port", str(free_port()),
         "--data-dir", data],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        buf = b""
        while b"Ready." not in buf:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                raise SystemExit("pogi did not start under valgrind")
            buf += chunk
        time.sleep(0.5)
        subprocess.run(["callgrind_control", "-d", str(proc.pid)],
                       stdout=subprocess.DEVNULL, check=True)
        time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    return out + ".1"


def executed_functions(profile):
    """Symbol names of the functions with cost in a callgrind profile."""
    names, seen = {}, set()
    with open(profile) as f:
        for line in f:
            m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not m:
                continue
            kind, ident, name = m.groups()
            if name:
                names[ident] = name
            if kind == "fn":
                seen.add(ident)
    out = set()
    for ident in seen:
        # callgrind marks recursion levels with 'N; unnamed code shows as
        # an address, and "(below main)" is its name for the libc entry.
        name = re.sub(r"'\d+$", "", names[ident])
        if not name.startswith(("0x", "(")):
            out.add(name)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?",
                    default=os.path.join(ROOT, "build", "pogi"))
    ap.add_argument("--out",
                    default=os.path.join(ROOT, "cmake", "startup.order"))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pogi-order-")
    try:
        fns = executed_functions(startup_profile(args.binary, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(args.out, "w") as f:
        f.write("".join(n + "\n" for n in fns))
    print(f"{args.out}: {len(fns)} functions")


if __name__ == "__main__":
    main()
