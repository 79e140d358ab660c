"""The HTTP limits of common/limits.h, each at the limit and one past it:
request line, header section, body, connections at once, and the idle
timeout that closes idle, half-open and slow connections. (Expression and
nesting limits are tested at and past theirs in test_expressions.py and
tests/unit/gateway/json_codec_test.cc.)"""

import json
import socket
import time
import unittest

from harness import LOCALHOST, UNVERIFIED_AUTH, ServerTestCase

MAX_REQUEST_LINE = 16 * 1024
MAX_HEADER = 64 * 1024
MAX_BODY = 16 * 1024 * 1024


def request_bytes(target="/", extra_headers=(), body=b"{}", op="ListTables"):
    lines = ["POST %s HTTP/1.1" % target, "Host: %s" % LOCALHOST,
             "Content-Type: application/x-amz-json-1.0", "X-Amz-Target: DynamoDB_20120810." + op]
    lines += ["%s: %s" % kv for kv in UNVERIFIED_AUTH.items()]
    lines += ["Content-Length: %d" % len(body)]
    lines += list(extra_headers)
    return ("\r\n".join(lines) + "\r\n\r\n").encode(), body


def padded_header(total):
    """Header lines making the whole header section exactly `total` bytes."""
    head, _ = request_bytes(extra_headers=["X-Pad: "])
    return ["X-Pad: " + "p" * (total - len(head))]


def exchange(port, head, body=b"", timeout=30):
    """Sends one request on a fresh connection; returns (status, body bytes)."""
    with socket.create_connection((LOCALHOST, port), timeout=timeout) as s:
        s.sendall(head + body)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            head_end = data.find(b"\r\n\r\n")
            if head_end >= 0:
                headers = data[:head_end].decode("latin-1").lower()
                length = int(headers.split("content-length: ")[1].split("\r\n")[0])
                if len(data) >= head_end + 4 + length:
                    break
    status_line, _, rest = data.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


class HeaderAndBodyLimits(ServerTestCase):

    def test_request_line_at_the_limit(self):
        # "POST " + target + " HTTP/1.1" is the line, CRLF excluded.
        target = "/?pad=" + "x" * (MAX_REQUEST_LINE - len("POST  HTTP/1.1") - len("/?pad="))
        self.assertEqual(len("POST %s HTTP/1.1" % target), MAX_REQUEST_LINE)
        status, body = exchange(self.server.port, *request_bytes(target))
        self.assertEqual(status, 200, body[:200])
        self.assertIn(b"TableNames", body)

    def test_request_line_past_the_limit(self):
        target = "/?pad=" + "x" * (MAX_REQUEST_LINE + 1 - len("POST  HTTP/1.1") - len("/?pad="))
        status, body = exchange(self.server.port, *request_bytes(target))
        self.assertEqual(status, 400)
        self.assertEqual(body, b"Bad Request: the request line exceeds 16384 bytes\n")
        self.assertServing()

    def test_header_section_at_the_limit(self):
        head, body = request_bytes(extra_headers=padded_header(MAX_HEADER))
        self.assertEqual(len(head), MAX_HEADER)
        status, data = exchange(self.server.port, head, body)
        self.assertEqual(status, 200, data[:200])

    def test_header_section_past_the_limit(self):
        head, body = request_bytes(extra_headers=padded_header(MAX_HEADER + 1))
        self.assertEqual(len(head), MAX_HEADER + 1)
        status, data = exchange(self.server.port, head, body)
        self.assertEqual(status, 400)
        self.assertEqual(data, b"Bad Request: the request header section exceeds 65536 bytes\n")
        self.assertServing()

    def test_a_huge_header_is_answered_not_cut(self):
        # 1 MB of header: the answer arrives even though the client is still
        # sending when pogi refuses.
        head, body = request_bytes(extra_headers=padded_header(1024 * 1024))
        status, _ = exchange(self.server.port, head, body)
        self.assertEqual(status, 400)

    def test_malformed_http_is_400(self):
        status, data = exchange(self.server.port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n")
        self.assertEqual(status, 400)
        self.assertEqual(data, b"Bad Request: malformed HTTP request\n")

    def test_body_at_the_limit_is_read(self):
        prefix = b'{"TableName": "limits", "Item": {"pk": {"S": "'
        suffix = b'"}}}'
        body = prefix + b"x" * (MAX_BODY - len(prefix) - len(suffix)) + suffix
        self.assertEqual(len(body), MAX_BODY)
        status, data = exchange(self.server.port, *request_bytes(body=body, op="PutItem"))
        # Read and judged on its content (there is no such table), not as too large.
        self.assertEqual(status, 400, data[:300])
        self.assertEqual(json.loads(data)["__type"],
                         "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")

    def test_body_past_the_limit_is_413(self):
        body = b"{" + b" " * (MAX_BODY - 1) + b"}"
        self.assertEqual(len(body), MAX_BODY + 1)
        status, data = exchange(self.server.port, *request_bytes(body=body))
        self.assertEqual(status, 413)
        self.assertEqual(json.loads(data)["message"], "Request size exceeded 16777216 bytes")
        self.assertServing()


class ConnectionLimit(ServerTestCase):
    LIMIT = 8
    SERVER_ARGS = {"extra_args": ["--max-connections", str(LIMIT)]}

    def test_at_the_limit_every_connection_is_served_and_one_more_is_503(self):
        conns = [socket.create_connection((LOCALHOST, self.server.port), timeout=10)
                 for _ in range(self.LIMIT)]
        try:
            head, body = request_bytes()
            for c in conns:  # every one of the LIMIT connections is served
                c.sendall(head + body)
                self.assertTrue(c.recv(65536).startswith(b"HTTP/1.1 200 "))
            status, data = exchange(self.server.port, head, body)
            self.assertEqual(status, 503)
            self.assertEqual(json.loads(data)["__type"],
                             "com.amazon.coral.availability#ServiceUnavailableException")
        finally:
            for c in conns:
                c.close()
        # Room again once they are gone.
        deadline = time.monotonic() + 5
        while True:
            status, _ = exchange(self.server.port, head, body)
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(status, 200)


class IdleTimeout(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--idle-timeout", "1s"]}

    def closed_within(self, sock, seconds):
        sock.settimeout(seconds)
        try:
            while sock.recv(4096):
                pass
            return True
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True

    def test_an_idle_connection_is_closed(self):
        with socket.create_connection((LOCALHOST, self.server.port)) as s:
            start = time.monotonic()
            self.assertTrue(self.closed_within(s, 5))
            self.assertGreaterEqual(time.monotonic() - start, 0.9)

    def test_a_kept_alive_connection_is_closed_once_idle(self):
        with socket.create_connection((LOCALHOST, self.server.port)) as s:
            head, body = request_bytes()
            s.sendall(head + body)
            self.assertTrue(s.recv(65536).startswith(b"HTTP/1.1 200 "))
            self.assertTrue(self.closed_within(s, 5))

    def test_a_slow_sender_is_closed(self):
        # A header line every 0.3 s never completes a request within 1 s.
        with socket.create_connection((LOCALHOST, self.server.port)) as s:
            s.sendall(b"POST / HTTP/1.1\r\n")
            start = time.monotonic()
            closed = False
            while time.monotonic() - start < 5 and not closed:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    closed = True
                    break
                closed = self.closed_within(s, 0.3)
            self.assertTrue(closed)
            self.assertLess(time.monotonic() - start, 3)

    def test_a_prompt_request_is_unaffected(self):
        status, _ = exchange(self.server.port, *request_bytes())
        self.assertEqual(status, 200)


if __name__ == "__main__":
    unittest.main()
