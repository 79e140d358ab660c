#!/usr/bin/env python3
"""pogi's bench: the published recipe, measured against the load generators'
ceiling and against the peers, in one run. See bench/README.md.

Entry point is bench/run, which calls this file. Python 3 standard library
only; ab, wrk and g++ come from Debian's packages, dynalite from npm and moto
from pip when present. All traffic goes to 127.0.0.1.
"""

import argparse
import datetime
import http.client
import json
import os
import platform
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import sigv4  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
HOST = "127.0.0.1"
PEERS_DIR = os.path.join(HERE, ".peers")
BUILD_DIR = os.path.join(HERE, "build")
DYNALITE_VERSION = "4"

# The request shapes. Kept small and fixed so every server gets the same.
PUT_TABLE = "bench"
QUERY_TABLE = "benchq"
GROWTH_TABLE = "benchg"
AB_KEY = "ab-put-key"
GET_KEY = "get-key"
QUERY_PK = "q"
QUERY_ITEMS = 1000
# Query scale (issue 5): the same Query page on a 10-item table and on a
# 10,000-item partition of a 1,000,000-item table.
QS_SMALL_TABLE = "benchs10"
QS_BIG_TABLE = "benchsbig"
QS_BIG_PART = 10000
QS_PAGE = 10
QS_CONNS = 4
QS_SERVERS = ("pogi", "pogi-mem", "dynalite")  # peers: in-memory dynalite only
QS_BAR = "Query page 10 vs 1 M"
CEILING_RATES = ("ab_put_c8", "wrk_put_c8", "wrk_get_c8", "wrk_query_c8")
CEILING_MEANS = ("ab_c1", "wrk_c1")


def put_body(pk):
    return json.dumps({"TableName": PUT_TABLE, "Item": {
        "pk": {"S": pk}, "n": {"N": "42"},
        "s": {"S": "hello from the pogi bench"}}}, separators=(",", ":"))


GET_ITEM = {"pk": {"S": GET_KEY}, "n": {"N": "7"}, "data": {"S": "d" * 256}}
GET_BODY = json.dumps({"TableName": PUT_TABLE, "Key": {"pk": {"S": GET_KEY}}},
                      separators=(",", ":"))


def query_item(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "v": {"S": "v" * 32}}


def query_body(table):
    return json.dumps({
        "TableName": table, "KeyConditionExpression": "pk = :p",
        "ExpressionAttributeValues": {":p": {"S": QUERY_PK}}},
        separators=(",", ":"))


def compact_len(obj):
    return len(json.dumps(obj, separators=(",", ":")).encode())


# What a DynamoDB-shaped answer weighs, for the null server's sized bodies.
GET_RESPONSE_BYTES = compact_len({"Item": GET_ITEM})
QUERY_RESPONSE_BYTES = compact_len({
    "Items": [query_item(QUERY_PK, i) for i in range(QUERY_ITEMS)],
    "Count": QUERY_ITEMS, "ScannedCount": QUERY_ITEMS})


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr,
          flush=True)


# --------------------------------------------------------------------------
# Tools: install what is missing.

def apt_install(packages):
    if not packages:
        return
    cmd = ["apt-get"]
    if os.geteuid() != 0:
        if not shutil.which("sudo"):
            sys.exit(f"bench: missing {packages}; install them (apt-get) or "
                     "run as root")
        cmd = ["sudo", "apt-get"]
    log(f"installing {' '.join(packages)} from Debian's packages")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(cmd + ["update", "-q"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    subprocess.run(cmd + ["install", "-y", "-q", *packages], check=True,
                   env=env, stdout=subprocess.DEVNULL)


def ensure_tools(want_peers):
    missing = [pkg for tool, pkg in (("ab", "apache2-utils"), ("wrk", "wrk"),
                                     ("g++", "g++"), ("strip", "binutils"))
               if not shutil.which(tool)]
    if want_peers and not (shutil.which("node") and shutil.which("npm")):
        missing += ["nodejs", "npm"]
    apt_install(sorted(set(missing)))


def build_null_server():
    src = os.path.join(HERE, "null_server.cc")
    out = os.path.join(BUILD_DIR, "null_server")
    if (not os.path.exists(out)
            or os.path.getmtime(out) < os.path.getmtime(src)):
        os.makedirs(BUILD_DIR, exist_ok=True)
        log("compiling bench/null_server.cc")
        subprocess.run(["g++", "-O2", "-std=c++20", "-o", out, src],
                       check=True)
    return out


def ensure_dynalite(notes):
    cli = os.path.join(PEERS_DIR, "node_modules", "dynalite", "cli.js")
    if not os.path.exists(cli):
        if not shutil.which("npm"):
            notes.append("dynalite skipped: npm not available")
            return None
        os.makedirs(PEERS_DIR, exist_ok=True)
        log(f"npm install dynalite@{DYNALITE_VERSION} into bench/.peers")
        r = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix",
             PEERS_DIR, f"dynalite@{DYNALITE_VERSION}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.exists(cli):
            notes.append("dynalite skipped: npm install failed: "
                         + r.stderr.strip()[-300:])
            return None
    node = shutil.which("node")
    if not node:
        notes.append("dynalite skipped: node not available")
        return None
    return [node, cli]


def moto_command(notes):
    """moto's server, run straight under the interpreter (a pyenv shim would
    add its own start-up time and pid)."""
    for py in [sys.executable, shutil.which("python3")]:
        if py and subprocess.run(
                [py, "-c", "import moto.server"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return [py, "-c", "import sys; from moto.server import main; "
                    "sys.exit(main())"]
    exe = shutil.which("moto_server")
    if exe:
        return [exe]
    notes.append("moto skipped: moto_server not installed "
                 "(pip install 'moto[server]')")
    return None


# --------------------------------------------------------------------------
# Processes: start, readiness, /proc figures.

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


def server_specs(args, notes, workdir):
    specs = []
    null_bin = installed_copy(build_null_server(), workdir)
    specs.append(Spec("null", lambda p, g, d: [null_bin, str(p)], True,
                      is_null=True, timeout=5,
                      note="do-nothing server: the ceiling"))
    pogi = os.path.abspath(args.pogi)
    if os.path.isfile(pogi) and os.access(pogi, os.X_OK):
        pogi = installed_copy(pogi, workdir)
        def pogi_argv(mem):
            return lambda p, g, d: ([pogi, "start", "--port", str(p),
                                     "--grpc-port", str(g), "--data-dir", d]
                                    + (["--in-memory"] if mem else []))
        specs.append(Spec("pogi", pogi_argv(False), True, binary=pogi,
                          note="durable (WAL), fresh --data-dir"))
        specs.append(Spec("pogi-mem", pogi_argv(True), True, binary=pogi,
                          note="--in-memory"))
    else:
        notes.append(f"pogi skipped: no executable at {args.pogi} "
                     "(build it, or pass --pogi PATH)")
    if args.no_peers:
        notes.append("peers skipped (--no-peers)")
        return specs
    dyn = ensure_dynalite(notes)
    if dyn:
        flags = ["--host", HOST, "--createTableMs", "0", "--deleteTableMs",
                 "0", "--updateTableMs", "0"]
        specs.append(Spec("dynalite", lambda p, g, d: dyn + flags + [
            "--port", str(p)], False, note="in memory"))
        specs.append(Spec("dynalite-path", lambda p, g, d: dyn + flags + [
            "--port", str(p), "--path", os.path.join(d, "db")], False,
            note="--path (LevelDB)"))
    moto = moto_command(notes)
    if moto:
        specs.append(Spec("moto", lambda p, g, d: moto + [
            "-H", HOST, "-p", str(p)], False, note="moto_server"))
    if args.servers:
        keep = set(args.servers.split(","))
        specs = [s for s in specs if s.name in keep or s.is_null]
    return specs


# --------------------------------------------------------------------------
# DynamoDB over raw HTTP (setup and checks; the load comes from ab and wrk).

class Client:
    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def call(self, target, payload):
        body = json.dumps(payload, separators=(",", ":")).encode()
        headers = sigv4.sign_request(f"{HOST}:{self.port}", target, body)
        for attempt in range(2):
            try:
                self.conn.request("POST", "/", body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                if attempt:
                    raise
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {"raw": data[:200].decode(errors="replace")}
        return resp.status, parsed

    def must(self, target, payload):
        status, out = self.call(target, payload)
        if status != 200:
            raise RuntimeError(f"{target} -> {status} {out}")
        return out

    def create_table(self, name, keys):
        attrs = [{"AttributeName": k, "AttributeType": t} for k, t in keys]
        schema = [{"AttributeName": k, "KeyType": kt}
                  for (k, _), kt in zip(keys, ["HASH", "RANGE"])]
        self.must("CreateTable", {
            "TableName": name, "AttributeDefinitions": attrs,
            "KeySchema": schema, "BillingMode": "PAY_PER_REQUEST"})
        deadline = time.time() + 30
        while time.time() < deadline:
            out = self.must("DescribeTable", {"TableName": name})
            if out.get("Table", {}).get("TableStatus") == "ACTIVE":
                return
            time.sleep(0.02)
        raise RuntimeError(f"table {name} never became ACTIVE")

    def batch_put(self, table, items):
        """BatchWriteItem, 25 at a time; one PutItem per item on a server
        that lacks BatchWriteItem."""
        status, out = self.call("BatchWriteItem", {"RequestItems": {table: [
            {"PutRequest": {"Item": it}} for it in items[:25]]}})
        if status != 200:
            for it in items:
                self.must("PutItem", {"TableName": table, "Item": it})
            return
        for u in (out.get("UnprocessedItems") or {}).get(table, []):
            self.must("PutItem", {"TableName": table,
                                  "Item": u["PutRequest"]["Item"]})
        for i in range(25, len(items), 25):
            req = {table: [{"PutRequest": {"Item": it}}
                           for it in items[i:i + 25]]}
            for _ in range(50):
                out = self.must("BatchWriteItem", {"RequestItems": req})
                req = out.get("UnprocessedItems") or {}
                if not req:
                    break

    def close(self):
        self.conn.close()


# --------------------------------------------------------------------------
# Load generators.

def lua_str(s):
    assert "]==]" not in s
    return "[==[" + s + "]==]"


def lua_headers(headers):
    return "{" + ", ".join(f'["{k}"] = {lua_str(v)}'
                           for k, v in headers.items()) + "}"


def wrk_fixed_script(path, headers, body):
    """Replays one signed request as it is (wrk builds it once)."""
    lines = ['wrk.method = "POST"', f"wrk.body = {lua_str(body)}"]
    lines += [f'wrk.headers["{k}"] = {lua_str(v)}' for k, v in headers.items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def wrk_varying_script(path, headers, fmt, start=0, stop_at=None,
                       random_below=None):
    """One request per call with a different key: `fmt` is the body with one
    %d for a counter (or a random key below `random_below`). Signing covers
    the body, so these carry the template's signature: well-formed, valid only
    where signatures are not checked (pogi's default, and the peers'). With
    stop_at, prints a marker once that many keys were sent (the harness then
    stops wrk with SIGINT, which keeps wrk's elapsed time honest)."""
    fmt = fmt.replace("%", "%%").replace("%%d", "%d")
    src = [f"local hdrs = {lua_headers(headers)}",
           f"local fmt = {lua_str(fmt)}",
           f"local counter = {int(start)}",
           f"local stop_at = {int(stop_at) if stop_at else -1}",
           "local done = false",
           "request = function()"]
    if random_below:
        src.append(f"  local key = math.random(0, {int(random_below) - 1})")
    else:
        src += ["  local key = counter", "  counter = counter + 1",
                "  if counter == stop_at and not done then",
                "    done = true",
                '    io.stdout:write("POGI-BENCH-DONE\\n")',
                "    io.stdout:flush()",
                "    wrk.thread:stop()",
                "  end"]
    src += ['  return wrk.format("POST", "/", hdrs, string.format(fmt, key))',
            "end"]
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")


def parse_duration(s):
    for unit, mul in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0),
                      ("h", 3600.0)):
        if s.endswith(unit):
            try:
                return float(s[:-len(unit)]) * mul
            except ValueError:
                continue
    raise ValueError(s)


def run_wrk(url, script, seconds, conns, stop_marker=False):
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{max(1, int(round(seconds)))}s",
           "--timeout", "10s", "-s", script, url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = []
    for line in proc.stdout:
        out.append(line)
        if stop_marker and "POGI-BENCH-DONE" in line:
            proc.send_signal(signal.SIGINT)
    proc.wait(timeout=seconds + 60)
    text = "".join(out)
    res = {"requests": 0, "seconds": 0.0, "non2xx": 0, "socket_errors": 0}
    for line in text.splitlines():
        line = line.strip()
        if " requests in " in line:
            parts = line.split()
            res["requests"] = int(parts[0])
            res["seconds"] = parse_duration(parts[3].rstrip(","))
        elif line.startswith("Non-2xx or 3xx responses:"):
            res["non2xx"] = int(line.split(":")[1])
        elif line.startswith("Socket errors:"):
            res["socket_errors"] = sum(
                int(p.split()[-1]) for p in line.split(":", 1)[1].split(","))
    if not res["requests"] or not res["seconds"]:
        raise RuntimeError(f"wrk gave no result:\n{text}")
    res["rate"] = res["requests"] / res["seconds"]
    res["failures"] = res["non2xx"] + res["socket_errors"]
    return res


def run_ab(url, body_file, headers, n, conns):
    cmd = ["ab", "-q", "-s", "10", "-n", str(n), "-c", str(conns),
           "-p", body_file,
           "-T", headers["Content-Type"]]
    for k, v in headers.items():
        if k != "Content-Type":
            cmd += ["-H", f"{k}: {v}"]
    cmd.append(url)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=900)
    res = {"complete": 0, "failed": 0, "non2xx": 0}
    for line in r.stdout.splitlines():
        if line.startswith("Complete requests:"):
            res["complete"] = int(line.split()[-1])
        elif line.startswith("Failed requests:"):
            res["failed"] = int(line.split()[-1])
        elif line.startswith("Non-2xx responses:"):
            res["non2xx"] = int(line.split()[-1])
        elif line.startswith("Requests per second:"):
            res["rate"] = float(line.split()[3])
        elif line.startswith("Time per request:") and "across" not in line:
            res["mean_ms"] = float(line.split()[3])
        elif line.startswith("Time taken for tests:"):
            res["seconds"] = float(line.split()[4])
    if r.returncode != 0 or "rate" not in res:
        res["error"] = r.stdout.strip().splitlines()[-1:] or ["ab failed"]
        res["failed"] += n - res["complete"]
        res.setdefault("rate", 0.0)
        res.setdefault("mean_ms", float("nan"))
    res["failures"] = res["failed"] + res["non2xx"]
    return res


# --------------------------------------------------------------------------
# The measurements.

def measure_startups(specs, runs, workdir):
    """Round-robin over the servers so drift on a shared machine hits all
    alike; one discarded warm start each first."""
    starts = {s.name: [] for s in specs}
    rss = {s.name: [] for s in specs}
    failed = {}
    for i in range(runs + 1):
        for spec in specs:
            if spec.name in failed:
                continue
            try:
                srv = Server(spec, workdir)
            except Exception as e:  # noted, and the server sits out the rest
                if spec.is_null:
                    raise
                failed[spec.name] = f"start-up failed: {e}"
                log(f"{spec.name}: {failed[spec.name]}")
                continue
            try:
                time.sleep(0.5)
                r = srv.rss_mb()
            finally:
                srv.stop()
            if i:  # run 0 warms the page cache
                starts[spec.name].append(srv.startup_ms)
                rss[spec.name].append(r)
        log(f"start-up round {i}/{runs} done")
    return starts, rss, failed


class Workloads:
    """Writes the request files once per server (signatures carry the host)."""

    def __init__(self, tmp, hostport, tag):
        self.tmp = tmp
        self.hostport = hostport

        def sign(target, body):
            return sigv4.sign_request(hostport, target, body.encode())

        self.put_body = put_body(AB_KEY)
        self.put_headers = sign("PutItem", self.put_body)
        self.put_file = os.path.join(tmp, f"{tag}-put.json")
        with open(self.put_file, "w") as f:
            f.write(self.put_body)
        self.wrk_put_fixed = os.path.join(tmp, f"{tag}-put-fixed.lua")
        wrk_fixed_script(self.wrk_put_fixed, self.put_headers, self.put_body)
        self.wrk_put_varying = os.path.join(tmp, f"{tag}-put-varying.lua")
        wrk_varying_script(self.wrk_put_varying, self.put_headers,
                           put_body("wrk-%d"))
        self.wrk_get = os.path.join(tmp, f"{tag}-get.lua")
        wrk_fixed_script(self.wrk_get, sign("GetItem", GET_BODY), GET_BODY)
        self.wrk_query = os.path.join(tmp, f"{tag}-query.lua")
        qb = query_body(QUERY_TABLE)
        wrk_fixed_script(self.wrk_query, sign("Query", qb), qb)
        self.wrk_query_growth = os.path.join(tmp, f"{tag}-query-growth.lua")
        qg = query_body(GROWTH_TABLE)
        wrk_fixed_script(self.wrk_query_growth, sign("Query", qg), qg)
        gfmt = json.dumps({"TableName": GROWTH_TABLE, "Item": {
            "pk": {"S": "g%d"}, "sk": {"N": "0"},
            "v": {"S": "growth item payload"}}}, separators=(",", ":"))
        self.growth_headers = sign("PutItem", gfmt)
        self.growth_fmt = gfmt


def cpu_us(before, after, calls):
    return (after - before) * 1e6 / calls if calls else float("nan")


def ratio(rate, ceiling):
    if not rate or not ceiling:
        return {"fraction": None, "overhead_us": None}
    return {"fraction": rate / ceiling,
            "overhead_us": (1.0 / rate - 1.0 / ceiling) * 1e6}


def wrk_figure(srv, script, seconds, conns):
    c0 = srv.cpu()
    wk = run_wrk(srv.url(), script, seconds, conns)
    c1 = srv.cpu()
    return {"rate": wk["rate"], "calls": wk["requests"],
            "failures": wk["failures"],
            "cpu_us": cpu_us(c0, c1, wk["requests"])}


def measure_load(spec, cfg, workdir, ceiling, res):
    """Everything after start-up, on one fresh long-lived instance, into
    `res`. Each stage that fails is recorded in res["errors"] and the rest
    still run (a server in development may lack an operation)."""
    srv = Server(spec, workdir)
    w = Workloads(workdir, srv.hostport(), spec.name)
    client = None if spec.is_null else Client(srv.port)

    def stage(name, fn):
        try:
            fn()
        except Exception as e:
            res.setdefault("errors", {})[name] = str(e)[:300]
            log(f"{spec.name}: {name} failed: {e}")

    def sized_null(body_bytes, tag, script_attr, seconds, conns):
        # The null server answers reads with a body of the read's size.
        sized = Server(spec, workdir, [str(body_bytes)])
        try:
            sw = Workloads(workdir, sized.hostport(), f"{spec.name}-{tag}")
            return wrk_figure(sized, getattr(sw, script_attr), seconds, conns)
        finally:
            sized.stop()

    def tables():
        client.create_table(PUT_TABLE, [("pk", "S")])
        client.create_table(QUERY_TABLE, [("pk", "S"), ("sk", "N")])
        client.create_table(GROWTH_TABLE, [("pk", "S"), ("sk", "N")])

    def ab_burst():
        # The published recipe: ab -c 8, signed PutItem replayed, warm-up.
        warm = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_warmup, 8)
        c0 = srv.cpu()
        ab = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_calls, 8)
        c1 = srv.cpu()
        res["rss_after_burst_mb"] = srv.rss_mb()
        res["ab_put_c8"] = {
            "rate": ab["rate"], "calls": ab["complete"],
            "failures": ab["failures"] + warm["failures"],
            "cpu_us": cpu_us(c0, c1, ab["complete"])}
        for r in (warm, ab):
            if "error" in r:
                res["ab_put_c8"]["error"] = r["error"]
        log(f"{spec.name}: ab c=8 {ab['rate']:.0f}/s, "
            f"{res['ab_put_c8']['failures']} failures")

    def verify():
        status, out = client.call("GetItem", {
            "TableName": PUT_TABLE, "Key": {"pk": {"S": AB_KEY}}})
        item = out.get("Item", {})
        res["verified"] = (status == 200 and item.get("pk") == {"S": AB_KEY}
                           and item.get("n") == {"N": "42"})

    def c1():
        # c=1 mean: ab (HTTP/1.0, a connection per call), wrk (keep-alive).
        ab1 = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_c1_calls, 1)
        res["ab_c1"] = {"mean_us": ab1["mean_ms"] * 1000.0,
                        "failures": ab1["failures"]}
        wk1 = run_wrk(srv.url(), w.wrk_put_fixed, cfg.wrk_c1_seconds, 1)
        res["wrk_c1"] = {"mean_us": wk1["seconds"] / wk1["requests"] * 1e6,
                         "failures": wk1["failures"]}

    def wrk_put():
        res["wrk_put_c8"] = wrk_figure(srv, w.wrk_put_varying,
                                       cfg.wrk_seconds, 8)
        log(f"{spec.name}: wrk put c=8 {res['wrk_put_c8']['rate']:.0f}/s")

    def get():
        if spec.is_null:
            res["wrk_get_c8"] = sized_null(GET_RESPONSE_BYTES, "get",
                                           "wrk_get", cfg.wrk_seconds, 8)
            return
        client.must("PutItem", {"TableName": PUT_TABLE, "Item": GET_ITEM})
        res["wrk_get_c8"] = wrk_figure(srv, w.wrk_get, cfg.wrk_seconds, 8)

    def query():
        if spec.is_null:
            res["wrk_query_c8"] = sized_null(QUERY_RESPONSE_BYTES, "query",
                                             "wrk_query", cfg.wrk_seconds, 8)
            return
        client.batch_put(QUERY_TABLE, [query_item(QUERY_PK, i)
                                       for i in range(QUERY_ITEMS)])
        out = client.must("Query", json.loads(query_body(QUERY_TABLE)))
        res["query_count_ok"] = (out.get("Count") == QUERY_ITEMS
                                 and "LastEvaluatedKey" not in out)
        if not res["query_count_ok"]:
            raise RuntimeError(f"Query returned Count {out.get('Count')}, "
                               f"LastEvaluatedKey {out.get('LastEvaluatedKey')}")
        res["wrk_query_c8"] = wrk_figure(srv, w.wrk_query, cfg.wrk_seconds, 8)
        log(f"{spec.name}: query {res['wrk_query_c8']['rate']:.0f}/s")

    def growth():
        res["growth"] = []
        measure_growth(spec, srv, client, w, cfg, res["growth"])

    try:
        if client:
            stage("create_table", tables)
        res["rss_ready_mb"] = srv.rss_mb()
        stage("ab_put_c8", ab_burst)
        if client:
            stage("verify", verify)
        stage("c1", c1)
        stage("wrk_put_c8", wrk_put)
        stage("wrk_get_c8", get)
        stage("wrk_query_c8", query)
        if client and cfg.growth_sizes:
            stage("growth", growth)
        res["rss_end_mb"] = srv.rss_mb()
    finally:
        if client:
            client.close()
        srv.stop()

    for key in CEILING_RATES:
        if key in res and ceiling.get(key):
            res[key].update(ratio(res[key]["rate"], ceiling[key]))
    for key in CEILING_MEANS:
        if key in res and ceiling.get(key):
            res[key]["over_ceiling_us"] = res[key]["mean_us"] - ceiling[key]
    for step in res.get("growth", []):
        if ceiling.get("wrk_put_c8") and "put_rate" in step:
            step["put_fraction"] = step["put_rate"] / ceiling["wrk_put_c8"]
    if spec.binary:
        res.update(binary_size(spec.binary, workdir))
    return res


def measure_growth(spec, srv, client, w, cfg, steps):
    """Grows benchg through cfg.growth_sizes distinct keys with wrk. At each
    size: the insert rate of the fill that got there (info), then, with the
    table size held still, PutItem c=8 over random existing keys (overwrites)
    and the 1,000-item Query, each with server CPU per call."""
    client.batch_put(GROWTH_TABLE, [query_item(QUERY_PK, i)
                                    for i in range(QUERY_ITEMS)])
    have = 0
    for size in cfg.growth_sizes:
        fill = os.path.join(w.tmp, f"{spec.name}-fill-{size}.lua")
        wrk_varying_script(fill, w.growth_headers, w.growth_fmt, start=have,
                           stop_at=size)
        t0 = time.perf_counter()
        c0 = srv.cpu()
        fr = run_wrk(srv.url(), fill, cfg.growth_step_budget, 8,
                     stop_marker=True)
        c1 = srv.cpu()
        elapsed = time.perf_counter() - t0
        written = have + fr["requests"]
        step = {"size": size, "keys_written": written,
                "fill_rate": fr["rate"],
                "fill_cpu_us": cpu_us(c0, c1, fr["requests"]),
                "fill_failures": fr["failures"]}
        if written < size * 0.98:
            step["incomplete"] = (f"reached {written} keys in the "
                                  f"{cfg.growth_step_budget:.0f} s budget")
            steps.append(step)
            log(f"{spec.name}: growth stopped at {written} keys")
            break
        have = max(written, size)
        probe = os.path.join(w.tmp, f"{spec.name}-probe-{size}.lua")
        wrk_varying_script(probe, w.growth_headers, w.growth_fmt,
                           random_below=size)
        c0 = srv.cpu()
        pr = run_wrk(srv.url(), probe, cfg.growth_probe_seconds, 8)
        c1 = srv.cpu()
        step.update({"put_rate": pr["rate"], "put_failures": pr["failures"],
                     "put_cpu_us": cpu_us(c0, c1, pr["requests"])})
        c0 = srv.cpu()
        qr = run_wrk(srv.url(), w.wrk_query_growth, cfg.growth_probe_seconds,
                     1)
        c1 = srv.cpu()
        step.update({"query_rate": qr["rate"],
                     "query_cpu_us": cpu_us(c0, c1, qr["requests"]),
                     "query_failures": qr["failures"],
                     "rss_mb": srv.rss_mb()})
        steps.append(step)
        log(f"{spec.name}: growth {size} keys (fill {elapsed:.1f} s): "
            f"put {pr['rate']:.0f}/s, query {step['query_cpu_us']:.0f} "
            f"us CPU, failures {fr['failures']}+{pr['failures']}+"
            f"{qr['failures']}")
    return steps


# --------------------------------------------------------------------------
# Query scale (issue 5): a Query page must be a range read over the encoded
# sort key, so its cost must not depend on the size of the partition or of
# the table.

def qs_layout(total):
    """Item i of the big table, 0 <= i < total: the 10,000 items of the big
    partition are written in the middle of the fill, and its key sorts in
    the middle of the others' (p000000.. p0NNNNN, 10 items each), so neither
    insertion order nor key order puts it at an end of the table."""
    others = max(0, total - QS_BIG_PART)
    mid = others // 2
    big_pk = f"p{(mid // 10):06d}b"
    return mid, big_pk


def wrk_batch_fill_script(path, headers, table, total):
    """BatchWriteItem bodies of 25 items, item by item through the layout of
    qs_layout; prints the marker once every item was sent. Requests built
    after that (before wrk stops) re-put the last item (harmless)."""
    mid, big_pk = qs_layout(total)
    src = [f"local hdrs = {lua_headers(headers)}",
           f"local total = {int(total)}",
           f"local mid = {int(mid)}",
           f"local bigpart = {int(QS_BIG_PART)}",
           f"local bigpk = {lua_str(big_pk)}",
           f"local head = {lua_str(json.dumps(table))}",
           f"local pad = {lua_str('v' * 32)}",
           "local counter = 0",
           "local done = false",
           "local function item(i)",
           "  local pk, sk",
           "  if i >= mid and i < mid + bigpart then",
           "    pk, sk = bigpk, i - mid",
           "  else",
           "    local j = i",
           "    if i >= mid + bigpart then j = i - bigpart end",
           '    pk, sk = string.format("p%06d", math.floor(j / 10)), j % 10',
           "  end",
           "  return '{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"' .. pk ..",
           "    '\"},\"sk\":{\"N\":\"' .. sk .. '\"},\"v\":{\"S\":\"' .. pad ..",
           "    '\"}}}}'",
           "end",
           "request = function()",
           "  local parts = {}",
           "  while #parts < 25 and counter < total do",
           "    parts[#parts + 1] = item(counter)",
           "    counter = counter + 1",
           "  end",
           "  if #parts == 0 then parts[1] = item(total - 1) end",
           "  if counter >= total and not done then",
           "    done = true",
           '    io.stdout:write("POGI-BENCH-DONE\\n")',
           "    io.stdout:flush()",
           "    wrk.thread:stop()",
           "  end",
           "  local body = '{\"RequestItems\":{' .. head .. ':[' ..",
           "    table.concat(parts, ',') .. ']}}'",
           '  return wrk.format("POST", "/", hdrs, body)',
           "end"]
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")


def qs_queries(big_pk):
    """(shape, label, {table: request body}, expected Count)."""
    def body(table, extra_cond, values, limit=None):
        b = {"TableName": table,
             "KeyConditionExpression": "pk = :p" + extra_cond,
             "ExpressionAttributeValues": dict(
                 {":p": {"S": big_pk}}, **values)}
        if limit:
            b["Limit"] = limit
        return json.dumps(b, separators=(",", ":"))

    mid = QS_BIG_PART // 2 - QS_PAGE // 2
    rng = " AND sk BETWEEN :a AND :b"
    return [
        ("page", f"pk = :p, Limit {QS_PAGE}", {
            QS_SMALL_TABLE: body(QS_SMALL_TABLE, "", {}, QS_PAGE),
            QS_BIG_TABLE: body(QS_BIG_TABLE, "", {}, QS_PAGE)}),
        ("between", f"pk = :p AND sk BETWEEN ({QS_PAGE} items)", {
            QS_SMALL_TABLE: body(QS_SMALL_TABLE, rng, {
                ":a": {"N": "0"}, ":b": {"N": str(QS_PAGE - 1)}}),
            QS_BIG_TABLE: body(QS_BIG_TABLE, rng, {
                ":a": {"N": str(mid)},
                ":b": {"N": str(mid + QS_PAGE - 1)}})}),
    ]


def measure_query_scale(spec, cfg, workdir, res):
    """On one fresh instance: table A (10 items, one partition) and table B
    (cfg.qs_items items, one partition of 10,000), then the same Query
    shapes on both, wrk -t1 -c4, alternating A B B A over the rounds so
    drift hits both alike. Figures go to res["query_scale"]."""
    total = cfg.qs_items
    mid, big_pk = qs_layout(total)
    srv = Server(spec, workdir)
    client = Client(srv.port)
    out = res["query_scale"] = {"items": total, "big_partition": QS_BIG_PART,
                                "small_items": QS_PAGE, "conns": QS_CONNS,
                                "seconds_per_run": cfg.qs_seconds,
                                "rounds": cfg.qs_rounds}
    try:
        client.create_table(QS_SMALL_TABLE, [("pk", "S"), ("sk", "N")])
        client.create_table(QS_BIG_TABLE, [("pk", "S"), ("sk", "N")])
        client.batch_put(QS_SMALL_TABLE, [query_item(big_pk, i)
                                          for i in range(QS_PAGE)])
        # Fill B: wrk, BatchWriteItem of 25 over QS_CONNS keep-alive
        # connections (bodies carry a template signature: see
        # wrk_varying_script).
        hostport = srv.hostport()
        tmpl = json.dumps({"RequestItems": {QS_BIG_TABLE: [{"PutRequest": {
            "Item": query_item("x", 0)}}]}}, separators=(",", ":"))
        headers = sigv4.sign_request(hostport, "BatchWriteItem",
                                     tmpl.encode())
        fill = os.path.join(workdir, f"{spec.name}-qs-fill.lua")
        wrk_batch_fill_script(fill, headers, QS_BIG_TABLE, total)
        log(f"{spec.name}: query-scale fill of {total:,} items")
        t0 = time.perf_counter()
        c0 = srv.cpu()
        fr = run_wrk(srv.url(), fill, cfg.qs_budget, QS_CONNS,
                     stop_marker=True)
        c1 = srv.cpu()
        elapsed = time.perf_counter() - t0
        sent = fr["requests"] * 25
        out.update({"fill_seconds": round(elapsed, 2),
                    "fill_items_per_s": sent / fr["seconds"],
                    "fill_cpu_us_per_item": cpu_us(c0, c1, sent),
                    "fill_failures": fr["failures"]})
        if fr["failures"]:
            raise RuntimeError(f"fill: {fr['failures']} failed "
                               "BatchWriteItem calls")
        # wrk does not count the calls in flight when it is stopped (at
        # most one per connection): they are put again below.
        if sent < total - 25 * 2 * QS_CONNS:
            out["incomplete"] = (f"{sent:,} of {total:,} items sent in the "
                                 f"{cfg.qs_budget:.0f} s budget")
            raise RuntimeError(out["incomplete"])
        # wrk builds one request before it starts (to check the script) and
        # never sends it, and the last requests may have been in flight when
        # wrk was stopped: put the head and the tail again (overwrites).
        tail = list(range(0, 100)) + list(
            range(max(100, total - 25 * 8 * QS_CONNS), total))

        def item_at(i):
            if mid <= i < mid + QS_BIG_PART:
                return query_item(big_pk, i - mid)
            j = i - QS_BIG_PART if i >= mid + QS_BIG_PART else i
            return query_item(f"p{j // 10:06d}", j % 10)
        client.batch_put(QS_BIG_TABLE, [item_at(i) for i in tail])
        # Spot checks: both ends, both sides of the big partition, and a
        # few in between.
        for i in sorted({0, mid - 1, mid + QS_BIG_PART, total - 1,
                         total // 7, total // 3, total * 5 // 6}):
            it = item_at(i)
            got = client.must("GetItem", {"TableName": QS_BIG_TABLE, "Key": {
                "pk": it["pk"], "sk": it["sk"]}})
            if got.get("Item") != it:
                raise RuntimeError(f"item {i} of the fill is missing: {it}")
        log(f"{spec.name}: filled {total:,} items in {elapsed:.1f} s "
            f"({out['fill_items_per_s']:,.0f} items/s)")
        # The big partition is whole, and every shape returns its page.
        cnt = client.must("Query", {
            "TableName": QS_BIG_TABLE, "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": big_pk}},
            "Select": "COUNT"})
        if cnt.get("Count") != QS_BIG_PART:
            raise RuntimeError(f"big partition holds {cnt.get('Count')} "
                               f"items, not {QS_BIG_PART}")
        queries = qs_queries(big_pk)
        scripts, leks = {}, {}
        for shape, _, bodies in queries:
            for table, body in bodies.items():
                got = client.must("Query", json.loads(body))
                if got.get("Count") != QS_PAGE:
                    raise RuntimeError(f"{shape} on {table}: Count "
                                       f"{got.get('Count')}, not {QS_PAGE}")
                leks[(shape, table)] = "LastEvaluatedKey" in got
                path = os.path.join(workdir, f"{spec.name}-qs-{shape}-"
                                    f"{table}.lua")
                wrk_fixed_script(path, sigv4.sign_request(
                    hostport, "Query", body.encode()), body)
                scripts[(shape, table)] = path
        acc = {k: {"requests": 0, "seconds": 0.0, "cpu": 0.0, "failures": 0}
               for k in scripts}
        for rnd in range(cfg.qs_rounds):
            for shape, _, _ in queries:
                order = [QS_SMALL_TABLE, QS_BIG_TABLE]
                if rnd % 2:
                    order.reverse()
                for table in order:
                    c0 = srv.cpu()
                    wk = run_wrk(srv.url(), scripts[(shape, table)],
                                 cfg.qs_seconds, QS_CONNS)
                    c1 = srv.cpu()
                    a = acc[(shape, table)]
                    a["requests"] += wk["requests"]
                    a["seconds"] += wk["seconds"]
                    a["cpu"] += c1 - c0
                    a["failures"] += wk["failures"]
        out["rss_mb"] = srv.rss_mb()
        for shape, label, _ in queries:
            fig = {"query": label}
            for table, key in ((QS_SMALL_TABLE, "small"),
                               (QS_BIG_TABLE, "big")):
                a = acc[(shape, table)]
                fig[key] = {"rate": a["requests"] / a["seconds"],
                            "calls": a["requests"],
                            "cpu_us": cpu_us(0, a["cpu"], a["requests"]),
                            "failures": a["failures"],
                            "last_evaluated_key": leks[(shape, table)]}
            fig["cpu_ratio"] = fig["big"]["cpu_us"] / fig["small"]["cpu_us"]
            fig["rate_ratio"] = fig["big"]["rate"] / fig["small"]["rate"]
            out[shape] = fig
            log(f"{spec.name}: query-scale {shape}: "
                f"{fig['small']['cpu_us']:.1f} us vs "
                f"{fig['big']['cpu_us']:.1f} us CPU "
                f"(x{fig['cpu_ratio']:.3f}); {fig['small']['rate']:,.0f}/s "
                f"vs {fig['big']['rate']:,.0f}/s")
    finally:
        client.close()
        srv.stop()
    return out


def binary_size(path, workdir):
    out = {"binary_bytes": os.path.getsize(path)}
    stripped = os.path.join(workdir, "pogi.stripped")
    r = subprocess.run(["strip", "-o", stripped, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode == 0:
        out["binary_bytes_stripped"] = os.path.getsize(stripped)
        os.unlink(stripped)
    return out


# --------------------------------------------------------------------------
# Bars (issue 3), judged for pogi's rows.

def judge_bars(name, res, null):
    bars = []

    def add(figure, bar, value, ok):
        bars.append({"figure": figure, "bar": bar, "value": value,
                     "pass": None if ok is None else bool(ok)})

    def get(*path):
        cur = res
        for p in path:
            if not isinstance(cur, dict) or cur.get(p) is None:
                return None
            cur = cur[p]
        return cur

    st, nst = res.get("startup_ms"), null.get("startup_ms")
    add("start-up to Ready.", "<= null + 2 ms",
        None if st is None else f"{st:.1f} ms (null {nst:.1f})",
        None if st is None else st <= nst + 2.0)
    v = res.get("idle_rss_mb")
    add("idle RSS", "<= 8 MB", None if v is None else f"{v:.1f} MB",
        None if v is None else v <= 8.0)
    f = get("ab_put_c8", "fraction")
    fails = get("ab_put_c8", "failures")
    add("PutItem ab c=8", ">= 0.85 of ceiling, 0 failures",
        None if f is None else f"{f:.2f}, {fails} failures",
        None if f is None else f >= 0.85 and fails == 0
        and res.get("verified") is not False)
    def fails(key):
        n = get(key, "failures") or 0
        return f", {n} FAILURES" if n else ""

    f, c = get("wrk_put_c8", "fraction"), get("wrk_put_c8", "cpu_us")
    add("PutItem wrk c=8", ">= 0.50 of ceiling; CPU <= 15 us/call",
        None if f is None else f"{f:.2f}, {c:.1f} us" + fails("wrk_put_c8"),
        None if f is None else f >= 0.50 and c <= 15.0
        and not fails("wrk_put_c8"))
    f = get("wrk_get_c8", "fraction")
    add("GetItem wrk c=8", ">= 0.60 of ceiling",
        None if f is None else f"{f:.2f}" + fails("wrk_get_c8"),
        None if f is None else f >= 0.60 and not fails("wrk_get_c8"))
    c = get("wrk_query_c8", "cpu_us")
    add("Query 1,000 items", "<= 250 us CPU/query",
        None if c is None else f"{c:.0f} us" + fails("wrk_query_c8"),
        None if c is None else c <= 250 and not fails("wrk_query_c8"))
    v = res.get("rss_after_burst_mb")
    add("RSS after ab burst", "<= 20 MB", None if v is None else f"{v:.1f} MB",
        None if v is None else v <= 20.0)
    o = get("wrk_c1", "over_ceiling_us")
    add("c=1 mean (wrk)", "<= ceiling + 30 us",
        None if o is None else f"+{o:.1f} us", None if o is None else o <= 30)
    # Growth: first vs. last size, each half judged on the steps whose calls
    # all succeeded (a server lacking Query still gets its put figure).
    steps = [s for s in res.get("growth", []) if "put_rate" in s]
    puts = [s for s in steps if not s["put_failures"] and s["put_rate"]]
    queries = [s for s in steps if not s["query_failures"]
               and s["query_cpu_us"]]
    parts, oks = [], []
    for label, ok_steps, figure in (("put rate", puts, "put_rate"),
                                    ("query CPU", queries, "query_cpu_us")):
        if len(ok_steps) >= 2:
            x = ok_steps[-1][figure] / ok_steps[0][figure]
            parts.append(f"{label} x{x:.2f} ({ok_steps[0]['size']:,} -> "
                         f"{ok_steps[-1]['size']:,})")
            oks.append(abs(x - 1) <= 0.2)
        else:
            parts.append(f"{label} n/a")
            oks.append(None)
    verdict = (False if False in oks else None if None in oks else True)
    add("growth", "put rate and Query cost within +-20 %",
        "; ".join(parts) if steps else None, verdict)
    # Query scale (issue 5): CPU per query, 10,000-item partition of the big
    # table over the 10-item table, each shape within +-20 %, no failures.
    qs = res.get("query_scale") or {}
    shapes = [qs[k] for k in ("page", "between") if k in qs]
    value = ok = None
    if shapes:
        nfail = sum(f[t]["failures"] for f in shapes for t in ("small", "big"))
        value = ", ".join(f"{k} x{qs[k]['cpu_ratio']:.2f}"
                          for k in ("page", "between") if k in qs)
        value += f" ({qs['items']:,} items)"
        if nfail:
            value += f", {nfail} FAILURES"
        ok = (len(shapes) == 2 and not nfail
              and all(abs(f["cpu_ratio"] - 1) <= 0.2 for f in shapes))
    add(QS_BAR, "CPU/query big/small within +-20 %", value, ok)
    return bars


# --------------------------------------------------------------------------
# Output.

def num_str(x):
    """Three significant figures for small numbers, grouped digits for big."""
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def fmt_rate(r):
    return "-" if r is None else num_str(r) + "/s"


def query_scale_rows(row, num, val):
    row("Query page, 10-item table vs 10,000 of N (c=4)",
        lambda n: "")
    row("  items in the big table", num("{:,}", "query_scale", "items"))
    for shape, label in (("page", f"pk = :p, Limit {QS_PAGE}"),
                         ("between", f"+ sk BETWEEN, {QS_PAGE} items")):
        row(f"  {label}: CPU us, 10-item",
            num("{:.1f}", "query_scale", shape, "small", "cpu_us"))
        row(f"  {label}: CPU us, big",
            num("{:.1f}", "query_scale", shape, "big", "cpu_us"))
        row("    CPU ratio big/small",
            num("x{:.3f}", "query_scale", shape, "cpu_ratio"))
        row("    rate 10-item", lambda n, s=shape: fmt_rate(
            val(n, "query_scale", s, "small", "rate")))
        row("    rate big", lambda n, s=shape: fmt_rate(
            val(n, "query_scale", s, "big", "rate")))
        row("    rate ratio big/small",
            num("x{:.3f}", "query_scale", shape, "rate_ratio"))


def format_rows(rows, names):
    widths = [max(len(r[i]) for r in rows + [[""] + names])
              for i in range(len(names) + 1)]
    lines = ["  ".join(["".ljust(widths[0])]
                       + [n.rjust(widths[i + 1]) for i, n in enumerate(names)])]
    for r in rows:
        lines.append("  ".join([r[0].ljust(widths[0])]
                               + [c.rjust(widths[i + 1])
                                  for i, c in enumerate(r[1:])]))
    return "\n".join(lines)


def table(results, names, null_name="null", only_query_scale=False):
    rows = []

    def val(name, *path):
        cur = results.get(name, {})
        for p in path:
            if not isinstance(cur, dict) or cur.get(p) is None:
                return None
            cur = cur[p]
        return cur

    def row(label, fn):
        rows.append([label] + [fn(n) for n in names])

    def num(fmt, *path):
        return lambda n: "-" if val(n, *path) is None else fmt.format(
            val(n, *path))

    def opt(fmt, *path):  # blank for the ceiling itself
        return lambda n: "" if n == null_name else num(fmt, *path)(n)

    if only_query_scale:
        query_scale_rows(row, num, val)
        return format_rows(rows, names)
    row("start-up to ready, median (ms)", num("{:.1f}", "startup_ms"))
    row("  minus null server's (ms)", opt("{:+.1f}", "startup_over_null_ms"))
    row("idle RSS 0.5 s after ready (MB)", num("{:.1f}", "idle_rss_mb"))
    for key, label in (("ab_put_c8", "PutItem ab c=8 (signed, HTTP/1.0)"),
                       ("wrk_put_c8", "PutItem wrk -t1 -c8 (keep-alive)"),
                       ("wrk_get_c8", "GetItem wrk -t1 -c8"),
                       ("wrk_query_c8", "Query 1,000 items wrk -t1 -c8")):
        row(label, lambda n, k=key: fmt_rate(val(n, k, "rate")))
        row("  fraction of ceiling", opt("{:.3f}", key, "fraction"))
        row("  overhead per call (us)", opt("{:+.1f}", key, "overhead_us"))
        row("  server CPU per call (us)", num("{:.1f}", key, "cpu_us"))
        row("  failures", num("{:.0f}", key, "failures"))
        if key == "ab_put_c8":
            row("  item verified (GetItem)",
                lambda n: "" if n == null_name else {
                    True: "yes", False: "NO", None: "-"}[val(n, "verified")])
            row("RSS after ab burst (MB)", num("{:.1f}", "rss_after_burst_mb"))
    row("c=1 mean, ab (us)", num("{:.1f}", "ab_c1", "mean_us"))
    row("  over ceiling (us)", opt("{:+.1f}", "ab_c1", "over_ceiling_us"))
    row("c=1 mean, wrk duration/requests (us)",
        num("{:.1f}", "wrk_c1", "mean_us"))
    row("  over ceiling (us)", opt("{:+.1f}", "wrk_c1", "over_ceiling_us"))
    row("RSS at the end (MB)", num("{:.1f}", "rss_end_mb"))
    row("binary stripped (MB)",
        num("{:.2f}", "binary_mb_stripped"))
    query_scale_rows(row, num, val)
    return format_rows(rows, names)


def growth_table(results, names):
    lines = []
    for n in names:
        steps = results.get(n, {}).get("growth")
        if not steps:
            continue
        lines.append(f"{n}:")
        lines.append(f"  {'keys':>9}  {'fill/s':>9}  {'put/s':>9}  "
                     f"{'of ceil':>7}  {'put CPU us':>10}  {'query/s':>8}  "
                     f"{'query CPU us':>12}  {'RSS MB':>7}  failures")
        for s in steps:
            if "put_rate" not in s:
                lines.append(f"  {s['size']:>9,}  {s['fill_rate']:>9,.0f}  "
                             f"{s.get('incomplete', '')}")
                continue
            lines.append(
                f"  {s['size']:>9,}  {s['fill_rate']:>9,.0f}  "
                f"{num_str(s['put_rate']):>9}  "
                f"{s.get('put_fraction', 0):>7.3f}  "
                f"{s['put_cpu_us']:>10.1f}  {num_str(s['query_rate']):>8}  "
                f"{s['query_cpu_us']:>12.0f}  {s['rss_mb']:>7.1f}  "
                f"{s['fill_failures'] + s['put_failures']:>8}"
                + ("" if not s["query_failures"] else
                   f" (+{s['query_failures']} Query: figures invalid)"))
    return "\n".join(lines)


def query_scale_table(results, names):
    lines = []
    for n in names:
        qs = results.get(n, {}).get("query_scale")
        if not qs or "fill_seconds" not in qs:
            continue
        head = (f"{n}: {qs['items']:,} items filled in "
                f"{qs['fill_seconds']:.1f} s "
                f"({qs['fill_items_per_s']:,.0f} items/s, "
                f"{qs['fill_cpu_us_per_item']:.1f} us CPU/item, "
                f"BatchWriteItem of 25 over {qs['conns']} connections)")
        if "rss_mb" in qs:
            head += f", RSS {qs['rss_mb']:.0f} MB"
        lines.append(head)
        if "page" not in qs:
            continue
        lines.append(f"  {'query':<34} {'10-item CPU':>11} {'rate':>9}  "
                     f"{'big CPU':>9} {'rate':>9}  {'CPU ratio':>9} "
                     f"{'rate ratio':>10}  failures")
        for shape in ("page", "between"):
            f = qs.get(shape)
            if not f:
                continue
            lines.append(
                f"  {f['query']:<34} {f['small']['cpu_us']:>8.1f} us "
                f"{fmt_rate(f['small']['rate']):>9}  "
                f"{f['big']['cpu_us']:>6.1f} us {fmt_rate(f['big']['rate']):>9}"
                f"  {'x%.3f' % f['cpu_ratio']:>9} "
                f"{'x%.3f' % f['rate_ratio']:>10}  "
                f"{f['small']['failures'] + f['big']['failures']:>8}")
    return "\n".join(lines)


def bars_table(all_bars):
    lines = []
    for name, bars in all_bars.items():
        lines.append(f"{name}:")
        for b in bars:
            mark = {True: "pass", False: "MISS", None: "n/a"}[b["pass"]]
            lines.append(f"  {mark:<5} {b['figure']:<26} {b['bar']:<40} "
                         f"{b['value'] or '-'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------

class Config:
    def __init__(self, args):
        q = args.quick
        self.startup_runs = args.startup_runs or (3 if q else 10)
        self.ab_warmup = 200 if q else 2000
        self.ab_calls = 2000 if q else 20000
        self.ab_c1_calls = 500 if q else 5000
        self.wrk_seconds = 1 if q else 5
        self.wrk_c1_seconds = 1 if q else 3
        self.growth_probe_seconds = 1 if q else 2
        self.growth_step_budget = args.growth_budget
        top = args.growth_max if args.growth_max is not None else (
            5000 if q else 100000)
        sizes = []
        s = 1000
        while s < top:
            sizes.append(s)
            s *= 10
        if top >= 1000:
            sizes.append(top)
        self.growth_sizes = sizes
        self.qs_items = (args.query_scale_items
                         if args.query_scale_items is not None
                         else 100000 if q else 1000000)
        self.qs_seconds = 1 if q else 3
        self.qs_rounds = 2
        self.qs_budget = args.query_scale_budget


def ceiling_of(r):
    c = {k: r[k]["rate"] for k in CEILING_RATES if k in r}
    c.update({k: r[k]["mean_us"] for k in CEILING_MEANS if k in r})
    return c


def median_results(runs):
    """Per-figure median over several results of the null server."""
    if len(runs) == 1:
        return runs[0]
    out = {}
    for key, v in runs[0].items():
        if isinstance(v, dict):
            out[key] = {k: statistics.median(r[key][k] for r in runs)
                        if isinstance(x, (int, float)) else x
                        for k, x in v.items()}
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[key] = statistics.median(r[key] for r in runs)
        else:
            out[key] = v
    return out



def main():
    ap = argparse.ArgumentParser(
        prog="bench/run", description="pogi's bench: ceilings, pogi, peers.")
    ap.add_argument("--pogi", default=os.path.join(ROOT, "build", "pogi"),
                    help="pogi binary (default: build/pogi)")
    ap.add_argument("--no-peers", action="store_true",
                    help="skip dynalite and moto")
    ap.add_argument("--quick", action="store_true",
                    help="short smoke run (fewer calls, shorter runs)")
    ap.add_argument("--json", metavar="PATH",
                    help="also write the JSON line to PATH")
    ap.add_argument("--growth-max", type=int, metavar="N",
                    help="largest table of the growth run (default 100000; "
                    "5000 with --quick; 1000000 for the full bar; 0 skips)")
    ap.add_argument("--growth-budget", type=float, default=180.0,
                    metavar="SECONDS",
                    help="longest a single fill step may take (default 180)")
    ap.add_argument("--startup-runs", type=int, metavar="N",
                    help="start-ups per server (default 10; 3 with --quick)")
    ap.add_argument("--workdir", metavar="DIR",
                    help="where the fresh data folders go (default: the "
                    "system's temporary directory; put it on the disk you "
                    "want the durable figures for)")
    ap.add_argument("--only", choices=["query-scale"],
                    help="run only this stage: query-scale (issue 5: a "
                    "Query page on a 10-item table vs a 10,000-item "
                    "partition of a 1 M table)")
    ap.add_argument("--query-scale-items", type=int, metavar="N",
                    help="items in the big table of the query-scale stage "
                    "(default 1000000; 100000 with --quick; 0 skips)")
    ap.add_argument("--query-scale-budget", type=float, default=300.0,
                    metavar="SECONDS",
                    help="longest the query-scale fill may take "
                    "(default 300)")
    ap.add_argument("--servers", metavar="A,B",
                    help="only these servers (null always runs): pogi, "
                    "pogi-mem, dynalite, dynalite-path, moto")
    args = ap.parse_args()
    if args.query_scale_items and args.query_scale_items < 2 * QS_BIG_PART:
        ap.error(f"--query-scale-items: at least {2 * QS_BIG_PART} (or 0)")
    cfg = Config(args)

    started = time.time()
    notes = []
    ensure_tools(not args.no_peers)
    workdir = tempfile.mkdtemp(prefix="pogi-bench-", dir=args.workdir)
    specs = server_specs(args, notes, workdir)
    for n in notes:
        log(n)
    names = [s.name for s in specs]
    load_before = os.getloadavg()
    results = {s.name: {"note": s.note} for s in specs}
    qs_specs = [s for s in specs if s.name in QS_SERVERS] \
        if cfg.qs_items else []
    if args.only == "query-scale":
        if not cfg.qs_items:
            sys.exit("bench: --only query-scale with --query-scale-items 0")
        names = [s.name for s in qs_specs]
    ceiling = {}
    try:
        if not args.only:
            log(f"servers: {', '.join(names)}; start-up x{cfg.startup_runs}")
            starts, rss, failed = measure_startups(specs, cfg.startup_runs,
                                                   workdir)
            for name, why in failed.items():
                results[name]["error"] = why
                notes.append(f"{name}: {why}")
            specs = [s for s in specs if s.name not in failed]
            for s in specs:
                r = results[s.name]
                r["startup_ms"] = statistics.median(starts[s.name])
                r["startup_runs_ms"] = [round(x, 2) for x in starts[s.name]]
                r["idle_rss_mb"] = statistics.median(rss[s.name])
            # The ceiling is measured again right before each server, so a
            # server is compared with the generator's ceiling of the same
            # minutes (another job on the machine moves both alike). The null
            # column shows the median of those measurements.
            null_spec = specs[0]
            ceilings = []
            ceiling = {}
            for s in specs[1:] or [None]:
                log("null: load runs (ceiling)")
                r = measure_load(null_spec, cfg, workdir, {}, {})
                ceilings.append(r)
                ceiling = ceiling_of(r)
                if s is None:
                    break
                log(f"{s.name}: load runs")
                try:
                    results[s.name]["ceiling_used"] = ceiling
                    measure_load(s, cfg, workdir, ceiling, results[s.name])
                except Exception as e:  # one broken server: the run goes on
                    results[s.name]["error"] = str(e)
                    notes.append(f"{s.name}: {e}")
                    log(f"{s.name} failed: {e}")
            results["null"].update(median_results(ceilings))
            results["null"]["ceiling_runs"] = [ceiling_of(r)
                                               for r in ceilings]
            ceiling = ceiling_of(results["null"])
        # Query scale (issue 5): its own fresh instance per server.
        failed_now = set(results) - {s.name for s in specs}
        for s in qs_specs:
            if s.name in failed_now:
                continue
            log(f"{s.name}: query-scale ({cfg.qs_items:,} items)")
            try:
                measure_query_scale(s, cfg, workdir, results[s.name])
            except Exception as e:
                results[s.name].setdefault("errors", {})["query_scale"] = \
                    str(e)[:300]
                log(f"{s.name}: query-scale failed: {e}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    for name, r in results.items():
        for stage, why in r.get("errors", {}).items():
            notes.append(f"{name}: {stage}: {why}")
    null = results.get("null", {})
    for s in specs:
        r = results[s.name]
        if not s.is_null and "startup_ms" in r and "startup_ms" in null:
            r["startup_over_null_ms"] = r["startup_ms"] - null["startup_ms"]
        if "binary_bytes_stripped" in r:
            r["binary_mb_stripped"] = r["binary_bytes_stripped"] / 2**20
    all_bars = {s.name: judge_bars(s.name, results[s.name], null)
                for s in specs if s.binary}
    if args.only:  # only the bar this stage measures
        all_bars = {n: [b for b in bars if b["figure"].startswith(QS_BAR)]
                    for n, bars in all_bars.items()}

    out = {
        "bench": "pogi", "version": 1,
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "quick": args.quick, "seconds": round(time.time() - started, 1),
        "machine": {"cpus": os.cpu_count(), "kernel": platform.release(),
                    "loadavg_before": load_before,
                    "loadavg_after": os.getloadavg()},
        "config": {k: v for k, v in vars(cfg).items()},
        "sizes": {"get_response_bytes": GET_RESPONSE_BYTES,
                  "query_response_bytes": QUERY_RESPONSE_BYTES},
        "ceiling": ceiling, "servers": results, "bars": all_bars,
        "notes": notes,
    }
    print()
    print(f"pogi bench  {out['when']}  {'(quick) ' if args.quick else ''}"
          f"{os.cpu_count()} CPUs, load {load_before[0]:.2f} -> "
          f"{out['machine']['loadavg_after'][0]:.2f}, "
          f"{out['seconds']:.0f} s")
    if not args.only:
        print("ceiling = the null column: the same generator and requests "
              "against a do-nothing server.")
    print()
    print(table(results, names, only_query_scale=bool(args.only)))
    g = growth_table(results, names)
    if g:
        print()
        print("growth (PutItem c=8 over random existing keys and the "
              "1,000-item Query, at each table size):")
        print(g)
    q = query_scale_table(results, names)
    if q:
        print()
        print("query scale (issue 5): the same Query on a 10-item table and "
              f"on the {QS_BIG_PART:,}-item partition of the big table,")
        print(f"wrk -t1 -c{QS_CONNS}, {cfg.qs_rounds} rounds of "
              f"{cfg.qs_seconds} s per query and table, alternating; "
              "server CPU per query from /proc:")
        print(q)
    if all_bars:
        print()
        print("bars (issues 3 and 5):")
        print(bars_table(all_bars))
    if notes:
        print()
        for n in notes:
            print(f"note: {n}")
    line = json.dumps(out, separators=(",", ":"), default=str)
    print()
    print(line)
    if args.json:
        with open(args.json, "w") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
