#!/usr/bin/env python3
"""Nothing a PostgreSQL test started outlives it.

stop_process_group() stops a process group (SIGTERM, then SIGKILL after a
grace), waiting until it is gone; running() says whether a process is
there. start(BASE) starts a watchdog for a temporary folder BASE: if the
test process dies without its exit handlers (kill -9, a CTest time-out),
the watchdog stops the process groups listed in BASE/pgids and every
PostgreSQL server whose data is in BASE, and removes BASE. A PgServer
(pg_server) and an AutoFailoverFormation (pg_autofailover) each start one
for their folder; closing the descriptor start() returns sets it off too.

The watchdog is this file run as a program: `pg_watchdog.py BASE`.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

from pg_tools import PG_BIN, run_as_pg


def start(base):
    """Starts the watchdog of folder `base`; returns the descriptor whose
    closing (or this process's end) sets it off.

    The watchdog waits for EOF on a pipe whose only writer is this process
    (the descriptor is close-on-exec, so pogi and the other children do not
    hold it): when this process ends, however it ends, the watchdog stops
    what runs in the folder and removes it. It detaches (forks, and its
    parent exits) so that killing this process's children does not take it
    along."""
    r, w = os.pipe()
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), base],
                       stdin=r, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       start_new_session=True, timeout=30, check=True)
    finally:
        os.close(r)
    return w


def _group_alive(pgid):
    """Whether process group `pgid` has a process that is not a zombie. A
    zombie counts as a member of its group until reaped, and the orphans
    among them (a killed PostgreSQL's backends) wait for process 1 to reap
    them, which here may take seconds."""
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:  # no /proc: any member, zombie or not
        try:
            os.killpg(pgid, 0)
            return True
        except ProcessLookupError:
            return False
    for pid in pids:
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":  # state, ppid, pgrp
            return True
    return False


def running(pid):
    """Whether process `pid` exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False


def stop_process_group(pgid, grace=15, leader=None, term=True):
    """Stops process group `pgid`: SIGTERM to each of its processes,
    SIGKILL to those still there after `grace` seconds. True once the group
    is gone (zombies aside). leader: the group leader's Popen when it is our
    child, reaped meanwhile. term=False: the group had its SIGTERM already."""
    def gone(wait):
        deadline = time.monotonic() + wait
        while True:
            if leader is not None:
                leader.poll()
            if not _group_alive(pgid):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    for sig, wait in ((signal.SIGTERM if term else 0, grace), (signal.SIGKILL, 5)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return True
        if gone(wait):
            return True
    return False


def _watch(base):
    """`pg_watchdog.py BASE` (started by start()): detach, wait for EOF on
    stdin, then stop the process groups listed in BASE/pgids (pg_autoctl's),
    the server in BASE/data and any in BASE/*/, and remove BASE."""
    if os.fork() != 0:
        os._exit(0)
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    try:
        with open(os.path.join(base, "pgids")) as f:
            for pgid in f.read().split():
                stop_process_group(int(pgid))
    except Exception:  # noqa: BLE001 -- best effort, nobody to tell
        pass
    datas = [os.path.join(base, "data")]
    try:
        datas += [os.path.join(base, d) for d in sorted(os.listdir(base)) if d != "data"]
    except OSError:
        pass
    for data in datas:
        if os.path.exists(os.path.join(data, "postmaster.pid")):
            try:
                run_as_pg([os.path.join(PG_BIN, "pg_ctl"), "-D", data, "stop", "-m", "immediate", "-w"],
                          cwd="/", timeout=60)
            except Exception:  # noqa: BLE001 -- best effort, nobody to tell
                pass
    shutil.rmtree(base, ignore_errors=True)
    os._exit(0)


if __name__ == "__main__":
    _watch(sys.argv[1])
