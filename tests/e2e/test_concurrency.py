"""The two concurrency proofs of issue 4.

1. 8 clients (threads, each with its own boto3 client) each run 500
   `SET n = n + :one` on one item created with n = 0: the final n is exactly 4000.
2. 8 clients race to create the same item with attribute_not_exists(pk): exactly
   one wins, seven get ConditionalCheckFailedException; repeated for 50 keys.

Proof 2 runs on the default durable storage (a data folder), proof 1 in memory;
each proof also runs the other way round at a smaller size.

Run: cd tests/e2e && python3 -m unittest -v test_concurrency
"""

import threading
import unittest

from botocore.exceptions import ClientError

from harness import ServerTestCase

CLIENTS = 8


def create_table(ddb, name):
    ddb.create_table(TableName=name,
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     BillingMode="PAY_PER_REQUEST")


def run_threads(target, n=CLIENTS):
    errors = []

    def wrap(i):
        try:
            target(i)
        except BaseException as e:  # reported to the main thread
            errors.append(e)

    threads = [threading.Thread(target=wrap, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        if t.is_alive():
            errors.append(AssertionError("a client thread did not finish"))
    return errors


class ConcurrencyProofs:
    """Mixin; subclasses set SERVER_ARGS and the sizes."""

    INCREMENTS = 500
    RACE_KEYS = 50

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = "conc-" + cls.__name__.lower()
        create_table(cls.ddb, cls.table)
        # Each client is made here, one per thread: boto3 clients are not shared.
        cls.clients = [cls.server.client(max_pool_connections=2) for _ in range(CLIENTS)]

    def counter_proof(self):
        key = {"pk": {"S": self.unique("counter")}}
        self.ddb.put_item(TableName=self.table, Item=dict(key, n={"N": "0"}))

        def worker(i):
            c = self.clients[i]
            for _ in range(self.INCREMENTS):
                c.update_item(TableName=self.table, Key=key, UpdateExpression="SET n = n + :one",
                              ExpressionAttributeValues={":one": {"N": "1"}})

        errors = run_threads(worker)
        self.assertEqual(errors, [])
        item = self.ddb.get_item(TableName=self.table, Key=key, ConsistentRead=True)["Item"]
        self.assertEqual(item["n"], {"N": str(CLIENTS * self.INCREMENTS)})

    def race_proof(self):
        keys = [self.unique("race") for _ in range(self.RACE_KEYS)]
        results = [[None] * CLIENTS for _ in keys]
        barrier = threading.Barrier(CLIENTS, timeout=30)

        def worker(i):
            c = self.clients[i]
            for j, k in enumerate(keys):
                barrier.wait()  # all 8 fire at the same key together
                try:
                    c.put_item(TableName=self.table,
                               Item={"pk": {"S": k}, "winner": {"N": str(i)}},
                               ConditionExpression="attribute_not_exists(pk)")
                    results[j][i] = "won"
                except ClientError as e:
                    err = e.response["Error"]
                    results[j][i] = (err.get("Code"), err.get("Message"))

        errors = run_threads(worker)
        self.assertEqual(errors, [])
        lost = ("ConditionalCheckFailedException", "The conditional request failed")
        for j, k in enumerate(keys):
            row = results[j]
            winners = [i for i, r in enumerate(row) if r == "won"]
            self.assertEqual(len(winners), 1, "key %s: %r" % (k, row))
            self.assertEqual(sorted(r for r in row if r != "won"), [lost] * (CLIENTS - 1),
                             "key %s: %r" % (k, row))
            item = self.ddb.get_item(TableName=self.table, Key={"pk": {"S": k}},
                                     ConsistentRead=True)["Item"]
            self.assertEqual(item["winner"], {"N": str(winners[0])}, "key %s" % k)

    def test_zz_server_still_healthy(self):
        self.assertServing()


class InMemoryCounter(ConcurrencyProofs, ServerTestCase):
    SERVER_ARGS = {"in_memory": True}
    RACE_KEYS = 10

    def test_8_clients_500_increments_each(self):
        self.counter_proof()

    def test_create_race_small(self):
        self.race_proof()


class DurableManyThreads(ConcurrencyProofs, ServerTestCase):
    """Four HTTP threads (the default is half the CPUs): writes from several
    threads meet in one group commit, each in its own savepoint, and the
    losers of a race roll back alone inside a batch."""
    SERVER_ARGS = {"extra_args": ["--threads", "4"]}
    INCREMENTS = 200

    def test_8_clients_race_to_create_50_keys(self):
        self.race_proof()

    def test_counter(self):
        self.counter_proof()


class DurableRace(ConcurrencyProofs, ServerTestCase):
    SERVER_ARGS = {}  # the default: durable storage in a data folder
    INCREMENTS = 100

    def test_8_clients_race_to_create_50_keys(self):
        self.race_proof()

    def test_counter_small(self):
        self.counter_proof()


if __name__ == "__main__":
    unittest.main()
