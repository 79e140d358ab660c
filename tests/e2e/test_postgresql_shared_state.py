"""What several pogi processes on one PostgreSQL schema share beside the
tables (see test_postgresql_shared.py for tables, counters and
transactions):

- one clock: set, advanced, frozen or resumed through any process, every
  other reads the same time at its next request, a TTL deletion follows it,
  and a process started later goes on with it;
- ClientRequestToken: the same TransactWriteItems token through two
  processes runs once (the second gets the first answer), through three at
  once too; a different request under it is refused;
- a stream reader following shard lineage while three processes write and
  shards roll over through each: every committed change exactly once, in
  per-item order, with increasing sequence numbers.

Runs against a PostgreSQL 15 of this file's own (shared_db.py); skipped
where PostgreSQL 15 is not installed."""

import calendar
import threading
import unittest
import time

import boto3
import botocore.exceptions
from botocore.config import Config

from shared_db import SharedDatabaseTest, error_code, needs_postgresql, start_postgresql, stop_postgresql

T0 = calendar.timegm((2031, 1, 1, 0, 0, 0))  # 2031-01-01T00:00:00Z


def setUpModule():
    start_postgresql()


def tearDownModule():
    stop_postgresql()


def streams_client(server):
    return boto3.client("dynamodbstreams", endpoint_url=server.endpoint, region_name="us-east-1",
                        aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                        config=Config(retries={"max_attempts": 1}))


@needs_postgresql
class SharedState(SharedDatabaseTest):

    def clock(self, server, *args):
        cp = server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return cp.stdout.strip()

    def test_one_clock_for_every_process(self):
        a, b, c = self.servers
        self.assertEqual(self.clock(a, "set", "2031-01-01T00:00:00Z")[:4], "2031")
        self.assertTrue(self.clock(b, "freeze").endswith("(frozen)"))
        # Frozen through b: every process stands at the same instant.
        frozen = self.clock(b)
        self.assertTrue(frozen.startswith("2031-01-01T00:00:0") and frozen.endswith("(frozen)"), frozen)
        self.assertEqual(self.clock(a), frozen)
        self.assertEqual(self.clock(c), frozen)
        self.clock(c, "set", "2031-01-01T00:00:00Z")
        self.assertEqual(self.clock(a), "2031-01-01T00:00:00.000Z (frozen)")

        # What the data sees: a table created through b is dated by it, and
        # an item's TTL expires when the clock passes it through c.
        ca, cb, cc = self.clients
        self.create(cb, "ttl")
        created = ca.describe_table(TableName="ttl")["Table"]["CreationDateTime"]
        self.assertEqual(calendar.timegm(created.utctimetuple()), T0)
        ca.update_time_to_live(TableName="ttl", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        cb.put_item(TableName="ttl", Item={"pk": {"S": "soon"}, "exp": {"N": str(T0 + 1800)}})
        cb.put_item(TableName="ttl", Item={"pk": {"S": "later"}, "exp": {"N": str(T0 + 7200)}})
        self.assertEqual(self.clock(a, "advance", "1h"), "2031-01-01T01:00:00.000Z (frozen)")
        self.assertEqual(self.clock(c), "2031-01-01T01:00:00.000Z (frozen)")
        keys = sorted(i["pk"]["S"] for i in cc.scan(TableName="ttl", ConsistentRead=True)["Items"])
        self.assertEqual(keys, ["later"])

        # A process started later goes on with the shared clock, and moves
        # it for the others too.
        d = self.start_process()
        self.assertEqual(self.clock(d), "2031-01-01T01:00:00.000Z (frozen)")
        self.clock(d, "resume")
        running = self.clock(b)
        self.assertTrue(running.startswith("2031-01-01T01:00:") and "frozen" not in running, running)

    def test_a_request_token_runs_once_across_processes(self):
        ca, cb, cc = self.clients
        self.create(ca, "acct")
        ca.put_item(TableName="acct", Item={"pk": {"S": "a"}, "n": {"N": "0"}})

        def add(client, token, amount="1"):
            item = {"Update": {"TableName": "acct", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "ADD n :v",
                               "ExpressionAttributeValues": {":v": {"N": amount}}}}
            return client.transact_write_items(ClientRequestToken=token, ReturnConsumedCapacity="TOTAL",
                                               TransactItems=[item])

        def count():
            return int(cc.get_item(TableName="acct", Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]["n"]["N"])

        first = add(ca, "tok-1")
        again = add(cb, "tok-1")  # another process: the first answer, no second write
        self.assertEqual(count(), 1)
        self.assertEqual(again["ConsumedCapacity"], first["ConsumedCapacity"])
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            add(cc, "tok-1", amount="5")
        self.assertEqual(error_code(e.exception), "IdempotentParameterMismatchException")
        self.assertEqual(count(), 1)

        # Three processes at once, each with the same new token: it runs once.
        for round_ in range(5):
            token = "race-%d" % round_
            results = []
            barrier = threading.Barrier(3)

            def race(client):
                barrier.wait()
                try:
                    add(client, token)
                    results.append("ok")
                except botocore.exceptions.ClientError as e:
                    results.append(error_code(e))

            threads = [threading.Thread(target=race, args=(c,)) for c in self.clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            self.assertEqual(count(), 2 + round_, results)
            self.assertEqual(results, ["ok"] * 3, "a later one waits for the first and gets its answer")

    def test_a_stream_reader_follows_lineage_while_three_processes_write(self):
        ca = self.clients[0]
        self.create(ca, "feed", StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        arn = ca.describe_table(TableName="feed")["Table"]["LatestStreamArn"]
        writers_per_process, keys_per_writer, versions = 2, 4, 15
        acknowledged = {}  # key -> last version acknowledged
        lock = threading.Lock()
        errors = []
        conflicts = [0]

        def write(w):
            client = self.servers[w % 3].client()
            try:
                for v in range(1, versions + 1):
                    for k in range(keys_per_writer):
                        key = "w%d-k%d" % (w, k)
                        while True:
                            try:
                                client.put_item(TableName="feed", Item={"pk": {"S": key}, "v": {"N": str(v)}})
                                break
                            except botocore.exceptions.ClientError as e:
                                # Not written: a conflict pogi's own retries
                                # did not get past. The client tries again.
                                if error_code(e) != "TransactionConflictException":
                                    raise
                                with lock:
                                    conflicts[0] += 1
                        with lock:
                            acknowledged[key] = v
            except Exception as e:  # noqa: BLE001 -- reported below
                errors.append(repr(e))

        def roll_over():
            # Shards close through every process in turn.
            for i in range(6):
                time.sleep(0.3)
                cp = self.servers[i % 3].admin("close-shard", "feed")
                if cp.returncode != 0:
                    errors.append(cp.stderr)

        seen = []  # (sequence number, key, version) in the order read
        writing = threading.Event()
        writing.set()

        def read():
            # A KCL-style consumer: each shard to its end, then its child;
            # each call through the next process.
            readers = [streams_client(s) for s in self.servers]
            calls = 0
            try:
                shards = readers[0].describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
                shard = shards[0]["ShardId"]
                it = readers[0].get_shard_iterator(StreamArn=arn, ShardId=shard,
                                                   ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                deadline = time.time() + 120
                while time.time() < deadline:
                    calls += 1
                    r = readers[calls % 3].get_records(ShardIterator=it)
                    for rec in r["Records"]:
                        d = rec["dynamodb"]
                        seen.append((int(d["SequenceNumber"]), d["Keys"]["pk"]["S"], int(d["NewImage"]["v"]["N"])))
                    it = r.get("NextShardIterator")
                    if it is None:
                        desc = readers[calls % 3].describe_stream(StreamArn=arn)["StreamDescription"]
                        children = [s["ShardId"] for s in desc["Shards"] if s.get("ParentShardId") == shard]
                        if len(children) != 1:
                            errors.append("shard %s has children %s" % (shard, children))
                            return
                        shard = children[0]
                        it = readers[calls % 3].get_shard_iterator(
                            StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                    elif not r["Records"]:
                        with lock:
                            total = sum(acknowledged.values())
                        if not writing.is_set() and len(seen) >= total:
                            return
                        time.sleep(0.02)
                errors.append("the reader did not catch up within 120 s")
            except Exception as e:  # noqa: BLE001 -- reported below
                errors.append(repr(e))

        reader = threading.Thread(target=read)
        reader.start()
        threads = [threading.Thread(target=write, args=(w,)) for w in range(3 * writers_per_process)]
        threads.append(threading.Thread(target=roll_over))
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        writing.clear()
        reader.join(180)
        self.assertEqual(errors, [])
        shards = streams_client(self.servers[1]).describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        print("\n3 processes, %d writers: %d changes read in order over %d shards; %d TransactionConflict "
              "retried by the clients" % (3 * writers_per_process, len(seen), len(shards), conflicts[0]))
        self.assertEqual(len(shards), 7, "one roll-over per close, not one per process")
        sequences = [s for s, _, _ in seen]
        self.assertEqual(sequences, sorted(set(sequences)), "increasing, none twice")
        per_key = {}
        for _, key, v in seen:
            per_key.setdefault(key, []).append(v)
        self.assertEqual(set(per_key), set(acknowledged))
        for key, vs in per_key.items():
            self.assertEqual(vs, list(range(1, versions + 1)), key)


@needs_postgresql
class SharedTransientStatuses(SharedDatabaseTest):
    """Transient statuses (--transient-delay) are kept in the database: what
    one process begins every other shows, and the clock moved through any
    of them ends it for all."""

    PROCESSES = 2
    EXTRA_ARGS = ("--transient-delay", "10s", "--clock-frozen")

    def status(self, client, name):
        return client.describe_table(TableName=name)["Table"]["TableStatus"]

    def advance(self, server, duration):
        cp = server.admin("clock", "advance", duration)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def test_what_one_process_begins_the_other_shows_and_ends(self):
        a, b = self.clients
        self.create(a, "shared-transient")
        self.assertEqual(self.status(b, "shared-transient"), "CREATING")
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            b.put_item(TableName="shared-transient", Item={"pk": {"S": "k"}})
        self.assertEqual(error_code(cm.exception), "ResourceNotFoundException")
        # The clock moved through the second process ends it in the first.
        self.advance(self.servers[1], "10s")
        self.assertEqual(self.status(a, "shared-transient"), "ACTIVE")
        b.put_item(TableName="shared-transient", Item={"pk": {"S": "k"}})
        self.assertEqual(self.status(b, "shared-transient"), "ACTIVE")
        b.delete_table(TableName="shared-transient")
        self.assertEqual(self.status(a, "shared-transient"), "DELETING")
        self.advance(self.servers[0], "10s")
        for client in (b, a):
            with self.assertRaises(botocore.exceptions.ClientError) as cm:
                client.describe_table(TableName="shared-transient")
            self.assertEqual(error_code(cm.exception), "ResourceNotFoundException")
        self.assertEqual(self.sql("SELECT count(*) FROM catalog").strip(), "0")


if __name__ == "__main__":
    unittest.main()
