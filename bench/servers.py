"""One server process of the bench: started fresh (new port, new data
folder), ready when it prints "Ready." or, for servers that print nothing,
when its port accepts; its RSS and CPU time read from /proc; stopped with
SIGTERM. Spec says how to start one kind of server (see peers.py)."""

import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from common import HOST

CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / CLK_TCK


class Server:
    """One running server process, started fresh (new port, new data dir)."""

    def __init__(self, spec, workdir, extra=None):
        self.spec = spec
        self.port = free_port()
        self.data_dir = tempfile.mkdtemp(prefix=f"{spec.name}-", dir=workdir)
        argv = spec.argv(self.port, free_port(), self.data_dir) + (extra or [])
        self.log_path = self.data_dir + ".log"
        self._log = open(self.log_path, "wb")
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE if spec.ready_line else self._log,
            stderr=self._log, stdin=subprocess.DEVNULL,
            cwd=self.data_dir, start_new_session=True)
        try:
            if spec.ready_line:
                self._wait_line(t0 + spec.timeout)
            else:
                self._wait_port(t0 + spec.timeout)
        except Exception:
            self.stop()
            raise
        self.startup_ms = (time.perf_counter() - t0) * 1000.0
        self.pid = self.proc.pid

    def _wait_line(self, deadline):
        fd = self.proc.stdout.fileno()
        buf = b""
        while b"Ready." not in buf:
            left = deadline - time.perf_counter()
            if left <= 0 or self.proc.poll() is not None:
                raise RuntimeError(f"{self.spec.name}: no 'Ready.' line; "
                                   f"stdout {buf[-200:]!r}; "
                                   f"stderr {self._log_tail()!r}")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 4096)
                if not chunk:  # closed: the process is exiting
                    time.sleep(0.01)
                buf += chunk
        # Keep draining stdout so a chatty server never blocks on the pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        try:
            while self.proc.stdout.read(65536):
                pass
        except (OSError, ValueError):
            pass

    def _wait_port(self, deadline):
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.spec.name} exited: "
                                   f"{self._log_tail()!r}")
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    return
            except OSError:
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"{self.spec.name}: port never opened")
                time.sleep(0.001)

    def _log_tail(self):
        self._log.flush()
        with open(self.log_path, "rb") as f:
            return f.read()[-300:].decode(errors="replace")

    def rss_mb(self):
        return rss_mb(self.pid)

    def cpu(self):
        return cpu_seconds(self.pid)

    def url(self):
        return f"http://{HOST}:{self.port}/"

    def hostport(self):
        return f"{HOST}:{self.port}"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


class Spec:
    def __init__(self, name, argv, ready_line, is_null=False, binary=None,
                 timeout=30.0, note=""):
        self.name = name
        self.argv = argv  # (port, grpc_port, data_dir) -> list
        self.ready_line = ready_line
        self.is_null = is_null
        self.binary = binary
        self.timeout = timeout
        self.note = note


def installed_copy(path, workdir):
    """A copy of `path` in the bench's folder, run instead of the original.
    A binary the linker has just written sits in the page cache in large
    folios, which the kernel maps whole on first touch: measured here, the
    same pogi idles at 9.5 MB run from build/ right after a link and at
    7.9 MB run from a copy (or after the page cache is dropped), as any
    installed binary is. Copying makes the memory figures independent of
    when the binary was built."""
    dest_dir = os.path.join(workdir, "bin")
    os.makedirs(dest_dir, exist_ok=True)
    dest = os.path.join(dest_dir, os.path.basename(path))
    shutil.copy2(path, dest)
    return dest


