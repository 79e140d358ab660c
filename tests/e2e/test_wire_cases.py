"""Table-driven wire cases: every wire_cases/*.json file is a list of
requests with DynamoDB's exact answer (HTTP status, __type, message), run in
order against one pogi. A file may start with set-up requests.

File shape:
  {"setup": [{"op": "CreateTable", "request": {...}}, ...],
   "cases": [{"name": "...", "op": "PutItem", "request": {...},
              "status": 400, "type": "ValidationException", "message": "..."}, ...]}
An "op" with a dot is a whole X-Amz-Target
("DynamoDBStreams_20120810.ListStreams"); any other is DynamoDB's. A case
without "type" expects success; "response" then lists members the
answer must have (compared exactly; dotted names reach inside), "absent"
members it must not have. {"$repeat": [text, n]} anywhere in a request
stands for text repeated n times (large requests without large files), and
so does a member name "$repeat(text,n)" (long attribute names).
Serialization errors carry their text under "Message", every other error
under "message", as DynamoDB spells them. A case marked "client_order"
answers the bad map entry the client wrote first, which only an engine
behind the HTTP door in its own process knows (common/entry_order.h):
through `pogi gateway` it is not run.
"""

import glob
import json
import os
import re
import unittest

from harness import DOOR, ServerTestCase

HERE = os.path.dirname(os.path.abspath(__file__))
CASE_FILES = sorted(glob.glob(os.path.join(HERE, "wire_cases", "*.json")))


class WireCases(ServerTestCase):

    def run_file(self, path):
        with open(path) as f:
            spec = json.load(f)
        for step in spec.get("setup", []):
            status, body = self.server.call(step["op"], expand(step["request"]))
            self.assertEqual(status, 200, "set-up %s failed: %s" % (step["op"], body))
        for case in spec["cases"]:
            if case.get("client_order") and DOOR == "gateway":
                continue
            with self.subTest(case=case["name"]):
                self.check(case)

    def check(self, case):
        status, body = self.server.call(case["op"], expand(case["request"]))
        want_status = case.get("status", 400 if "type" in case else 200)
        self.assertEqual(status, want_status, body)
        if "type" not in case:
            for key, value in case.get("response", {}).items():
                self.assertEqual(member(body, key), value, body)
            for key in case.get("absent", []):
                self.assertIs(member(body, key), None, body)
            return
        self.assertEqual(body["__type"].split("#")[-1], case["type"], body)
        key = "Message" if case["type"] == "SerializationException" else "message"
        if "message" in case:
            self.assertEqual(body.get(key), case["message"], body)
        elif "message_prefix" in case:
            self.assertTrue(body.get(key, "").startswith(case["message_prefix"]), body)


def expand(value):
    if isinstance(value, dict):
        if list(value) == ["$repeat"]:
            text, n = value["$repeat"]
            return text * n
        return {expand_name(k): expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v) for v in value]
    return value


def expand_name(name):
    m = re.fullmatch(r"\$repeat\((.+),(\d+)\)", name)
    return m.group(1) * int(m.group(2)) if m else name


def member(body, dotted):
    """body's member at a dotted name, None when absent."""
    for part in dotted.split("."):
        if not isinstance(body, dict) or part not in body:
            return None
        body = body[part]
    return body


def _make_test(path):
    def test(self):
        self.run_file(path)
    return test


for _path in CASE_FILES:
    _name = "test_" + os.path.splitext(os.path.basename(_path))[0]
    setattr(WireCases, _name, _make_test(_path))


if __name__ == "__main__":
    unittest.main()
