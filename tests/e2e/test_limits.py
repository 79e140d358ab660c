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
MAX_HEADER = 16 * 1024  # the header fields, "Name: value" CRLF each
MAX_BODY = 16 * 1024 * 1024


def request_bytes(target="/", extra_headers=(), body=b"{}", op="ListTables"):
    lines = ["POST %s HTTP/1.1" % target, "Host: %s" % LOCALHOST,
             "Content-Type: application/x-amz-json-1.0", "X-Amz-Target: DynamoDB_20120810." + op]
    lines += ["%s: %s" % kv for kv in UNVERIFIED_AUTH.items()]
    lines += ["Content-Length: %d" % len(body)]
    lines += list(extra_headers)
    return ("\r\n".join(lines) + "\r\n\r\n").encode(), body


def fields_length(head):
    """The bytes of a head's header fields: the request line and the empty
    line ending the section aside."""
    return len(head) - len(head.split(b"\r\n", 1)[0]) - 2 - 2


def padded_header(total):
    """Header lines making the header fields exactly `total` bytes."""
    head, _ = request_bytes(extra_headers=["X-Pad: "])
    return ["X-Pad: " + "p" * (total - fields_length(head))]


def read_body(data, head_end):
    """The body after a response head ending at `head_end`, or None while
    incomplete: by Content-Length, or chunked (DynamoDB's 413)."""
    headers = data[:head_end].decode("latin-1").lower()
    rest = data[head_end + 4:]
    if "transfer-encoding: chunked" in headers:
        body = b""
        while True:
            line, sep, after = rest.partition(b"\r\n")
            if not sep:
                return None
            size = int(line, 16)
            if len(after) < size + 2:
                return None
            if size == 0:
                return body
            body += after[:size]
            rest = after[size + 2:]
    length = int(headers.split("content-length: ")[1].split("\r\n")[0])
    return rest[:length] if len(rest) >= length else None


def exchange(port, head, body=b"", timeout=30, with_headers=False):
    """Sends one request on a fresh connection; returns (status, body bytes),
    and the response's head too if `with_headers`."""
    with socket.create_connection((LOCALHOST, port), timeout=timeout) as s:
        try:
            s.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before all was sent: the answer is there to read
        data = b""
        answer = None
        while answer is None:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            head_end = data.find(b"\r\n\r\n")
            if head_end >= 0:
                answer = read_body(data, head_end)
    status_line = data.partition(b"\r\n")[0]
    result = (int(status_line.split()[1]), answer)
    return result + (data[:data.find(b"\r\n\r\n")].decode("latin-1"),) if with_headers else result


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
        self.assertEqual(fields_length(head), MAX_HEADER)
        status, data = exchange(self.server.port, head, body)
        self.assertEqual(status, 200, data[:200])

    def test_header_section_past_the_limit(self):
        # DynamoDB: request headers over 16 KB in total are a 400.
        head, body = request_bytes(extra_headers=padded_header(MAX_HEADER + 1))
        self.assertEqual(fields_length(head), MAX_HEADER + 1)
        status, data = exchange(self.server.port, head, body)
        self.assertEqual(status, 400)
        self.assertEqual(data, b"Bad Request: the request headers exceed 16384 bytes\n")
        self.assertServing()

    def test_header_section_in_many_headers_past_the_limit(self):
        lines = ["X-Pad-%03d: %s" % (i, "p" * 90) for i in range(170)]  # 170 x 103 bytes
        head, body = request_bytes(extra_headers=lines)
        self.assertGreater(fields_length(head), MAX_HEADER)
        status, data = exchange(self.server.port, head, body)
        self.assertEqual(status, 400)
        self.assertEqual(data, b"Bad Request: the request headers exceed 16384 bytes\n")

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
        status, data, head = exchange(self.server.port, *request_bytes(body=body), with_headers=True)
        self.assertEqual(status, 413)
        # DynamoDB sends its 413 chunked.
        self.assertRegex(head, r"(?im)^transfer-encoding: chunked\r?$")
        self.assertNotRegex(head, r"(?im)^content-length:")
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
        # Room again once they are gone. pogi frees a slot as it reads the
        # close (no promised time): 30 s only says "not stuck".
        deadline = time.monotonic() + 30
        while True:
            status, _ = exchange(self.server.port, head, body)
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        self.assertEqual(status, 200)


class IdleTimeout(ServerTestCase):
    # --idle-timeout is pogi's promise (docs/reliability.md, "Connections and
    # limits": the longest wait for a whole request). The bounds below are at
    # least 3 times it, for a busy machine; the lower bound is a floor that
    # slowness cannot break.
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
