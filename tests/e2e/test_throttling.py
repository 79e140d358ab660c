"""Capacity that throttles (`pogi start --throttle`, `pogi throttle`):
provisioned tables and global indexes spend their units and burst capacity,
on-demand tables their maximum and each partition key its 1,000 write units a
second, with DynamoDB's errors and ThrottlingReasons; batches come back
unprocessed and transactions cancelled; capacity refills on pogi's clock;
ConsumedCapacity keeps the shape asked for; off by default and per table;
and boto3's retry modes ride it out until everything is written."""

import unittest

from botocore.config import Config

from harness import Server, ServerTestCase

TABLE_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded. "
                 "Consider increasing your provisioning level with the UpdateTable API.")
INDEX_MESSAGE = ("The level of configured provisioned throughput for one or more global secondary "
                 "indexes of the table was exceeded. Consider increasing your provisioning level for "
                 "the under-provisioned global secondary indexes with the UpdateTable API")
ON_DEMAND_MESSAGE = ("Throughput exceeds the current capacity of your table or index. DynamoDB is "
                     "automatically scaling your table or index so please try again shortly. If "
                     "exceptions persist, check if you have a hot key: "
                     "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                     "bp-partition-key-design.html")
KB = "x" * 1000  # with its key, an item of one write unit


def item(pk, size=KB):
    return {"pk": {"S": pk}, "v": {"S": size}}


class FrozenClockThrottling(ServerTestCase):
    """Throttling on for every table; the clock stands still unless advanced."""

    SERVER_ARGS = {"extra_args": ["--throttle", "--clock", "2030-01-01T00:00:00Z", "--clock-frozen"]}

    def provisioned(self, rcu=1, wcu=1, **kw):
        return self.create_table(ProvisionedThroughput={"ReadCapacityUnits": rcu, "WriteCapacityUnits": wcu},
                                 **kw)

    def advance(self, duration):
        cp = self.server.admin("clock", "advance", duration)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def put(self, table, pk, size=KB):
        return self.server.call("PutItem", {"TableName": table, "Item": item(pk, size)})

    def puts_until_refused(self, table, limit=1000):
        """How many PutItems of one unit (each a new item) pass before the
        first refusal, and that refusal."""
        for n in range(limit):
            self.written = getattr(self, "written", 0) + 1
            status, body = self.put(table, "k%d" % self.written)
            if status != 200:
                return n, status, body
        self.fail("no refusal in %d writes" % limit)

    def arn(self, table):
        return self.ddb.describe_table(TableName=table)["Table"]["TableArn"]

    def test_a_provisioned_table_spends_its_units_and_refills_on_the_clock(self):
        t = self.provisioned(wcu=1)
        # A new table has one second of capacity.
        n, status, body = self.puts_until_refused(t)
        self.assertEqual(n, 1)
        self.assertEqual(status, 400)
        self.assertEqual(body, {
            "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
            "message": TABLE_MESSAGE,
            "ThrottlingReasons": [{"reason": "TableWriteProvisionedThroughputExceeded",
                                   "resource": self.arn(t)}]})
        # Ten seconds: ten units.
        self.advance("10s")
        self.assertEqual(self.puts_until_refused(t)[0], 10)
        # Unused capacity is kept up to 300 seconds (burst capacity).
        self.advance("1h")
        self.assertEqual(self.puts_until_refused(t)[0], 300)
        # Refused writes wrote nothing.
        count = self.ddb.scan(TableName=t, Select="COUNT", ConsistentRead=True)
        self.assertEqual(count["Count"], 1 + 10 + 300)

    def test_reads_spend_read_units_by_size_and_consistency(self):
        t = self.provisioned(rcu=2, wcu=1000)
        self.put(t, "a")
        # Eventually consistent: half a unit each; 2 units last four reads.
        for _ in range(4):
            self.ddb.get_item(TableName=t, Key={"pk": {"S": "a"}})
        err = self.assertClientError(self.ddb.get_item, "ProvisionedThroughputExceededException",
                                     TABLE_MESSAGE, TableName=t, Key={"pk": {"S": "a"}})
        self.assertEqual(err["ThrottlingReasons"],
                         [{"reason": "TableReadProvisionedThroughputExceeded", "resource": self.arn(t)}])
        self.advance("1s")
        self.ddb.get_item(TableName=t, Key={"pk": {"S": "a"}}, ConsistentRead=True)
        self.ddb.get_item(TableName=t, Key={"pk": {"S": "a"}}, ConsistentRead=True)
        self.assertClientError(self.ddb.query, "ProvisionedThroughputExceededException", TableName=t,
                               KeyConditionExpression="pk = :a", ExpressionAttributeValues={":a": {"S": "a"}})

    def test_an_under_provisioned_global_index_throttles_the_tables_writes(self):
        t = self.create_table(
            ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 100},
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"},
                                     "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                                               "WriteCapacityUnits": 1}}])
        self.ddb.put_item(TableName=t, Item={"pk": {"S": "1"}, "g": {"S": "x"}})
        status, body = self.server.call("PutItem", {"TableName": t, "Item": {"pk": {"S": "2"}, "g": {"S": "y"}}})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException")
        self.assertEqual(body["message"], INDEX_MESSAGE)
        index_arn = self.ddb.describe_table(TableName=t)["Table"]["GlobalSecondaryIndexes"][0]["IndexArn"]
        self.assertEqual(body["ThrottlingReasons"],
                         [{"reason": "IndexWriteProvisionedThroughputExceeded", "resource": index_arn}])
        # Reads of the index spend the index's read units, not the table's.
        q = dict(TableName=t, IndexName="by-g", KeyConditionExpression="g = :g",
                 ExpressionAttributeValues={":g": {"S": "x"}})
        self.ddb.query(**q)
        self.ddb.query(**q)
        err = self.assertClientError(self.ddb.query, "ProvisionedThroughputExceededException", INDEX_MESSAGE, **q)
        self.assertEqual(err["ThrottlingReasons"][0]["reason"], "IndexReadProvisionedThroughputExceeded")
        self.ddb.get_item(TableName=t, Key={"pk": {"S": "1"}})

    def test_an_on_demand_maximum_is_a_throttling_exception(self):
        t = self.create_table(OnDemandThroughput={"MaxWriteRequestUnits": 2})
        self.assertEqual(self.puts_until_refused(t)[0], 2)
        status, body = self.put(t, "again")
        self.assertEqual(body, {
            "__type": "com.amazon.coral.availability#ThrottlingException",
            "message": ON_DEMAND_MESSAGE,
            "throttlingReasons": [{"reason": "TableWriteMaxOnDemandThroughputExceeded",
                                   "resource": self.arn(t)}]})
        self.advance("1s")
        self.assertEqual(self.put(t, "later")[0], 200)

    def test_one_partition_key_serves_a_thousand_write_units_a_second(self):
        t = self.create_table()
        ten_kb = "x" * 10200  # ten units an item
        for n in range(100):
            status, body = self.server.call("PutItem", {"TableName": t,
                                                        "Item": {"pk": {"S": "hot"}, "n": {"N": str(n)},
                                                                 "v": {"S": ten_kb}}})
            self.assertEqual(status, 200, body)
        status, body = self.put(t, "hot", ten_kb)
        self.assertEqual(body["__type"], "com.amazon.coral.availability#ThrottlingException")
        self.assertEqual(body["throttlingReasons"],
                         [{"reason": "TableWriteKeyRangeThroughputExceeded", "resource": self.arn(t)}])
        # Another key of the same table is served.
        self.assertEqual(self.put(t, "cold", ten_kb)[0], 200)

    def test_a_batch_returns_the_throttled_tables_requests_unprocessed(self):
        full, free = self.provisioned(wcu=1), self.provisioned(rcu=100, wcu=100)
        self.put(full, "spent")
        writes = lambda table: [{"PutRequest": {"Item": item("b%d" % i)}} for i in range(3)]  # noqa: E731
        resp = self.ddb.batch_write_item(RequestItems={full: writes(full), free: writes(free)})
        self.assertEqual(resp["UnprocessedItems"], {full: writes(full)})
        self.assertEqual(self.ddb.scan(TableName=free, Select="COUNT", ConsistentRead=True)["Count"], 3)
        # Every table throttled: the throttling error itself.
        self.assertClientError(self.ddb.batch_write_item, "ProvisionedThroughputExceededException",
                               TABLE_MESSAGE, RequestItems={full: writes(full)})
        gets = {full: {"Keys": [{"pk": {"S": "spent"}}]}, free: {"Keys": [{"pk": {"S": "b0"}}]}}
        for _ in range(2):  # its one read unit, half a unit a read
            self.ddb.get_item(TableName=full, Key={"pk": {"S": "spent"}})
        resp = self.ddb.batch_get_item(RequestItems=gets)
        self.assertEqual(resp["UnprocessedKeys"], {full: {"Keys": [{"pk": {"S": "spent"}}]}})
        self.assertEqual(len(resp["Responses"][free]), 1)

    def test_a_throttled_transaction_is_cancelled_with_the_reason_per_item(self):
        full, free = self.provisioned(wcu=1), self.provisioned(rcu=100, wcu=100)
        self.put(full, "spent")
        status, body = self.server.call("TransactWriteItems", {"TransactItems": [
            {"Put": {"TableName": free, "Item": item("t1")}},
            {"Put": {"TableName": full, "Item": item("t2")}}]})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazonaws.dynamodb.v20120810#TransactionCanceledException")
        self.assertEqual(body["message"], "Transaction cancelled, please refer cancellation reasons for "
                                          "specific reasons [None, ProvisionedThroughputExceeded]")
        self.assertEqual(body["CancellationReasons"],
                         [{"Code": "None"}, {"Code": "ProvisionedThroughputExceeded", "Message": TABLE_MESSAGE}])
        self.assertNotIn("Item", self.ddb.get_item(TableName=free, Key={"pk": {"S": "t1"}}, ConsistentRead=True))

    def test_consumed_capacity_keeps_the_shape_asked_for(self):
        t = self.provisioned(wcu=100)
        none = self.ddb.put_item(TableName=t, Item=item("a"))
        self.assertNotIn("ConsumedCapacity", none)
        total = self.ddb.put_item(TableName=t, Item=item("a"), ReturnConsumedCapacity="TOTAL")
        self.assertEqual(total["ConsumedCapacity"], {"TableName": t, "CapacityUnits": 1.0})
        indexes = self.ddb.put_item(TableName=t, Item=item("a"), ReturnConsumedCapacity="INDEXES")
        self.assertEqual(indexes["ConsumedCapacity"],
                         {"TableName": t, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}})
        # An unknown value is still the operation's validation error.
        self.assertClientError(self.ddb.put_item, "ValidationException", TableName=t, Item=item("a"),
                               ReturnConsumedCapacity="SOME")

    def test_pogi_throttle_turns_it_off_and_on_per_table(self):
        t = self.provisioned(wcu=1)
        cp = self.server.admin("throttle", "off", "--table", t)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("throttle: on (every table)\nthrottle: off (table %s)\n" % t, cp.stdout)
        for n in range(20):
            self.assertEqual(self.put(t, "k%d" % n)[0], 200)
        self.assertEqual(self.server.admin("throttle", "default", "--table", t).returncode, 0)
        self.advance("1s")
        self.assertEqual(self.puts_until_refused(t)[0], 1)
        cp = self.server.admin("throttle", "sometimes")
        self.assertEqual(cp.returncode, 2)


class ThrottlingIsOffByDefault(ServerTestCase):

    def test_a_one_unit_table_takes_every_write_until_turned_on(self):
        t = self.create_table(ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        for n in range(50):
            self.ddb.put_item(TableName=t, Item=item("k%d" % n))
        cp = self.server.admin("throttle")
        self.assertEqual(cp.stdout, "throttle: off (every table)\n")
        cp = self.server.admin("throttle", "on", "--table", t)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        # One second of capacity, and the clock runs: the second write may
        # find a few milliseconds' refill, and takes the table into debt.
        from botocore.exceptions import ClientError
        with self.assertRaises(ClientError) as cm:
            for n in range(3):
                self.ddb.put_item(TableName=t, Item=item("on%d" % n))
        self.assertEqual(cm.exception.response["Error"]["Code"], "ProvisionedThroughputExceededException")


class RetryModesRideItOut(unittest.TestCase):
    """boto3's own retry modes against a throttled 2-WCU table on a running
    clock: throttled calls are seen and retried, and everything is written."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server(extra_args=["--throttle"])
        cls.server.start()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.server.cleanup()

    def run_mode(self, mode):
        import boto3
        ddb = boto3.client("dynamodb", endpoint_url=self.server.endpoint, region_name="us-east-1",
                           aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                           config=Config(retries={"mode": mode, "max_attempts": 30}))
        table = "retry-" + mode
        ddb.create_table(TableName=table, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 2})
        retries = 0
        for n in range(8):
            resp = ddb.put_item(TableName=table, Item=item("k%d" % n))
            retries += resp["ResponseMetadata"]["RetryAttempts"]
        self.assertGreater(retries, 0, "no write was throttled")
        count = ddb.scan(TableName=table, Select="COUNT", ConsistentRead=True)["Count"]
        self.assertEqual(count, 8)

    def test_legacy(self):
        self.run_mode("legacy")

    def test_standard(self):
        self.run_mode("standard")

    def test_adaptive(self):
        self.run_mode("adaptive")


if __name__ == "__main__":
    unittest.main()
