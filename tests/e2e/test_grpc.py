"""The DynamoDB gRPC service driven directly from Python.

Needs grpcio and protobuf for this Python (`import grpc`, `import google.protobuf`)
and protoc to compile proto/; skipped otherwise. Messages are compiled with
protoc --python_out into a temporary folder, and calls go through grpc's
generic unary API, so no grpc Python plugin is needed.
"""

import glob
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from harness import HERE, LOCALHOST, ServerTestCase

PROTO_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "proto"))

try:
    import grpc  # noqa: F401
    import google.protobuf  # noqa: F401
    _MISSING = None
except ImportError as e:
    _MISSING = "grpcio/protobuf not importable: %s" % e
if _MISSING is None and not shutil.which("protoc"):
    _MISSING = "protoc not found"


@unittest.skipIf(_MISSING is not None, _MISSING or "")
class GrpcDynamoDB(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        cls.gen = tempfile.mkdtemp(prefix="pogi-e2e-pb-")
        protos = glob.glob(os.path.join(PROTO_ROOT, "pogi", "v1", "*.proto"))
        cp = subprocess.run(["protoc", "-I", PROTO_ROOT, "--python_out", cls.gen] + protos,
                            capture_output=True, text=True)
        if cp.returncode != 0:
            shutil.rmtree(cls.gen, ignore_errors=True)
            raise unittest.SkipTest("protoc failed: %s" % cp.stderr)
        sys.path.insert(0, cls.gen)
        try:
            cls.pb = importlib.import_module("pogi.v1.dynamodb_pb2")
        except Exception as e:  # e.g. protobuf runtime too old for the generated code
            raise unittest.SkipTest("cannot import generated code: %s" % e)
        super().setUpClass()
        cls.channel = grpc.insecure_channel("%s:%d" % (LOCALHOST, cls.server.grpc_port))

    @classmethod
    def tearDownClass(cls):
        try:
            cls.channel.close()
            super().tearDownClass()
        finally:
            if cls.gen in sys.path:
                sys.path.remove(cls.gen)
            shutil.rmtree(cls.gen, ignore_errors=True)

    def call(self, op, request, response_type):
        fn = self.channel.unary_unary("/pogi.v1.DynamoDB/%s" % op,
                                      request_serializer=lambda m: m.SerializeToString(),
                                      response_deserializer=response_type.FromString)
        return fn(request, timeout=10)

    def S(self, s):
        return self.pb.AttributeValue(s=s)

    def create(self, name):
        pb = self.pb
        req = pb.CreateTableRequest(
            table_name=name, billing_mode="PAY_PER_REQUEST",
            attribute_definitions=[pb.AttributeDefinition(attribute_name="pk", attribute_type="S")],
            key_schema=[pb.KeySchemaElement(attribute_name="pk", key_type="HASH")])
        return self.call("CreateTable", req, pb.CreateTableResponse)

    def test_table_and_item_round_trip(self):
        pb = self.pb
        self.create("grpc-items")
        desc = self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-items"),
                         pb.DescribeTableResponse)
        self.assertEqual(desc.table.table_status, "ACTIVE")
        put = pb.PutItemRequest(table_name="grpc-items")
        put.item["pk"].CopyFrom(self.S("a"))
        put.item["n"].CopyFrom(pb.AttributeValue(n="1.50"))
        self.call("PutItem", put, pb.PutItemResponse)
        get = pb.GetItemRequest(table_name="grpc-items")
        get.key["pk"].CopyFrom(self.S("a"))
        resp = self.call("GetItem", get, pb.GetItemResponse)
        self.assertTrue(resp.HasField("item"))
        self.assertEqual(resp.item.attributes["n"].n, "1.5")
        # The HTTP door sees the same engine.
        item = self.ddb.get_item(TableName="grpc-items", Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item["n"], {"N": "1.5"})
        # A missing item: no item field at all.
        get.key["pk"].CopyFrom(self.S("nope"))
        self.assertFalse(self.call("GetItem", get, pb.GetItemResponse).HasField("item"))

    def test_errors_carry_dynamodb_type_and_message(self):
        pb = self.pb
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-missing"),
                      pb.DescribeTableResponse)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)
        self.assertIn("ResourceNotFoundException", cm.exception.details())
        self.assertIn("Requested resource not found", cm.exception.details())

        self.create("grpc-val")
        put = pb.PutItemRequest(table_name="grpc-val")
        put.item["pk"].CopyFrom(pb.AttributeValue(n="1"))
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("PutItem", put, pb.PutItemResponse)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("Type mismatch for key pk expected: S actual: N", cm.exception.details())

        with self.assertRaises(grpc.RpcError) as cm:
            self.create("grpc-val")
        self.assertEqual(cm.exception.code(), grpc.StatusCode.ALREADY_EXISTS)

    def test_list_tables_paging(self):
        pb = self.pb
        for i in range(3):
            self.create("grpc-list-%d" % i)
        resp = self.call("ListTables", pb.ListTablesRequest(limit=2), pb.ListTablesResponse)
        self.assertEqual(len(resp.table_names), 2)
        self.assertTrue(resp.last_evaluated_table_name)

    def test_unknown_method(self):
        pb = self.pb
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("NoSuchOperation", pb.ListTablesRequest(), pb.ListTablesResponse)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.UNIMPLEMENTED)


if __name__ == "__main__":
    unittest.main()
