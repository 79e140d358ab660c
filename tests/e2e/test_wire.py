"""The HTTP gateway seen raw: JSON errors, targets, limits, headers, connections."""

import json
import re
import socket
import unittest
import zlib

from harness import LOCALHOST, UNVERIFIED_AUTH, ServerTestCase

SERIALIZATION = "com.amazon.coral.service#SerializationException"
UNKNOWN_OP = "com.amazon.coral.service#UnknownOperationException"


def raw_exchange(port, data, timeout=10):
    """Sends bytes on a fresh socket; returns everything read until the server closes."""
    with socket.create_connection((LOCALHOST, port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                raise AssertionError("server did not close the connection; got %r"
                                     % b"".join(chunks)[:500])
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def request_bytes(body, target="ListTables", version="HTTP/1.1", extra=""):
    body = body.encode() if isinstance(body, str) else body
    auth = "".join("%s: %s\r\n" % kv for kv in UNVERIFIED_AUTH.items())
    head = ("POST / %s\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
            "X-Amz-Target: DynamoDB_20120810.%s\r\nContent-Length: %d\r\n%s%s\r\n"
            % (version, LOCALHOST, target, len(body), auth, extra))
    return head.encode() + body


class Wire(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ddb.create_table(TableName="wire", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    def assertError(self, status, headers, data, want_status, want_type, message=None):
        self.assertEqual(status, want_status, data[:300])
        body = json.loads(data)
        self.assertEqual(body["__type"], want_type)
        if message is not None:
            self.assertEqual(body.get("message"), message)
        self.assertHeaders(headers, data)
        return body

    def assertHeaders(self, headers, data):
        self.assertRegex(headers.get("x-amzn-requestid", ""), r"^[0-9A-Z]{52}$")
        self.assertEqual(headers.get("x-amz-crc32"), str(zlib.crc32(data)))
        self.assertEqual(int(headers.get("content-length", -1)), len(data))

    # ---- malformed input --------------------------------------------------

    def test_malformed_json(self):
        for body in ("{bad", "{\"Limit\": 1,}", "{\"Limit\": 1} trailing", b"\xff\xfe{"):
            with self.subTest(body=body):
                status, headers, data = self.server.raw(body, target="ListTables")
                self.assertError(status, headers, data, 400, SERIALIZATION)
        self.assertServing()

    def test_malformed_json_exact_body(self):
        status, headers, data = self.server.raw("not json", target="ListTables")
        self.assertEqual(status, 400)
        self.assertEqual(json.loads(data), {"__type": SERIALIZATION})
        self.assertEqual(headers["content-type"], "application/x-amz-json-1.0")

    def test_wrong_json_type_for_table_name(self):
        for value in (5, ["wire"], {"a": 1}, True):
            with self.subTest(value=value):
                status, headers, data = self.server.raw({"TableName": value},
                                                        target="DescribeTable")
                self.assertError(status, headers, data, 400, SERIALIZATION)
        status, headers, data = self.server.raw({"TableName": 5}, target="DescribeTable")
        # DynamoDB spells the key "Message" in serialization errors.
        self.assertEqual(json.loads(data)["Message"], "NUMBER_VALUE cannot be converted to String")

    def test_wrong_json_type_for_limit(self):
        status, headers, data = self.server.raw({"Limit": "ten"}, target="ListTables")
        body = self.assertError(status, headers, data, 400, SERIALIZATION)
        # Limit is an Integer in DynamoDB's model.
        self.assertEqual(body["Message"], "STRING_VALUE cannot be converted to Integer")

    def test_top_level_not_an_object(self):
        status, headers, data = self.server.raw("[]", target="ListTables")
        self.assertError(status, headers, data, 400, SERIALIZATION)
        self.assertServing()

    def test_unknown_members_are_ignored(self):
        status, headers, data = self.server.raw({"Limit": 1, "NoSuchMember": {"x": [1]}},
                                                target="ListTables")
        self.assertEqual(status, 200, data)
        self.assertHeaders(headers, data)

    # ---- targets ----------------------------------------------------------

    def test_missing_target(self):
        status, headers, data = self.server.raw("{}", target=None)
        body = self.assertError(status, headers, data, 400, UNKNOWN_OP)
        self.assertEqual(body, {"__type": UNKNOWN_OP})

    def test_unknown_operation(self):
        for target in ("DynamoDB_20120810.NoSuchOp", "whatever", "DynamoDB_20111205.ListTables",
                       "DynamoDB_20120810.listtables", "DynamoDB_20120810."):
            with self.subTest(target=target):
                status, headers, data = self.server.raw("{}", target=target)
                body = self.assertError(status, headers, data, 400, UNKNOWN_OP)
                self.assertEqual(body, {"__type": UNKNOWN_OP})
                self.assertEqual(headers.get("x-amz-crc32"), "1368724161")
        self.assertServing()

    def test_amz_json_1_1_content_type_is_no_api_call(self):
        # DynamoDB speaks x-amz-json-1.0 (and plain JSON) only.
        status, headers, data = self.server.raw("{}", target="ListTables",
                                                content_type="application/x-amz-json-1.1")
        self.assertEqual((status, data), (404, b"<UnknownOperationException/>\n"))

    def test_authorization_header_needed(self):
        status, headers, data = self.server.raw({"TableName": "wire"}, target="DescribeTable",
                                                auth=False)
        self.assertEqual(status, 400, data)
        self.assertEqual(json.loads(data)["__type"],
                         "com.amazon.coral.service#MissingAuthenticationTokenException")

    # ---- headers ----------------------------------------------------------

    def test_request_id_and_crc32_on_every_response(self):
        requests = [
            ("ListTables", {}),
            ("DescribeTable", {"TableName": "wire"}),
            ("DescribeTable", {"TableName": "missing-table"}),
            ("PutItem", {"TableName": "wire", "Item": {"pk": {"S": "h"}, "v": {"S": "\u00e9"}}}),
            ("GetItem", {"TableName": "wire", "Key": {"pk": {"S": "h"}}}),
            ("PutItem", {"TableName": "wire", "Item": {"pk": {"N": "1"}}}),
            ("NoSuchOperation", {}),
        ]
        ids = set()
        for op, payload in requests:
            with self.subTest(op=op):
                status, headers, data = self.server.raw(payload, target=op)
                self.assertHeaders(headers, data)
                ids.add(headers["x-amzn-requestid"])
        self.assertEqual(len(ids), len(requests), "request ids should be unique")

    def test_crc32_matches_for_non_ascii_body(self):
        item = {"pk": {"S": "utf8"}, "v": {"S": "\u4e2d\u6587 \U0001F600 \u00e9"}}
        self.server.raw({"TableName": "wire", "Item": item}, target="PutItem")
        status, headers, data = self.server.raw({"TableName": "wire", "Key": {"pk": {"S": "utf8"}}},
                                                target="GetItem")
        self.assertEqual(status, 200)
        self.assertHeaders(headers, data)
        self.assertEqual(json.loads(data)["Item"]["v"], item["v"])

    def test_boto3_validates_crc32(self):
        # botocore checks x-amz-crc32 on DynamoDB responses; a bad one would raise.
        self.ddb.put_item(TableName="wire", Item={"pk": {"S": "b"}, "d": {"S": "z" * 5000}})
        self.assertEqual(self.ddb.get_item(TableName="wire",
                                           Key={"pk": {"S": "b"}})["Item"]["d"]["S"], "z" * 5000)

    # ---- size limit -------------------------------------------------------

    def test_body_over_16_mb(self):
        # The 413 may come as soon as the headers announce too much; the server may then
        # close without reading the body, so read the answer before and after sending it.
        n = 16 * 1024 * 1024 + 1
        head = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                "X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: %d\r\n\r\n"
                % (LOCALHOST, n)).encode()
        with socket.create_connection((LOCALHOST, self.server.port), timeout=30) as s:
            s.sendall(head)
            s.settimeout(2)
            try:
                answer = s.recv(65536)
            except socket.timeout:
                answer = b""
            if not answer:
                s.settimeout(30)
                try:
                    chunk = b"x" * 65536
                    sent = 0
                    while sent < n:
                        sent += s.send(chunk[:n - sent])
                except (BrokenPipeError, ConnectionResetError):
                    pass
                answer = s.recv(65536)
        self.assertRegex(answer.split(b"\r\n")[0], rb"^HTTP/1\.1 413 ")
        head, _, body = answer.partition(b"\r\n\r\n")
        self.assertRegex(head, rb"(?im)^x-amzn-requestid: [0-9A-Z]{52}\r?$")
        # DynamoDB sends its 413 chunked: here one chunk, then the last.
        self.assertRegex(head, rb"(?im)^transfer-encoding: chunked\r?$")
        size, _, chunk = body.partition(b"\r\n")
        if chunk:
            self.assertEqual(json.loads(chunk[:int(size, 16)])["__type"].split("#")[-1],
                             "RequestEntityTooLargeException")
        self.assertServing()

    def test_body_just_under_16_mb_is_read(self):
        # Under the limit the request is read and judged on its content.
        pad = 16 * 1024 * 1024 - 200
        body = b'{"TableName": "wire", "Item": {"pk": {"S": "' + b"x" * pad + b'"}}}'
        status, headers, data = self.server.raw(body, target="PutItem")
        self.assertEqual(status, 400, data[:300])
        self.assertEqual(json.loads(data)["message"],
                         "One or more parameter values were invalid: Size of hashkey has exceeded "
                         "the maximum size limit of2048 bytes")
        self.assertServing()

    # ---- connections ------------------------------------------------------

    def test_http_1_0_closes_after_response(self):
        out = raw_exchange(self.server.port, request_bytes("{}", version="HTTP/1.0"))
        head, _, body = out.partition(b"\r\n\r\n")
        self.assertRegex(head.split(b"\r\n")[0], rb"^HTTP/1\.[01] 200")
        self.assertIn(b"TableNames", body)

    def test_http_1_1_connection_close(self):
        out = raw_exchange(self.server.port, request_bytes("{}", extra="Connection: close\r\n"))
        self.assertTrue(out.startswith(b"HTTP/1.1 200"), out[:100])

    def test_http_1_0_keep_alive_when_asked(self):
        with socket.create_connection((LOCALHOST, self.server.port), timeout=10) as s:
            req = request_bytes("{}", version="HTTP/1.0", extra="Connection: keep-alive\r\n")
            s.sendall(req)
            first = self._read_one_response(s)
            self.assertIn(b" 200 ", first.split(b"\r\n")[0])
            s.sendall(req)
            second = self._read_one_response(s)
            self.assertIn(b" 200 ", second.split(b"\r\n")[0])

    def _read_one_response(self, s):
        """Reads one response with a Content-Length from s, keeping what follows."""
        buf = self._pending.get(s.fileno(), b"")
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(65536)
            self.assertTrue(chunk, "connection closed early: %r" % buf)
            buf += chunk
        head, _, rest = buf.partition(b"\r\n\r\n")
        m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
        self.assertIsNotNone(m, head)
        n = int(m.group(1))
        while len(rest) < n:
            chunk = s.recv(65536)
            self.assertTrue(chunk)
            rest += chunk
        self._pending[s.fileno()] = rest[n:]
        return head + b"\r\n\r\n" + rest[:n]

    def setUp(self):
        self._pending = {}

    def test_http_1_1_keep_alive_reuses_connection(self):
        conn = self.server.connection()
        try:
            self.server.raw("{}", target="ListTables", conn=conn)
            sock = conn.sock
            self.assertIsNotNone(sock, "server closed a keep-alive connection")
            for i in range(5):
                status, _, data = self.server.raw({"TableName": "wire"}, target="DescribeTable",
                                                  conn=conn)
                self.assertEqual(status, 200)
                self.assertIs(conn.sock, sock, "connection was not reused (request %d)" % i)
            # Errors do not end the connection either.
            status, _, _ = self.server.raw("{bad", target="ListTables", conn=conn)
            self.assertEqual(status, 400)
            status, _, _ = self.server.raw("{}", target="ListTables", conn=conn)
            self.assertEqual(status, 200)
            self.assertIs(conn.sock, sock)
        finally:
            conn.close()

    def test_pipelined_requests(self):
        with socket.create_connection((LOCALHOST, self.server.port), timeout=10) as s:
            s.sendall(request_bytes("{}") * 3)
            for _ in range(3):
                resp = self._read_one_response(s)
                self.assertIn(b" 200 ", resp.split(b"\r\n")[0])

    def test_garbage_instead_of_http(self):
        with socket.create_connection((LOCALHOST, self.server.port), timeout=10) as s:
            s.sendall(b"\x00\x01\x02 this is not http\r\n\r\n")
            try:
                s.recv(65536)
            except (ConnectionError, socket.timeout):
                pass
        self.assertServing()

    # ---- deep nesting -----------------------------------------------------

    def test_deeply_nested_json_array(self):
        body = '{"TableName": "wire", "Item": {"pk": {"S": "x"}, "v": ' + "[" * 100000 + \
               "]" * 100000 + "}}"
        status, headers, data = self.server.raw(body, target="PutItem")
        self.assertEqual(status, 400, data[:300])
        self.assertIn(json.loads(data)["__type"].split("#")[-1],
                      ("SerializationException", "ValidationException"))
        self.assertHeaders(headers, data)
        self.assertServing()

    def test_deeply_nested_unclosed_json(self):
        status, headers, data = self.server.raw("[" * 200000, target="ListTables")
        self.assertEqual(status, 400, data[:300])
        self.assertEqual(json.loads(data)["__type"], SERIALIZATION)
        self.assertServing()

    def test_deeply_nested_attribute_maps(self):
        v = '{"S": "leaf"}'
        depth = 10000
        body = ('{"TableName": "wire", "Item": {"pk": {"S": "deep"}, "v": '
                + '{"M": {"a": ' * depth + v + "}}" * depth + "}}")
        status, headers, data = self.server.raw(body, target="PutItem")
        self.assertEqual(status, 400, data[:300])
        resp = json.loads(data)
        self.assertIn(resp["__type"].split("#")[-1], ("SerializationException", "ValidationException"))
        self.assertServing()
        self.assertNotIn("Item", self.ddb.get_item(TableName="wire", Key={"pk": {"S": "deep"}}))

    def test_deeply_nested_lists_in_key(self):
        body = '{"TableName": "wire", "Key": {"pk": ' + '{"L": [' * 5000 + '{"S": "x"}' + \
               "]}" * 5000 + "}}"
        status, headers, data = self.server.raw(body, target="GetItem")
        self.assertEqual(status, 400, data[:300])
        self.assertServing()


if __name__ == "__main__":
    unittest.main()
