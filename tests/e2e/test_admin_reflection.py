"""gRPC server reflection and grpc.health.v1.Health, as grpcurl and container
probes use them (Debian 12 packages no grpcurl: a Python reflection client
lists the services, fetches their descriptors and calls through them with
no .proto at hand)."""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import importlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import grpc_client  # noqa: F401  (fails the run without grpcio/protobuf)
from harness import HERE, ServerTestCase

# The reflection protocol from the repository's own .proto (the one pogi
# serves); health.proto is the test's (pogi implements Health by hand).
_GEN = tempfile.mkdtemp(prefix="pogi-e2e-refl-")
_REPO_PROTO = os.path.join(HERE, "..", "..", "proto")
_REFLECTION = "grpc/reflection/v1alpha/reflection.proto"
subprocess.run(["protoc", "-I", _REPO_PROTO, "--python_out", _GEN, _REFLECTION], check=True)
subprocess.run(["protoc", "-I", os.path.join(HERE, "protos"), "--python_out", _GEN, "health.proto"],
               check=True)
# Loaded by path: as a package, grpc/reflection/... would be looked up in
# grpcio's own `grpc` package.
_spec = importlib.util.spec_from_file_location(
    "reflection_pb2", os.path.join(_GEN, _REFLECTION.replace(".proto", "_pb2.py")))
refl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(refl)
sys.path.insert(0, _GEN)
health = importlib.import_module("health_pb2")


class Reflection(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.info = cls.channel.stream_stream(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=refl.ServerReflectionResponse.FromString)

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        super().tearDownClass()

    def ask(self, **kw):
        return list(self.info(iter([refl.ServerReflectionRequest(**kw)]), timeout=10))[0]

    def test_lists_every_service(self):
        resp = self.ask(list_services="")
        names = {s.name for s in resp.list_services_response.service}
        for want in ("pogi.v1.DynamoDB", "pogi.v1.Admin", "grpc.health.v1.Health",
                     "grpc.reflection.v1alpha.ServerReflection"):
            self.assertIn(want, names)

    def test_describe_and_call_through_reflection(self):
        # What `grpcurl -plaintext HOST:PORT pogi.v1.DynamoDB/ListTables` does.
        resp = self.ask(file_containing_symbol="pogi.v1.DynamoDB")
        files = [descriptor_pb2.FileDescriptorProto.FromString(b)
                 for b in resp.file_descriptor_response.file_descriptor_proto]
        self.assertIn("pogi/v1/dynamodb.proto", [f.name for f in files])
        pool = descriptor_pool.DescriptorPool()
        pending = {f.name: f for f in files}
        while pending:  # add each file after its dependencies
            for name, f in list(pending.items()):
                if all(d not in pending for d in f.dependency):
                    pool.Add(f)
                    del pending[name]
        service = pool.FindServiceByName("pogi.v1.DynamoDB")
        self.assertIn("PutItem", [m.name for m in service.methods])
        method = service.methods_by_name["ListTables"]
        get_class = getattr(message_factory, "GetMessageClass", None) or \
            message_factory.MessageFactory(pool).GetPrototype  # protobuf 3.x
        req_cls = get_class(method.input_type)
        resp_cls = get_class(method.output_type)
        self.ddb.create_table(TableName="refl-t", BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        call = self.channel.unary_unary("/pogi.v1.DynamoDB/ListTables",
                                        request_serializer=lambda m: m.SerializeToString(),
                                        response_deserializer=resp_cls.FromString)
        self.assertIn("refl-t", list(call(req_cls(), timeout=10).table_names))
        admin = self.ask(file_containing_symbol="pogi.v1.Admin")
        self.assertTrue(admin.file_descriptor_response.file_descriptor_proto)

    def test_unknown_symbol(self):
        resp = self.ask(file_containing_symbol="no.such.Service")
        self.assertEqual(resp.error_response.error_code, grpc.StatusCode.NOT_FOUND.value[0])

    def test_health(self):
        check = self.channel.unary_unary("/grpc.health.v1.Health/Check",
                                         request_serializer=lambda m: m.SerializeToString(),
                                         response_deserializer=health.HealthCheckResponse.FromString)
        resp = check(health.HealthCheckRequest(service=""), timeout=10)
        self.assertEqual(resp.status, health.HealthCheckResponse.SERVING)


if __name__ == "__main__":
    unittest.main()
