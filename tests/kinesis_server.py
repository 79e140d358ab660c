#!/usr/bin/env python3
"""A throwaway Kinesis-compatible server for the tests: npm's kinesalite.

kinesalite (a Node.js implementation of Kinesis Data Streams' JSON API,
keeping streams in memory) is installed from the npm registry once per build
folder, into BUILD/npm-kinesalite, and started on a free port of 127.0.0.1.
Streams become ACTIVE at once (--createStreamMs 0). It accepts any
credentials and does not check signatures (pogi's signer is checked against
pogi's own verifier in the unit tests).

    k = KinesisServer().start()
    k.endpoint                   # 'http://127.0.0.1:N'
    arn = k.create_stream("s")   # through boto3's kinesis client; its ARN
    k.read_records("s")          # every record of every shard, decoded JSON
    k.client()                   # boto3's kinesis client pointed at it
    k.stop(); k.cleanup()
"""
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import time

from ports import free_port

KINESALITE_VERSION = "3.3.3"


def default_npm_dir():
    """BUILD/npm-kinesalite, BUILD being the folder of $POGI_BIN (or ./build)."""
    if os.environ.get("POGI_NPM_DIR"):
        return os.environ["POGI_NPM_DIR"]
    binary = os.environ.get("POGI_BIN")
    base = os.path.dirname(os.path.abspath(binary)) if binary else os.path.abspath("build")
    return os.path.join(base, "npm-kinesalite")


def problem():
    """Why no kinesalite can run here, or None."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "node and npm are not installed (./dev test installs them)"
    return None


def install(npm_dir):
    """kinesalite's cli script, installed into npm_dir from the registry when missing."""
    script = os.path.join(npm_dir, "node_modules", "kinesalite", "cli.js")
    os.makedirs(npm_dir, exist_ok=True)
    # Several test files may start at once: one installs while the others wait.
    with open(os.path.join(npm_dir, ".install-lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(script):
            cp = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save",
                                 "kinesalite@" + KINESALITE_VERSION],
                                cwd=npm_dir, capture_output=True, text=True, timeout=600)
            if cp.returncode != 0:
                raise RuntimeError("npm install kinesalite failed: " + cp.stderr[-2000:])
    return script


class KinesisServer:
    def __init__(self, npm_dir=None):
        self.script = install(npm_dir or default_npm_dir())
        self.port = free_port()
        self.proc = None

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def start(self, timeout=30):
        """Starts kinesalite; returns self once it listens. Picks another port
        when another test's process took this one first."""
        for attempt in range(3):
            try:
                return self._start_once(timeout)
            except RuntimeError as e:
                if "EADDRINUSE" not in str(e) or attempt == 2:
                    raise
                self.port = free_port()

    def _start_once(self, timeout):
        self.proc = subprocess.Popen(["node", self.script, "--port", str(self.port), "--createStreamMs", "0",
                                      "--deleteStreamMs", "0", "--updateStreamMs", "0"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("kinesalite exited: " + self.proc.stderr.read().decode(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("kinesalite did not listen within %d s" % timeout)

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

    def client(self):
        import boto3
        return boto3.client("kinesis", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="pogi", aws_secret_access_key="pogi")

    def create_stream(self, name, shards=1):
        """Creates stream `name` and waits for it to be ACTIVE; its ARN."""
        k = self.client()
        k.create_stream(StreamName=name, ShardCount=shards)
        deadline = time.time() + 30
        while True:
            d = k.describe_stream_summary(StreamName=name)["StreamDescriptionSummary"]
            if d["StreamStatus"] == "ACTIVE":
                return d["StreamARN"]
            if time.time() > deadline:
                raise AssertionError("stream %s not ACTIVE: %r" % (name, d))
            time.sleep(0.05)

    def raw_records(self, name):
        """Every record of stream `name`, shard by shard, oldest first (boto3's dicts)."""
        k = self.client()
        out = []
        for shard in k.list_shards(StreamName=name)["Shards"]:
            it = k.get_shard_iterator(StreamName=name, ShardId=shard["ShardId"],
                                      ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while it:
                r = k.get_records(ShardIterator=it, Limit=10000)
                out += r["Records"]
                if not r["Records"]:
                    break
                it = r.get("NextShardIterator")
        return out

    def read_records(self, name):
        """The Data of every record of stream `name`, parsed as JSON."""
        return [json.loads(r["Data"]) for r in self.raw_records(name)]

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()
