"""Sends one DynamoDB JSON request, byte for byte the same, to a server, and
reads back what the comparison looks at: the HTTP status, the error's
`__type` (the part after '#') and its message.

The headers are tests/e2e/harness.py's: X-Amz-Target, the JSON 1.0 content
type and a well-formed but unverified SigV4 Authorization (dynalite checks
the header's presence and shape, pogi wants one as DynamoDB does).
"""
import http.client
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from harness import TARGET_PREFIX, UNVERIFIED_AUTH  # noqa: E402


class Answer:
    """What a server answered: status, short __type (None on success), message (None if none)."""

    __slots__ = ("status", "type", "message")

    def __init__(self, status, type_, message):
        self.status, self.type, self.message = status, type_, message

    @classmethod
    def parse(cls, status, body):
        try:
            doc = json.loads(body) if body else {}
        except ValueError:
            return cls(status, "<not JSON>", body[:200].decode(errors="replace"))
        if status == 200 or not isinstance(doc, dict):
            return cls(status, None, None)
        type_ = doc.get("__type")
        type_ = type_.rsplit("#", 1)[-1] if isinstance(type_, str) else None
        # DynamoDB writes `message` for its own exceptions, `Message` for the service's.
        message = doc.get("message", doc.get("Message"))
        return cls(status, type_, message)

    def as_list(self, limit=600):
        """[status, type, message] for the JSON files; long echoed values cut."""
        msg = self.message
        if isinstance(msg, str) and len(msg) > limit:
            msg = msg[:limit] + "...(%d chars)" % len(msg)
        return [self.status, self.type, msg]

    def __repr__(self):
        return "Answer(%r)" % (self.as_list(200),)


class Client:
    """One keep-alive connection to 127.0.0.1:port (reopened when the server closes it)."""

    def __init__(self, port, timeout=30):
        self.port, self.timeout = port, timeout
        self.conn = None

    def send(self, op, body):
        """POSTs body (bytes) as operation op; returns an Answer."""
        return Answer.parse(*self.exchange(op, body))

    def exchange(self, op, body):
        """POSTs body (bytes) as operation op; returns (status, response body bytes)."""
        headers = dict(UNVERIFIED_AUTH)
        headers["Content-Type"] = "application/x-amz-json-1.0"
        headers["X-Amz-Target"] = TARGET_PREFIX + op
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request("POST", "/", body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                if resp.getheader("Connection", "").lower() == "close":
                    self.close()
                return resp.status, data
            except (http.client.HTTPException, ConnectionError):
                self.close()
                if attempt == 2:
                    raise

    def call(self, op, request):
        """send() of a JSON-able request."""
        return self.send(op, json.dumps(request).encode())

    def call_json(self, op, request):
        """(status, parsed response) of a JSON-able request."""
        status, data = self.exchange(op, json.dumps(request).encode())
        return status, json.loads(data) if data else None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None
