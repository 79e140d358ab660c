"""Kinesis Data Streams destinations: EnableKinesisStreamingDestination,
DisableKinesisStreamingDestination, DescribeKinesisStreamingDestination and
UpdateKinesisStreamingDestination with DynamoDB's shapes, statuses and
messages (as real DynamoDB answered them), and the delivery of every change
to a real Kinesis-compatible server (npm's kinesalite) through
--kinesis-endpoint, read back with boto3's kinesis client.
"""
import base64
import os
import re
import sys
import time
import unittest

from harness import Server, ServerTestCase

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kinesis_server  # noqa: E402
from ports import free_port  # noqa: E402

PREFIX = "Table is not in a valid state to enable Kinesis Streaming Destination: "
ENABLE_REFUSED = (PREFIX + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform "
                  "ENABLE operation.")
DISABLE_REFUSED = PREFIX + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation."
NO_PERMISSION = "User does not have a permission to use kinesis stream"


def stream_arn(name, region="us-east-1", account="000000000000"):
    return "arn:aws:kinesis:%s:%s:stream/%s" % (region, account, name)


class Destinations:
    """Helpers shared by the test classes (mixed into a ServerTestCase)."""

    def enable(self, table, arn, **kw):
        return self.ddb.enable_kinesis_streaming_destination(TableName=table, StreamArn=arn, **kw)

    def destinations(self, table):
        return self.ddb.describe_kinesis_streaming_destination(TableName=table)["KinesisDataStreamDestinations"]

    def wait_status(self, table, arn, status, timeout=30):
        deadline = time.time() + timeout
        while True:
            for d in self.destinations(table):
                if d["StreamArn"] == arn and d["DestinationStatus"] == status:
                    return d
            if time.time() > deadline:
                raise AssertionError("%s never %s: %r" % (arn, status, self.destinations(table)))
            time.sleep(0.05)


class WithoutEndpoint(ServerTestCase, Destinations):
    """No --kinesis-endpoint: the operations answer, every stream fails."""

    SERVER_ARGS = {"in_memory": True}

    def test_describe_of_a_fresh_table(self):
        name = self.create_table()
        status, body = self.server.call("DescribeKinesisStreamingDestination", {"TableName": name})
        self.assertEqual(status, 200)
        self.assertEqual(body, {"KinesisDataStreamDestinations": [], "TableName": name})

    def test_enable_answers_enabling_then_fails(self):
        name = self.create_table()
        arn = stream_arn("nowhere")
        status, body = self.server.call("EnableKinesisStreamingDestination", {"TableName": name, "StreamArn": arn})
        self.assertEqual(status, 200)
        self.assertEqual(body, {"DestinationStatus": "ENABLING", "EnableKinesisStreamingConfiguration": {},
                                "StreamArn": arn, "TableName": name})
        d = self.wait_status(name, arn, "ENABLE_FAILED")
        self.assertEqual(d, {"StreamArn": arn, "DestinationStatus": "ENABLE_FAILED",
                             "DestinationStatusDescription": NO_PERMISSION})
        # A failed entry may be enabled again: it flips, no duplicate.
        self.enable(name, arn)
        self.wait_status(name, arn, "ENABLE_FAILED")
        self.assertEqual(len(self.destinations(name)), 1)
        # Items are written as usual meanwhile.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
        self.assertServing()

    def test_enable_echoes_the_configuration(self):
        name = self.create_table()
        arn = stream_arn("echo")
        r = self.enable(name, arn, EnableKinesisStreamingConfiguration={
            "ApproximateCreationDateTimePrecision": "MICROSECOND"})
        self.assertEqual(r["EnableKinesisStreamingConfiguration"],
                         {"ApproximateCreationDateTimePrecision": "MICROSECOND"})
        d = self.wait_status(name, arn, "ENABLE_FAILED")
        self.assertEqual(d["ApproximateCreationDateTimePrecision"], "MICROSECOND")

    def test_table_missing(self):
        for op, payload in [("EnableKinesisStreamingDestination", {"StreamArn": stream_arn("x")}),
                            ("DisableKinesisStreamingDestination", {"StreamArn": stream_arn("x")}),
                            ("UpdateKinesisStreamingDestination", {"StreamArn": stream_arn("x"),
                             "UpdateKinesisStreamingConfiguration": {
                                 "ApproximateCreationDateTimePrecision": "MICROSECOND"}}),
                            ("DescribeKinesisStreamingDestination", {})]:
            with self.subTest(op=op):
                status, body = self.server.call(op, dict(payload, TableName="nope-table"))
                self.assertEqual(status, 400)
                self.assertEqual(body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")
                self.assertEqual(body["message"], "Requested resource not found: Table: nope-table not found")

    def test_member_validation(self):
        status, body = self.server.call("EnableKinesisStreamingDestination", {"StreamArn": "short"})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazon.coral.validate#ValidationException")
        self.assertEqual(body["message"],
                         "2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: "
                         "Member must not be null; Value 'short' at 'streamArn' failed to satisfy constraint: "
                         "Member must have length greater than or equal to 37")
        name = self.create_table()
        status, body = self.server.call("UpdateKinesisStreamingDestination", {
            "TableName": name, "StreamArn": stream_arn("x"),
            "UpdateKinesisStreamingConfiguration": {"ApproximateCreationDateTimePrecision": "SECOND"}})
        self.assertEqual(status, 400)
        self.assertEqual(body["message"],
                         "1 validation error detected: Value 'SECOND' at "
                         "'updateKinesisStreamingConfiguration.approximateCreationDateTimePrecision' failed to "
                         "satisfy constraint: Member must satisfy enum value set: [MILLISECOND, MICROSECOND]")
        self.assertServing()

    def test_state_errors(self):
        name = self.create_table()
        arn = stream_arn("never")
        self.assertClientError(self.ddb.disable_kinesis_streaming_destination, "ValidationException",
                               DISABLE_REFUSED, TableName=name, StreamArn=arn)
        self.assertClientError(self.ddb.disable_kinesis_streaming_destination, "ValidationException",
                               "Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters",
                               TableName=name, StreamArn=arn,
                               EnableKinesisStreamingConfiguration={
                                   "ApproximateCreationDateTimePrecision": "MILLISECOND"})
        self.assertClientError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                               "Streaming destination cannot be updated with given parameters: "
                               "UpdateKinesisStreamingConfiguration cannot be null or contain only null values",
                               TableName=name, StreamArn=arn)
        self.assertClientError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                               "Streaming destination cannot be updated with given parameters: "
                               "UpdateKinesisStreamingConfiguration cannot be null or contain only null values",
                               TableName=name, StreamArn=arn, UpdateKinesisStreamingConfiguration={})
        self.assertClientError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                               PREFIX + "No streaming destination with streamArn: %s found for table with "
                               "tableName: %s" % (arn, name),
                               TableName=name, StreamArn=arn,
                               UpdateKinesisStreamingConfiguration={
                                   "ApproximateCreationDateTimePrecision": "MICROSECOND"})
        # An ENABLE_FAILED entry is not ACTIVE: neither Update nor Disable.
        self.enable(name, arn)
        self.wait_status(name, arn, "ENABLE_FAILED")
        self.assertClientError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                               PREFIX + "Kinesis streaming is not in ACTIVE state. Updates are only allowed in "
                               "ACTIVE state. TableName: %s, kdsArn: %s" % (name, arn),
                               TableName=name, StreamArn=arn,
                               UpdateKinesisStreamingConfiguration={
                                   "ApproximateCreationDateTimePrecision": "MICROSECOND"})
        self.assertClientError(self.ddb.disable_kinesis_streaming_destination, "ValidationException",
                               DISABLE_REFUSED, TableName=name, StreamArn=arn)

    def test_by_table_arn_and_gone_with_the_table(self):
        name = self.create_table()
        table_arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        arn = stream_arn("by-arn")
        r = self.enable(table_arn, arn)
        self.assertEqual(r["TableName"], name)
        self.assertEqual(len(self.destinations(table_arn)), 1)
        self.ddb.delete_table(TableName=name)
        self.create_table(name)
        self.assertEqual(self.destinations(name), [])


class KinesisTestBase(ServerTestCase, Destinations):
    EXTRA = []

    @classmethod
    def setUpClass(cls):
        cls.kinesis = kinesis_server.KinesisServer().start()
        cls.SERVER_ARGS = {"extra_args": ["--kinesis-endpoint", cls.kinesis.endpoint] + cls.EXTRA}
        try:
            super().setUpClass()
        except BaseException:
            cls.kinesis.cleanup()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            super().tearDownClass()
        finally:
            cls.kinesis.cleanup()

    def wait_records(self, stream, n, timeout=30):
        deadline = time.time() + timeout
        while True:
            raw = self.kinesis.raw_records(stream)
            if len(raw) >= n:
                return raw
            if time.time() > deadline:
                raise AssertionError("%d of %d records in %s" % (len(raw), n, stream))
            time.sleep(0.1)


class Delivery(KinesisTestBase):
    """Against kinesalite: statuses, records, limits."""

    def test_records_of_every_change(self):
        stream = self.unique("s")
        arn = self.kinesis.create_stream(stream)
        name = self.create_table(range_key=("sk", "N"))
        self.assertEqual(self.enable(name, arn)["DestinationStatus"], "ENABLING")
        self.assertEqual(self.wait_status(name, arn, "ACTIVE"), {"StreamArn": arn, "DestinationStatus": "ACTIVE"})
        key = {"pk": {"S": "k1"}, "sk": {"N": "1"}}
        self.ddb.put_item(TableName=name, Item=dict(key, v={"S": "é one"}, b={"B": b"\x00\x01"}))
        self.ddb.update_item(TableName=name, Key=key, UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": {"N": "2"}})
        self.ddb.delete_item(TableName=name, Key=key)
        raw = self.wait_records(stream, 3)
        self.assertEqual(len(raw), 3)
        records = [__import__("json").loads(r["Data"]) for r in raw]
        self.assertEqual([r["eventName"] for r in records], ["INSERT", "MODIFY", "REMOVE"])
        for r in records:
            self.assertEqual(list(r), ["awsRegion", "eventID", "eventName", "userIdentity", "recordFormat",
                                       "tableName", "dynamodb", "eventSource"])
            self.assertEqual(r["awsRegion"], "us-east-1")
            self.assertRegex(r["eventID"], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
            self.assertIsNone(r["userIdentity"])
            self.assertEqual(r["recordFormat"], "application/json")
            self.assertEqual(r["tableName"], name)
            self.assertEqual(r["eventSource"], "aws:dynamodb")
            self.assertEqual(r["dynamodb"]["Keys"], {"pk": {"S": "k1"}, "sk": {"N": "1"}})
            self.assertRegex(str(r["dynamodb"]["ApproximateCreationDateTime"]), r"^\d{13}$")
            self.assertIsInstance(r["dynamodb"]["SizeBytes"], int)
            self.assertNotIn("ApproximateCreationDateTimePrecision", r["dynamodb"])
        ins, mod, rem = (r["dynamodb"] for r in records)
        self.assertEqual(list(ins), ["ApproximateCreationDateTime", "Keys", "NewImage", "SizeBytes"])
        self.assertEqual(ins["NewImage"]["v"], {"S": "é one"})
        self.assertEqual(ins["NewImage"]["b"], {"B": base64.b64encode(b"\x00\x01").decode()})
        self.assertEqual(list(mod), ["ApproximateCreationDateTime", "Keys", "NewImage", "OldImage", "SizeBytes"])
        self.assertEqual(mod["NewImage"]["v"], {"N": "2"})
        self.assertEqual(mod["OldImage"]["v"], {"S": "é one"})
        self.assertEqual(list(rem), ["ApproximateCreationDateTime", "Keys", "OldImage", "SizeBytes"])
        # Raw UTF-8, compact.
        self.assertIn("\"v\":{\"S\":\"é one\"}".encode(), raw[0]["Data"])
        # One item, one partition key: 32 upper-case hex digits.
        keys = {r["PartitionKey"] for r in raw}
        self.assertEqual(len(keys), 1)
        self.assertRegex(keys.pop(), r"^[0-9A-F]{32}$")
        self.assertEqual(len({r["eventID"] for r in records}), 3)

    def test_update_precision_and_disable(self):
        stream = self.unique("s")
        arn = self.kinesis.create_stream(stream)
        name = self.create_table()
        self.enable(name, arn)
        self.wait_status(name, arn, "ACTIVE")
        table_id = self.ddb.describe_table(TableName=name)["Table"]["TableId"]
        self.assertClientError(self.ddb.update_kinesis_streaming_destination, "ValidationException",
                               "Invalid Request: Precision is already set to the desired value of MILLISECOND "
                               "for tableId: %s, kdsArn: %s" % (table_id, arn),
                               TableName=name, StreamArn=arn,
                               UpdateKinesisStreamingConfiguration={
                                   "ApproximateCreationDateTimePrecision": "MILLISECOND"})
        r = self.ddb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=arn,
            UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MICROSECOND"})
        self.assertEqual(r["DestinationStatus"], "UPDATING")
        self.assertEqual(r["UpdateKinesisStreamingConfiguration"],
                         {"ApproximateCreationDateTimePrecision": "MICROSECOND"})
        d = self.wait_status(name, arn, "ACTIVE")
        self.assertEqual(d["ApproximateCreationDateTimePrecision"], "MICROSECOND")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "micro"}})
        rec = __import__("json").loads(self.wait_records(stream, 1)[0]["Data"])["dynamodb"]
        self.assertRegex(str(rec["ApproximateCreationDateTime"]), r"^\d{16}$")
        self.assertEqual(list(rec)[-1], "ApproximateCreationDateTimePrecision")
        self.assertEqual(rec["ApproximateCreationDateTimePrecision"], "MICROSECOND")

        r = self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.assertEqual(r["DestinationStatus"], "DISABLING")
        self.assertNotIn("EnableKinesisStreamingConfiguration", r)
        self.wait_status(name, arn, "DISABLED")
        # Changes after the disable go nowhere; the entry stays listed.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "after"}})
        time.sleep(0.5)
        self.assertEqual(len(self.kinesis.raw_records(stream)), 1)
        self.assertClientError(self.ddb.disable_kinesis_streaming_destination, "ValidationException",
                               DISABLE_REFUSED, TableName=name, StreamArn=arn)
        # Enabling again flips the same entry, precision reset.
        self.enable(name, arn)
        d = self.wait_status(name, arn, "ACTIVE")
        self.assertEqual(d, {"StreamArn": arn, "DestinationStatus": "ACTIVE"})
        self.assertEqual(len(self.destinations(name)), 1)

    def test_one_live_destination(self):
        a = self.kinesis.create_stream(self.unique("a"))
        b = self.kinesis.create_stream(self.unique("b"))
        name = self.create_table()
        self.enable(name, a)
        self.assertClientError(self.ddb.enable_kinesis_streaming_destination, "ValidationException",
                               ENABLE_REFUSED, TableName=name, StreamArn=b)
        self.wait_status(name, a, "ACTIVE")
        for arn in (a, b):
            self.assertClientError(self.ddb.enable_kinesis_streaming_destination, "ValidationException",
                                   ENABLE_REFUSED, TableName=name, StreamArn=arn)
        self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=a)
        self.wait_status(name, a, "DISABLED")
        self.enable(name, b)
        self.wait_status(name, b, "ACTIVE")
        # Newest first; the disabled one stays.
        self.assertEqual([(d["StreamArn"], d["DestinationStatus"]) for d in self.destinations(name)],
                         [(b, "ACTIVE"), (a, "DISABLED")])

    def test_missing_stream_and_other_region(self):
        name = self.create_table()
        missing = stream_arn(self.unique("missing"))
        self.assertEqual(self.enable(name, missing)["DestinationStatus"], "ENABLING")
        d = self.wait_status(name, missing, "ENABLE_FAILED")
        self.assertEqual(d["DestinationStatusDescription"], NO_PERMISSION)
        other = stream_arn(self.unique("west"), region="us-west-2")
        self.enable(name, other)
        d = self.wait_status(name, other, "ENABLE_FAILED")
        self.assertEqual(d["DestinationStatusDescription"],
                         "The kinesis Arn used to enable kinesis replication belongs to a stream which is not "
                         "in the current region")
        # Items were written through it all.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "still"}})
        self.assertServing()


class ClockDriven(KinesisTestBase):
    """With --transient-delay and a frozen clock, statuses wait for the clock."""

    EXTRA = ["--transient-delay", "5s", "--clock", "2030-01-01T00:00:00Z", "--clock-frozen"]

    def advance(self, d):
        cp = self.server.admin("clock", "advance", d)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def test_statuses_move_with_the_clock(self):
        stream = self.unique("s")
        arn = self.kinesis.create_stream(stream)
        name = self.create_table()
        self.advance("6s")  # the table ACTIVE
        self.enable(name, arn)
        time.sleep(0.5)  # the stream checked meanwhile; ENABLING lasts 5 s of the clock
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "ENABLING")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "early"}})
        self.advance("5s")
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "ACTIVE")
        # The change made while ENABLING goes out once ACTIVE, stamped with the clock.
        rec = __import__("json").loads(self.wait_records(stream, 1)[0]["Data"])
        self.assertEqual(rec["dynamodb"]["ApproximateCreationDateTime"], 1893456006000)
        self.ddb.update_kinesis_streaming_destination(
            TableName=name, StreamArn=arn,
            UpdateKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MICROSECOND"})
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "UPDATING")
        self.advance("5s")
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "ACTIVE")
        self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        # A second Disable while DISABLING answers the same.
        r = self.ddb.disable_kinesis_streaming_destination(TableName=name, StreamArn=arn)
        self.assertEqual(r["DestinationStatus"], "DISABLING")
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "DISABLING")
        self.advance("5s")
        self.assertEqual(self.destinations(name)[0]["DestinationStatus"], "DISABLED")


class Restart(unittest.TestCase, Destinations):
    """Destinations and undelivered changes survive kill -9 and a restart."""

    def test_queued_changes_survive_kill(self):
        port = free_port()
        kinesis = kinesis_server.KinesisServer()
        kinesis.port = port
        kinesis.start()
        server = Server(extra_args=["--kinesis-endpoint", kinesis.endpoint])
        try:
            server.start()
            self.ddb = server.client()
            self.ddb.create_table(TableName="krt", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                  KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                  BillingMode="PAY_PER_REQUEST")
            arn = kinesis.create_stream("kr-stream")
            self.enable("krt", arn)
            self.wait_status("krt", arn, "ACTIVE")
            kinesis.stop()  # Kinesis down: changes wait in pogi's queue
            for i in range(5):
                self.ddb.put_item(TableName="krt", Item={"pk": {"S": "i%d" % i}, "n": {"N": "1"}})
                self.ddb.update_item(TableName="krt", Key={"pk": {"S": "i%d" % i}}, UpdateExpression="SET n = :n",
                                     ExpressionAttributeValues={":n": {"N": "2"}})
            server.kill()
            # Kinesis back as a new (empty) server with a stream of the same
            # name (the same ARN), made before pogi can reach it: a delivery
            # that met the server without the stream would drop the records
            # as sent to a stream that is gone. On another port, which the
            # restart names.
            kinesis.port = free_port()
            kinesis.start()
            kinesis.create_stream("kr-stream")
            server.extra_args = ["--kinesis-endpoint", kinesis.endpoint]
            server.start()
            self.ddb = server.client()
            self.assertEqual(self.destinations("krt"), [{"StreamArn": arn, "DestinationStatus": "ACTIVE"}])
            deadline = time.time() + 30
            while True:
                got = kinesis.read_records("kr-stream")
                if len(got) >= 10 or time.time() > deadline:
                    break
                time.sleep(0.2)
            self.assertEqual(len(got), 10, got)  # none lost, none sent twice here
            for i in range(5):
                mine = [r["eventName"] for r in got if r["dynamodb"]["Keys"]["pk"]["S"] == "i%d" % i]
                self.assertEqual(mine, ["INSERT", "MODIFY"])
        finally:
            server.cleanup()
            kinesis.cleanup()


if __name__ == "__main__":
    unittest.main()
