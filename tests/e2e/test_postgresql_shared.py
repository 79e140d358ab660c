"""Several pogi processes on one PostgreSQL schema (`pogi start --storage
CONN --pg-schema S` twice or three times), requests spread over all of them
and over both doors (HTTP and gRPC):

- a table created through one process is there for the others at their next
  request; one deleted through one is gone for the others;
- counters: writers on every process add to one item (ADD, both doors), and
  conditional increments (read, then SET n = :new only if n = :old, again on
  ConditionalCheckFailed) through every process: the count is exact;
- a bank-transfer invariant under TransactWriteItems from every process: the
  total never changes, no account goes below zero;
- two processes creating the same table at once: one creates it, the other
  gets ResourceInUseException;
- puts racing through every process: each stored item is whole.

The conflicts the clients saw (ConditionalCheckFailed, TransactionCanceled
with TransactionConflict, TransactionConflictException) are counted and
printed. Runs against a PostgreSQL 15 of this file's own (shared_db.py);
skipped where PostgreSQL 15 is not installed.
POGI_SHARED_WRITERS and POGI_SHARED_OPS set the writer threads and each
one's operations of the counter tests (default 8 and 60).
"""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import os
import threading
import unittest

import botocore.exceptions
import grpc
from grpc_client import pb

from shared_db import (SharedDatabaseTest, error_code, needs_postgresql, run_threads, start_postgresql,
                       stop_postgresql)

WRITERS = int(os.environ.get("POGI_SHARED_WRITERS", "8"))
OPS = int(os.environ.get("POGI_SHARED_OPS", "60"))


def setUpModule():
    start_postgresql()


def tearDownModule():
    stop_postgresql()


@needs_postgresql
class SharedDatabase(SharedDatabaseTest):

    def test_a_table_made_through_one_process_is_at_once_in_the_others(self):
        a, b, c = self.clients
        for i in range(5):
            name = "made-%d" % i
            self.create(a, name)
            b.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"N": str(i)}})
            self.assertEqual(c.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]["v"],
                             {"N": str(i)})
            self.assertIn(name, c.list_tables()["TableNames"])
        # An index added through one process is queried through another.
        a.update_table(TableName="made-0",
                       AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                       GlobalSecondaryIndexUpdates=[{"Create": {
                           "IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "ALL"}}}])
        b.put_item(TableName="made-0", Item={"pk": {"S": "x"}, "g": {"S": "G"}})
        r = c.query(TableName="made-0", IndexName="by-g", KeyConditionExpression="g = :g",
                    ExpressionAttributeValues={":g": {"S": "G"}})
        self.assertEqual(r["Count"], 1)
        # Deleted through one: gone for the others.
        b.delete_table(TableName="made-1")
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            c.put_item(TableName="made-1", Item={"pk": {"S": "k"}})
        self.assertEqual(error_code(e.exception), "ResourceNotFoundException")
        self.assertEqual(a.describe_table(TableName="made-2")["Table"]["ItemCount"], 1)

    def test_one_of_two_creates_of_the_same_table_wins(self):
        results = []

        def create(client):
            try:
                self.create(client, "raced")
                results.append("created")
            except botocore.exceptions.ClientError as e:
                results.append(error_code(e))

        for round_ in range(3):
            results.clear()
            name_clients = self.clients[:2]
            threads = [threading.Thread(target=create, args=(c,)) for c in name_clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            self.assertEqual(sorted(results), ["ResourceInUseException", "created"], results)
            self.clients[2].delete_table(TableName="raced")

    def test_counters_are_exact_across_processes_and_doors(self):
        self.create(self.clients[0], "counters")
        self.clients[1].put_item(TableName="counters", Item={"pk": {"S": "add"}, "n": {"N": "0"}})
        self.clients[2].put_item(TableName="counters", Item={"pk": {"S": "cas"}, "n": {"N": "0"}})
        channels = [grpc_client.channel(s.grpc_port) for s in self.servers]
        stubs = [grpc_client.dynamodb(ch) for ch in channels]
        seen = {"ConditionalCheckFailed": 0, "TransactionConflict": 0, "other": []}
        lock = threading.Lock()

        def note(kind):
            with lock:
                seen[kind] += 1

        def adder(w):
            client, stub = self.clients[w % 3], stubs[w % 3]
            i = 0
            while i < OPS:
                try:
                    if i % 2:  # the gRPC door
                        stub.UpdateItem(pb.UpdateItemRequest(
                            table_name="counters", key=pb.Item(attributes={"pk": pb.AttributeValue(s="add")}),
                            update_expression="ADD n :one",
                            expression_attribute_values=pb.Item(attributes={":one": pb.AttributeValue(n="1")})))
                    else:
                        client.update_item(TableName="counters", Key={"pk": {"S": "add"}},
                                           UpdateExpression="ADD n :one", ExpressionAttributeValues={":one": {"N": "1"}})
                    i += 1
                except grpc.RpcError as e:
                    # Not applied: DynamoDB's answer to a write that met a
                    # transaction in flight. Anything else fails the test.
                    if "TransactionConflictException" not in (e.details() or ""):
                        raise
                    note("TransactionConflict")
                except botocore.exceptions.ClientError as e:
                    if error_code(e) != "TransactionConflictException":
                        raise
                    note("TransactionConflict")

        def incrementer(w):
            client = self.clients[(w + 1) % 3]
            done = 0
            while done < OPS:
                old = client.get_item(TableName="counters", Key={"pk": {"S": "cas"}},
                                      ConsistentRead=True)["Item"]["n"]["N"]
                try:
                    client.update_item(TableName="counters", Key={"pk": {"S": "cas"}},
                                       UpdateExpression="SET n = :new", ConditionExpression="n = :old",
                                       ExpressionAttributeValues={":old": {"N": old},
                                                                  ":new": {"N": str(int(old) + 1)}})
                    done += 1
                except botocore.exceptions.ClientError as e:
                    code = error_code(e)
                    if code == "ConditionalCheckFailedException":
                        note("ConditionalCheckFailed")
                    elif code == "TransactionConflictException":
                        note("TransactionConflict")
                    else:
                        with lock:
                            seen["other"].append(code)
                        raise

        errors = run_threads(lambda w: (adder if w % 2 else incrementer)(w), WRITERS)
        for ch in channels:
            ch.close()
        self.assertEqual(errors, [])
        adders = sum(1 for w in range(WRITERS) if w % 2)
        incrementers = WRITERS - adders
        got = {k: int(self.clients[i].get_item(TableName="counters", Key={"pk": {"S": k}},
                                                ConsistentRead=True)["Item"]["n"]["N"])
               for i, k in enumerate(("add", "cas"))}
        print("\n%d processes, %d writers x %d: ADD counter %d (want %d), conditional counter %d (want %d); "
              "clients saw %d ConditionalCheckFailed, %d TransactionConflict"
              % (self.PROCESSES, WRITERS, OPS, got["add"], adders * OPS, got["cas"], incrementers * OPS,
                 seen["ConditionalCheckFailed"], seen["TransactionConflict"]))
        self.assertEqual(got["add"], adders * OPS)
        self.assertEqual(got["cas"], incrementers * OPS)

    def test_racing_puts_store_whole_items(self):
        # A put that meets another process's write (on its item, or on a
        # page or counter row they share) is run again by pogi: what it
        # stores must be the whole item every time.
        self.create(self.clients[0], "puts")
        acknowledged = []

        def put(w):
            client = self.clients[w % 3]
            for i in range(2 * OPS):
                key = "w%d-%d" % (w, i)
                try:
                    client.put_item(TableName="puts", Item={"pk": {"S": key}, "writer": {"N": str(w)},
                                                            "payload": {"S": "x" * 100}})
                    acknowledged.append(key)
                except botocore.exceptions.ClientError as e:
                    if error_code(e) != "TransactionConflictException":
                        raise

        self.assertEqual(run_threads(put, WRITERS), [])
        items = []
        for page in self.clients[2].get_paginator("scan").paginate(TableName="puts", ConsistentRead=True):
            items += page["Items"]
        broken = [i for i in items if sorted(i) != ["payload", "pk", "writer"]]
        self.assertEqual(broken, [])
        self.assertEqual(sorted(i["pk"]["S"] for i in items), sorted(acknowledged))

    def test_transfers_keep_the_total(self):
        self.create(self.clients[0], "bank")
        accounts, start = 6, 100
        for a in range(accounts):
            self.clients[a % 3].put_item(TableName="bank", Item={"pk": {"S": "acct-%d" % a},
                                                                 "balance": {"N": str(start)}})
        counts = {"ok": 0, "ConditionalCheckFailed": 0, "TransactionConflict": 0}
        lock = threading.Lock()

        def transfer(w):
            import random
            rng = random.Random(w)
            client = self.clients[w % 3]
            for _ in range(OPS):
                src, dst = rng.sample(range(accounts), 2)
                amount = rng.randint(1, 40)
                try:
                    client.transact_write_items(TransactItems=[
                        {"Update": {"TableName": "bank", "Key": {"pk": {"S": "acct-%d" % src}},
                                    "UpdateExpression": "SET balance = balance - :a",
                                    "ConditionExpression": "balance >= :a",
                                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
                        {"Update": {"TableName": "bank", "Key": {"pk": {"S": "acct-%d" % dst}},
                                    "UpdateExpression": "SET balance = balance + :a",
                                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}}])
                    kind = "ok"
                except botocore.exceptions.ClientError as e:
                    reasons = [r.get("Code") for r in e.response.get("CancellationReasons", [])]
                    if error_code(e) != "TransactionCanceledException":
                        raise
                    kind = "TransactionConflict" if "TransactionConflict" in reasons else "ConditionalCheckFailed"
                with lock:
                    counts[kind] += 1

        self.assertEqual(run_threads(transfer, WRITERS), [])
        items = self.clients[1].scan(TableName="bank", ConsistentRead=True)["Items"]
        balances = [int(i["balance"]["N"]) for i in items]
        print("\n%d processes, %d writers x %d transfers: %d committed, %d cancelled by a condition, "
              "%d by TransactionConflict; total %d (want %d)"
              % (self.PROCESSES, WRITERS, OPS, counts["ok"], counts["ConditionalCheckFailed"],
                 counts["TransactionConflict"], sum(balances), accounts * start))
        self.assertEqual(len(balances), accounts)
        self.assertEqual(sum(balances), accounts * start)
        self.assertTrue(all(b >= 0 for b in balances), balances)
        self.assertGreater(counts["ok"], 0)


if __name__ == "__main__":
    unittest.main()
