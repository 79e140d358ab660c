"""A pg_auto_failover formation for pogi's failover tests: a monitor and two
nodes (`pg_autoctl`, Debian's postgresql-15-auto-failover), the monitor
promoting the secondary by itself when the primary dies, its health checks
made fast (FAST_FAILOVER). autoctl_problem() says why it cannot run here,
or None.

    f = AutoFailoverFormation().start()
    f.conninfo()          # both nodes, target_session_attrs=read-write
    f.formation_uri()     # `pg_autoctl show uri --formation default`
    f.kill_node("node1")  # SIGKILL to the node's every process
    f.wait_states({"node2": "wait_primary"})
    f.cleanup()

A plain server, or a primary and a standby promoted by hand, is pg_server's.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pg_watchdog
from pg_tools import (LOCALHOST, PG_BIN, SUPERUSER, PgError, available, chown_to_pg_user, clean_env, pg_user,
                      psql, temp_parent)
from pg_watchdog import running, stop_process_group
from ports import free_port

DEFAULT_SOCKET_DIR = "/var/run/postgresql"  # Debian's PostgreSQL's, where pg_autoctl's servers listen too


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
        self.base = tempfile.mkdtemp(prefix="pogi-paf-", dir=temp_parent())
        os.chmod(self.base, 0o755)
        chown_to_pg_user(self.base)
        self._watchdog_fd = pg_watchdog.start(self.base)
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
        env = clean_env()
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
                                stderr=subprocess.STDOUT, start_new_session=True, **pg_user())
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
        stop_process_group(proc.pid, grace=5, leader=proc, term=False)  # waits until they are gone

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
                stop_process_group(proc.pid, grace=10, leader=proc, term=False)
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
            if running(int(lines[0])):
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
                            stdin=subprocess.DEVNULL, **pg_user())
        if cp.returncode != 0:
            raise PgError("pg_autoctl show uri failed: %s" % cp.stderr.strip())
        return cp.stdout.strip()

    def log_text(self, name):
        try:
            with open(os.path.join(self.base, name + ".log"), errors="replace") as f:
                return f.read()
        except (OSError, TypeError):
            return ""
