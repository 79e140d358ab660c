"""Read lag (Admin SetReadLag/GetReadLag and `pogi lag`): with a lag set,
eventually consistent reads (GetItem, BatchGetItem, Query, Scan, PartiQL
SELECT) and every global-index read see the table as it was the lag ago;
consistent reads and transactions never lag; the lag is gone once it has
passed or is turned off, and refusals of bad input."""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import time
import unittest

import grpc

import grpc_client
from grpc_client import apb
from harness import ServerTestCase

# A lag the reads of test_lag_observed all fall within, however busy the
# machine: they take well under a second, and 60 s is over 100 times that.
LONG_LAG_MS = 60000
# A lag test_lag_passes waits out (a wait that slowness only lengthens).
SHORT_LAG_MS = 1000


class ReadLag(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.admin = grpc_client.admin(cls.channel)
        cls.ddb = cls.server.client()
        cls.ddb.create_table(
            TableName="lagged", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g",
                                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        cls.ddb.create_table(
            TableName="prompt", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        super().tearDownClass()

    def tearDown(self):
        self.admin.SetReadLag(apb.SetReadLagRequest(lag_ms=0), timeout=10)

    def lag(self, *args):
        cp = self.server.admin("lag", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return cp.stdout

    def key(self, pk, sk):
        return {"pk": {"S": pk}, "sk": {"N": str(sk)}}

    def get(self, pk, sk, consistent=False):
        return self.ddb.get_item(TableName="lagged", Key=self.key(pk, sk),
                                 ConsistentRead=consistent).get("Item")

    def query(self, pk, consistent=False, **kw):
        items = self.ddb.query(TableName="lagged", KeyConditionExpression="pk = :p",
                               ExpressionAttributeValues={":p": {"S": pk}},
                               ConsistentRead=consistent, **kw)["Items"]
        return [(i["sk"]["N"], i.get("v", {}).get("S")) for i in items]

    def test_off_by_default(self):
        self.assertIn("read lag: off", self.lag())
        self.ddb.put_item(TableName="lagged", Item={**self.key("off", 1), "v": {"S": "new"}})
        self.assertEqual(self.get("off", 1)["v"]["S"], "new")

    def test_lag_observed(self):
        # Before the lag: an item, updated and another created and one deleted
        # once the lag is on.
        put = self.ddb.put_item
        for sk, v in ((1, "old"), (2, "gone"), (4, "kept")):
            put(TableName="lagged", Item={**self.key("p", sk), "v": {"S": v}, "g": {"S": "gp"}})
        out = self.lag("60s", "--table", "lagged")
        self.assertIn("read lag: %dms (table lagged)" % LONG_LAG_MS, out)
        start = time.monotonic()
        put(TableName="lagged", Item={**self.key("p", 1), "v": {"S": "new"}, "g": {"S": "gp"}})
        put(TableName="lagged", Item={**self.key("p", 3), "v": {"S": "born"}, "g": {"S": "gp"}})
        self.ddb.delete_item(TableName="lagged", Key=self.key("p", 2))
        self.ddb.update_item(TableName="lagged", Key=self.key("p", 4), UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": {"S": "changed"}})
        before = [("1", "old"), ("2", "gone"), ("4", "kept")]
        after = [("1", "new"), ("3", "born"), ("4", "changed")]

        # Eventually consistent: the state of before the writes.
        self.assertEqual(self.get("p", 1)["v"]["S"], "old")
        self.assertIsNone(self.get("p", 3))
        self.assertEqual(self.get("p", 2)["v"]["S"], "gone")
        self.assertEqual(self.query("p"), before)
        self.assertEqual(self.query("p", ScanIndexForward=False), before[::-1])
        self.assertEqual(self.query("p", Limit=1, ExclusiveStartKey=self.key("p", 1)), [("2", "gone")])
        scanned = self.ddb.scan(TableName="lagged", FilterExpression="pk = :p",
                                ExpressionAttributeValues={":p": {"S": "p"}})["Items"]
        self.assertEqual(sorted((i["sk"]["N"], i["v"]["S"]) for i in scanned), before)
        batch = self.ddb.batch_get_item(RequestItems={"lagged": {"Keys": [self.key("p", 1),
                                                                          self.key("p", 3)]}})
        self.assertEqual([i["v"]["S"] for i in batch["Responses"]["lagged"]], ["old"])
        gsi = self.ddb.query(TableName="lagged", IndexName="by-g", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": {"S": "gp"}})["Items"]
        self.assertEqual(sorted((i["sk"]["N"], i["v"]["S"]) for i in gsi), before)
        sel = self.ddb.execute_statement(Statement="SELECT * FROM lagged WHERE pk = 'p'")["Items"]
        self.assertEqual([(i["sk"]["N"], i["v"]["S"]) for i in sel], before)

        # Consistent reads and transactions see every write at once.
        self.assertEqual(self.get("p", 1, consistent=True)["v"]["S"], "new")
        self.assertEqual(self.query("p", consistent=True), after)
        tx = self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": "lagged",
                                                                 "Key": self.key("p", 3)}}])
        self.assertEqual(tx["Responses"][0]["Item"]["v"]["S"], "born")
        # Another table does not lag.
        self.ddb.put_item(TableName="prompt", Item={"pk": {"S": "x"}})
        self.assertIn("Item", self.ddb.get_item(TableName="prompt", Key={"pk": {"S": "x"}}))
        self.assertLess(time.monotonic() - start, LONG_LAG_MS / 1000, "the test ran slower than the lag")

    def test_lag_passes(self):
        put = self.ddb.put_item
        for sk, v in ((1, "old"), (2, "gone")):
            put(TableName="lagged", Item={**self.key("q", sk), "v": {"S": v}, "g": {"S": "gq"}})
        out = self.lag("%dms" % SHORT_LAG_MS, "--table", "lagged")
        self.assertIn("read lag: %dms (table lagged)" % SHORT_LAG_MS, out)
        put(TableName="lagged", Item={**self.key("q", 1), "v": {"S": "new"}, "g": {"S": "gq"}})
        put(TableName="lagged", Item={**self.key("q", 3), "v": {"S": "born"}, "g": {"S": "gq"}})
        self.ddb.delete_item(TableName="lagged", Key=self.key("q", 2))
        after = [("1", "new"), ("3", "born")]
        # Once the lag has passed since the writes, every read sees them.
        time.sleep(SHORT_LAG_MS / 1000 + 0.2)
        self.assertEqual(self.get("q", 1)["v"]["S"], "new")
        self.assertEqual(self.query("q"), after)
        gsi = self.ddb.query(TableName="lagged", IndexName="by-g", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": {"S": "gq"}})["Items"]
        self.assertEqual(sorted((i["sk"]["N"], i["v"]["S"]) for i in gsi), after)

    def test_global_lag_and_off(self):
        state = self.admin.SetReadLag(apb.SetReadLagRequest(lag_ms=60000), timeout=10)
        self.assertEqual(state.global_lag_ms, 60000)
        self.ddb.put_item(TableName="prompt", Item={"pk": {"S": "g1"}})
        self.assertNotIn("Item", self.ddb.get_item(TableName="prompt", Key={"pk": {"S": "g1"}}))
        self.assertIn("Item", self.ddb.get_item(TableName="prompt", Key={"pk": {"S": "g1"}},
                                                ConsistentRead=True))
        # Off: the latest data at once, without waiting out the lag.
        self.assertIn("read lag: off", self.lag("off"))
        self.assertIn("Item", self.ddb.get_item(TableName="prompt", Key={"pk": {"S": "g1"}}))
        self.assertEqual(self.admin.GetReadLag(apb.GetReadLagRequest(), timeout=10).global_lag_ms, 0)

    def test_dropped_table_forgets_versions(self):
        self.ddb.create_table(TableName="again", BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.ddb.put_item(TableName="again", Item={"pk": {"S": "a"}, "v": {"S": "first"}})
        self.lag("1m")
        # A version of the first table's item: a new table with the same id
        # must not show it.
        self.ddb.put_item(TableName="again", Item={"pk": {"S": "a"}, "v": {"S": "second"}})
        self.ddb.delete_table(TableName="again")
        self.ddb.create_table(TableName="again", BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertEqual(self.ddb.scan(TableName="again")["Items"], [])
        self.ddb.delete_table(TableName="again")

    def test_refusals(self):
        with self.assertRaises(grpc.RpcError) as cm:
            self.admin.SetReadLag(apb.SetReadLagRequest(table_name="nope", lag_ms=10), timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)
        with self.assertRaises(grpc.RpcError) as cm:
            self.admin.SetReadLag(apb.SetReadLagRequest(lag_ms=-1), timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        cp = self.server.admin("lag", "soon")
        self.assertEqual(cp.returncode, 2)
        self.assertIn("invalid lag soon", cp.stderr)
        self.assertEqual(cp.stderr.count("\n"), 1)
        cp = self.server.admin("lag", "--help")
        self.assertEqual(cp.returncode, 0)
        self.assertIn("example: pogi lag 500ms", cp.stdout)


if __name__ == "__main__":
    unittest.main()
