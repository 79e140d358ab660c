"""Three pogi processes on one PostgreSQL schema under concurrent load from
many clients (boto3, one client per thread, spread over the processes; the
SDK's retries off, so that a retry cannot hide an error):

- a hot item: 3 processes x 8 clients doing UpdateItem ADD n :one on one
  item end with the exact total and not one error of any kind (plain writes
  to one item all succeed, as on DynamoDB: no TransactionConflictException
  without a transaction in flight);
- transfers between 5 accounts (TransactWriteItems, condition balance >=
  amount) from every process: the total never changes, in the end and in
  every snapshot an auditor reads meanwhile (TransactGetItems), and no
  balance goes below zero; a transfer is either committed or cancelled with
  a TransactionConflict or ConditionalCheckFailed reason, and how many of
  each is counted and printed (how many conflict depends on timing, so no
  number is asserted);
- streams of 4 tables (NEW_IMAGE) written through all 3 processes at once,
  an increasing counter per item key, read meanwhile through one process
  (DescribeStream, GetShardIterator TRIM_HORIZON, GetRecords to each shard's
  end, children after parents): every change exactly once, per item key in
  the counter's order, sequence numbers increasing per table.

No assertion bounds wall-clock time (CI shares two busy cores); joins have
generous time-outs only so that a hang ends. Runs against a PostgreSQL 15 of
this file's own (shared_db.py); skipped where PostgreSQL 15 is not installed.
POGI_SHARED_CLIENTS (clients per process, default 8) and POGI_SHARED_OPS
(each client's operations, default 60) set the load.
"""

import collections
import os
import random
import threading
import time
import unittest

import boto3
import botocore.exceptions
from botocore.config import Config

from shared_db import SharedDatabaseTest, error_code, needs_postgresql, run_threads, start_postgresql, stop_postgresql

CLIENTS = int(os.environ.get("POGI_SHARED_CLIENTS", "8"))  # per process
OPS = int(os.environ.get("POGI_SHARED_OPS", "60"))
JOIN_TIMEOUT = 900  # seconds: only so that a hung thread ends the test
EMPTY_PAGES = 200  # empty GetRecords pages in a row, after the writers ended, that end a stream's reading


def setUpModule():
    start_postgresql()


def tearDownModule():
    stop_postgresql()


class CountedClient:
    """A boto3 client of one pogi process with no retry at all
    (total_max_attempts=1; harness.Server.client()'s max_attempts=1 still
    allows one retry), and the count of HTTP requests it sent, to show
    that each call was one request."""

    def __init__(self, server, service="dynamodb"):
        self.client = boto3.client(service, endpoint_url=server.endpoint, region_name="us-east-1",
                                   aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                                   config=Config(retries={"total_max_attempts": 1, "mode": "standard"},
                                                 connect_timeout=10, read_timeout=120))
        self.sent = 0
        self.client.meta.events.register("before-send", self._count)

    def _count(self, **kwargs):
        self.sent += 1  # None: botocore sends the request itself


def failure(e):
    """What a failed call is called in the counts: the error code, or the
    exception's class for one with no answer (a time-out, a reset)."""
    if isinstance(e, botocore.exceptions.ClientError):
        return error_code(e) or "ClientError"
    return type(e).__name__


@needs_postgresql
class SharedLoad(SharedDatabaseTest):

    def clients_for_threads(self, count, service="dynamodb"):
        """One client per thread, thread w on process w % 3; made here, not
        in the threads (making boto3 clients at once in threads is not
        safe)."""
        return [CountedClient(self.servers[w % len(self.servers)], service) for w in range(count)]

    def test_a_hot_item_takes_every_add_from_every_process(self):
        self.create(self.clients[0], "hot")
        self.clients[1].put_item(TableName="hot", Item={"pk": {"S": "h"}, "n": {"N": "0"}})
        threads = len(self.servers) * CLIENTS
        clients = self.clients_for_threads(threads)
        failures = collections.Counter()
        lock = threading.Lock()
        start = threading.Barrier(threads, timeout=JOIN_TIMEOUT)

        def add(w):
            client = clients[w].client
            start.wait()
            for _ in range(OPS):
                try:
                    client.update_item(TableName="hot", Key={"pk": {"S": "h"}}, UpdateExpression="ADD n :one",
                                       ExpressionAttributeValues={":one": {"N": "1"}})
                except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as e:
                    # Counted, and the thread goes on: every failure is
                    # shown, then fails the test below.
                    with lock:
                        failures[failure(e)] += 1

        self.assertEqual(run_threads(add, threads, timeout=JOIN_TIMEOUT), [])
        n = int(self.clients[2].get_item(TableName="hot", Key={"pk": {"S": "h"}},
                                         ConsistentRead=True)["Item"]["n"]["N"])
        sent = sum(c.sent for c in clients)
        print("\n%d processes x %d clients x %d ADD on one item: n = %d (want %d); %d requests sent; "
              "failures: %s" % (len(self.servers), CLIENTS, OPS, n, threads * OPS, sent,
                                dict(failures) or "none"))
        self.assertEqual(dict(failures), {})
        self.assertEqual(sent, threads * OPS, "one request per call: no retry")
        self.assertEqual(n, threads * OPS)

    def test_transfers_on_overlapping_accounts_keep_the_total(self):
        self.create(self.clients[0], "bank")
        accounts, start_balance = 5, 100
        keys = [{"pk": {"S": "acct-%d" % a}} for a in range(accounts)]
        for a in range(accounts):
            self.clients[a % 3].put_item(TableName="bank", Item={"pk": {"S": "acct-%d" % a},
                                                                 "balance": {"N": str(start_balance)}})
        threads = len(self.servers) * CLIENTS
        clients = self.clients_for_threads(threads)
        counts = collections.Counter()
        other = []  # anything but a commit or a cancellation for a conflict or a condition
        audits = collections.Counter()
        bad_snapshots = []
        lock = threading.Lock()
        done = threading.Event()

        def transfer(w):
            rng = random.Random(w)
            client = clients[w].client
            for _ in range(OPS):
                src, dst = rng.sample(range(accounts), 2)
                amount = rng.randint(1, 60)
                try:
                    client.transact_write_items(TransactItems=[
                        {"Update": {"TableName": "bank", "Key": keys[src],
                                    "UpdateExpression": "SET balance = balance - :a",
                                    "ConditionExpression": "balance >= :a",
                                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
                        {"Update": {"TableName": "bank", "Key": keys[dst],
                                    "UpdateExpression": "SET balance = balance + :a",
                                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}}])
                    kind = "committed"
                except botocore.exceptions.ClientError as e:
                    reasons = [r.get("Code") for r in e.response.get("CancellationReasons", [])]
                    if error_code(e) == "TransactionCanceledException" and "TransactionConflict" in reasons:
                        kind = "TransactionConflict"
                    elif error_code(e) == "TransactionCanceledException" and "ConditionalCheckFailed" in reasons:
                        kind = "ConditionalCheckFailed"
                    else:
                        kind = "other"
                        with lock:
                            other.append("%s %s" % (failure(e), reasons))
                except botocore.exceptions.BotoCoreError as e:
                    kind = "other"
                    with lock:
                        other.append(failure(e))
                with lock:
                    counts[kind] += 1

        def audit():
            # Snapshots of every account while the transfers run: each one
            # sums to the same total, none below zero.
            try:
                while not done.is_set():
                    time.sleep(0.01)
                    try:
                        r = auditor_client.transact_get_items(
                            TransactItems=[{"Get": {"TableName": "bank", "Key": k}} for k in keys])
                    except botocore.exceptions.ClientError as e:
                        reasons = [x.get("Code") for x in e.response.get("CancellationReasons", [])]
                        if error_code(e) == "TransactionCanceledException" and "TransactionConflict" in reasons:
                            audits["TransactionConflict"] += 1
                            continue
                        raise
                    balances = [int(x["Item"]["balance"]["N"]) for x in r["Responses"]]
                    audits["read"] += 1
                    if sum(balances) != accounts * start_balance or min(balances) < 0:
                        bad_snapshots.append(balances)
            except Exception as e:  # noqa: BLE001 -- reported below
                with lock:
                    other.append("auditor: %s %r" % (failure(e), e))

        auditor_client = CountedClient(self.servers[2]).client
        auditor = threading.Thread(target=audit)
        auditor.start()
        try:
            errors = run_threads(transfer, threads, timeout=JOIN_TIMEOUT)
        finally:
            done.set()
            auditor.join(JOIN_TIMEOUT)
        items = self.clients[1].scan(TableName="bank", ConsistentRead=True)["Items"]
        balances = [int(i["balance"]["N"]) for i in items]
        print("\n%d processes x %d clients x %d transfers between %d accounts: %d committed, %d cancelled "
              "with a TransactionConflict reason, %d with ConditionalCheckFailed, %d otherwise; "
              "total %d (want %d); auditor: %d snapshots, %d cancelled by TransactionConflict, %d wrong"
              % (len(self.servers), CLIENTS, OPS, accounts, counts["committed"], counts["TransactionConflict"],
                 counts["ConditionalCheckFailed"], counts["other"], sum(balances), accounts * start_balance,
                 audits["read"], audits["TransactionConflict"], len(bad_snapshots)))
        self.assertEqual(errors, [])
        self.assertEqual(other, [])
        self.assertEqual(sum(counts.values()), threads * OPS)
        self.assertEqual(len(balances), accounts)
        self.assertEqual(sum(balances), accounts * start_balance)
        self.assertTrue(all(b >= 0 for b in balances), balances)
        self.assertEqual(bad_snapshots, [])
        self.assertGreater(counts["committed"], 0)

    def test_a_stream_reader_sees_every_change_of_four_tables_once_in_order(self):
        tables = ["feed-%d" % t for t in range(4)]
        for i, name in enumerate(tables):
            self.create(self.clients[i % 3], name,
                        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        arns = {name: self.clients[0].describe_table(TableName=name)["Table"]["LatestStreamArn"]
                for name in tables}
        writers, keys_per_table, versions = 2 * len(self.servers), 2, 10
        clients = self.clients_for_threads(writers)
        acknowledged = collections.Counter()  # table -> puts acknowledged
        failures = collections.Counter()
        errors = []
        lock = threading.Lock()
        writing = threading.Event()
        writing.set()
        give_up = threading.Event()  # set only when a reader's join timed out

        def write(w):
            # Writer w owns its keys: each one's versions are put one after
            # another, 1 to `versions`, so each key's changes have one order.
            client = clients[w].client
            for v in range(1, versions + 1):
                for name in tables:
                    for k in range(keys_per_table):
                        try:
                            client.put_item(TableName=name, Item={"pk": {"S": "w%d-k%d" % (w, k)},
                                                                  "v": {"N": str(v)}})
                        except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as e:
                            with lock:
                                failures[failure(e)] += 1
                            raise
                        with lock:
                            acknowledged[name] += 1

        seen = {name: [] for name in tables}  # table -> (shard, sequence number, event, key, v) as read

        def read(name):
            # Every shard of the table's stream, parents before children,
            # each to its end (a closed shard) or, for the open one, until
            # the writers are done and every acknowledged change is read;
            # then one more page, which must be empty.
            client = stream_clients[name]
            arn = arns[name]
            finished = set()
            waits = 0
            try:
                while not give_up.is_set():
                    shards = describe_shards(client, arn)
                    ids = {s["ShardId"] for s in shards}
                    ready = [s["ShardId"] for s in shards if s["ShardId"] not in finished
                             and (s.get("ParentShardId") is None or s["ParentShardId"] in finished
                                  or s["ParentShardId"] not in ids)]
                    if not ready:
                        # No shard yet, or a closed one's child not listed
                        # yet: look again, as a consumer does.
                        writers_done = not writing.is_set()
                        with lock:
                            want = acknowledged[name]
                        if writers_done and len(seen[name]) >= want:
                            return
                        waits += writers_done
                        if waits >= EMPTY_PAGES:
                            errors.append("%s: no shard to read (%d records read of %d)" % (name, len(seen[name]),
                                                                                        want))
                            return
                        time.sleep(0.05)
                        continue
                    shard = ready[0]
                    it = client.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                                   ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                    caught_up = False
                    empty_after_writes = 0
                    while not give_up.is_set():
                        r = client.get_records(ShardIterator=it)
                        for rec in r["Records"]:
                            d = rec["dynamodb"]
                            seen[name].append((shard, int(d["SequenceNumber"]), rec["eventName"],
                                               d["Keys"]["pk"]["S"], int(d["NewImage"]["v"]["N"])))
                        it = r.get("NextShardIterator")
                        if it is None:  # closed and read to its end
                            finished.add(shard)
                            break
                        if r["Records"]:
                            continue
                        if caught_up:
                            return  # the page after the last change is empty: done
                        # Writing first, then the count: once the writers
                        # are done, the count read after is the final one.
                        writers_done = not writing.is_set()
                        with lock:
                            want = acknowledged[name]
                        if writers_done and len(seen[name]) >= want:
                            caught_up = True  # one more page, to see nothing comes twice
                            continue
                        if writers_done:
                            # Every acknowledged change was committed before
                            # the writers ended: when pages stay empty, the
                            # records have stopped (the assertions say what
                            # is missing).
                            empty_after_writes += 1
                            if empty_after_writes >= EMPTY_PAGES:
                                return
                        time.sleep(0.05)
            except Exception as e:  # noqa: BLE001 -- reported below
                errors.append("%s: %r" % (name, e))

        stream_clients = {name: CountedClient(self.servers[0], "dynamodbstreams").client for name in tables}
        readers = [threading.Thread(target=read, args=(name,)) for name in tables]
        for t in readers:
            t.start()
        try:
            write_errors = run_threads(write, writers, timeout=JOIN_TIMEOUT)
        finally:
            writing.clear()
        for t in readers:
            t.join(JOIN_TIMEOUT)
        if any(t.is_alive() for t in readers):
            give_up.set()
            errors.append("a reader was still reading after %d s" % JOIN_TIMEOUT)
            for t in readers:
                t.join(60)
        total = sum(len(v) for v in seen.values())
        shards = {name: len({s for s, _, _, _, _ in seen[name]}) for name in tables}
        print("\n%d processes, %d writers, %d tables x %d keys per writer x %d versions: %d puts acknowledged, "
              "%d changes read through one process (shards read per table: %s); write failures: %s"
              % (len(self.servers), writers, len(tables), keys_per_table, versions, sum(acknowledged.values()),
                 total, shards, dict(failures) or "none"))
        self.assertEqual(write_errors, [])
        self.assertEqual(errors, [])
        self.assertEqual(dict(failures), {})
        want_keys = {"w%d-k%d" % (w, k) for w in range(writers) for k in range(keys_per_table)}
        for name in tables:
            sequences = [s for _, s, _, _, _ in seen[name]]
            self.assertEqual(sequences, sorted(set(sequences)), "%s: sequence numbers increase, none twice" % name)
            per_key = collections.defaultdict(list)
            for _, _, event, key, v in seen[name]:
                per_key[key].append(v)
                self.assertEqual(event, "INSERT" if v == 1 else "MODIFY", (name, key, v))
            self.assertEqual(set(per_key), want_keys, name)
            for key, vs in per_key.items():
                self.assertEqual(vs, list(range(1, versions + 1)), "%s %s: each change once, in order" % (name, key))
            self.assertEqual(len(seen[name]), acknowledged[name], name)


def describe_shards(client, arn):
    """Every shard of the stream (DescribeStream's pages)."""
    shards, start = [], None
    while True:
        kw = {"ExclusiveStartShardId": start} if start else {}
        desc = client.describe_stream(StreamArn=arn, **kw)["StreamDescription"]
        shards += desc["Shards"]
        start = desc.get("LastEvaluatedShardId")
        if not start:
            return shards


if __name__ == "__main__":
    unittest.main()
