#!/usr/bin/env python3
"""Idle RSS and start-up of several pogi binaries, taking turns in one run.

    python3 bench/idle_rss.py [--runs N] [--mem] [--smaps] BINARY [BINARY...]

Measured as bench/run does (measure.py, servers.py): each binary runs from a
copy in a temporary folder (not from the linker's page-cache folios), with a
fresh data folder, start-up to its `Ready.` line, VmRSS 0.5 s later; one
discarded warm round first, then medians over N rounds, the binaries
round-robin so drift on a busy machine hits all alike (--cold: each copy
dropped from the page cache before every start, as after a reboot). Also gives
RssAnon / RssFile from /proc/PID/status, the minor page faults up to then
and, with --smaps, the Rss of each
mapping of the last start-up (which of the binary's pages, heap, stacks)."""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from servers import Server, Spec  # noqa: E402


def status_kb(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "Threads"):
                out[k] = int(v.split()[0])
    return out


def minor_faults(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


def smaps(pid):
    """(mapping name and permissions, Rss kB, Size kB) per mapping."""
    rows, head = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and not parts[0].endswith(":"):
                head = [" ".join(parts[5:]) or "[anon]", parts[1], 0, 0]
                rows.append(head)
            elif parts[0] == "Rss:":
                head[2] = int(parts[1])
            elif parts[0] == "Size:":
                head[3] = int(parts[1])
    return rows


def evict(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mem", action="store_true", help="--in-memory")
    ap.add_argument("--smaps", action="store_true")
    ap.add_argument("--cold", action="store_true",
                    help="drop each copy's pages from the page cache before "
                    "every start (posix_fadvise DONTNEED, this file only)")
    ap.add_argument("--in-place", action="store_true",
                    help="run the binaries themselves, not copies")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="idle-rss-")
    specs = []
    for i, b in enumerate(args.binaries):
        d = os.path.join(work, f"bin{i}")
        os.makedirs(d)
        dest = os.path.join(d, "pogi")
        if args.in_place:
            dest = os.path.abspath(b)
        else:
            shutil.copy2(b, dest)

        def argv(p, g, data, dest=dest):
            return [dest, "start", "--port", str(p), "--grpc-port", str(g),
                    "--data-dir", data] + (["--in-memory"] if args.mem else [])
        specs.append(Spec(f"{i}-{os.path.basename(b)}", argv, True, binary=dest))

    res = {s.name: {"ms": [], "rss": [], "anon": [], "file": [], "thr": [],
                    "flt": []}
           for s in specs}
    last_smaps = {}
    try:
        for r in range(args.runs + 1):
            for s in specs:
                if args.cold:
                    evict(s.binary)
                srv = Server(s, work)
                try:
                    time.sleep(0.5)
                    st = status_kb(srv.pid)
                    st["minflt"] = minor_faults(srv.pid)
                    if args.smaps:
                        last_smaps[s.name] = smaps(srv.pid)
                finally:
                    srv.stop()
                if r:
                    x = res[s.name]
                    x["ms"].append(srv.startup_ms)
                    x["rss"].append(st["VmRSS"] / 1024)
                    x["anon"].append(st["RssAnon"] / 1024)
                    x["file"].append(st["RssFile"] / 1024)
                    x["thr"].append(st["Threads"])
                    x["flt"].append(st["minflt"])
    finally:
        shutil.rmtree(work, ignore_errors=True)

    med = statistics.median
    print(f"{'binary':40} {'start ms':>9} {'VmRSS MB':>9} {'anon':>6} "
          f"{'file':>6} {'min..max RSS':>13} thr minflt")
    for s in specs:
        x = res[s.name]
        print(f"{s.name[-40:]:40} {med(x['ms']):9.2f} {med(x['rss']):9.2f} "
              f"{med(x['anon']):6.2f} {med(x['file']):6.2f} "
              f"{min(x['rss']):6.2f}..{max(x['rss']):5.2f} {med(x['thr'])} "
              f"{med(x['flt'])}")
    for name, rows in last_smaps.items():
        print(f"\n{name}: mappings with Rss (kB), last start-up")
        for m, perm, rss, size in rows:
            if rss:
                print(f"  {rss:6d} of {size:8d}  {perm}  {m}")


if __name__ == "__main__":
    main()
