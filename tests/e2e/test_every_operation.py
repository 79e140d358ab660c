"""Every operation of DynamoDB and DynamoDB Streams answers.

The operation lists come from the clients themselves, not from pogi: the AWS
SDK for JavaScript v3 (the newest model, 62 DynamoDB operations) and
botocore's DynamoDB Streams model (4). Each is sent once with an empty input
over HTTP; an implemented operation refuses it with its own validation or
not-found error, and none may answer UnknownOperationException. Each also
has its rpc on pogi's gRPC door (test_grpc calls every rpc).
"""

import unittest

import boto3

from grpc_client import pb
from harness import ServerTestCase, run_js
import grpc_client  # noqa: F401  (finds grpcio first)

UNKNOWN = "UnknownOperationException"


class EveryOperation(ServerTestCase):

    def test_every_dynamodb_operation_of_the_newest_sdk_answers(self):
        answers = run_js(self, self.server, "every_operation.mjs", {})
        self.assertEqual(len(answers), 62, sorted(answers))
        unknown = sorted(op for op, answer in answers.items() if answer == UNKNOWN)
        self.assertEqual(unknown, [])
        # Not a crash or an internal error either: each answer is the
        # operation's own refusal of an empty request, or a success.
        internal = sorted(op for op, answer in answers.items() if answer in ("InternalServerError", "Error"))
        self.assertEqual(internal, [])
        self.assertEqual(answers["ListTables"], "ok")
        self.assertEqual(answers["PutItem"], "ValidationException")
        self.assertServing()

    def test_every_streams_operation_answers(self):
        ops = boto3.session.Session().client(
            "dynamodbstreams", region_name="us-east-1").meta.service_model.operation_names
        self.assertEqual(sorted(ops), ["DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"])
        for op in ops:
            with self.subTest(op=op):
                status, body = self.server.call("DynamoDBStreams_20120810." + op, {})
                self.assertNotEqual(body.get("__type", "").split("#")[-1], UNKNOWN, body)
                self.assertIn(status, (200, 400), body)

    def test_every_operation_has_its_rpc(self):
        answers = run_js(self, self.server, "every_operation.mjs", {})
        rpcs = set(pb.DESCRIPTOR.services_by_name["DynamoDB"].methods_by_name)
        self.assertEqual(sorted(set(answers) - rpcs), [])


if __name__ == "__main__":
    unittest.main()
