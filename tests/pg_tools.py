"""PostgreSQL 15's programs, run from the tests: where they are ($POGI_PG_BIN,
else Debian's /usr/lib/postgresql/15/bin), as which user (PostgreSQL refuses
to run as root: as root, its tools run as the `postgres` user, which then
owns their folders), in which temporary folder, with no PG* variable of the
caller's steering them; psql for SQL, openssl for the certificates of TLS
tests.

What pg_server (a throwaway server), pg_autofailover (a pg_auto_failover
formation) and pg_watchdog (clean-up when the test process dies) share.
"""

import os
import pwd
import subprocess
import tempfile

PG_BIN = os.environ.get("POGI_PG_BIN", "/usr/lib/postgresql/15/bin")
LOCALHOST = "127.0.0.1"
SUPERUSER = "postgres"


class PgError(Exception):
    pass


def available():
    """Whether PostgreSQL 15's server binaries are installed."""
    return os.access(os.path.join(PG_BIN, "initdb"), os.X_OK)


def psql_bin():
    own = os.path.join(PG_BIN, "psql")
    return own if os.access(own, os.X_OK) else "psql"


def pg_user():
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


def chown_to_pg_user(path):
    ids = pg_user()
    if ids:
        os.chown(path, ids["user"], ids["group"])


def clean_env():
    # No PGHOST, PGDATA, PGPORT... of the caller's may steer the tools elsewhere.
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}


def run_as_pg(args, cwd, timeout=120):
    """Runs a PostgreSQL tool as the PostgreSQL user; returns the CompletedProcess.

    cwd is a folder that user can enter: the tools refuse to run in one they
    cannot (the caller's may be root's)."""
    return subprocess.run(args, cwd=cwd, env=clean_env(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, **pg_user())


def temp_parent():
    """Where the temporary folders go: one the PostgreSQL user can reach and
    short enough for the socket's path (108 bytes at most)."""
    parent = tempfile.gettempdir()
    if len(parent) > 60 or (os.geteuid() == 0 and not os.stat(parent).st_mode & 0o001):
        parent = "/tmp"
    return parent


def openssl(*args):
    cp = subprocess.run(["openssl"] + list(args), capture_output=True, text=True, timeout=60)
    if cp.returncode != 0:
        raise PgError("openssl %s failed: %s" % (args[0], cp.stderr.strip()))


def make_certificate_authority(folder, name):
    """A self-signed certificate authority: folder/NAME.key and NAME.crt."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", os.path.join(folder, name + ".key"), "-subj", "/CN=pogi test CA " + name,
            "-out", os.path.join(folder, name + ".crt"))


def psql(conninfo, sql, check=True, timeout=60):
    """Runs SQL through psql (unaligned, tuples only, stop at the first
    error); returns its stdout without the last newline. check: raise on a
    failure (else return the CompletedProcess)."""
    cp = subprocess.run([psql_bin(), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", conninfo, "-c", sql],
                        capture_output=True, text=True, timeout=timeout, env=clean_env(),
                        stdin=subprocess.DEVNULL)
    if not check:
        return cp
    if cp.returncode != 0:
        raise PgError("psql failed (exit %d) on %r: %s" % (cp.returncode, sql, cp.stderr.strip()))
    return cp.stdout.rstrip("\n")
