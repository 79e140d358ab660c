"""Helpers for pogi's end-to-end tests.

Starts the real `pogi` binary on free ports with a fresh data folder and
gives the tests what they need to drive it: a boto3 client factory, the AWS
CLI run with the environment that `pogi env` prints, the admin CLI, raw HTTP,
and stop / kill -9 / restart on the same data folder.

The binary is $POGI_BIN, else ../../build/pogi relative to this file.

Storage: SQLite in the data folder by default. With
POGI_TEST_STORAGE=postgresql every Server stores in PostgreSQL instead: one
server per test process (tests/pg_server.py's shared(), or $POGI_TEST_PG's),
one schema per data folder (a restart, or another Server on the same
data_dir, finds the same data), and a fresh schema at each start in place of
--in-memory. Tests about SQLite's file say so with @sqlite_only(reason).

Door: with POGI_TEST_DOOR=gateway every Server is two processes: the engine
(`pogi start`, its gRPC door on grpc_port) and `pogi gateway --engine` in
front of it on `port`, so every HTTP request goes through the gateway and
over gRPC. The HTTP door's flags (signatures, limits, threads, request log)
go to both. Tests about what only the engine's own door has (the console,
/_pogi/metrics, fault rules of the http door, the process's own log and
exit) say so with @direct_only(reason).
"""

import atexit
import http.client
import itertools
import json
import os
import re
import secrets
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/: the helpers every test shares (ports, pg_server, s3_server).
TESTS_DIR = os.path.normpath(os.path.join(HERE, ".."))
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)
from ports import free_port  # noqa: E402  (re-exported: tests import it from here)

POGI_BIN = os.environ.get("POGI_BIN") or os.path.normpath(
    os.path.join(HERE, "..", "..", "build", "pogi"))

# pogi starts and stops in milliseconds (docs/performance.md); it promises
# no time. These only say "it never came", with room for a busy machine,
# a sanitizer build and a PostgreSQL schema made at start.
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 30.0
LOCALHOST = "127.0.0.1"
TARGET_PREFIX = "DynamoDB_20120810."
# A well-formed Authorization header (pogi verifies signatures only with
# --check-signatures, but like DynamoDB it wants one on every request).
UNVERIFIED_AUTH = {
    "Authorization": "AWS4-HMAC-SHA256 Credential=pogi/20260101/us-east-1/dynamodb/aws4_request, "
                     "SignedHeaders=host;x-amz-date, Signature=0000",
    "X-Amz-Date": "20260101T000000Z",
}

STORAGE = os.environ.get("POGI_TEST_STORAGE") or "sqlite"
if STORAGE not in ("sqlite", "postgresql"):
    raise RuntimeError("POGI_TEST_STORAGE is %r: sqlite or postgresql" % STORAGE)
POSTGRESQL = STORAGE == "postgresql"

DOOR = os.environ.get("POGI_TEST_DOOR") or "direct"
if DOOR not in ("direct", "gateway"):
    raise RuntimeError("POGI_TEST_DOOR is %r: direct or gateway" % DOOR)
GATEWAY = DOOR == "gateway"
# `pogi start` flags that are the HTTP door's: with a value, and without.
_DOOR_FLAGS = ("--access-key-id", "--secret-access-key", "--max-connections", "--idle-timeout", "--threads",
               "--region")
_DOOR_SWITCHES = ("--check-signatures", "--allow-unsigned", "--log-requests", "--strict-regions")

_live = set()  # every Server still running, killed at exit if a test forgot


def _kill_all_live():
    for server in list(_live):
        server.kill()


atexit.register(_kill_all_live)


def pogi_bin():
    """The path of the binary, waiting a little if a rebuild is replacing it."""
    deadline = time.monotonic() + 60
    while not os.access(POGI_BIN, os.X_OK):
        if time.monotonic() > deadline:
            raise RuntimeError("pogi binary not found at %s (set POGI_BIN)" % POGI_BIN)
        time.sleep(0.5)
    return POGI_BIN


def run_pogi(*args, timeout=30, env=None, input=None):
    """Runs `pogi ARGS...` to completion; returns the CompletedProcess (text)."""
    return subprocess.run([pogi_bin()] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=timeout,
                          env=env, input=input, stdin=None if input is not None else subprocess.DEVNULL)


def direct_only(reason):
    """Skips a test (or a class of them) under POGI_TEST_DOOR=gateway: it is
    about what only the engine's own HTTP door (or its process) has."""
    return unittest.skipIf(GATEWAY, "the engine's own door only: " + reason)


def door_args(args):
    """The HTTP door's flags among `pogi start` arguments, for the gateway."""
    out, args = [], [str(a) for a in args]
    for i, a in enumerate(args):
        name = a.split("=", 1)[0]
        if name in _DOOR_SWITCHES or (name in _DOOR_FLAGS and "=" in a):
            out.append(a)
        elif name in _DOOR_FLAGS and i + 1 < len(args):
            out += [a, args[i + 1]]
    return out


def sqlite_only(reason):
    """Skips a test (or a class of them) under POGI_TEST_STORAGE=postgresql:
    it is about SQLite's file (faults of the file system, the file's format,
    the data folder), which a database server backend does not have."""
    return unittest.skipIf(POSTGRESQL, "SQLite only: " + reason)


# ---- PostgreSQL storage (POGI_TEST_STORAGE=postgresql) --------------------

_schemas = {}  # data folder -> its schema: the same folder, the same data
_schemas_lock = threading.Lock()
_schema_numbers = itertools.count(1)


def _shared_pg():
    import pg_server
    return pg_server.shared()


def new_schema():
    """A schema name no other Server (of any test process on the same
    database) has used: lower case, so no quoting is ever needed."""
    return "e2e_%d_%d_%s" % (os.getpid(), next(_schema_numbers), secrets.token_hex(3))


def schema_for(data_dir):
    """The schema standing in for data_dir under PostgreSQL."""
    key = os.path.abspath(data_dir)
    with _schemas_lock:
        if key not in _schemas:
            _schemas[key] = new_schema()
        return _schemas[key]


def storage_args(data_dir, in_memory=False):
    """The storage flags of `pogi start` for this run's backend: --data-dir
    (and --in-memory) under SQLite; under PostgreSQL --data-dir still (pogi
    accepts it, stores nothing there), --storage with the shared server and
    --pg-schema: data_dir's schema, or a fresh one for in_memory."""
    args = ["--data-dir", data_dir]
    if not POSTGRESQL:
        return args + (["--in-memory"] if in_memory else [])
    schema = new_schema() if in_memory else schema_for(data_dir)
    return args + ["--storage", _shared_pg().conninfo(), "--pg-schema", schema]


class StartError(Exception):
    """pogi did not print Ready. (or exited); carries its exit code and stderr."""

    def __init__(self, message, returncode=None, stderr=""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class Server:
    """One running `pogi start` process.

    Ports: pass port/grpc_port, or leave them None to pick free ones (bound to
    port 0 and released just before pogi starts). data_dir: None makes a fresh
    temporary folder (removed by cleanup()). storage (and pg_schema): a
    database for --storage (and --pg-schema), whatever POGI_TEST_STORAGE says
    (test_postgresql.py's own server). env: variables added to pogi's
    environment.
    """

    def __init__(self, data_dir=None, in_memory=False, port=None, grpc_port=None,
                 extra_args=(), log_level=None, storage=None, pg_schema=None, env=None):
        self._owns_tmp = None
        if data_dir is None:
            self._owns_tmp = tempfile.mkdtemp(prefix="pogi-e2e-")
            data_dir = os.path.join(self._owns_tmp, "data")
        self.data_dir = data_dir
        self.in_memory = in_memory
        self.port = port
        self.grpc_port = grpc_port
        self.extra_args = list(extra_args)
        self.log_level = log_level
        self.storage = storage
        self.pg_schema = pg_schema
        self.env = dict(env or {})
        self.proc = None
        self.gateway = None  # the `pogi gateway` process (POGI_TEST_DOOR=gateway)
        self.stdout_after_ready = b""
        self.stdout_rest = b""
        self.stderr_path = None
        self._stderr_file = None
        self.returncode = None

    # ---- life cycle -------------------------------------------------------

    def start(self):
        """Starts pogi (and the gateway); ports it picked itself are picked
        again when another test's process took one first."""
        picked = self.port is None, self.grpc_port is None
        for attempt in range(3):
            try:
                return self._start_once()
            except StartError as e:
                if "Address already in use" not in str(e) or not all(picked) or attempt == 2:
                    raise
                self.port = self.grpc_port = None

    def _start_once(self):
        assert self.proc is None or self.proc.poll() is not None, "already running"
        if self.port is None:
            self.port = free_port()
        if self.grpc_port is None:
            self.grpc_port = free_port()
            while self.grpc_port == self.port:
                self.grpc_port = free_port()
        # Under the gateway the engine's own HTTP door listens elsewhere.
        engine_port = free_port() if GATEWAY else self.port
        args = [pogi_bin(), "start", "--host", LOCALHOST,
                "--port", str(engine_port), "--grpc-port", str(self.grpc_port)]
        args += self._storage_args()
        if self.log_level:
            args += ["--log-level", self.log_level]
        args += self.extra_args
        tmp = self._owns_tmp or tempfile.gettempdir()
        fd, self.stderr_path = tempfile.mkstemp(prefix="pogi-stderr-", suffix=".log", dir=tmp)
        self._stderr_file = os.fdopen(fd, "w+")
        self.returncode = None
        self.stdout_after_ready = b""
        self.stdout_rest = b""
        # The storage is the flags' (or self.env's), never the caller's environment's.
        env = {k: v for k, v in os.environ.items() if k not in ("POGI_STORAGE", "POGI_PG_SCHEMA")}
        env.update(self.env)
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self._stderr_file, env=env)
        _live.add(self)
        try:
            self._wait_ready()
            if GATEWAY:
                self._start_gateway()
        except BaseException:
            self.kill()
            raise
        return self

    def _start_gateway(self):
        tmp = self._owns_tmp or tempfile.gettempdir()
        fd, path = tempfile.mkstemp(prefix="pogi-gateway-", suffix=".log", dir=tmp)
        self.gateway = subprocess.Popen(
            [pogi_bin(), "gateway", "--engine", "%s:%d" % (LOCALHOST, self.grpc_port), "--host", LOCALHOST,
             "--port", str(self.port)] + door_args(self.extra_args),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=fd)
        os.close(fd)
        deadline = time.monotonic() + READY_TIMEOUT
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready = left > 0 and select.select([self.gateway.stdout], [], [], min(left, 0.2))[0]
            chunk = os.read(self.gateway.stdout.fileno(), 64) if ready else b""
            if left <= 0 or (ready and not chunk):  # too late, or the gateway exited
                with open(path, errors="replace") as f:
                    raise StartError("pogi gateway did not print Ready.: %s" % f.read())
            line += chunk
        if line != b"Ready.\n":
            raise StartError("pogi gateway's first stdout line is %r, not 'Ready.'" % line)

    def _stop_gateway(self, sig):
        if self.gateway is None:
            return
        if self.gateway.poll() is None:
            self.gateway.send_signal(sig)
        try:
            self.gateway.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.gateway.kill()
            self.gateway.wait(timeout=STOP_TIMEOUT)
        self.gateway.stdout.close()
        self.gateway = None

    def _storage_args(self):
        if self.storage is not None:
            args = ["--data-dir", self.data_dir, "--storage", self.storage]
            return args + (["--pg-schema", self.pg_schema] if self.pg_schema else [])
        if POSTGRESQL:
            # pogi stores nothing in the data folder then; made anyway, as
            # SQLite would, for the tests that look into it.
            os.makedirs(self.data_dir, exist_ok=True)
        args = storage_args(self.data_dir, self.in_memory)
        self.pg_schema = args[-1] if POSTGRESQL else None  # this start's schema
        return args

    def _wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT
        out = self.proc.stdout
        buf = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StartError("pogi did not print Ready. within %.0f s; stderr: %s"
                                 % (READY_TIMEOUT, self.stderr_text()))
            r, _, _ = select.select([out], [], [], min(left, 0.2))
            if r:
                chunk = os.read(out.fileno(), 4096)
                if not chunk:  # EOF: pogi exited
                    rc = self.proc.wait(timeout=STOP_TIMEOUT)
                    _live.discard(self)
                    raise StartError("pogi exited with %s before Ready.; stderr: %s"
                                     % (rc, self.stderr_text()), rc, self.stderr_text())
                buf += chunk
                if b"\n" in buf:
                    line = buf.split(b"\n", 1)[0]
                    if line != b"Ready.":
                        raise StartError("first stdout line is %r, not 'Ready.'" % line)
                    self.stdout_after_ready = buf.split(b"\n", 1)[1]
                    return

    def stderr_text(self):
        if not self.stderr_path:
            return ""
        try:
            with open(self.stderr_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    @property
    def http_pid(self):
        """The process that holds the HTTP connections: the gateway's, if any."""
        return (self.gateway or self.proc).pid

    def stop(self, sig=signal.SIGTERM, timeout=STOP_TIMEOUT):
        """Sends SIGTERM (or sig), waits, returns the exit code."""
        self._stop_gateway(signal.SIGTERM)
        if self.proc is None:
            return self.returncode
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.returncode = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("pogi did not exit within %s s of signal %s" % (timeout, sig))
        self._finish()
        return self.returncode

    def wait_exit(self, timeout=STOP_TIMEOUT):
        """Waits for an exit caused by something else (e.g. `pogi stop`)."""
        self._stop_gateway(signal.SIGTERM)
        try:
            self.returncode = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("pogi did not exit within %s s" % timeout)
        self._finish()
        return self.returncode

    def kill(self):
        """kill -9, no questions asked."""
        self._stop_gateway(signal.SIGKILL)
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            try:
                self.returncode = self.proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                pass
            self._finish()
        return self.returncode

    def _finish(self):
        _live.discard(self)
        if self.proc is not None and self.proc.stdout and not self.proc.stdout.closed:
            # Whatever pogi printed on stdout after Ready. (should be nothing).
            if self.proc.poll() is not None:
                try:
                    self.stdout_rest = self.stdout_after_ready + self.proc.stdout.read()
                except (OSError, ValueError, AttributeError):
                    pass
            self.proc.stdout.close()
        if self._stderr_file:
            self._stderr_file.close()
            self._stderr_file = None

    def restart(self):
        """SIGTERM (checking exit 0), then start again on the same data and ports."""
        rc = self.stop()
        if rc != 0:
            raise AssertionError("pogi exited %s on SIGTERM; stderr: %s" % (rc, self.stderr_text()))
        return self.start()

    def cleanup(self):
        self.kill()
        if self._owns_tmp:
            shutil.rmtree(self._owns_tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()

    # ---- clients ----------------------------------------------------------

    @property
    def endpoint(self):
        return "http://%s:%d" % (LOCALHOST, self.port)

    def client(self, region="us-east-1", service="dynamodb", **kw):
        """A boto3 client of `service` pointed at this pogi, signed for `region`, retries off."""
        import boto3
        from botocore.config import Config
        cfg = Config(retries={"max_attempts": 1}, connect_timeout=5, read_timeout=30,
                     **kw)
        return boto3.client(service, endpoint_url=self.endpoint, region_name=region,
                            aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                            config=cfg)

    def env_vars(self):
        """The variables `pogi env --port P` exports, parsed from its sh output."""
        cp = run_pogi("env", "--port", self.port, "--shell", "sh")
        if cp.returncode != 0:
            raise AssertionError("pogi env failed: %s" % cp.stderr)
        return parse_sh_exports(cp.stdout)

    def cli_env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("AWS_")}
        env.update(self.env_vars())
        home = self._owns_tmp or tempfile.gettempdir()
        # No ~/.aws of the machine's user may leak in.
        env["AWS_CONFIG_FILE"] = os.path.join(home, "no-aws-config")
        env["AWS_SHARED_CREDENTIALS_FILE"] = os.path.join(home, "no-aws-credentials")
        env["AWS_PAGER"] = ""
        env["AWS_MAX_ATTEMPTS"] = "1"
        env["AWS_RETRY_MODE"] = "standard"
        return env

    def aws(self, *args, timeout=60):
        """Runs `aws ARGS... --output json` with the env of `pogi env`.

        Returns (returncode, parsed JSON stdout or None, stderr).
        """
        cmd = ["aws"] + [str(a) for a in args] + ["--output", "json"]
        cp = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                            env=self.cli_env(), stdin=subprocess.DEVNULL)
        out = None
        if cp.stdout.strip():
            try:
                out = json.loads(cp.stdout)
            except ValueError:
                out = cp.stdout
        return cp.returncode, out, cp.stderr

    def admin(self, *args, timeout=30):
        """Runs `pogi ARGS... --host H --grpc-port G`; returns the CompletedProcess."""
        return run_pogi(*args, "--host", LOCALHOST, "--grpc-port", self.grpc_port,
                        timeout=timeout)

    # ---- raw HTTP ---------------------------------------------------------

    def connection(self, timeout=30):
        return http.client.HTTPConnection(LOCALHOST, self.port, timeout=timeout)

    def raw(self, body, target=None, headers=None, method="POST", path="/",
            content_type="application/x-amz-json-1.0", conn=None, auth=True):
        """Sends one request; returns (status, headers dict (lower-case), body bytes).

        body: bytes, str or a JSON-able object. target: the operation name
        (prefixed with DynamoDB_20120810.) or None for no X-Amz-Target.
        auth: send a well-formed, unverified Authorization header (False: none,
        for tests of its absence).
        """
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        h = dict(UNVERIFIED_AUTH) if auth else {}
        if content_type is not None:
            h["Content-Type"] = content_type
        if target is not None:
            h["X-Amz-Target"] = target if "." in target else TARGET_PREFIX + target
        if headers:
            h.update(headers)
        own = conn is None
        if own:
            conn = self.connection()
        try:
            conn.request(method, path, body=body, headers=h)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            if own:
                conn.close()

    def call(self, op, payload):
        """raw() with a JSON payload; returns (status, parsed JSON body)."""
        status, _, data = self.raw(payload, target=op)
        return status, json.loads(data) if data else None


# The AWS SDK for JavaScript v3, for the tests that drive pogi with it
# (operations botocore lacks, the npm package's check): installed from the
# npm registry once per build folder, by whichever test needs it first.
JS_SDK_VERSION = "3.1169.0"


def js_sdk(test):
    """The node_modules folder holding @aws-sdk/client-dynamodb (skips `test` without node and npm)."""
    import fcntl
    if not shutil.which("npm") or not shutil.which("node"):
        test.skipTest("node and npm are not installed (./dev test installs them)")
    sdk_dir = os.path.join(os.path.dirname(os.path.abspath(pogi_bin())), "npm-sdk")
    os.makedirs(sdk_dir, exist_ok=True)
    marker = os.path.join(sdk_dir, "node_modules", "@aws-sdk", "client-dynamodb", "package.json")
    # Two test processes (ctest -j 2) install it one after the other.
    with open(os.path.join(sdk_dir, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(marker):
            cp = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save",
                                 "@aws-sdk/client-dynamodb@" + JS_SDK_VERSION],
                                cwd=sdk_dir, capture_output=True, text=True, timeout=600)
            if cp.returncode != 0:
                raise AssertionError("npm install failed: %s" % cp.stderr)
    return os.path.join(sdk_dir, "node_modules")


def run_js(test, server, script, payload, timeout=120):
    """Runs the node module `script` (ESM, under tests/e2e/js/) with the SDK,
    pogi's endpoint and `payload` (JSON on stdin); returns its JSON stdout."""
    modules = js_sdk(test)
    # ESM resolves packages from the script's own folder up: run a copy
    # beside the SDK's node_modules.
    runnable = os.path.join(os.path.dirname(modules), script)
    shutil.copyfile(os.path.join(HERE, "js", script), runnable)
    env = dict(os.environ, POGI_ENDPOINT=server.endpoint, NODE_NO_WARNINGS="1")
    cp = subprocess.run(["node", runnable], input=json.dumps(payload), capture_output=True, text=True,
                        timeout=timeout, env=env)
    if cp.returncode != 0:
        raise AssertionError("node %s failed (%d): %s" % (script, cp.returncode, cp.stderr))
    return json.loads(cp.stdout)


def parse_sh_exports(text):
    """{name: value} from lines of `export NAME=VALUE` (values may be quoted)."""
    env = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^export\s+([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
        if not m:
            raise AssertionError("unexpected line from pogi env: %r" % line)
        value = shlex.split(m.group(2))
        env[m.group(1)] = value[0] if value else ""
    return env


class ServerTestCase(unittest.TestCase):
    """One pogi per test class (setUpClass), stopped in tearDownClass.

    Subclasses may set SERVER_ARGS (kwargs for Server).
    """

    SERVER_ARGS = {}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = Server(**cls.SERVER_ARGS)
        try:
            cls.server.start()
        except BaseException:
            cls.server.cleanup()
            raise
        cls.ddb = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        try:
            if cls.server.alive():
                rc = cls.server.stop()
                if rc != 0:
                    raise AssertionError("pogi exited %s on SIGTERM; stderr: %s"
                                         % (rc, cls.server.stderr_text()))
        finally:
            cls.server.cleanup()
            super().tearDownClass()

    # ---- helpers ----------------------------------------------------------

    _counter = 0

    @classmethod
    def unique(cls, prefix="t"):
        ServerTestCase._counter += 1
        return "%s-%s-%d" % (prefix, cls.__name__, ServerTestCase._counter)

    def create_table(self, name=None, hash_key=("pk", "S"), range_key=None, **kw):
        name = name or self.unique()
        attrs = [{"AttributeName": hash_key[0], "AttributeType": hash_key[1]}]
        schema = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
        if range_key:
            attrs.append({"AttributeName": range_key[0], "AttributeType": range_key[1]})
            schema.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        args = dict(TableName=name, AttributeDefinitions=attrs, KeySchema=schema)
        if "ProvisionedThroughput" not in kw:
            args["BillingMode"] = "PAY_PER_REQUEST"
        args.update(kw)
        self.ddb.create_table(**args)
        return name

    def assertClientError(self, fn, code, message=None, message_contains=None, **kw):
        """Calls fn(**kw), expects a botocore ClientError with code (and message)."""
        from botocore.exceptions import ClientError
        with self.assertRaises(ClientError) as cm:
            fn(**kw)
        err = cm.exception.response["Error"]
        self.assertEqual(err.get("Code"), code, "error was %r" % (err,))
        if message is not None:
            self.assertEqual(err.get("Message"), message, "error was %r" % (err,))
        if message_contains is not None:
            self.assertIn(message_contains, err.get("Message", ""), "error was %r" % (err,))
        return cm.exception.response

    def assertServing(self):
        """The server is still up and answering."""
        self.assertTrue(self.server.alive(), "pogi died; stderr: %s" % self.server.stderr_text())
        self.ddb.list_tables(Limit=1)
