"""The PostgreSQL backend end to end (`pogi start --storage CONN --pg-schema
NAME`), against a PostgreSQL 15 of this file's own (tests/pg_server.py),
whatever POGI_TEST_STORAGE says:

- refused starts, each in one line with exit 1: an unreachable database (fast,
  naming the cause), a schema holding tables that are not pogi's, a schema of
  a newer format; --storage with --in-memory;
- pogi makes its schema on the first start; data across restarts and kill -9,
  through a conninfo, a URI or POGI_STORAGE/POGI_PG_SCHEMA; two schemas of one
  database side by side, independent;
- PostgreSQL stopped under a write load (-m fast, -m immediate): requests in
  the gap answer 500 InternalServerError at once, never hang; once PostgreSQL
  is back pogi serves again without a restart, losing nothing acknowledged;
- snapshots (`pogi snapshot save/restore/list/rm`) inside the database.

Skipped, saying so, where PostgreSQL 15 is not installed.
kill -9 under load on PostgreSQL is test_crash_loop's (e2e_pg.test_crash_loop).
"""

import itertools
import os
import shutil
import sys
import tempfile
import threading
import time
import unittest

from harness import HERE, LOCALHOST, Server, StartError, free_port, run_pogi

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
import pg_server  # noqa: E402

INTERNAL = "InternalServerError"
PG = None  # this file's PostgreSQL (setUpModule)
# pogi's promises (docs/postgresql.md), which the time bounds below are
# twice or more of, for a busy machine:
CONNECT_TIMEOUT = 2.0  # "within 2 seconds per host": an unreachable database is refused
STATEMENT_DEADLINE = 10.0  # "a statement unanswered for 10 s" fails its request
_numbers = itertools.count(1)


def setUpModule():
    global PG
    if pg_server.available():
        PG = pg_server.PgServer().start()


def tearDownModule():
    if PG is not None:
        PG.cleanup()


need_pg = unittest.skipUnless(
    pg_server.available(), "PostgreSQL 15 is not installed (no %s/initdb): apt-get install postgresql-15"
    % pg_server.PG_BIN)


def schema(prefix):
    return "%s_%d" % (prefix, next(_numbers))


def pogi_on(name, conn=None, **kw):
    """A Server storing in schema `name` of this file's PostgreSQL."""
    return Server(storage=conn or PG.conninfo(), pg_schema=name, **kw)


def one_line(tc, stderr, what):
    """Exactly one non-empty line on stderr, no crash's trace; returns it."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    tc.assertEqual(len(lines), 1, "%s: stderr should be one line, got %r" % (what, stderr))
    for bad in ("Traceback", "terminate called", "Aborted", "what():", "core dumped", "Sanitizer"):
        tc.assertNotIn(bad, stderr, what)
    return lines[0]


def make_gsi_table(client, name):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "g", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                 "Projection": {"ProjectionType": "ALL"}}])


def scan_all(client, table, **kw):
    items, start = [], None
    while True:
        if start:
            kw["ExclusiveStartKey"] = start
        r = client.scan(TableName=table, **kw)
        items += r["Items"]
        start = r.get("LastEvaluatedKey")
        if not start:
            return items


def query_count(client, table, g):
    n, start = 0, None
    while True:
        kw = {"ExclusiveStartKey": start} if start else {}
        r = client.query(TableName=table, IndexName="by-g", KeyConditionExpression="g = :g",
                         ExpressionAttributeValues={":g": {"S": g}}, Select="COUNT", **kw)
        n += r["Count"]
        start = r.get("LastEvaluatedKey")
        if not start:
            return n


def no_retry_client(server):
    """boto3 with botocore's retries off: every 500 is seen."""
    import boto3
    from botocore.config import Config
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                        aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                        config=Config(retries={"max_attempts": 0}, connect_timeout=5, read_timeout=60))


@need_pg
class StartRefusals(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pogi-e2e-pg-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def start_args(self, *storage):
        return ("start", "--host", LOCALHOST, "--port", free_port(), "--grpc-port", free_port(),
                "--data-dir", os.path.join(self.tmp, "data")) + storage

    def assertRefusedFast(self, storage, cause, what):
        started = time.monotonic()
        cp = run_pogi(*self.start_args("--storage", storage), timeout=30)
        took = time.monotonic() - started
        self.assertEqual(cp.returncode, 1, "%s: %s" % (what, cp.stderr))
        self.assertNotIn("Ready.", cp.stdout, what)
        line = one_line(self, cp.stderr, what)
        for text in cause:
            self.assertIn(text, line, what)
        # One host: refused within CONNECT_TIMEOUT (a refused connection or
        # a missing database at once); three times it, start-up included.
        self.assertLess(took, 3 * CONNECT_TIMEOUT, "%s: refused after %.1f s" % (what, took))
        return line

    def test_unreachable_database_fails_fast_in_one_line(self):
        closed = free_port()  # nothing listens there
        self.assertRefusedFast("host=127.0.0.1 port=%d dbname=postgres user=postgres" % closed,
                               [str(closed), "Connection refused"], "conninfo, closed port")
        self.assertRefusedFast("postgresql://postgres@127.0.0.1:%d/postgres" % closed,
                               [str(closed), "Connection refused"], "URI, closed port")
        nowhere = os.path.join(PG.base, "no-such-folder")
        self.assertRefusedFast("host=%s port=5432 dbname=postgres user=postgres" % nowhere,
                               [nowhere, "No such file or directory"], "socket folder that does not exist")

    def test_missing_database_is_refused_in_one_line(self):
        self.assertRefusedFast(PG.conninfo(dbname="no_such_db"), ["no_such_db"], "missing database")

    def test_storage_and_in_memory_are_refused_together(self):
        cp = run_pogi(*self.start_args("--storage", PG.conninfo(), "--in-memory"), timeout=30)
        self.assertNotEqual(cp.returncode, 0, cp.stderr)
        line = one_line(self, cp.stderr, "--storage with --in-memory")
        self.assertIn("--in-memory", line)
        self.assertIn("--storage", line)

    def test_schema_with_a_foreign_table_is_refused(self):
        name = schema("foreign")
        PG.psql("create schema %s; create table %s.x (a int); insert into %s.x values (1)" % (name, name, name))
        server = pogi_on(name)
        self.addCleanup(server.cleanup)
        with self.assertRaises(StartError) as cm:
            server.start()
        self.assertEqual(cm.exception.returncode, 1, cm.exception.stderr)
        self.assertIn(name, one_line(self, cm.exception.stderr, "foreign schema"))
        # Nothing of it touched, nothing of pogi's added.
        self.assertEqual(PG.psql("select table_name from information_schema.tables where table_schema = '%s'"
                                 % name), "x")
        self.assertEqual(PG.psql("select a from %s.x" % name), "1")

    def test_schema_of_a_newer_format_is_refused(self):
        name = schema("newer")
        server = pogi_on(name)
        self.addCleanup(server.cleanup)
        server.start()
        make_gsi_table(server.client(), "kept")
        server.client().put_item(TableName="kept", Item={"pk": {"S": "a"}, "g": {"S": "x"}})
        self.assertEqual(server.stop(), 0, server.stderr_text())
        ours = PG.psql("select value from %s.meta where key = 'format'" % name)
        self.assertRegex(ours, r"^\d+$")
        PG.psql("update %s.meta set value = 999 where key = 'format'" % name)
        with self.assertRaises(StartError) as cm:
            server.start()
        self.assertEqual(cm.exception.returncode, 1, cm.exception.stderr)
        line = one_line(self, cm.exception.stderr, "newer format")
        self.assertIn("999", line)
        # The refusal changed nothing: the format is still 999; put back, the data is there.
        self.assertEqual(PG.psql("select value from %s.meta where key = 'format'" % name), "999")
        PG.psql("update %s.meta set value = %s where key = 'format'" % (name, ours))
        server.start()
        self.assertIn("Item", server.client().get_item(TableName="kept", Key={"pk": {"S": "a"}}))


@need_pg
class Persistence(unittest.TestCase):

    def fill(self, client, n=50):
        make_gsi_table(client, "persist")
        for i in range(n):
            client.put_item(TableName="persist", Item={"pk": {"S": "k%d" % i}, "g": {"S": "g%d" % (i % 3)},
                                                       "v": {"N": "%d.50" % i}})
        client.update_item(TableName="persist", Key={"pk": {"S": "k1"}}, UpdateExpression="ADD c :one",
                           ExpressionAttributeValues={":one": {"N": "1"}})
        client.delete_item(TableName="persist", Key={"pk": {"S": "k2"}})

    def check(self, client, n=50):
        table = client.describe_table(TableName="persist")["Table"]
        self.assertEqual(table["ItemCount"], n - 1)
        items = {i["pk"]["S"]: i for i in scan_all(client, "persist", ConsistentRead=True)}
        self.assertEqual(len(items), n - 1)
        self.assertNotIn("k2", items)
        self.assertEqual(items["k7"]["v"], {"N": "7.5"})
        self.assertEqual(items["k1"]["c"], {"N": "1"})
        self.assertEqual(sum(query_count(client, "persist", "g%d" % g) for g in range(3)), n - 1)

    def test_schema_made_on_first_start_and_data_kept(self):
        name = schema("persist")
        self.assertEqual(PG.psql("select count(*) from pg_namespace where nspname = '%s'" % name), "0")
        server = pogi_on(name)
        self.addCleanup(server.cleanup)
        server.start()
        self.assertEqual(PG.psql("select count(*) from pg_namespace where nspname = '%s'" % name), "1")
        self.assertRegex(PG.psql("select value from %s.meta where key = 'format'" % name), r"^[1-9]\d*$")
        self.fill(server.client())
        server.restart()
        self.check(server.client())
        # kill -9: nothing acknowledged lost.
        server.client().put_item(TableName="persist", Item={"pk": {"S": "last"}, "g": {"S": "g0"}})
        server.kill()
        self.assertEqual(server.returncode, -9)
        server.start()
        self.assertIn("Item", server.client().get_item(TableName="persist", Key={"pk": {"S": "last"}}))
        server.client().delete_item(TableName="persist", Key={"pk": {"S": "last"}})
        self.check(server.client())
        # The same schema through a URI over TCP: the same data.
        self.assertEqual(server.stop(), 0)
        over_tcp = pogi_on(name, conn=PG.uri())
        self.addCleanup(over_tcp.cleanup)
        over_tcp.start()
        self.check(over_tcp.client())
        self.assertFalse(os.path.exists(os.path.join(server.data_dir, "pogi.db")))

    def test_password_is_never_shown(self):
        # Trust authentication ignores the password: it only has to stay out of sight.
        secret = "hunter2-pogi-secret"
        name = schema("quiet")
        for conn in ("postgresql://postgres:%s@127.0.0.1:%d/postgres" % (secret, PG.port),
                     PG.conninfo() + " password=" + secret):
            server = pogi_on(name, conn=conn)
            self.addCleanup(server.cleanup)
            server.start()
            make_gsi_table(server.client(), "quiet-%d" % len(server.client().list_tables()["TableNames"]))
            status = server.admin("status")
            self.assertEqual(status.returncode, 0, status.stderr)
            self.assertIn(name, status.stdout + server.stderr_text())  # the schema is named
            self.assertEqual(server.stop(), 0)
            for text in (status.stdout, status.stderr, server.stderr_text()):
                self.assertNotIn(secret, text)
        closed, tmp = free_port(), tempfile.mkdtemp(prefix="pogi-e2e-pg-")
        self.addCleanup(shutil.rmtree, tmp, True)
        cp = run_pogi("start", "--host", LOCALHOST, "--port", free_port(), "--grpc-port", free_port(),
                      "--data-dir", tmp, "--storage",
                      "postgresql://postgres:%s@127.0.0.1:%d/postgres" % (secret, closed), timeout=30)
        self.assertEqual(cp.returncode, 1, cp.stderr)
        self.assertNotIn(secret, cp.stderr)

    def test_environment_names_the_database_and_schema(self):
        name = schema("by_env")

        class EnvServer(Server):
            def _storage_args(self):
                return ["--data-dir", self.data_dir]  # the storage from the environment alone

        server = EnvServer(env={"POGI_STORAGE": PG.conninfo(), "POGI_PG_SCHEMA": name})
        self.addCleanup(server.cleanup)
        server.start()
        self.fill(server.client())
        self.assertEqual(server.stop(), 0)
        self.assertEqual(PG.psql("select count(*) from pg_namespace where nspname = '%s'" % name), "1")
        flagged = pogi_on(name)
        self.addCleanup(flagged.cleanup)
        flagged.start()
        self.check(flagged.client())

    def test_default_schema_is_pogi(self):
        dbname = "default_schema_db"
        PG.psql("create database %s" % dbname)
        server = Server(storage=PG.conninfo(dbname=dbname))
        self.addCleanup(server.cleanup)
        server.start()
        make_gsi_table(server.client(), "dflt")
        self.assertEqual(server.stop(), 0)
        self.assertEqual(PG.psql("select count(*) from pg_namespace where nspname = 'pogi'", dbname=dbname), "1")

    def test_two_schemas_are_independent(self):
        a, b = pogi_on(schema("side_a")), pogi_on(schema("side_b"))
        for s in (a, b):
            self.addCleanup(s.cleanup)
            s.start()
        ca, cb = a.client(), b.client()
        for c, mine in ((ca, "a"), (cb, "b")):
            make_gsi_table(c, "same-name")
            for i in range(10):
                c.put_item(TableName="same-name", Item={"pk": {"S": "%s%d" % (mine, i)}, "g": {"S": mine}})
        make_gsi_table(ca, "only-a")
        self.assertEqual(ca.list_tables()["TableNames"], ["only-a", "same-name"])
        self.assertEqual(cb.list_tables()["TableNames"], ["same-name"])
        for c, mine in ((ca, "a"), (cb, "b")):
            keys = {i["pk"]["S"] for i in scan_all(c, "same-name")}
            self.assertEqual(keys, {"%s%d" % (mine, i) for i in range(10)})
            self.assertEqual(query_count(c, "same-name", mine), 10)
            self.assertEqual(c.describe_table(TableName="same-name")["Table"]["ItemCount"], 10)
        # Dropping everything in one leaves the other whole, across restarts too.
        cp = a.admin("reset")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(ca.list_tables()["TableNames"], [])
        b.restart()
        cb = b.client()
        self.assertEqual(len(scan_all(cb, "same-name")), 10)
        a.restart()
        self.assertEqual(a.client().list_tables()["TableNames"], [])


@need_pg
# kill -9 under a mixed write load on PostgreSQL is test_crash_loop's, run
# on PostgreSQL as e2e_pg.test_crash_loop (POGI_TEST_STORAGE=postgresql).


class PostgresOutage(unittest.TestCase):
    """PostgreSQL stops under a write load and comes back; pogi keeps running."""

    WRITERS = 4
    # "Never hangs": no answer waits longer than the statement deadline;
    # twice it. (With PostgreSQL stopped, the answers come at once.)
    MAX_LATENCY = 2 * STATEMENT_DEADLINE
    # No promised time: how long the test waits for something that takes
    # well under a second (pogi serving again, a writer's next answer)
    # before calling it stuck.
    PATIENCE = 60.0

    def tearDown(self):
        PG.start()  # whatever happened, the next test has its database

    def outage(self, mode):
        from botocore.exceptions import ClientError
        server = pogi_on(schema("outage"))
        self.addCleanup(server.cleanup)
        server.start()
        pid = server.proc.pid
        make_gsi_table(server.client(), "outage")
        lock = threading.Lock()
        acked_puts = {}  # pk -> g
        counters = {}  # worker -> [acknowledged adds, failed adds]
        events = []  # (started, answered, "ok" | 500 | "broken") of each request
        unexpected, slowest = [], [0.0]
        stop = threading.Event()

        def writer(w):
            c = no_retry_client(server)
            counters[w] = [0, 0]
            i = 0
            while not stop.is_set():
                i += 1
                pk, is_put = "w%d-%d" % (w, i), i % 3 != 0
                started = time.monotonic()
                try:
                    if is_put:
                        c.put_item(TableName="outage", Item={"pk": {"S": pk}, "g": {"S": "g%d" % (i % 4)}})
                    else:
                        c.update_item(TableName="outage", Key={"pk": {"S": "counter-%d" % w}},
                                      UpdateExpression="ADD n :one",
                                      ExpressionAttributeValues={":one": {"N": "1"}})
                    outcome = "ok"
                except ClientError as e:
                    status = e.response["ResponseMetadata"]["HTTPStatusCode"]
                    code = e.response["Error"].get("Code")
                    outcome = 500
                    if (status, code) != (500, INTERNAL):
                        with lock:
                            unexpected.append((status, code, e.response["Error"].get("Message")))
                except Exception as e:  # noqa: BLE001 -- a time-out or a cut connection
                    outcome = "broken"
                    with lock:
                        unexpected.append(repr(e))
                answered = time.monotonic()
                with lock:
                    slowest[0] = max(slowest[0], answered - started)
                    events.append((started, answered, outcome))
                    if outcome == "ok":
                        if is_put:
                            acked_puts[pk] = "g%d" % (i % 4)
                        else:
                            counters[w][0] += 1
                    elif not is_put:
                        counters[w][1] += 1
                if outcome != "ok":
                    time.sleep(0.01)  # no busy loop while the database is away

        def outcomes(started_after, answered_before=float("inf")):
            with lock:
                return [o for s, a, o in events if s > started_after and a < answered_before]

        def wait_for(what, predicate):
            """Polls predicate until true; PATIENCE seconds at most."""
            deadline = time.monotonic() + self.PATIENCE
            while not predicate():
                self.assertLess(time.monotonic(), deadline, "no %s within %.0f s" % (what, self.PATIENCE))
                time.sleep(0.05)

        threads = [threading.Thread(target=writer, args=(w,), daemon=True) for w in range(self.WRITERS)]
        for t in threads:
            t.start()
        time.sleep(0.7)
        wait_for("write acknowledged before the stop", lambda: "ok" in outcomes(0))
        PG.stop(mode)
        down_at = time.monotonic()  # stopped: every request sent from here on answers 500
        time.sleep(2.0)
        wait_for("answers while PostgreSQL is down", lambda: len(outcomes(down_at)) >= self.WRITERS)
        # A read in the gap answers 500 too, within the deadline.
        probe = no_retry_client(server)
        started = time.monotonic()
        with self.assertRaises(ClientError) as cm:
            probe.get_item(TableName="outage", Key={"pk": {"S": "w0-1"}}, ConsistentRead=True)
        self.assertEqual(cm.exception.response["ResponseMetadata"]["HTTPStatusCode"], 500)
        self.assertEqual(cm.exception.response["Error"]["Code"], INTERNAL)
        self.assertLess(time.monotonic() - started, self.MAX_LATENCY)
        up_at = time.monotonic()
        PG.start()
        # Back without a restart of pogi: a write and a read go through.
        deadline = time.monotonic() + self.PATIENCE
        while True:
            try:
                probe.put_item(TableName="outage", Item={"pk": {"S": "probe"}})
                probe.get_item(TableName="outage", Key={"pk": {"S": "probe"}}, ConsistentRead=True)
                break
            except ClientError as e:
                self.assertEqual(e.response["Error"]["Code"], INTERNAL)
                self.assertLess(time.monotonic(), deadline, "pogi did not serve again within %.0f s of "
                                "PostgreSQL's start" % self.PATIENCE)
                time.sleep(0.1)
        back_at = time.monotonic()
        time.sleep(0.7)
        wait_for("write acknowledged after PostgreSQL came back", lambda: "ok" in outcomes(back_at))
        stop.set()
        for t in threads:
            t.join(30)
            self.assertFalse(t.is_alive(), "a writer hung")
        self.assertTrue(server.alive(), server.stderr_text())
        self.assertEqual(server.proc.pid, pid)
        self.assertEqual(unexpected, [])
        self.assertLess(slowest[0], self.MAX_LATENCY)
        in_gap = outcomes(down_at, up_at)
        self.assertTrue(in_gap and set(in_gap) == {500}, "answers while PostgreSQL was down: %r" % set(in_gap))
        after = outcomes(back_at)
        self.assertIn("ok", after, "no write acknowledged after PostgreSQL came back")
        self.check(server, acked_puts, counters)
        server.restart()
        self.check(server, acked_puts, counters)
        print("\nPostgreSQL stopped -m %s under load: %d writes answered 500 in the gap, the slowest answer "
              "%.2f s, serving again %.2f s after PostgreSQL's start (then %d of %d writes answered 500); "
              "%d puts and %d adds acknowledged, losses: 0"
              % (mode, len(in_gap), slowest[0], back_at - up_at, after.count(500), len(after), len(acked_puts),
                 sum(a for a, _ in counters.values())), file=sys.stderr)

    def check(self, server, acked_puts, counters):
        """Every acknowledged write there; counters within what was sent;
        DescribeTable's count and the index agree with the items."""
        import boto3
        from botocore.config import Config
        # Retrying: a pooled connection from before the outage may still answer one 500.
        c = boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                         aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                         config=Config(retries={"mode": "standard", "max_attempts": 10}))
        items = {i["pk"]["S"]: i for i in scan_all(c, "outage", ConsistentRead=True)}
        missing = sorted(set(acked_puts) - set(items))
        self.assertEqual(missing, [], "acknowledged puts lost")
        for w, (acked, failed) in counters.items():
            got = int(items.get("counter-%d" % w, {}).get("n", {}).get("N", "0"))
            self.assertTrue(acked <= got <= acked + failed,
                            "counter %d is %d: %d adds acknowledged, %d failed" % (w, got, acked, failed))
        self.assertEqual(c.describe_table(TableName="outage")["Table"]["ItemCount"], len(items))
        for g in ("g0", "g1", "g2", "g3"):
            want = sum(1 for i in items.values() if i.get("g", {}).get("S") == g)
            self.assertEqual(query_count(c, "outage", g), want, g)

    def test_fast_stop_under_load(self):
        self.outage("fast")

    def test_immediate_stop_under_load(self):
        self.outage("immediate")


@need_pg
class Snapshots(unittest.TestCase):

    def test_save_restore_list_rm_in_the_database(self):
        server = pogi_on(schema("snap"))
        self.addCleanup(server.cleanup)
        server.start()
        c = server.client()
        make_gsi_table(c, "snap-a")
        for i in range(5):
            c.put_item(TableName="snap-a", Item={"pk": {"S": "k%d" % i}, "g": {"S": "x"}})
        cp = server.admin("snapshot", "save", "base")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        c.put_item(TableName="snap-a", Item={"pk": {"S": "after"}, "g": {"S": "x"}})
        make_gsi_table(c, "snap-b")
        cp = server.admin("snapshot", "restore", "base")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(c.list_tables()["TableNames"], ["snap-a"])
        self.assertNotIn("Item", c.get_item(TableName="snap-a", Key={"pk": {"S": "after"}}))
        self.assertEqual(c.describe_table(TableName="snap-a")["Table"]["ItemCount"], 5)
        self.assertEqual(query_count(c, "snap-a", "x"), 5)
        cp = server.admin("snapshot", "list")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("base", cp.stdout)
        # In the database, not in the data folder: there after a restart and a kill -9.
        self.assertFalse(os.path.exists(os.path.join(server.data_dir, "snapshots")))
        server.restart()
        c = server.client()
        c.put_item(TableName="snap-a", Item={"pk": {"S": "later"}, "g": {"S": "x"}})
        server.kill()
        server.start()
        c = server.client()
        self.assertIn("base", server.admin("snapshot", "list").stdout)
        cp = server.admin("snapshot", "restore", "base")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertNotIn("Item", c.get_item(TableName="snap-a", Key={"pk": {"S": "later"}}))
        self.assertEqual(query_count(c, "snap-a", "x"), 5)
        # The restored state is what a restart reopens; writes go on after it.
        server.restart()
        c = server.client()
        self.assertEqual(c.describe_table(TableName="snap-a")["Table"]["ItemCount"], 5)
        c.put_item(TableName="snap-a", Item={"pk": {"S": "k9"}, "g": {"S": "x"}})
        self.assertEqual(query_count(c, "snap-a", "x"), 6)
        cp = server.admin("snapshot", "rm", "base")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertNotIn("base", server.admin("snapshot", "list").stdout)


if __name__ == "__main__":
    unittest.main()
