"""Several pogi processes on one PostgreSQL schema, for the
test_postgresql_shared*.py files: each file's own PostgreSQL 15
(tests/pg_server.py; its tests are skipped where that is not installed), and
a TestCase base that starts PROCESSES pogi processes on one new schema."""

import itertools
import os
import sys
import threading
import unittest

from harness import HERE, Server

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
import pg_server  # noqa: E402

PG = None  # the running file's PostgreSQL: start_postgresql()
_numbers = itertools.count(1)

needs_postgresql = unittest.skipUnless(
    pg_server.available(), "PostgreSQL 15 is not installed (no %s/initdb)" % pg_server.PG_BIN)


def start_postgresql():
    """For a test file's setUpModule."""
    global PG
    if pg_server.available():
        PG = pg_server.PgServer().start()


def stop_postgresql():
    """For a test file's tearDownModule."""
    if PG is not None:
        PG.cleanup()


def error_code(e):
    return e.response.get("Error", {}).get("Code", "")


def run_threads(fn, count, timeout=300):
    """Runs fn(0) ... fn(count - 1) at once, each in a thread of its own;
    returns what they raised, as reprs."""
    errors = []

    def run(w):
        try:
            fn(w)
        except Exception as e:  # noqa: BLE001 -- returned
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(w,)) for w in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    return errors


class SharedDatabaseTest(unittest.TestCase):
    """PROCESSES pogi processes on one new schema: self.servers and a boto3
    client of each in self.clients. EXTRA_ARGS go to each `pogi start`."""

    PROCESSES = 3
    EXTRA_ARGS = ()

    def setUp(self):
        self.schema = "shared_%d" % next(_numbers)
        self.servers = [self.start_process() for _ in range(self.PROCESSES)]
        self.clients = [s.client() for s in self.servers]

    def start_process(self, *extra_args):
        """One more pogi process on this test's schema."""
        s = Server(storage=PG.conninfo(), pg_schema=self.schema, extra_args=list(self.EXTRA_ARGS) + list(extra_args))
        self.addCleanup(s.cleanup)
        self.addCleanup(self.report_if_exited, s)  # cleanups run last first: before cleanup's kill
        return s.start()

    @staticmethod
    def report_if_exited(server):
        """A process that ended by itself during a test (a test that kills
        one on purpose aside) shows why: its exit code and stderr go to the
        test's output, which CTest prints on a failure."""
        if server.proc is not None and server.proc.poll() is not None:
            sys.stderr.write("pogi on port %s ended during the test with %s; its stderr:\n%s\n"
                             % (server.port, server.proc.returncode, server.stderr_text()))

    def sql(self, query):
        """Runs SQL in this test's schema; its output."""
        return PG.psql("SET search_path TO %s; %s" % (self.schema, query))

    def create(self, client, name, keys=(("pk", "S"),), **kw):
        client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in keys],
                            KeySchema=[{"AttributeName": keys[0][0], "KeyType": "HASH"}], **kw)
