"""`pogi gateway --engine HOST:PORT` as a user runs it: an engine and a
gateway in front of it, driven with boto3 and the AWS CLI. What the rest of
the suite checks through the gateway (POGI_TEST_DOOR=gateway, CTest's
e2e_gw.*) is the same answers; here, what only the gateway does:

- it refuses to start without --engine, in one line;
- the engine's own paths (the console, /_pogi/metrics) answer 404 there;
- --check-signatures is checked at the gateway;
- while the engine is down a request answers ServiceUnavailable (503), and
  once the engine is back on its address the gateway reconnects by itself;
- SIGTERM stops it cleanly, in-flight requests answered.
"""

import http.client
import json
import select
import subprocess
import time
import unittest

import botocore.exceptions

from harness import LOCALHOST, READY_TIMEOUT, Server, free_port, pogi_bin, run_pogi


class Gateway:
    """One `pogi gateway` process."""

    def __init__(self, engine_grpc_port, *extra):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [pogi_bin(), "gateway", "--engine", "%s:%d" % (LOCALHOST, engine_grpc_port), "--port", str(self.port)]
            + list(extra), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready = select.select([self.proc.stdout], [], [], READY_TIMEOUT)[0]
        line = self.proc.stdout.readline() if ready else b""
        if line != b"Ready.\n":
            self.proc.kill()
            raise AssertionError("pogi gateway printed %r; stderr: %s" % (line, self.proc.stderr.read()))

    def client(self):
        import boto3
        from botocore.config import Config
        return boto3.client("dynamodb", endpoint_url="http://%s:%d" % (LOCALHOST, self.port),
                            region_name="us-east-1", aws_access_key_id="pogi-test",
                            aws_secret_access_key="pogi-test", config=Config(retries={"max_attempts": 1}))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        rc = self.proc.wait(timeout=10)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return rc


class GatewayTest(unittest.TestCase):

    def setUp(self):
        self.engine = Server(in_memory=True)
        self.addCleanup(self.engine.cleanup)
        self.engine.start()
        self.gateway = Gateway(self.engine.grpc_port)
        self.addCleanup(self.gateway.stop)

    def test_without_an_engine_it_refuses_to_start(self):
        cp = run_pogi("gateway", "--port", "0")
        self.assertEqual(cp.returncode, 1)
        self.assertEqual(len(cp.stderr.strip().splitlines()), 1, cp.stderr)
        self.assertIn("--engine HOST:PORT", cp.stderr)

    def test_items_go_through_to_the_engine(self):
        ddb = self.gateway.client()
        ddb.create_table(TableName="gwt", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        ddb.put_item(TableName="gwt", Item={"pk": {"S": "a"}, "v": {"N": "1"}})
        # The engine's own door sees what went through the gateway.
        item = self.engine.client().get_item(TableName="gwt", Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item, {"pk": {"S": "a"}, "v": {"N": "1"}})
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            ddb.put_item(TableName="gwt", Item={"pk": {"S": "a"}}, ConditionExpression="attribute_not_exists(pk)",
                         ReturnValuesOnConditionCheckFailure="ALL_OLD")
        self.assertEqual(e.exception.response["Error"]["Code"], "ConditionalCheckFailedException")
        self.assertEqual(e.exception.response["Item"], {"pk": {"S": "a"}, "v": {"N": "1"}})
        # The AWS CLI too.
        env = self.engine.cli_env()
        env["AWS_ENDPOINT_URL_DYNAMODB"] = "http://%s:%d" % (LOCALHOST, self.gateway.port)
        cp = subprocess.run(["aws", "dynamodb", "get-item", "--table-name", "gwt", "--key", '{"pk":{"S":"a"}}'],
                            capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(json.loads(cp.stdout)["Item"]["v"], {"N": "1"})

    def test_the_engines_own_paths_answer_404(self):
        for path in ("/_pogi/", "/_pogi/metrics"):
            conn = http.client.HTTPConnection(LOCALHOST, self.gateway.port, timeout=10)
            conn.request("GET", path)
            self.assertEqual(conn.getresponse().status, 404, path)
            conn.close()

    def test_signatures_are_checked_at_the_gateway(self):
        checked = Gateway(self.engine.grpc_port, "--check-signatures", "--access-key-id", "gk",
                          "--secret-access-key", "gs")
        self.addCleanup(checked.stop)
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            checked.client().list_tables()  # signed with pogi-test, not gk
        self.assertEqual(e.exception.response["Error"]["Code"], "UnrecognizedClientException")

    def test_a_gone_engine_answers_503_and_the_gateway_reconnects(self):
        ddb = self.gateway.client()
        self.assertEqual(ddb.list_tables()["TableNames"], [])
        self.engine.stop()
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            ddb.list_tables()
        self.assertEqual(e.exception.response["ResponseMetadata"]["HTTPStatusCode"], 503)
        self.assertEqual(e.exception.response["Error"]["Code"], "ServiceUnavailableException")
        self.engine.start()  # the same ports
        deadline = time.monotonic() + 20
        while True:
            try:
                self.assertEqual(ddb.list_tables()["TableNames"], [])
                break
            except botocore.exceptions.ClientError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def test_sigterm_stops_it_cleanly(self):
        self.gateway.client().list_tables()
        self.assertEqual(self.gateway.stop(), 0)
        self.assertTrue(self.engine.alive(), "the engine goes on")


if __name__ == "__main__":
    unittest.main()
