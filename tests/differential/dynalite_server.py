"""A throwaway dynalite: the reference the differential test compares pogi with.

dynalite (npm `dynalite@4`) is a Node.js DynamoDB whose validations and
messages were written by recording Amazon DynamoDB's answers, around 2020.
It is installed from the npm registry once per build folder, into
BUILD/npm-dynalite (as tests/s3_server.py installs s3rver), and started on a
free port of 127.0.0.1, in memory, with tables ACTIVE at once (pogi's are).

    d = DynaliteServer().start()
    d.port                 # 127.0.0.1:d.port speaks DynamoDB's JSON protocol
    d.stop()

problem() says why no dynalite can run here (node or npm missing); a failed
npm install (no network) raises RuntimeError with npm's own words.
"""
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: ports.py
from ports import free_port  # noqa: E402

DYNALITE_VERSION = "4"


def default_npm_dir():
    """BUILD/npm-dynalite, BUILD being the folder of $POGI_BIN (or ./build of the checkout)."""
    if os.environ.get("POGI_NPM_DIR"):
        return os.environ["POGI_NPM_DIR"]
    binary = os.environ.get("POGI_BIN")
    base = os.path.dirname(os.path.abspath(binary)) if binary else os.path.join(HERE, "..", "..", "build")
    return os.path.normpath(os.path.join(base, "npm-dynalite"))


def problem():
    """Why no dynalite can run here, or None."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "node and npm are not installed (./dev test installs them)"
    return None


def install(npm_dir):
    """dynalite's cli.js, installed into npm_dir from the registry when missing."""
    script = os.path.join(npm_dir, "node_modules", "dynalite", "cli.js")
    os.makedirs(npm_dir, exist_ok=True)
    # Two runs at once (ctest -j): one installs while the other waits.
    with open(os.path.join(npm_dir, ".install-lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(script):
            cp = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save",
                                 "dynalite@" + DYNALITE_VERSION],
                                cwd=npm_dir, capture_output=True, text=True, timeout=600)
            if cp.returncode != 0 or not os.path.exists(script):
                raise RuntimeError("npm install dynalite@%s into %s failed (is the npm registry reachable?): %s"
                                   % (DYNALITE_VERSION, npm_dir, cp.stderr[-2000:]))
    return script


class DynaliteServer:
    def __init__(self, npm_dir=None):
        self.script = install(npm_dir or default_npm_dir())
        self.port = free_port()
        self.proc = None

    def start(self, timeout=30):
        """Starts dynalite; returns self once it listens. Picks another port
        when another process took this one first."""
        for attempt in range(3):
            try:
                return self._start_once(timeout)
            except RuntimeError as e:
                if "EADDRINUSE" not in str(e) or attempt == 2:
                    raise
                self.port = free_port()

    def _start_once(self, timeout):
        # --*TableMs 0: no CREATING/DELETING/UPDATING pause, as in pogi.
        self.proc = subprocess.Popen(["node", self.script, "--host", "127.0.0.1", "--port", str(self.port),
                                      "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("dynalite exited: " + self.proc.stderr.read().decode(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("dynalite did not listen within %d s" % timeout)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
