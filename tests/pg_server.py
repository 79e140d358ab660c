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

A pg_auto_failover formation (a monitor and two nodes, `pg_autoctl`; the
monitor promotes the secondary when the primary dies), where Debian's
postgresql-15-auto-failover is installed (autoctl_problem() says when not):

    f = AutoFailoverFormation().start()
    f.conninfo()          # both nodes, target_session_attrs=read-write
    f.kill_node("node1")  # SIGKILL to the node's every process
    f.wait_states({"node2": "wait_primary"})
    f.cleanup()

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
(kill -9, a CTest time-out), a small watchdog process stops its server and
removes its folder.
"""

import atexit
import hashlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from ports import free_port

PG_BIN = os.environ.get("POGI_PG_BIN", "/usr/lib/postgresql/15/bin")
LOCALHOST = "127.0.0.1"
DEFAULT_SOCKET_DIR = "/var/run/postgresql"  # Debian's PostgreSQL's, where pg_autoctl's servers listen too
SUPERUSER = "postgres"
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


class PgError(Exception):
    pass


def available():
    """Whether PostgreSQL 15's server binaries are installed."""
    return os.access(os.path.join(PG_BIN, "initdb"), os.X_OK)


def psql_bin():
    own = os.path.join(PG_BIN, "psql")
    return own if os.access(own, os.X_OK) else "psql"


def _pg_user():
    """subprocess arguments that run a command as the user PostgreSQL runs as:
    `postgres` when we are root (it refuses root), else ourselves."""
    if os.geteuid() != 0:
        return {}
    try:
        pw = pwd.getpwnam("postgres")
    except KeyError:
        raise PgError("running as root, and there is no `postgres` user to run PostgreSQL as "
                      "(apt-get install postgresql-15 makes it)")
    return {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}


def _chown_to_pg_user(path):
    ids = _pg_user()
    if ids:
        os.chown(path, ids["user"], ids["group"])


def _clean_env():
    # No PGHOST, PGDATA, PGPORT... of the caller's may steer the tools elsewhere.
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}


def _run_as_pg(args, cwd, timeout=120):
    """Runs a PostgreSQL tool as the PostgreSQL user; returns the CompletedProcess.

    cwd is a folder that user can enter: the tools refuse to run in one they
    cannot (the caller's may be root's)."""
    return subprocess.run(args, cwd=cwd, env=_clean_env(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, **_pg_user())


def _temp_parent():
    """Where the temporary folders go: one the PostgreSQL user can reach and
    short enough for the socket's path (108 bytes at most)."""
    parent = tempfile.gettempdir()
    if len(parent) > 60 or (os.geteuid() == 0 and not os.stat(parent).st_mode & 0o001):
        parent = "/tmp"
    return parent


def _template():
    """The folder of a cluster initdb made once (for this PostgreSQL, these
    options and this user), made now if missing; each server copies it."""
    initdb = os.path.join(PG_BIN, "initdb")
    st = os.stat(initdb)
    key = hashlib.sha256(repr((initdb, st.st_size, st.st_mtime_ns, INITDB_ARGS, os.geteuid()))
                         .encode()).hexdigest()[:16]
    path = os.path.join(_temp_parent(), "pogi-pg-template-" + key)
    if os.path.exists(os.path.join(path, "data", "PG_VERSION")):
        return path
    # Made aside, then renamed into place: a concurrent test process either
    # sees the whole template or none.
    work = tempfile.mkdtemp(prefix="pogi-pg-template-tmp-", dir=_temp_parent())
    os.chmod(work, 0o755)
    _chown_to_pg_user(work)
    cp = _run_as_pg([initdb, "-D", os.path.join(work, "data")] + INITDB_ARGS, cwd=work)
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
        self.base = tempfile.mkdtemp(prefix="pogi-pg-", dir=_temp_parent())
        os.chmod(self.base, 0o755)  # clients of any user reach the socket
        _chown_to_pg_user(self.base)
        self._start_watchdog()
        cp = _run_as_pg(["cp", "-a", os.path.join(template, "data"), self.data_dir], cwd=self.base)
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
        _openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                 "-subj", "/CN=localhost", "-out", crt + ".csr")
        with open(os.path.join(self.tls_dir, "san.ext"), "w") as f:
            f.write("subjectAltName = DNS:localhost, IP:127.0.0.1\n")
        _openssl("x509", "-req", "-in", crt + ".csr", "-days", "2",
                 "-CA", os.path.join(self.tls_dir, "ca.crt"), "-CAkey", os.path.join(self.tls_dir, "ca.key"),
                 "-CAcreateserial", "-extfile", os.path.join(self.tls_dir, "san.ext"), "-out", crt)
        for name in os.listdir(self.tls_dir):
            _chown_to_pg_user(os.path.join(self.tls_dir, name))
        os.chmod(key, 0o600)  # PostgreSQL refuses a key others can read
        _chown_to_pg_user(self.tls_dir)
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
        standby.base = tempfile.mkdtemp(prefix="pogi-pg-standby-", dir=_temp_parent())
        os.chmod(standby.base, 0o755)
        _chown_to_pg_user(standby.base)
        standby._start_watchdog()
        slot = "standby_%s" % os.path.basename(standby.base).replace("-", "_").lower()
        cp = _run_as_pg([os.path.join(PG_BIN, "pg_basebackup"), "-D", standby.data_dir, "-R",
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
        return _run_as_pg([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data_dir] + list(args),
                          cwd=self.base)

    def log_text(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _start_watchdog(self):
        self._watchdog_fd = _start_watchdog(self.base)

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


def _openssl(*args):
    cp = subprocess.run(["openssl"] + list(args), capture_output=True, text=True, timeout=60)
    if cp.returncode != 0:
        raise PgError("openssl %s failed: %s" % (args[0], cp.stderr.strip()))


def make_certificate_authority(folder, name):
    """A self-signed certificate authority: folder/NAME.key and NAME.crt."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-keyout", os.path.join(folder, name + ".key"), "-subj", "/CN=pogi test CA " + name,
             "-out", os.path.join(folder, name + ".crt"))


def psql(conninfo, sql, check=True, timeout=60):
    """Runs SQL through psql (unaligned, tuples only, stop at the first
    error); returns its stdout without the last newline. check: raise on a
    failure (else return the CompletedProcess)."""
    cp = subprocess.run([psql_bin(), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", conninfo, "-c", sql],
                        capture_output=True, text=True, timeout=timeout, env=_clean_env(),
                        stdin=subprocess.DEVNULL)
    if not check:
        return cp
    if cp.returncode != 0:
        raise PgError("psql failed (exit %d) on %r: %s" % (cp.returncode, sql, cp.stderr.strip()))
    return cp.stdout.rstrip("\n")


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


# ---- pg_auto_failover -----------------------------------------------------

def autoctl_bin():
    """pg_autoctl's path ($POGI_PG_AUTOCTL, else beside PostgreSQL's tools,
    else Debian's /usr/bin, where pg-auto-failover-cli puts it), or None."""
    for path in (os.environ.get("POGI_PG_AUTOCTL"), os.path.join(PG_BIN, "pg_autoctl"), "/usr/bin/pg_autoctl"):
        if path and os.access(path, os.X_OK):
            return path
    return None


def autoctl_problem():
    """Why AutoFailoverFormation cannot run here, or None: pg_autoctl and
    the monitor's extension for this PostgreSQL (Debian's
    postgresql-15-auto-failover), and a socket folder for its servers."""
    if not available():
        return "PostgreSQL 15 is not installed (no %s/initdb)" % PG_BIN
    share = subprocess.run([os.path.join(PG_BIN, "pg_config"), "--sharedir"], capture_output=True,
                           text=True).stdout.strip()
    if not autoctl_bin() or not os.path.exists(os.path.join(share, "extension", "pgautofailover.control")):
        return ("pg_auto_failover is not installed (no pg_autoctl, or no pgautofailover extension for "
                "PostgreSQL 15): apt-get install postgresql-15-auto-failover")
    # pg_autoctl leaves unix_socket_directories at the default.
    if os.geteuid() != 0 and not os.access(DEFAULT_SOCKET_DIR, os.W_OK | os.X_OK):
        return "pg_autoctl's servers put their sockets in %s, which this user may not write" % DEFAULT_SOCKET_DIR
    return None


def autoctl_available():
    return autoctl_problem() is None


# The monitor's settings for a failover within seconds (the defaults take
# about 30 s): a node is checked every second and deemed unhealthy after 2 s
# without answer; the secondary is promoted 3 s (default 30 s) after the
# primary was told to demote itself. That wait protects against two
# primaries when the old one is cut off but alive; the tests kill it
# outright, and a long wait only makes them slow.
FAST_FAILOVER = {
    "health_check_period": 1000,
    "health_check_timeout": 1000,
    "health_check_max_retries": 1,
    "health_check_retry_delay": 500,
    "node_considered_unhealthy_timeout": 2000,
    "primary_demote_timeout": 3000,
}


class AutoFailoverFormation:
    """A pg_auto_failover formation on this machine: a monitor and `nodes`
    PostgreSQL nodes, each `pg_autoctl create ... --run` in a process group
    of its own (its keeper and its PostgreSQL), as the postgres user when we
    are root (pg_autoctl runs initdb and postgres, which refuse root; the
    sockets go to the default socket folder, /var/run/postgresql, which
    that user may write: see autoctl_problem()). Everything else is in
    one temporary folder (the clusters, pg_autoctl's configuration and state
    through XDG_CONFIG_HOME/XDG_DATA_HOME, the logs); everything listens on
    127.0.0.1 only, authentication is trust, no SSL.

        f = AutoFailoverFormation().start()   # the first node primary, the others secondaries
        f.conninfo()        # the formation's multi-host string (target_session_attrs=read-write)
        f.primary()         # the primary's node name ('node1')
        f.kill_node(name)   # SIGKILL to the node's keeper and PostgreSQL: the machine died
        f.wait_states({...})
        f.cleanup()

    Nodes are named node1, node2...; the first is the primary. The nodes are
    made one after the other: the first initdb's, the others pg_basebackup's
    from the primary. Replication is synchronous as pg_auto_failover sets it
    up by default (synchronous_standby_names = 'ANY 1 (...)' while a
    secondary is healthy), so an acknowledged commit survives the primary.
    """

    def __init__(self, nodes=2, monitor_settings=None):
        self.node_count = nodes
        self.monitor_settings = dict(FAST_FAILOVER if monitor_settings is None else monitor_settings)
        self.base = None
        self.monitor_port = None
        self.ports = {}  # node name -> port
        self.procs = {}  # "monitor" or a node name -> its pg_autoctl Popen (a process group leader)
        self.killed = set()
        self._watchdog_fd = None
        self._logs = {}

    # ---- life cycle -------------------------------------------------------

    def start(self, timeout=90):
        problem = autoctl_problem()
        if problem:
            raise PgError(problem)
        self.base = tempfile.mkdtemp(prefix="pogi-paf-", dir=_temp_parent())
        os.chmod(self.base, 0o755)
        _chown_to_pg_user(self.base)
        self._watchdog_fd = _start_watchdog(self.base)
        deadline = time.monotonic() + timeout
        try:
            self.monitor_port = free_port()
            self._spawn("monitor", ["create", "monitor", "--pgdata", self._pgdata("monitor"),
                                    "--pgport", str(self.monitor_port), "--hostname", LOCALHOST,
                                    "--listen", LOCALHOST, "--auth", "trust", "--no-ssl"])
            self._wait(deadline, "the monitor", lambda: self._monitor_sql(
                "SELECT count(*) FROM pgautofailover.formation", check=False).returncode == 0)
            for name, value in self.monitor_settings.items():
                self._monitor_sql("ALTER SYSTEM SET pgautofailover.%s = %s" % (name, value))
            self._monitor_sql("SELECT pg_reload_conf()")
            for i in range(1, self.node_count + 1):
                name = "node%d" % i
                if i > 1:
                    # pg_basebackup of the new node starts with a spread
                    # checkpoint (about 7 s after initdb): one now is quick.
                    self.psql("node1", "CHECKPOINT")
                self.ports[name] = free_port()
                self._spawn(name, ["create", "postgres", "--pgdata", self._pgdata(name),
                                   "--pgport", str(self.ports[name]), "--pghost", LOCALHOST,
                                   "--listen", LOCALHOST, "--hostname", LOCALHOST, "--name", name,
                                   "--dbname", "postgres", "--auth", "trust", "--no-ssl",
                                   "--monitor", self.monitor_uri()])
                # One node at a time: the first must be the primary.
                want = {"node%d" % j: "secondary" for j in range(2, i + 1)}
                want["node1"] = "primary" if i > 1 else "single"
                self.wait_states(want, timeout=max(1, deadline - time.monotonic()))
        except BaseException:
            self.cleanup()
            raise
        return self

    def _pgdata(self, name):
        return os.path.join(self.base, name)

    def _env(self):
        env = _clean_env()
        env.update({"HOME": self.base, "XDG_CONFIG_HOME": os.path.join(self.base, "config"),
                    "XDG_DATA_HOME": os.path.join(self.base, "share"),
                    "XDG_RUNTIME_DIR": os.path.join(self.base, "run"),
                    "PATH": PG_BIN + os.pathsep + env.get("PATH", "/usr/bin:/bin")})
        return env

    def _spawn(self, name, args):
        log = open(os.path.join(self.base, name + ".log"), "w")
        self._logs[name] = log
        proc = subprocess.Popen([autoctl_bin()] + args + ["--pgctl", os.path.join(PG_BIN, "pg_ctl"), "--run"],
                                cwd=self.base, env=self._env(), stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True, **_pg_user())
        self.procs[name] = proc
        # For the watchdog: the process groups to stop if this process dies.
        with open(os.path.join(self.base, "pgids"), "a") as f:
            f.write("%d\n" % proc.pid)

    def _wait(self, deadline, what, ready):
        while not ready():
            for name, proc in self.procs.items():
                if proc.poll() is not None and name not in self.killed:
                    raise PgError("pg_autoctl of %s exited with %s while waiting for %s:\n%s"
                                  % (name, proc.returncode, what, self.log_text(name)[-3000:]))
            if time.monotonic() > deadline:
                raise PgError("timed out waiting for %s; states: %r\n%s"
                              % (what, self.states(), "\n".join("--- %s:\n%s" % (n, self.log_text(n)[-2000:])
                                                                for n in self.procs)))
            time.sleep(0.1)

    def kill_node(self, name):
        """SIGKILL to every process of the node (its keeper, its PostgreSQL
        and the PostgreSQL's backends): the node is gone as if its machine
        had died, nobody told."""
        proc = self.procs[name]
        self.killed.add(name)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _stop_process_group(proc.pid, grace=5, leader=proc, term=False)  # waits until they are gone

    def cleanup(self):
        """Stops every node and the monitor (SIGTERM: pg_autoctl stops its
        PostgreSQL); the folder is removed in the background by the
        watchdog (its clusters were written with fsync, by initdb and
        pg_basebackup, and removing them takes seconds here)."""
        if self.base is None:
            return
        try:
            # All at once: one after the other takes seconds each.
            for proc in self.procs.values():
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            for proc in self.procs.values():
                _stop_process_group(proc.pid, grace=10, leader=proc, term=False)
            for name in self.procs:
                self._remove_leftovers(name)
        finally:
            for log in self._logs.values():
                log.close()
            if self._watchdog_fd is not None:
                os.close(self._watchdog_fd)  # the watchdog removes the folder
                self._watchdog_fd = None
            else:
                shutil.rmtree(self.base, ignore_errors=True)
            self.base = None

    def _remove_leftovers(self, name):
        """Removes what the PostgreSQL of a node (or of the monitor) left if
        it was killed with SIGKILL, for a next start that never comes: its
        small System V segment (postmaster.pid's 7th line: key and id), its
        socket and the socket's lock file in the socket folder (pg_autoctl
        leaves unix_socket_directories at the default, /var/run/postgresql
        on Debian: shared, so only the lock file naming this data folder)."""
        pgdata = self._pgdata(name)
        try:
            with open(os.path.join(pgdata, "postmaster.pid")) as f:
                lines = f.read().splitlines()
            if _running(int(lines[0])):
                return  # not ours to touch (nor a leftover)
            subprocess.run(["ipcrm", "-m", lines[6].split()[1]], capture_output=True, timeout=10)
            for folder in lines[4].split(","):  # unix_socket_directories' first, as PostgreSQL writes it
                lock = os.path.join(folder.strip(), ".s.PGSQL.%d.lock" % int(lines[3]))
                with open(lock) as f:
                    if f.read().splitlines()[1] == pgdata:
                        os.unlink(lock[:-len(".lock")])
                        os.unlink(lock)
        except (OSError, IndexError, ValueError, subprocess.SubprocessError):
            pass
        try:
            # Nor may the watchdog's pg_ctl stop signal whatever process
            # has that pid now.
            os.unlink(os.path.join(pgdata, "postmaster.pid"))
        except OSError:
            pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()

    # ---- state ------------------------------------------------------------

    def monitor_uri(self):
        return "postgres://autoctl_node@%s:%d/pg_auto_failover?sslmode=disable" % (LOCALHOST, self.monitor_port)

    def _monitor_sql(self, sql, check=True):
        return psql("host=%s port=%d dbname=pg_auto_failover user=%s" % (LOCALHOST, self.monitor_port, SUPERUSER),
                    sql, check=check)

    def states(self):
        """{node name: (reported state, assigned state)} as the monitor sees them."""
        cp = self._monitor_sql("SELECT nodename, reportedstate, goalstate FROM pgautofailover.node", check=False)
        if cp.returncode != 0:
            return {}
        out = {}
        for line in cp.stdout.splitlines():
            name, reported, goal = line.split("|")
            out[name] = (reported, goal)
        return out

    def wait_states(self, want, timeout=60):
        """Waits until each node of `want` ({name: state}) reports and is
        assigned that state."""
        def ready():
            states = self.states()
            return all(states.get(n) == (s, s) for n, s in want.items())
        self._wait(time.monotonic() + timeout, "states %r" % want, ready)

    def primary(self):
        """The name of the node the monitor has as primary (or None)."""
        for name, (reported, goal) in self.states().items():
            if reported == goal and reported in ("single", "wait_primary", "primary"):
                return name
        return None

    def conninfo(self, dbname="postgres"):
        """The formation's libpq string: every node, read-write wanted (what
        `pg_autoctl show uri --formation default` gives, as key=value)."""
        names = sorted(self.ports)
        return ("host=%s port=%s dbname=%s user=%s target_session_attrs=read-write"
                % (",".join(LOCALHOST for _ in names), ",".join(str(self.ports[n]) for n in names),
                   dbname, SUPERUSER))

    def node_conninfo(self, name, dbname="postgres"):
        return "host=%s port=%d dbname=%s user=%s" % (LOCALHOST, self.ports[name], dbname, SUPERUSER)

    def psql(self, name, sql, check=True):
        return psql(self.node_conninfo(name), sql, check=check)

    def formation_uri(self):
        """`pg_autoctl show uri --formation default`'s answer."""
        cp = subprocess.run([autoctl_bin(), "show", "uri", "--formation", "default",
                             "--pgdata", self._pgdata("monitor")],
                            capture_output=True, text=True, env=self._env(), cwd=self.base, timeout=30,
                            stdin=subprocess.DEVNULL, **_pg_user())
        if cp.returncode != 0:
            raise PgError("pg_autoctl show uri failed: %s" % cp.stderr.strip())
        return cp.stdout.strip()

    def log_text(self, name):
        try:
            with open(os.path.join(self.base, name + ".log"), errors="replace") as f:
                return f.read()
        except (OSError, TypeError):
            return ""


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


def _start_watchdog(base):
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
        subprocess.run([sys.executable, os.path.abspath(__file__), "_watchdog", base],
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


def _running(pid):
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


def _stop_process_group(pgid, grace=15, leader=None, term=True):
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


def _watchdog(base):
    """`_watchdog BASE` (started by PgServer and AutoFailoverFormation):
    detach, wait for EOF on stdin, then stop the process groups listed in
    BASE/pgids (pg_autoctl's), the server in BASE/data and any in BASE/*/,
    and remove BASE."""
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
                _stop_process_group(int(pgid))
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
                _run_as_pg([os.path.join(PG_BIN, "pg_ctl"), "-D", data, "stop", "-m", "immediate", "-w"],
                           cwd="/", timeout=60)
            except Exception:  # noqa: BLE001 -- best effort, nobody to tell
                pass
    shutil.rmtree(base, ignore_errors=True)
    os._exit(0)


def main(argv):
    if len(argv) >= 2 and argv[0] == "_watchdog":
        _watchdog(argv[1])
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
