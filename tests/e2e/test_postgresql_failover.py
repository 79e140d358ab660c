"""pogi follows a PostgreSQL failover without a restart and loses nothing
acknowledged.

A streaming-replication pair of PostgreSQL 15 (tests/pg_server.py's
replicated_pair: synchronous replication, so that a commit acknowledged by
the primary is on the standby's disk too), pogi started on a multi-host
connection string naming both (`host=A,B port=PA,PB
target_session_attrs=read-write`), a write load from several threads
(PutItem of distinct keys, UpdateItem ADD counters) and a reader (GetItem of
acknowledged keys), boto3 without retries. Then:

- the primary crashes (`pg_ctl stop -m immediate`): every request in the
  gap answers 500 InternalServerError (never another error, never a cut
  connection), none takes more than MAX_LATENCY;
- the standby is promoted (`pg_ctl promote`): pogi, still the same process,
  serves writes and reads again within RECOVERY_LIMIT, and every request
  started after that succeeds;
- every acknowledged put is there, each counter holds at least its
  acknowledged ADDs and at most those plus the ones answered 500 (a commit
  whose answer was lost may have happened), DescribeTable's ItemCount and
  the index agree with a Scan, and a reader never missed an acknowledged put;
  after a restart of pogi too.

Once over the Unix sockets of the two servers, once over TCP (127.0.0.1,
two ports).

With pg_auto_failover (`pg_autoctl`, Debian's postgresql-15-auto-failover;
tests/pg_autofailover.py's AutoFailoverFormation): a monitor and two nodes,
pogi on the formation's URI (`pg_autoctl show uri`); every process of the
primary's node is killed (SIGKILL) and the monitor promotes the secondary by
itself (its health checks made fast: pg_autofailover.FAST_FAILOVER). The
same checks, the gap being until the secondary accepts writes. Skipped, saying why, where
pg_autoctl is not installed.

Skipped, saying so, where PostgreSQL 15 is not installed, and under
POGI_TEST_STORAGE=postgresql (the file starts its own servers whatever the
storage of the other tests: CTest's e2e_pg rerun would repeat it). About 50 s.
"""

import os
import random
import signal
import sys
import threading
import time
import unittest

from harness import HERE, LOCALHOST, POSTGRESQL, Server

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
import pg_autofailover  # noqa: E402
import pg_server  # noqa: E402

INTERNAL = "InternalServerError"
TABLE = "failover"
WRITERS = 4
# Time bounds are twice pogi's documented promise (docs/postgresql.md, "No
# hang"): a verdict that does not depend on a busy machine's speed.
STATEMENT_DEADLINE = 10.0  # seconds a statement may go unanswered
CONNECT_TIMEOUT = 2.0  # seconds a new connection gives a host that does not answer
MAX_LATENCY = 2 * STATEMENT_DEADLINE  # no answer takes longer, in the gap or out of it
# A frozen primary: requests on it wait out pogi's statement deadline (10 s);
# a new connection then tries the frozen host first (libpq's
# connect_timeout, 2 s) before the standby.
FROZEN_MAX_LATENCY = 2 * (STATEMENT_DEADLINE + CONNECT_TIMEOUT)
# From the new primary's promotion to pogi's first write on it: at worst a
# request caught on the old primary (the statement deadline), then a new
# connection trying each of the two hosts (the connect timeout each).
RECOVERY_LIMIT = 2 * (STATEMENT_DEADLINE + 2 * CONNECT_TIMEOUT)
# No promised time: how long to wait for what takes well under a second (a
# load's first acknowledged write, an answer in the gap) before calling it
# stuck.
PATIENCE = 60.0

need_pg = unittest.skipUnless(
    pg_server.available(), "PostgreSQL 15 is not installed (no %s/initdb): apt-get install postgresql-15"
    % pg_server.PG_BIN)
# This file starts its own servers whatever POGI_TEST_STORAGE says: CTest's
# rerun of every e2e file on PostgreSQL (e2e_pg.*) would only repeat it.
run_once = unittest.skipIf(POSTGRESQL, "starts its own PostgreSQL servers whatever POGI_TEST_STORAGE says: "
                                       "it runs under the default storage only")


def client_of(server, **config):
    """boto3 with botocore's retries off: every 500 is seen. The read
    time-out is above every latency bound: a slow answer is measured, not cut."""
    import boto3
    from botocore.config import Config
    config = dict({"retries": {"max_attempts": 0}, "connect_timeout": 5, "read_timeout": 60}, **config)
    return boto3.client("dynamodb", endpoint_url=server.endpoint, region_name="us-east-1",
                        aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                        config=Config(**config))


def make_table(client):
    client.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "g", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                                 "Projection": {"ProjectionType": "ALL"}}])


def scan_all(client):
    items, start = [], None
    while True:
        kw = {"ExclusiveStartKey": start} if start else {}
        r = client.scan(TableName=TABLE, ConsistentRead=True, **kw)
        items += r["Items"]
        start = r.get("LastEvaluatedKey")
        if not start:
            return items


def query_count(client, g):
    n, start = 0, None
    while True:
        kw = {"ExclusiveStartKey": start} if start else {}
        r = client.query(TableName=TABLE, IndexName="by-g", KeyConditionExpression="g = :g",
                         ExpressionAttributeValues={":g": {"S": g}}, Select="COUNT", **kw)
        n += r["Count"]
        start = r.get("LastEvaluatedKey")
        if not start:
            return n


class Load:
    """WRITERS writer threads and one reader against pogi, each request's
    outcome recorded: (started, ended, kind, outcome), outcome "ok", 500
    (InternalServerError) or "other" (anything else: listed in unexpected)."""

    def __init__(self, server):
        self.server = server
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.events = []
        self.acked_puts = {}  # pk -> g
        self.acked_list = []  # the same keys, for the reader to pick from
        self.counters = {}  # writer -> [acknowledged ADDs, ADDs answered 500]
        self.unexpected = []
        self.stale_reads = []  # (pk, when): an acknowledged put a consistent read did not find
        self.threads = [threading.Thread(target=self._writer, args=(w,), daemon=True) for w in range(WRITERS)]
        self.threads.append(threading.Thread(target=self._reader, daemon=True))

    def start(self):
        for t in self.threads:
            t.start()

    def finish(self, tc):
        self.stop.set()
        for t in self.threads:
            t.join(MAX_LATENCY + 20)
            tc.assertFalse(t.is_alive(), "a client thread hung")

    def _call(self, kind, fn):
        """Runs one request; returns its outcome."""
        from botocore.exceptions import ClientError
        started = time.monotonic()
        try:
            result = fn()
            outcome = "ok"
        except ClientError as e:
            result = None
            status = e.response["ResponseMetadata"]["HTTPStatusCode"]
            code = e.response["Error"].get("Code")
            outcome = 500 if (status, code) == (500, INTERNAL) else "other"
            if outcome == "other":
                with self.lock:
                    self.unexpected.append((kind, status, code, e.response["Error"].get("Message")))
        except Exception as e:  # noqa: BLE001 -- a time-out, a cut or refused connection
            result, outcome = None, "other"
            with self.lock:
                self.unexpected.append((kind, repr(e)))
        with self.lock:
            self.events.append((started, time.monotonic(), kind, outcome))
        if outcome != "ok":
            time.sleep(0.01)  # no busy loop while the database is away
        return outcome, result

    def _writer(self, w):
        c = client_of(self.server)
        self.counters[w] = [0, 0]
        i = 0
        while not self.stop.is_set():
            i += 1
            if i % 3:
                pk, g = "w%d-%d" % (w, i), "g%d" % (i % 4)
                outcome, _ = self._call("put", lambda: c.put_item(
                    TableName=TABLE, Item={"pk": {"S": pk}, "g": {"S": g}, "n": {"N": str(i)}}))
                if outcome == "ok":
                    with self.lock:
                        self.acked_puts[pk] = g
                        self.acked_list.append(pk)
            else:
                outcome, _ = self._call("add", lambda: c.update_item(
                    TableName=TABLE, Key={"pk": {"S": "counter-%d" % w}}, UpdateExpression="ADD n :one",
                    ExpressionAttributeValues={":one": {"N": "1"}}))
                with self.lock:
                    self.counters[w][0 if outcome == "ok" else 1] += 1

    def _reader(self):
        c = client_of(self.server)
        rng = random.Random()
        while not self.stop.is_set():
            with self.lock:
                pk = rng.choice(self.acked_list) if self.acked_list else None
            if pk is None:
                time.sleep(0.01)
                continue
            outcome, r = self._call("get", lambda: c.get_item(TableName=TABLE, Key={"pk": {"S": pk}},
                                                              ConsistentRead=True))
            if outcome == "ok" and "Item" not in r:
                with self.lock:
                    self.stale_reads.append((pk, time.monotonic()))

    def outcomes(self, started_after, ended_before=float("inf")):
        with self.lock:
            return [o for s, e, _, o in self.events if s > started_after and e < ended_before]

    def slowest(self):
        with self.lock:
            return max(e - s for s, e, _, _ in self.events)

    def wait_for(self, tc, what, predicate):
        """Polls predicate(self) until true, PATIENCE seconds at most: waits
        for an event instead of sleeping a time a busy machine may outrun."""
        deadline = time.monotonic() + PATIENCE
        while not predicate(self):
            tc.assertLess(time.monotonic(), deadline, "no %s within %.0f s" % (what, PATIENCE))
            time.sleep(0.05)


def start_under_load(tc, storage, schema):
    """pogi on `storage`, a table made, and the write load running for a
    second with something acknowledged: (server, its pid, the load)."""
    server = Server(storage=storage, pg_schema=schema)
    tc.addCleanup(server.cleanup)
    server.start()
    make_table(client_of(server))
    load = Load(server)
    load.start()
    time.sleep(1.0)
    load.wait_for(tc, "write acknowledged before the failover", lambda ld: "ok" in ld.outcomes(0))
    return server, server.proc.pid, load


def wait_serving(tc, server, limit, what):
    """Polls pogi with a put and a consistent get until both succeed; only
    500s allowed meanwhile. Returns the time of that success."""
    from botocore.exceptions import ClientError
    probe = client_of(server)
    started = time.monotonic()
    n = 0
    while True:
        n += 1
        try:
            probe.put_item(TableName=TABLE, Item={"pk": {"S": "probe-%d" % n}, "g": {"S": "probe"}})
            got = probe.get_item(TableName=TABLE, Key={"pk": {"S": "probe-%d" % n}}, ConsistentRead=True)
            tc.assertIn("Item", got, "a probe put acknowledged, then not found")
            return time.monotonic()
        except ClientError as e:
            tc.assertEqual(e.response["Error"]["Code"], INTERNAL, e.response["Error"])
            tc.assertLess(time.monotonic() - started, limit,
                          "pogi did not serve again within %.0f s of %s; its stderr: %s"
                          % (limit, what, server.stderr_text()[-2000:]))
            time.sleep(0.05)


def check_data(tc, server, load):
    """Every acknowledged put there, counters within what was sent,
    DescribeTable's count and the index equal to a Scan's. Returns (the
    items, how many ADDs answered 500 had happened all the same)."""
    c = client_of(server)
    items = {i["pk"]["S"]: i for i in scan_all(c)}
    missing = sorted(set(load.acked_puts) - set(items))
    tc.assertEqual(missing, [], "%d acknowledged puts lost (of %d)" % (len(missing), len(load.acked_puts)))
    for pk, g in load.acked_puts.items():
        tc.assertEqual(items[pk]["g"]["S"], g, pk)
    applied_anyway = 0
    for w, (acked, failed) in load.counters.items():
        got = int(items.get("counter-%d" % w, {}).get("n", {}).get("N", "0"))
        tc.assertTrue(acked <= got <= acked + failed,
                      "counter %d is %d: %d ADDs acknowledged, %d answered 500" % (w, got, acked, failed))
        applied_anyway += got - acked
    tc.assertEqual(c.describe_table(TableName=TABLE)["Table"]["ItemCount"], len(items), "ItemCount against a Scan")
    groups = {i.get("g", {}).get("S") for i in items.values()} - {None}
    for g in sorted(groups):
        want = sum(1 for i in items.values() if i.get("g", {}).get("S") == g)
        tc.assertEqual(query_count(c, g), want, "index entries of g=%s" % g)
    return items, applied_anyway


def tally(load, items, applied_anyway):
    """The summary's counts of a load."""
    acked_adds = sum(a for a, _ in load.counters.values())
    failed_adds = sum(f for _, f in load.counters.values())
    return ("%d puts and %d ADDs acknowledged, %d ADDs answered 500 (%d of them applied all the same), %d items"
            % (len(load.acked_puts), acked_adds, failed_adds, applied_anyway, len(items)))


def children_of(pid):
    """The processes whose parent is `pid` (a postmaster's backends)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return out


def pogi_sessions(pg):
    """pogi's connections to server pg (its application_name)."""
    return int(pg.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pogi'"))


@need_pg
@run_once
class ManualFailover(unittest.TestCase):
    """The primary crashes, the standby is promoted by hand (pg_ctl promote),
    as an operator or a failover tool does."""

    def failover(self, over_tcp):
        primary, standby = pg_server.replicated_pair(synchronous=True)
        self.addCleanup(primary.cleanup, background=True)
        self.addCleanup(standby.cleanup, background=True)
        if over_tcp:
            hosts = "%s,%s" % (LOCALHOST, LOCALHOST)
        else:
            hosts = "%s,%s" % (primary.socket_dir, standby.socket_dir)
        conn = ("host=%s port=%d,%d dbname=postgres user=postgres target_session_attrs=read-write"
                % (hosts, primary.port, standby.port))
        server, pid, load = start_under_load(self, conn, "failover")
        self.assertGreaterEqual(pogi_sessions(primary), 1)

        primary.kill()  # pg_ctl stop -m immediate: a crash (it returns once every backend is gone)
        down_at = time.monotonic()
        time.sleep(1.5)
        load.wait_for(self, "answer in the gap", lambda ld: ld.outcomes(down_at))
        promote_at = time.monotonic()
        standby.promote()
        promoted_at = time.monotonic()
        back_at = wait_serving(self, server, RECOVERY_LIMIT, "the standby's promotion")
        time.sleep(1.0)
        load.wait_for(self, "write acknowledged after pogi served again", lambda ld: "ok" in ld.outcomes(back_at))
        load.finish(self)

        self.assertTrue(server.alive(), server.stderr_text())
        self.assertEqual(server.proc.pid, pid, "pogi restarted")
        self.assertEqual(load.unexpected, [], "answers other than 200 or 500 InternalServerError")
        self.assertLess(load.slowest(), MAX_LATENCY)
        # Sent while the primary was down and the standby read-only: 500s
        # only.
        in_gap = load.outcomes(down_at, promote_at)
        self.assertTrue(in_gap, "no request answered in the gap")
        self.assertEqual(set(in_gap), {500}, "answers while no primary was up: %r" % set(in_gap))
        # Once pogi serves again, every request succeeds.
        after = load.outcomes(back_at)
        self.assertIn("ok", after)
        self.assertEqual(after.count(500), 0, "%d of %d requests started after pogi served again answered 500"
                         % (after.count(500), len(after)))
        self.assertEqual(load.stale_reads, [], "consistent reads that missed an acknowledged put")
        self.assertGreaterEqual(pogi_sessions(standby), 1, "pogi is not connected to the new primary")
        items, applied_anyway = check_data(self, server, load)
        # A restart finds the same, on the new primary.
        server.restart()
        check_data(self, server, load)
        print("\nPostgreSQL failover (%s, manual promotion): %d requests answered 500 in the gap, the slowest "
              "answer %.2f s, pogi serving %.2f s after the promotion (%d requests after that, 0 answered 500); "
              "%s; losses: 0"
              % ("TCP" if over_tcp else "Unix sockets", len(in_gap), load.slowest(), back_at - promoted_at,
                 len(after), tally(load, items, applied_anyway)), file=sys.stderr)

    def test_failover_over_unix_sockets(self):
        self.failover(over_tcp=False)

    def test_frozen_primary_is_given_up(self):
        """The primary stops answering without closing anything (SIGSTOP on
        all its processes: a stuck VM, a stalled disk) and the standby is
        promoted: what waits on the frozen server fails within pogi's
        statement deadline (10 s), and pogi moves to the new primary by
        itself."""
        primary, standby = pg_server.replicated_pair(synchronous=True)
        self.addCleanup(primary.cleanup, background=True)
        self.addCleanup(standby.cleanup, background=True)
        conn = ("host=%s,%s port=%d,%d dbname=postgres user=postgres target_session_attrs=read-write"
                % (LOCALHOST, LOCALHOST, primary.port, standby.port))
        server, _, load = start_under_load(self, conn, "frozen")
        with open(os.path.join(primary.data_dir, "postmaster.pid")) as f:
            postmaster = int(f.readline())
        frozen = [postmaster] + children_of(postmaster)

        def thaw_and_stop():
            for pid in frozen:
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
            primary.kill()  # the old primary must not come back as a second primary
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        self.addCleanup(thaw_and_stop)
        time.sleep(1.0)
        standby.promote()
        promoted_at = time.monotonic()
        back_at = wait_serving(self, server, RECOVERY_LIMIT, "the standby's promotion (primary frozen)")
        time.sleep(1.0)
        load.finish(self)
        self.assertTrue(server.alive(), server.stderr_text())
        self.assertEqual(load.unexpected, [], "answers other than 200 or 500 InternalServerError")
        self.assertLess(load.slowest(), FROZEN_MAX_LATENCY)
        self.assertGreaterEqual(pogi_sessions(standby), 1, "pogi is not connected to the new primary")
        self.assertEqual(load.stale_reads, [], "consistent reads that missed an acknowledged put")
        thaw_and_stop()
        items, applied_anyway = check_data(self, server, load)
        print("\nPostgreSQL primary frozen, standby promoted: the slowest answer %.2f s, pogi serving %.2f s "
              "after the promotion; %s; losses: 0"
              % (load.slowest(), back_at - promoted_at, tally(load, items, applied_anyway)), file=sys.stderr)

    def test_failover_over_tcp(self):
        self.failover(over_tcp=True)


AUTOCTL_PROBLEM = pg_autofailover.autoctl_problem()
need_autoctl = unittest.skipIf(AUTOCTL_PROBLEM, AUTOCTL_PROBLEM)


@need_pg
@need_autoctl
@run_once
class AutoFailover(unittest.TestCase):
    """pg_auto_failover: the monitor notices the primary's death and
    promotes the secondary by itself; pogi follows through the formation's
    URI (`pg_autoctl show uri`)."""

    # Seconds from the kill: the monitor's failover as FAST_FAILOVER sets it
    # (unhealthy after 2 s without answer to checks every second, then the
    # promotion 3 s after the demote order: about 8 s), then pogi's own
    # promise as in ManualFailover's RECOVERY_LIMIT; twice both.
    MONITOR_FAILOVER = 8.0
    RECOVERY_LIMIT = 2 * (MONITOR_FAILOVER + STATEMENT_DEADLINE + 2 * CONNECT_TIMEOUT)

    def test_monitor_fails_over_under_load(self):
        formation = pg_autofailover.AutoFailoverFormation(nodes=2)
        self.addCleanup(formation.cleanup)
        formation.start()
        self.assertEqual(formation.primary(), "node1")
        self.assertIn("ANY 1", formation.psql("node1", "SHOW synchronous_standby_names"))
        # The formation's own URI, with the user pogi connects as.
        uri = formation.formation_uri()
        self.assertIn("target_session_attrs=read-write", uri)
        server, pid, load = start_under_load(self, uri.replace("postgres://", "postgres://postgres@", 1),
                                             "failover")

        # When node2 accepts writes: promoted, and out of pg_auto_failover's
        # read-only fence (default_transaction_read_only while the monitor
        # waits for the old primary's demotion). fenced_until: when the last
        # look that found it not writable began; it was not writable before
        # then (it does not go back), so a request answered before then had
        # no primary to go to.
        writable_at = []
        fenced_until = [None]

        def watch_node2():
            deadline = time.monotonic() + self.RECOVERY_LIMIT + 10
            while time.monotonic() < deadline:
                looked_at = time.monotonic()
                cp = formation.psql("node2", "SELECT pg_is_in_recovery(), "
                                    "current_setting('default_transaction_read_only')", check=False)
                if cp.returncode == 0 and cp.stdout.strip() == "f|off":
                    writable_at.append(time.monotonic())
                    return
                if cp.returncode == 0:
                    fenced_until[0] = looked_at
                time.sleep(0.05)

        watcher = threading.Thread(target=watch_node2, daemon=True)
        kill_at = time.monotonic()
        formation.kill_node("node1")  # its keeper, PostgreSQL and backends: SIGKILL
        down_at = time.monotonic()
        watcher.start()
        back_at = wait_serving(self, server, self.RECOVERY_LIMIT, "node1's death (the monitor's failover)")
        watcher.join(self.RECOVERY_LIMIT + 15)
        time.sleep(1.0)
        load.wait_for(self, "write acknowledged after pogi served again", lambda ld: "ok" in ld.outcomes(back_at))
        load.finish(self)

        self.assertTrue(server.alive(), server.stderr_text())
        self.assertEqual(server.proc.pid, pid, "pogi restarted")
        self.assertEqual(formation.primary(), "node2", formation.states())
        self.assertTrue(writable_at, "node2 never accepted writes")
        self.assertEqual(load.unexpected, [], "answers other than 200 or 500 InternalServerError")
        self.assertLess(load.slowest(), MAX_LATENCY)
        # Sent after the kill and answered while node2 was still fenced:
        # 500s only. (writable_at, when the watcher saw node2 writable, may
        # be late by a poll and a psql start: pogi may be there first.)
        self.assertIsNotNone(fenced_until[0], "the watcher never found node2 fenced")
        in_gap = load.outcomes(down_at, fenced_until[0])
        self.assertTrue(in_gap, "no request answered in the gap")
        first_oks = sorted(round(e - writable_at[0], 3) for s, e, _, o in load.events if o == "ok" and s > down_at)
        self.assertEqual(set(in_gap), {500}, "answers while no primary was up: %r; the first successes, in seconds "
                         "from node2's writable: %r" % (set(in_gap), first_oks[:5]))
        after = load.outcomes(back_at)
        self.assertIn("ok", after)
        self.assertEqual(after.count(500), 0, "%d of %d requests started after pogi served again answered 500"
                         % (after.count(500), len(after)))
        self.assertEqual(load.stale_reads, [], "consistent reads that missed an acknowledged put")
        self.assertGreaterEqual(int(formation.psql(
            "node2", "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pogi'")), 1)
        items, applied_anyway = check_data(self, server, load)
        server.restart()
        check_data(self, server, load)
        print("\nPostgreSQL failover (pg_auto_failover, the monitor promotes): node1 killed; node2 seen writable "
              "after %.2f s, pogi serving after %.2f s; %d requests answered 500 in the gap, the slowest answer "
              "%.2f s (%d requests after that, 0 answered 500); %s; losses: 0"
              % (writable_at[0] - kill_at, back_at - kill_at, len(in_gap), load.slowest(), len(after),
                 tally(load, items, applied_anyway)), file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
