#!/usr/bin/env python3
"""Checks that every #include between pogi's rooms follows the layering.

Each room (a folder of the source tree) may include its own headers and those
of the rooms listed for it here; nothing else of pogi's. The lists go one way
(a room only names rooms above it in this table), so no two rooms can include
each other. docs/development.md draws the same picture in words.

Run: python3 tests/layering/check_includes.py [ROOT]   (CTest: "layering")
"""
import pathlib
import re
import sys

# room -> the rooms it may include, lowest first. A room lists every room it
# uses directly; what those use is their own business.
ROOMS = {
    "common": [],
    "outbound": ["common"],
    "storage": ["common"],
    "service/value": ["common"],
    "service/expr": ["service/value", "common"],
    "service/core": ["service/value", "storage", "common"],
    "service/validate": ["service/core", "service/expr", "service/value", "storage", "common"],
    "service/vector": ["service/validate", "service/core", "service/expr", "service/value", "storage",
                       "common"],
    "service/streams": ["service/validate", "service/core", "service/value", "storage", "common"],
    "service/write": ["service/streams", "service/vector", "service/validate", "service/core", "service/expr",
                      "service/value", "storage", "common"],
    "service/read": ["service/write", "service/vector", "service/validate", "service/core", "service/expr",
                     "service/value", "storage", "common"],
    "service/backup": ["service/write", "service/validate", "service/core", "service/value",
                       "storage", "common"],
    "service/controls": ["service/write", "service/core", "common"],
    "service/engine": ["service/controls", "service/backup", "service/read", "service/write",
                       "service/streams", "service/vector", "service/validate", "service/core", "service/expr",
                       "service/value", "storage", "common"],
    "service/partiql": ["service/engine", "service/read", "service/write", "service/validate",
                        "service/core", "service/expr", "service/value", "storage", "common"],
    "service/actions": ["service/partiql", "service/engine", "service/controls", "service/backup",
                        "service/read", "service/write", "service/streams", "service/vector",
                        "service/validate",
                        "service/core", "service/expr", "service/value", "storage", "common"],
    "service/admin": ["service/engine", "service/controls", "service/write", "service/core",
                      "service/value", "storage", "common"],
    "service/rpc": ["service/admin", "service/engine", "service/controls", "service/write",
                    "service/core", "service/value", "storage", "common"],
    "gateway": ["service/admin", "service/engine", "service/controls", "service/write", "service/validate",
                "service/streams", "service/core", "service/value", "storage", "common"],
    "jobs": ["gateway", "service/engine", "service/write", "service/read", "service/streams", "service/validate",
             "service/core", "service/value", "storage", "outbound", "common"],
    "cli": ["jobs", "outbound", "gateway", "service/rpc", "service/admin", "service/engine", "service/controls",
            "service/core", "service/value", "storage", "common"],
}
SOURCES = ("*.h", "*.cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(path):
    """The room of a repository path ("service/write/item_write.h"), or None."""
    parts = pathlib.PurePosixPath(path).parts
    for n in (2, 1):
        if len(parts) > n and "/".join(parts[:n]) in ROOMS:
            return "/".join(parts[:n])
    return None


def check_table():
    """The table itself: every listed room exists, and the lists go one way."""
    problems = []
    order = list(ROOMS)
    for room, allowed in ROOMS.items():
        for other in allowed:
            if other not in ROOMS:
                problems.append(f"{room} lists {other}, which is not a room")
            elif order.index(other) >= order.index(room):
                problems.append(f"{room} lists {other}, which comes after it in the table")
    return problems


def check_tree(root):
    problems = []
    for room in ROOMS:
        folder = root / room
        if not folder.is_dir():
            problems.append(f"room {room} has no folder")
            continue
        for pattern in SOURCES:
            # A room's own files; the rooms inside service/ are not service's.
            for source in sorted(folder.glob(pattern)):
                rel = source.relative_to(root).as_posix()
                for included in INCLUDE.findall(source.read_text(errors="replace")):
                    target = room_of(included)
                    if target is None or target == room:
                        continue
                    if target not in ROOMS[room]:
                        problems.append(f"{rel}: includes {included} ({target} is not among {room}'s rooms)")
    # Every source folder is a room, so no file escapes the check.
    for folder in ("service",):
        for source in sorted((root / folder).glob("*.[hc]*")):
            problems.append(f"{source.relative_to(root)}: a file outside every room")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    problems = check_table() + check_tree(root)
    for p in problems:
        print(p)
    files = sum(len(list((root / r).glob(p))) for r in ROOMS for p in SOURCES)
    print(f"layering: {len(ROOMS)} rooms, {files} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
