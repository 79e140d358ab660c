"""Fault injection by rule (AddFault/ListFaults/ClearFaults and `pogi faults`):
each action seen by boto3 as DynamoDB's error (shape and HTTP status) and
retried by botocore's standard retry mode, latency, cut connections, the
schedules (next K, every Nth, seeded probability), matching by table, key
prefix and door, and refusals of bad rules."""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import json
import time
import unittest

import boto3
import botocore.exceptions
import grpc
from botocore.config import Config

import grpc_client
from grpc_client import apb, pb
from harness import ServerTestCase, direct_only


class Faults(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.admin = grpc_client.admin(cls.channel)
        cls.dynamo = grpc_client.dynamodb(cls.channel)
        # The harness's client retries once (botocore's legacy max_attempts
        # counts retries): these tests see every error.
        cls.ddb = None
        for t in ("f-a", "f-b"):
            cls.server.client().create_table(TableName=t, BillingMode="PAY_PER_REQUEST",
                                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        super().tearDownClass()

    def setUp(self):
        self.admin.ClearFaults(apb.ClearFaultsRequest(), timeout=10)
        self.ddb = self.noretry()

    def retrying(self, attempts=4):
        return boto3.client("dynamodb", endpoint_url=self.server.endpoint, region_name="us-east-1",
                            aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                            config=Config(retries={"mode": "standard", "max_attempts": attempts},
                                          read_timeout=10, connect_timeout=5))

    def noretry(self):
        return boto3.client("dynamodb", endpoint_url=self.server.endpoint, region_name="us-east-1",
                            aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                            config=Config(retries={"total_max_attempts": 1}, read_timeout=10))

    def add(self, *args):
        cp = self.server.admin("faults", "add", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return cp.stdout.split()[-1]

    def rules(self):
        return {r.id: r for r in self.admin.ListFaults(apb.ListFaultsRequest(), timeout=10).rules}

    def put(self, client=None, table="f-a", pk="k"):
        return (client or self.ddb).put_item(TableName=table, Item={"pk": {"S": pk}})

    def test_errors_in_dynamodb_shape_and_retried(self):
        cases = [("ProvisionedThroughputExceededException", 400,
                  "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"),
                 ("ThrottlingException", 400, "com.amazon.coral.availability#ThrottlingException"),
                 ("RequestLimitExceeded", 400, "com.amazonaws.dynamodb.v20120810#RequestLimitExceeded"),
                 ("InternalServerError", 500, "com.amazonaws.dynamodb.v20120810#InternalServerError"),
                 ("ServiceUnavailable", 503, None)]
        for name, status, full_type in cases:
            with self.subTest(name):
                self.admin.ClearFaults(apb.ClearFaultsRequest(), timeout=10)
                rule = self.add("--operation", "PutItem", "--error", name, "--count", "2")
                code, body = self.server.call("PutItem", {"TableName": "f-a", "Item": {"pk": {"S": "x"}}})
                self.assertEqual(code, status)
                if full_type:
                    self.assertEqual(body["__type"], full_type)
                self.assertTrue(body.get("message") or body.get("Message"))
                # One fired; the next call is retried by botocore past the last one.
                resp = self.put(self.retrying())
                self.assertEqual(resp["ResponseMetadata"]["RetryAttempts"], 1)
                r = self.rules()[rule]
                self.assertEqual((r.matched, r.fired), (3, 2))
                # Without retries boto3 raises DynamoDB's error code.
                self.add("--operation", "PutItem", "--error", name, "--count", "1")
                with self.assertRaises(botocore.exceptions.ClientError) as cm:
                    self.put()
                self.assertEqual(cm.exception.response["ResponseMetadata"]["HTTPStatusCode"], status)

    def test_transaction_conflict_and_condition(self):
        self.add("--operation", "TransactWriteItems", "--error", "TransactionConflict", "--count", "1")
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": "f-a", "Item": {"pk": {"S": "t1"}}}},
                {"Put": {"TableName": "f-b", "Item": {"pk": {"S": "t2"}}}}])
        err = cm.exception.response
        self.assertEqual(err["Error"]["Code"], "TransactionCanceledException")
        self.assertIn("[TransactionConflict, None]", err["Error"]["Message"])
        self.assertEqual([r["Code"] for r in err["CancellationReasons"]], ["TransactionConflict", "None"])
        self.add("--operation", "PutItem", "--error", "TransactionConflict", "--count", "1")
        with self.assertRaises(botocore.exceptions.ClientError) as cm:
            self.put()
        self.assertEqual(cm.exception.response["Error"]["Code"], "TransactionConflictException")
        self.add("--operation", "UpdateItem", "--error", "ConditionalCheckFailedException", "--count", "1")
        with self.assertRaises(self.ddb.exceptions.ConditionalCheckFailedException):
            self.ddb.update_item(TableName="f-a", Key={"pk": {"S": "k"}}, UpdateExpression="SET a = :a",
                                 ExpressionAttributeValues={":a": {"N": "1"}})

    @direct_only("through pogi gateway a rule meets the request at the engine's gRPC door: a cut answers 503")
    def test_latency_and_disconnect(self):
        slow = self.add("--operation", "GetItem", "--latency", "300ms", "--count", "1")
        t = time.monotonic()
        self.ddb.get_item(TableName="f-a", Key={"pk": {"S": "k"}})
        # The rule's promise is a floor: a busy machine only adds to it.
        self.assertGreaterEqual(time.monotonic() - t, 0.3)
        # --count 1: the next GetItem is matched, not delayed (counted, not
        # timed: a busy machine may take 0.3 s for any call).
        self.ddb.get_item(TableName="f-a", Key={"pk": {"S": "k"}})
        r = self.rules()[slow]
        self.assertEqual((r.matched, r.fired), (2, 1))
        rule = self.add("--operation", "PutItem", "--disconnect", "--count", "1")
        with self.assertRaises(botocore.exceptions.ConnectionClosedError):
            self.put()
        self.add("--operation", "PutItem", "--disconnect", "--count", "1")
        resp = self.put(self.retrying())
        self.assertEqual(resp["ResponseMetadata"]["RetryAttempts"], 1)
        self.assertEqual(self.rules()[rule].fired, 1)
        # Over gRPC a cut answers UNAVAILABLE.
        self.add("--operation", "PutItem", "--disconnect", "--count", "1")
        req = pb.PutItemRequest(table_name="f-a")
        req.item.attributes["pk"].s = "g"
        with self.assertRaises(grpc.RpcError) as cm:
            self.dynamo.PutItem(req, timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.UNAVAILABLE)

    def test_schedules(self):
        self.add("--operation", "PutItem", "--error", "ThrottlingException", "--every", "3")
        outcome = []
        for i in range(6):
            try:
                self.put()
                outcome.append(0)
            except botocore.exceptions.ClientError:
                outcome.append(1)
        self.assertEqual(outcome, [0, 0, 1, 0, 0, 1])

        def pattern():
            self.admin.ClearFaults(apb.ClearFaultsRequest(), timeout=10)
            self.add("--operation", "PutItem", "--error", "ThrottlingException",
                     "--probability", "0.5", "--seed", "42")
            out = []
            for i in range(30):
                try:
                    self.put()
                    out.append(0)
                except botocore.exceptions.ClientError:
                    out.append(1)
            return out
        first = pattern()
        self.assertEqual(first, pattern())  # the same seed, the same sequence
        self.assertTrue(3 < sum(first) < 27, first)

    @direct_only("through pogi gateway every request reaches the engine by its gRPC door")
    def test_matching(self):
        self.add("--operation", "PutItem,DeleteItem", "--table", "f-b", "--error", "ThrottlingException")
        self.put(table="f-a")
        with self.assertRaises(botocore.exceptions.ClientError):
            self.put(table="f-b")
        with self.assertRaises(botocore.exceptions.ClientError):
            self.ddb.delete_item(TableName="f-b", Key={"pk": {"S": "k"}})
        self.ddb.get_item(TableName="f-b", Key={"pk": {"S": "k"}})
        # Batches match by the tables they name.
        self.add("--operation", "BatchWriteItem", "--table", "f-b", "--error", "InternalServerError")
        with self.assertRaises(botocore.exceptions.ClientError):
            self.ddb.batch_write_item(RequestItems={"f-b": [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]})
        self.ddb.batch_write_item(RequestItems={"f-a": [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]})
        self.admin.ClearFaults(apb.ClearFaultsRequest(), timeout=10)
        self.add("--operation", "PutItem", "--key-prefix", "bad", "--error", "ThrottlingException")
        self.put(pk="good-1")
        with self.assertRaises(botocore.exceptions.ClientError):
            self.put(pk="bad-1")
        self.admin.ClearFaults(apb.ClearFaultsRequest(), timeout=10)
        self.add("--operation", "PutItem", "--door", "grpc", "--error", "ThrottlingException")
        self.put()
        req = pb.PutItemRequest(table_name="f-a")
        req.item.attributes["pk"].s = "g"
        with self.assertRaises(grpc.RpcError) as cm:
            self.dynamo.PutItem(req, timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.RESOURCE_EXHAUSTED)
        self.assertIn("ThrottlingException", cm.exception.details())

    def test_list_and_clear(self):
        a = self.add("--operation", "PutItem", "--error", "ThrottlingException", "--count", "1")
        b = self.add("--operation", "GetItem", "--latency", "1ms")
        cp = self.server.admin("faults", "list")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("ThrottlingException", cp.stdout)
        self.assertIn("next 1", cp.stdout)
        self.assertEqual(set(self.rules()), {a, b})
        self.admin.ClearFaults(apb.ClearFaultsRequest(id=a), timeout=10)
        self.assertEqual(set(self.rules()), {b})
        with self.assertRaises(grpc.RpcError) as cm:
            self.admin.ClearFaults(apb.ClearFaultsRequest(id="999"), timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)
        cp = self.server.admin("faults", "clear")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("cleared 1", cp.stdout)
        self.assertEqual(self.rules(), {})

    def test_bad_rules_refused(self):
        bad = [apb.FaultRule(operations=["PutItem"]),
               apb.FaultRule(operations=["NoSuchOp"], error="ThrottlingException"),
               apb.FaultRule(error="NoSuchError"),
               apb.FaultRule(error="ThrottlingException", latency_ms=10),
               apb.FaultRule(error="ThrottlingException", count=1, every=2),
               apb.FaultRule(error="ThrottlingException", probability=1.5),
               apb.FaultRule(error="ThrottlingException", door="smtp")]
        for rule in bad:
            with self.assertRaises(grpc.RpcError) as cm:
                self.admin.AddFault(apb.AddFaultRequest(rule=rule), timeout=10)
            self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT, str(rule))
        self.assertEqual(self.rules(), {})
        cp = self.server.admin("faults", "add", "--operation", "PutItem", "--error", "Nope")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("unknown error 'Nope'", cp.stderr)
        cp = self.server.admin("faults", "add", "--operation", "PutItem", "--latency", "fast")
        self.assertEqual(cp.returncode, 2)
        cp = self.server.admin("faults", "add", "--help")
        self.assertEqual(cp.returncode, 0)
        self.assertIn("example:", cp.stdout)


if __name__ == "__main__":
    unittest.main()
