"""What the tests' throwaway Node.js servers share (s3rver, kinesalite,
dynalite): installing an npm package once per build folder, starting its
script on a free port of 127.0.0.1, and stopping it.

    script = install("s3rver", "3.7.1", "bin/s3rver.js")   # BUILD/npm-s3rver/...
    class S3Server(NodeServer):
        NAME = "s3rver"
        def command(self): return ["node", self.script, "-p", str(self.port)]
"""
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import time

from ports import free_port

HERE = os.path.dirname(os.path.abspath(__file__))


def npm_dir(package):
    """BUILD/npm-PACKAGE, BUILD being the folder of $POGI_BIN (else the
    checkout's build/); $POGI_NPM_DIR wins."""
    if os.environ.get("POGI_NPM_DIR"):
        return os.environ["POGI_NPM_DIR"]
    binary = os.environ.get("POGI_BIN")
    base = os.path.dirname(os.path.abspath(binary)) if binary else os.path.join(HERE, "..", "build")
    return os.path.normpath(os.path.join(base, "npm-" + package))


def problem():
    """Why no Node.js server can run here, or None."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "node and npm are not installed (./dev test installs them)"
    return None


def install(package, version, script, folder=None):
    """The path of `script` (relative to the package) of npm's
    PACKAGE@VERSION, installed into `folder` (npm_dir(package)) from the
    registry when missing. A failed install (no network) raises
    RuntimeError with npm's own words."""
    folder = folder or npm_dir(package)
    path = os.path.join(folder, "node_modules", package, script)
    os.makedirs(folder, exist_ok=True)
    # CTest runs several test files at once: one installs while the others
    # wait, since npm writes the script before the packages it needs.
    with open(os.path.join(folder, ".install-lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path):
            cp = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save",
                                 "%s@%s" % (package, version)],
                                cwd=folder, capture_output=True, text=True, timeout=600)
            if cp.returncode != 0 or not os.path.exists(path):
                raise RuntimeError("npm install %s@%s into %s failed (is the npm registry reachable?): %s"
                                   % (package, version, folder, cp.stderr[-2000:]))
    return path


class NodeServer:
    """A Node.js server on self.port of 127.0.0.1; subclasses give NAME and command()."""

    NAME = "server"

    def __init__(self, script):
        self.script = script
        self.port = free_port()
        self.proc = None

    def command(self):
        raise NotImplementedError

    def start(self, timeout=30):
        """Starts it; returns self once it listens. Picks another port when
        another test's process took this one first."""
        for attempt in range(3):
            try:
                return self._start_once(timeout)
            except RuntimeError as e:
                if "EADDRINUSE" not in str(e) or attempt == 2:
                    raise
                self.port = free_port()

    def _start_once(self, timeout):
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited: %s" % (self.NAME, self.proc.stderr.read().decode(errors="replace")))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("%s did not listen within %d s" % (self.NAME, timeout))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.proc and self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def cleanup(self):
        self.stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()
