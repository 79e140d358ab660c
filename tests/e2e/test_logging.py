"""The logger: --log-format text|json, --log-file, --log-level, and the
request log (--log-requests): one well-formed line per answered request,
from either door, with every field docs/admin.md names."""

import json
import os
import re
import socket
import tempfile
import time
import unittest

from harness import LOCALHOST, Server, StartError, direct_only, free_port, run_pogi

TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (error|warn|info|debug) \S")


def json_lines(text):
    """Every non-empty line parsed as JSON (a line that is not JSON fails)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def wait_for(predicate, timeout=30.0):
    """predicate's value once true (polled), or its last value after
    `timeout` s. A line is written as its request is answered: no promised
    time, so the wait only says "it never came"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


@direct_only("the log of pogi start's own process and its HTTP door")
class JsonLogTest(unittest.TestCase):
    def test_every_line_is_one_json_object_with_time_level_message(self):
        with Server(in_memory=True, extra_args=["--log-format", "json"]) as srv:
            srv.client().list_tables()
            self.assertEqual(srv.stop(), 0)
            lines = json_lines(srv.stderr_text())
        self.assertGreaterEqual(len(lines), 2, lines)  # start-up and stop at least
        for line in lines:
            self.assertRegex(line["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
            self.assertIn(line["level"], ("error", "warn", "info", "debug"))
            self.assertIsInstance(line["message"], str)
        start = lines[0]
        self.assertIn("DynamoDB API on http://", start["message"])
        self.assertEqual(start["http_port"], srv.port)
        self.assertEqual(start["grpc_port"], srv.grpc_port)
        self.assertEqual(lines[-1]["message"], "stopped")
        # Without --log-requests, no request lines.
        self.assertFalse([l for l in lines if l["message"] == "request"])

    def test_refused_start_is_one_json_error_line(self):
        holder = socket.socket()
        holder.bind((LOCALHOST, 0))
        holder.listen(1)
        try:
            port = holder.getsockname()[1]
            cp = run_pogi("start", "--in-memory", "--port", port, "--grpc-port", free_port(),
                          "--log-format", "json")
        finally:
            holder.close()
        self.assertEqual(cp.returncode, 1)
        self.assertEqual(cp.stdout, "")
        lines = json_lines(cp.stderr)
        self.assertEqual(len(lines), 1, cp.stderr)
        self.assertEqual(lines[0]["level"], "error")
        self.assertIn("cannot listen", lines[0]["message"])

    def test_bad_log_flags_are_refused_in_one_line(self):
        # A log file whose folder is a regular file cannot be opened.
        not_a_dir = tempfile.NamedTemporaryFile(prefix="pogi-log-")
        for args, what in ((["--log-format", "xml"], "invalid --log-format xml"),
                           (["--log-level", "loud"], "invalid --log-level loud"),
                           (["--log-file", not_a_dir.name + "/x.log"], "cannot open log file")):
            cp = run_pogi("start", "--in-memory", "--port", "0", "--grpc-port", "0", *args)
            self.assertEqual(cp.returncode, 1, cp.stderr)
            lines = [l for l in cp.stderr.splitlines() if l.strip()]
            self.assertEqual(len(lines), 1, cp.stderr)
            self.assertIn(what, lines[0])


@direct_only("the log of pogi start's own process and its HTTP door")
class TextLogTest(unittest.TestCase):
    def test_text_lines_carry_time_level_and_fields(self):
        with Server(in_memory=True) as srv:
            self.assertEqual(srv.stop(), 0)
            lines = [l for l in srv.stderr_text().splitlines() if l.strip()]
        for line in lines:
            self.assertRegex(line, TEXT_LINE)
        self.assertIn("http_port=%d" % srv.port, lines[0])

    def test_log_level_warn_hides_info_lines(self):
        with Server(in_memory=True, log_level="warn", extra_args=["--log-requests"]) as srv:
            srv.client().list_tables()
            self.assertEqual(srv.stop(), 0)
            self.assertEqual(srv.stderr_text().strip(), "")

    def test_log_file_receives_the_lines_and_stderr_stays_empty(self):
        tmp = tempfile.mkdtemp(prefix="pogi-log-")
        path = os.path.join(tmp, "pogi.log")
        with Server(in_memory=True, extra_args=["--log-file", path, "--log-format", "json"]) as srv:
            srv.client().list_tables()
            self.assertEqual(srv.stop(), 0)
            self.assertEqual(srv.stderr_text().strip(), "")
        with open(path) as f:
            lines = json_lines(f.read())
        self.assertIn("DynamoDB API on", lines[0]["message"])
        # A second start appends.
        with Server(in_memory=True, extra_args=["--log-file", path]) as srv:
            self.assertEqual(srv.stop(), 0)
        with open(path) as f:
            text = f.read()
        self.assertEqual(text.count("DynamoDB API on"), 2)


@direct_only("the log of pogi start's own process and its HTTP door")
class RequestLogTest(unittest.TestCase):
    FIELDS = ("door", "operation", "status", "latency_us", "request_id", "bytes_in", "bytes_out")

    @classmethod
    def setUpClass(cls):
        cls.server = Server(in_memory=True, extra_args=["--log-requests", "--log-format", "json"])
        cls.server.start()
        cls.ddb = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def request_lines(self):
        return [l for l in json_lines(self.server.stderr_text()) if l["message"] == "request"]

    def test_one_line_per_http_request_with_every_field(self):
        created = self.ddb.create_table(TableName="logged", BillingMode="PAY_PER_REQUEST",
                                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        # Its line is written as it is answered: counted once there (a busy
        # machine may write it after the client has its answer).
        created_id = created["ResponseMetadata"]["RequestId"]
        wait_for(lambda: [l for l in self.request_lines() if l.get("request_id") == created_id])
        before = len(self.request_lines())
        resp = self.ddb.put_item(TableName="logged", Item={"pk": {"S": "a"}, "v": {"N": "1"}})
        request_id = resp["ResponseMetadata"]["RequestId"]
        lines = wait_for(lambda: [l for l in self.request_lines() if l.get("request_id") == request_id])
        self.assertEqual(len(lines), 1, self.request_lines())
        line = lines[0]
        for field in self.FIELDS:
            self.assertIn(field, line)
        self.assertEqual(line["door"], "http")
        self.assertEqual(line["operation"], "PutItem")
        self.assertEqual(line["table"], "logged")
        self.assertEqual(line["status"], 200)
        self.assertNotIn("error", line)
        self.assertGreater(line["bytes_in"], 20)
        self.assertEqual(line["bytes_out"], 2)  # {}
        self.assertGreaterEqual(line["latency_us"], 0)
        self.assertEqual(len(self.request_lines()), before + 1)

    def test_an_error_line_names_the_type_and_status(self):
        from botocore.exceptions import ClientError
        with self.assertRaises(ClientError) as cm:
            self.ddb.get_item(TableName="missing-table", Key={"pk": {"S": "a"}})
        request_id = cm.exception.response["ResponseMetadata"]["RequestId"]
        lines = wait_for(lambda: [l for l in self.request_lines() if l.get("request_id") == request_id])
        self.assertEqual(len(lines), 1)
        self.assertEqual(lines[0]["status"], 400)
        self.assertEqual(lines[0]["error"], "ResourceNotFoundException")
        self.assertEqual(lines[0]["table"], "missing-table")
        self.assertEqual(lines[0]["operation"], "GetItem")

    def test_an_unknown_operation_is_logged_without_one(self):
        before = len(self.request_lines())
        status, _ = self.server.call("NoSuchOperation", {})
        self.assertEqual(status, 400)
        lines = wait_for(lambda: self.request_lines()[before:])
        self.assertEqual(len(lines), 1)
        self.assertEqual(lines[0]["error"], "UnknownOperationException")
        self.assertNotIn("operation", lines[0])

    def test_grpc_calls_are_logged_with_their_door_and_code(self):
        cp = self.server.admin("describe", "missing-grpc-table")
        self.assertNotEqual(cp.returncode, 0)
        lines = wait_for(lambda: [l for l in self.request_lines() if l.get("door") == "grpc"
                                  and l.get("table") == "missing-grpc-table"])
        self.assertEqual(len(lines), 1, self.request_lines())
        line = lines[0]
        self.assertEqual(line["operation"], "DescribeTable")
        self.assertEqual(line["grpc_code"], 5)  # NOT_FOUND
        self.assertEqual(line["error"], "ResourceNotFoundException")
        self.assertTrue(line["request_id"].startswith("grpc-"))


if __name__ == "__main__":
    unittest.main()
