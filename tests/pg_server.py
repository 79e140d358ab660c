#!/usr/bin/env python3
"""A throwaway PostgreSQL 15 for the tests of pogi's PostgreSQL backend.

PgServer runs Debian's PostgreSQL 15 (/usr/lib/postgresql/15/bin, or
$POGI_PG_BIN) on a cluster in a fresh temporary folder: listening on a Unix
socket in that folder and on a free TCP port of 127.0.0.1, trust
authentication, fsync and synchronous_commit on (the durability tests rely on
both). PostgreSQL refuses to run as root: as root, initdb, pg_ctl and the
server run as the `postgres` user, which then owns the folder.

    pg = PgServer().start()
    pg.conninfo()        # 'host=/tmp/pogi-pg-x port=N dbname=postgres user=postgres' (the socket)
    pg.uri()             # 'postgresql://postgres@127.0.0.1:N/postgres' (TCP)
    pg.psql("select 1")  # psql -At's output
    pg.restart()         # pg_ctl stop -m fast, then start on the same data
    pg.kill()            # pg_ctl stop -m immediate (a crash, as far as the data knows)
    pg.start()
    pg.cleanup()         # stopped and the folder removed

A streaming-replication pair, for failover tests:

    primary, standby = replicated_pair()   # both running; commits wait for the standby
    standby.in_recovery()                  # True: a hot standby, read-only
    primary.kill()                         # the primary crashes
    standby.promote()                      # pg_ctl promote: now the primary

PgServer(replication=True) is a primary that accepts replication
connections; primary.make_standby() makes a standby of it with
`pg_basebackup -R` in a folder (socket, port) of its own;
primary.require_sync_standby() makes each commit wait until a standby has
flushed it (synchronous_standby_names = '*').

The database's default collation is ICU's en-US, as on most servers users run,
not C: a backend that lets the database's text collation order keys would
break there, and the tests should see it.

shared() is one server for a whole test process: started on first use,
stopped at exit. $POGI_TEST_PG (a conninfo) names a running server to use
instead, as `run` below sets it.

    python3 tests/pg_server.py run -- COMMAND ARGS...

starts one server, runs COMMAND with POGI_TEST_PG (and POGI_TEST_PG_URI) set,
stops the server and exits with COMMAND's code: CTest runs the storage unit
tests so.

Fast start: initdb runs once per machine into a template folder beside the
temporary ones (pogi-pg-template-*), which each new server copies (0.1 s
instead of 1 s and more). If the test process dies without its exit handlers
(kill -9, a CTest time-out), a small watchdog process (pg_watchdog) stops
its server and removes its folder.

The tools' helpers (where PostgreSQL's programs are, running them as the
`postgres` user, psql) are pg_tools'; a pg_auto_failover formation, whose
monitor promotes a secondary by itself, is pg_autofailover's.
"""

import atexit
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pg_watchdog
# PG_BIN, LOCALHOST, SUPERUSER, PgError, available, clean_env, psql and
# make_certificate_authority are also this module's: its importers use them.
from pg_tools import (LOCALHOST, PG_BIN, SUPERUSER, PgError, available, chown_to_pg_user,  # noqa: F401
                      clean_env, make_certificate_authority, openssl, psql, run_as_pg, temp_parent)
from ports import free_port

START_TIMEOUT = 30  # seconds for pg_ctl -w to see the server accept connections
# initdb's options (also the template's key). --no-sync: initdb's files are
# not flushed (a second saved per server); the tests kill processes, never the
# machine, and the server itself runs with fsync on.
INITDB_ARGS = ["-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8",
               "--locale-provider=icu", "--icu-locale=en-US", "--no-sync"]
# Small, but durable: fsync and synchronous commits, as in production.
SETTINGS = """
listen_addresses = '127.0.0.1'
unix_socket_directories = '{socket_dir}'
fsync = on
synchronous_commit = on
full_page_writes = on
shared_buffers = 32MB
max_connections = 200
max_wal_size = 256MB
timezone = 'UTC'
log_timezone = 'UTC'
log_min_messages = warning
log_connections = off
"""
# A primary that streams its WAL to standbys (PgServer(replication=True)).
# PostgreSQL 15's defaults already are wal_level=replica, 10 WAL senders and
# hot_standby=on; said here so that a change of them does not go unnoticed.
REPLICATION_SETTINGS = """
wal_level = replica
max_wal_senders = 10
max_replication_slots = 10
hot_standby = on
wal_keep_size = 128MB
"""
# initdb's pg_hba.conf has these lines already (with -A trust); said again.
REPLICATION_HBA = """
local   replication     all                                     trust
host    replication     all             127.0.0.1/32            trust
"""
# What a standby changes in the configuration pg_basebackup copied from its
# primary: its own socket folder (its port is given at each start, like any
# server's), and no synchronous standby of its own: once promoted it is
# alone, and commits waiting for a standby would wait for ever.
STANDBY_SETTINGS = """
unix_socket_directories = '{socket_dir}'
synchronous_standby_names = ''
"""


def _template():
    """The folder of a cluster initdb made once (for this PostgreSQL, these
    options and this user), made now if missing; each server copies it."""
    initdb = os.path.join(PG_BIN, "initdb")
    st = os.stat(initdb)
    key = hashlib.sha256(repr((initdb, st.st_size, st.st_mtime_ns, INITDB_ARGS, os.geteuid()))
                         .encode()).hexdigest()[:16]
    path = os.path.join(temp_parent(), "pogi-pg-template-" + key)
    if os.path.exists(os.path.join(path, "data", "PG_VERSION")):
        return path
    # Made aside, then renamed into place: a concurrent test process either
    # sees the whole template or none.
    work = tempfile.mkdtemp(prefix="pogi-pg-template-tmp-", dir=temp_parent())
    os.chmod(work, 0o755)
    chown_to_pg_user(work)
    cp = run_as_pg([initdb, "-D", os.path.join(work, "data")] + INITDB_ARGS, cwd=work)
    if cp.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise PgError("initdb failed (exit %d): %s" % (cp.returncode, (cp.stderr or cp.stdout).strip()))
    try:
        os.rename(work, path)
    except OSError:  # another process got there first: use its template
        shutil.rmtree(work, ignore_errors=True)
    return path


class PgServer:
    """One PostgreSQL cluster in a temporary folder; see the module's doc."""

    def __init__(self, port=None, replication=False, tls=False):
        self.port = port
        self.replication = replication  # a primary standbys can stream from
        self.tls = tls  # TLS only over TCP (make_tls_files); the socket stays plain
        self._pick_port = port is None
        self._started_once = False
        self.base = None  # the temporary folder: data/, the socket, server.log
        self._watchdog_fd = None

    @property
    def data_dir(self):
        return os.path.join(self.base, "data")

    @property
    def socket_dir(self):
        return self.base

    @property
    def log_path(self):
        return os.path.join(self.base, "server.log")

    # ---- life cycle -------------------------------------------------------

    def _create(self):
        if not available():
            raise PgError("PostgreSQL 15 is not installed: no %s/initdb (apt-get install postgresql-15)"
                          % PG_BIN)
        template = _template()
        self.base = tempfile.mkdtemp(prefix="pogi-pg-", dir=temp_parent())
        os.chmod(self.base, 0o755)  # clients of any user reach the socket
        chown_to_pg_user(self.base)
        self._start_watchdog()
        cp = run_as_pg(["cp", "-a", os.path.join(template, "data"), self.data_dir], cwd=self.base)
        if cp.returncode != 0:
            raise PgError("copying the template cluster failed: %s" % cp.stderr.strip())
        with open(os.path.join(self.data_dir, "postgresql.conf"), "a") as f:
            f.write(SETTINGS.format(socket_dir=self.socket_dir))
            if self.replication:
                f.write(REPLICATION_SETTINGS)
        if self.replication:
            with open(os.path.join(self.data_dir, "pg_hba.conf"), "a") as f:
                f.write(REPLICATION_HBA)
        if self.tls:
            self._make_tls()

    @property
    def tls_dir(self):
        return os.path.join(self.base, "tls")

    def _make_tls(self):
        """A certificate authority of this server's own (tls/ca.crt, what a
        client's sslrootcert names) and the server's certificate from it for
        localhost and 127.0.0.1; ssl = on, and TCP without TLS refused (the
        first pg_hba line wins), as a managed PostgreSQL service does."""
        os.makedirs(self.tls_dir)
        make_certificate_authority(self.tls_dir, "ca")
        key, crt = os.path.join(self.tls_dir, "server.key"), os.path.join(self.tls_dir, "server.crt")
        openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                "-subj", "/CN=localhost", "-out", crt + ".csr")
        with open(os.path.join(self.tls_dir, "san.ext"), "w") as f:
            f.write("subjectAltName = DNS:localhost, IP:127.0.0.1\n")
        openssl("x509", "-req", "-in", crt + ".csr", "-days", "2",
                "-CA", os.path.join(self.tls_dir, "ca.crt"), "-CAkey", os.path.join(self.tls_dir, "ca.key"),
                "-CAcreateserial", "-extfile", os.path.join(self.tls_dir, "san.ext"), "-out", crt)
        for name in os.listdir(self.tls_dir):
            chown_to_pg_user(os.path.join(self.tls_dir, name))
        os.chmod(key, 0o600)  # PostgreSQL refuses a key others can read
        chown_to_pg_user(self.tls_dir)
        with open(os.path.join(self.data_dir, "postgresql.conf"), "a") as f:
            f.write("ssl = on\nssl_cert_file = '%s'\nssl_key_file = '%s'\n" % (crt, key))
        hba = os.path.join(self.data_dir, "pg_hba.conf")
        with open(hba) as f:
            rules = f.read()
        with open(hba, "w") as f:
            f.write("hostnossl all all 0.0.0.0/0 reject\n" + rules)

    def make_standby(self, port=None):
        """A standby of this running primary (made with replication=True):
        `pg_basebackup -R` (-R: it writes standby.signal and the
        primary_conninfo to stream from this server) copies this cluster into
        a new temporary folder with its own socket and port, through a
        replication slot of this server, so that the standby never misses
        WAL. Returns the standby's PgServer, not started yet: its start()
        starts it as a hot standby (read-only until promote())."""
        if not self.replication:
            raise PgError("make_standby: this server was not made with replication=True")
        if not self.running():
            raise PgError("make_standby: the primary is not running")
        standby = PgServer(port=port, replication=True)
        standby.base = tempfile.mkdtemp(prefix="pogi-pg-standby-", dir=temp_parent())
        os.chmod(standby.base, 0o755)
        chown_to_pg_user(standby.base)
        standby._start_watchdog()
        slot = "standby_%s" % os.path.basename(standby.base).replace("-", "_").lower()
        cp = run_as_pg([os.path.join(PG_BIN, "pg_basebackup"), "-D", standby.data_dir, "-R",
                         "-X", "stream", "-c", "fast", "--no-sync", "-C", "-S", slot,
                         "-h", self.socket_dir, "-p", str(self.port), "-U", SUPERUSER],
                        cwd=standby.base)
        if cp.returncode != 0:
            standby.cleanup()
            raise PgError("pg_basebackup failed (exit %d): %s" % (cp.returncode, (cp.stderr or cp.stdout).strip()))
        with open(os.path.join(standby.data_dir, "postgresql.conf"), "a") as f:
            f.write(STANDBY_SETTINGS.format(socket_dir=standby.socket_dir))
        return standby

    def require_sync_standby(self, timeout=30):
        """Makes this primary's commits synchronous (synchronous_standby_names
        = '*', with synchronous_commit=on: a commit returns only once a
        standby has flushed it to its WAL too), then waits until a standby
        streams as the synchronous one. Set only now, once a standby is
        there: before, every commit would wait for one."""
        self.psql("ALTER SYSTEM SET synchronous_standby_names = '*'")
        self.psql("SELECT pg_reload_conf()")
        self.wait_for_standby(sync=True, timeout=timeout)

    def wait_for_standby(self, sync=False, timeout=30):
        """Waits until a standby streams from this primary (sync: as its
        synchronous standby)."""
        condition = "state = 'streaming'" + (" AND sync_state = 'sync'" if sync else "")
        deadline = time.monotonic() + timeout
        while True:
            if self.psql("SELECT count(*) FROM pg_stat_replication WHERE " + condition) != "0":
                return
            if time.monotonic() > deadline:
                raise PgError("no standby streams from %s after %d s (%s): %s"
                              % (self.base, timeout, condition,
                                 self.psql("SELECT state, sync_state FROM pg_stat_replication")))
            time.sleep(0.05)

    def in_recovery(self):
        """Whether this server is a standby (pg_is_in_recovery())."""
        return self.psql("SELECT pg_is_in_recovery()") == "t"

    def promote(self, timeout=60):
        """pg_ctl promote -w: returns once this standby is a primary that
        accepts writes."""
        cp = self._pg_ctl("promote", "-w", "-t", str(timeout))
        if cp.returncode != 0:
            raise PgError("pg_ctl promote failed (exit %d): %s\n--- %s:\n%s"
                          % (cp.returncode, (cp.stderr or cp.stdout).strip(), self.log_path, self.log_text()[-3000:]))
        return self

    def start(self):
        """Starts the server (initdb on the first start); returns self once it
        accepts connections."""
        if self.base is None:
            self._create()
        if self.running():
            return self
        for attempt in range(5):
            if self.port is None:
                self.port = free_port()
            cp = self._pg_ctl("start", "-w", "-t", str(START_TIMEOUT), "-l", self.log_path,
                              "-o", "-p %d" % self.port)
            if cp.returncode == 0:
                self._started_once = True
                return self
            log = self.log_text()
            # The free port was taken in between: another one, if it was ours to pick
            # and the server never ran (conninfo must not change under a client).
            if self._pick_port and attempt < 4 and "could not bind" in log and not self._started_once:
                self.port = None
                continue
            self._pg_ctl("stop", "-m", "immediate", "-w")  # a server pg_ctl gave up waiting for
            raise PgError("PostgreSQL did not start (pg_ctl exit %d): %s\n--- %s:\n%s"
                          % (cp.returncode, (cp.stderr or cp.stdout).strip(), self.log_path, log[-3000:]))
        raise AssertionError("unreachable")

    def stop(self, mode="fast"):
        """pg_ctl stop -m MODE (smart, fast or immediate); nothing if not running."""
        if self.base is None or not self.running():
            return
        cp = self._pg_ctl("stop", "-w", "-t", "60", "-m", mode)
        if cp.returncode != 0 and self.running():
            raise PgError("pg_ctl stop -m %s failed: %s" % (mode, (cp.stderr or cp.stdout).strip()))

    def kill(self):
        """An immediate stop: no checkpoint, crash recovery at the next start."""
        self.stop("immediate")

    def restart(self):
        """A clean stop (-m fast), then a start on the same data and port."""
        self.stop("fast")
        return self.start()

    def running(self):
        if self.base is None:
            return False
        return self._pg_ctl("status").returncode == 0  # 3: not running

    def cleanup(self, background=False):
        """Stops the server at once and removes its folder. background: the
        folder is removed by the watchdog, after this returns: removing a
        cluster whose files PostgreSQL synced to disk (a standby's, a
        promoted one's) takes seconds on some disks."""
        if self.base is None:
            return
        try:
            self.stop("immediate")
        finally:
            if not (background and self._watchdog_fd is not None):
                shutil.rmtree(self.base, ignore_errors=True)
            self.base = None
            if self._watchdog_fd is not None:
                os.close(self._watchdog_fd)  # the watchdog removes what is left, if anything
                self._watchdog_fd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()

    def _pg_ctl(self, *args):
        return run_as_pg([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data_dir] + list(args),
                          cwd=self.base)

    def log_text(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _start_watchdog(self):
        self._watchdog_fd = pg_watchdog.start(self.base)

    # ---- clients ----------------------------------------------------------

    def conninfo(self, dbname="postgres"):
        """A libpq key=value connection string over the Unix socket."""
        return "host=%s port=%d dbname=%s user=%s" % (self.socket_dir, self.port, dbname, SUPERUSER)

    def tcp_conninfo(self, dbname="postgres"):
        return "host=%s port=%d dbname=%s user=%s" % (LOCALHOST, self.port, dbname, SUPERUSER)

    def uri(self, dbname="postgres"):
        """A postgresql:// URI over TCP on 127.0.0.1."""
        return "postgresql://%s@%s:%d/%s" % (SUPERUSER, LOCALHOST, self.port, dbname)

    def psql(self, sql, dbname="postgres", check=True):
        return psql(self.conninfo(dbname), sql, check=check)


class ExternalPg:
    """A server someone else runs ($POGI_TEST_PG): used, never stopped."""

    def __init__(self, conninfo, uri=None):
        self._conninfo = conninfo
        self._uri = uri

    def conninfo(self):
        return self._conninfo

    def uri(self):
        return self._uri or self._conninfo

    def psql(self, sql, check=True):
        return psql(self._conninfo, sql, check=check)


_shared = None
_shared_lock = threading.Lock()


def shared():
    """The test process's one server: $POGI_TEST_PG's, else one started now
    and stopped at exit."""
    global _shared
    with _shared_lock:
        if _shared is None:
            if os.environ.get("POGI_TEST_PG"):
                _shared = ExternalPg(os.environ["POGI_TEST_PG"], os.environ.get("POGI_TEST_PG_URI"))
            else:
                server = PgServer()
                atexit.register(server.cleanup)
                _shared = server.start()
        return _shared


def replicated_pair(synchronous=True):
    """A primary and a hot standby streaming from it, both running: the
    caller cleans up both. synchronous: each commit on the primary returns
    only once the standby has it on disk too (synchronous replication with
    synchronous_commit=on), so a commit acknowledged before the primary
    dies is on the standby, and a promoted standby lost none of them.
    Without it the standby may lag: an acknowledged commit may be lost in a
    failover."""
    primary = PgServer(replication=True)
    standby = None
    try:
        primary.start()
        standby = primary.make_standby().start()
        if synchronous:
            primary.require_sync_standby()
        else:
            primary.wait_for_standby()
    except BaseException:
        if standby is not None:
            standby.cleanup()
        primary.cleanup()
        raise
    return primary, standby


# ---- command line ---------------------------------------------------------

def _run(command):
    """`run -- COMMAND...`: COMMAND's exit code, with a server around it."""
    pg = PgServer()
    proc = None

    def on_signal(signum, frame):
        raise SystemExit(128 + signum)

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        pg.start()
        env = dict(os.environ, POGI_TEST_PG=pg.conninfo(), POGI_TEST_PG_URI=pg.uri())
        proc = subprocess.Popen(command, env=env)
        return proc.wait()
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        pg.cleanup()


def main(argv):
    if argv[:1] == ["run"]:
        command = argv[1:]
        if command[:1] == ["--"]:
            command = command[1:]
        if not command:
            print("usage: pg_server.py run -- COMMAND [ARGS...]", file=sys.stderr)
            return 2
        try:
            return _run(command)
        except PgError as e:
            print("pg_server: %s" % e, file=sys.stderr)
            return 1
    print("usage: pg_server.py run -- COMMAND [ARGS...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
