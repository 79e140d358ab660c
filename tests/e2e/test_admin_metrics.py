"""GetMetrics, TailRequests, GET /_pogi/metrics (Prometheus text), `pogi tail`
and `pogi top`. They build on the RequestRecords both doors publish; until a
door publishes them, the tests that need records skip with that reason.
Metrics count from pogi's start: a suite's calls are all there when someone
first asks afterwards."""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import json
import subprocess
import threading
import time
import unittest

import grpc

import grpc_client
from grpc_client import apb
from harness import Server, ServerTestCase, direct_only, pogi_bin


@direct_only("metrics and /_pogi/metrics count the engine's own doors")
class Metrics(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.admin = grpc_client.admin(cls.channel)
        cls.ddb.create_table(TableName="met-t", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        super().tearDownClass()

    def metrics(self):
        return self.admin.GetMetrics(apb.GetMetricsRequest(), timeout=10)

    def need_records(self):
        self.metrics()  # starts collection
        self.ddb.list_tables()
        if not any(m.calls for m in self.metrics().metrics):
            self.skipTest("the doors do not publish RequestRecords on this build yet")

    def test_shapes_without_records(self):
        m = self.metrics()
        self.assertEqual(len(m.latency_bounds_us), 14)
        self.assertGreaterEqual(m.since_seconds, 0)
        status, headers, body = self.server.raw(b"", method="GET", path="/_pogi/metrics", target=None,
                                                content_type=None)
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/plain"))
        self.assertIn(b"# TYPE pogi_requests_total counter", body)
        # Any other GET keeps DynamoDB's health line.
        status, _, body = self.server.raw(b"", method="GET", path="/", target=None, content_type=None)
        self.assertTrue(body.startswith(b"healthy:"))
        cp = self.server.admin("top", "--iterations", "1")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("OPERATION", cp.stdout)

    def test_counted_from_the_start_not_from_the_first_ask(self):
        # The class's server was asked already: a fresh one, asked only after.
        with Server() as server:
            ddb = server.client()
            ddb.create_table(TableName="met-early", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            for i in range(4):
                ddb.put_item(TableName="met-early", Item={"pk": {"S": str(i)}})
            _, _, body = server.raw(b"", method="GET", path="/_pogi/metrics", target=None, content_type=None)
            text = body.decode()
            self.assertIn('pogi_requests_total{operation="PutItem",table="met-early"} 4', text)
            self.assertIn('pogi_requests_total{operation="CreateTable",table="met-early"} 1', text)
            cp = server.admin("top", "--iterations", "1")
            self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertRegex(cp.stdout, r"PutItem +met-early +4 ")

    def test_counts_errors_and_prometheus(self):
        self.need_records()
        before = {(m.operation, m.table_name): m for m in self.metrics().metrics}
        for i in range(3):
            self.ddb.put_item(TableName="met-t", Item={"pk": {"S": str(i)}})
        with self.assertRaises(Exception):
            self.ddb.get_item(TableName="met-missing", Key={"pk": {"S": "x"}})
        after = {(m.operation, m.table_name): m for m in self.metrics().metrics}
        put = after[("PutItem", "met-t")]
        old = before.get(("PutItem", "met-t"))
        self.assertEqual(put.calls - (old.calls if old else 0), 3)
        self.assertEqual(sum(put.latency_counts), put.calls)
        self.assertGreater(put.bytes_in, 0)
        self.assertEqual(after[("GetItem", "met-missing")].errors["ResourceNotFoundException"], 1)
        _, _, body = self.server.raw(b"", method="GET", path="/_pogi/metrics", target=None, content_type=None)
        text = body.decode()
        self.assertIn('pogi_requests_total{operation="PutItem",table="met-t"}', text)
        self.assertIn('pogi_request_duration_seconds_bucket{operation="PutItem",table="met-t",le="+Inf"}', text)
        self.assertIn('type="ResourceNotFoundException"', text)

    def test_tail(self):
        self.need_records()
        events = []
        stream = self.admin.TailRequests(apb.TailRequestsRequest(with_body=True), timeout=30)

        def read():
            try:
                for e in stream:
                    events.append(e)
                    if e.operation == "DeleteItem":
                        return
            except grpc.RpcError:
                pass
        t = threading.Thread(target=read)
        t.start()
        # The tail shows what is answered once it is subscribed, and the
        # client cannot see when that is: puts until one shows (a wait, not
        # a sleep a busy machine may outrun), then a delete ends the reader.
        self.put_until("PutItem in the tail", lambda: any(e.operation == "PutItem" for e in list(events)), "tail")
        self.ddb.delete_item(TableName="met-t", Key={"pk": {"S": "tail"}})
        t.join(30)
        stream.cancel()
        ops = [e.operation for e in events]
        self.assertIn("PutItem", ops)
        put = events[ops.index("PutItem")]
        self.assertEqual((put.table_name, put.door, put.status), ("met-t", "http", 200))
        self.assertIn("tail", put.body)
        # The CLI: lines as requests are answered.
        proc = subprocess.Popen([pogi_bin(), "tail", "--host", "127.0.0.1", "--grpc-port",
                                 str(self.server.grpc_port)], stdout=subprocess.PIPE, text=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
        reader.start()
        try:
            self.put_until("line from pogi tail", lambda: lines, "cli")
            self.assertIn("PutItem", lines[0])
            self.assertIn("met-t", lines[0])
        finally:
            proc.kill()
            proc.wait()

    def put_until(self, what, seen, pk):
        """PutItem of pk every 0.2 s until seen() is true; 30 s at most."""
        deadline = time.monotonic() + 30
        while True:
            self.ddb.put_item(TableName="met-t", Item={"pk": {"S": pk}})
            time.sleep(0.2)
            if seen():
                return
            self.assertLess(time.monotonic(), deadline, "no %s within 30 s" % what)


if __name__ == "__main__":
    unittest.main()
