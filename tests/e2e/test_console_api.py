"""The web console's JSON API under /_pogi/api/ against the real binary: its
DynamoDB and Admin calls, clear errors for bad input (unknown table,
malformed JSON, oversized item, unknown call, another site's page), the
credentials it needs with --check-signatures, and --no-console."""

import json
import re
import unittest

from harness import LOCALHOST, Server, ServerTestCase, direct_only


def console(server, path, body=None, headers=None, method=None):
    """One request to the console; returns (status, headers, parsed JSON or text)."""
    conn = server.connection()
    try:
        h = {"Content-Type": "application/json"} if body is not None else {}
        h.update(headers or {})
        data = json.dumps(body) if isinstance(body, (dict, list)) else body
        conn.request(method or ("GET" if body is None else "POST"), path, body=data, headers=h)
        resp = conn.getresponse()
        raw = resp.read()
        head = {k.lower(): v for k, v in resp.getheaders()}
        if head.get("content-type", "").startswith("application/json"):
            return resp.status, head, json.loads(raw)
        return resp.status, head, raw.decode("utf-8", "replace")
    finally:
        conn.close()


def error_type(body):
    return body["__type"].split("#")[-1]


@direct_only("the console is served by the engine's own door")
class ConsoleApiTest(ServerTestCase):

    def test_page_and_assets_are_served(self):
        status, head, text = console(self.server, "/_pogi/")
        self.assertEqual(status, 200)
        self.assertTrue(head["content-type"].startswith("text/html"))
        # Every script the page names is served, the core first.
        scripts = re.findall(r'<script src="/_pogi/([^"]+)"', text)
        self.assertEqual(scripts[0], "console.js")
        for asset, kind in [(s, "text/javascript") for s in scripts] + [("console.css", "text/css")]:
            status, head, _ = console(self.server, "/_pogi/" + asset)
            self.assertEqual(status, 200, asset)
            self.assertTrue(head["content-type"].startswith(kind))
        # No CORS allowance on the console's answers.
        status, head, _ = console(self.server, "/_pogi/", headers={"Origin": "https://elsewhere.example"})
        self.assertNotIn("access-control-allow-origin", head)

    def test_dynamodb_stays_dynamodb(self):
        status, _, _ = console(self.server, "/_pogi/nothing-here")
        self.assertEqual(status, 404)
        # The metrics keep their path; the DynamoDB API answers as ever.
        status, _, text = console(self.server, "/_pogi/metrics")
        self.assertEqual(status, 200)
        self.ddb.list_tables()
        status, _, body = self.server.raw(b"", method="GET", path="/")
        self.assertEqual((status, body), (200, b"healthy: dynamodb.us-east-1.amazonaws.com "))

    def test_operations_and_admin_calls(self):
        name = self.unique("api")
        status, _, body = console(self.server, "/_pogi/api/dynamodb/CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["TableDescription"]["TableName"], name)
        status, _, body = console(self.server, "/_pogi/api/dynamodb/PutItem",
                                  {"TableName": name, "Item": {"pk": {"S": "a"}, "n": {"N": "7"}}})
        self.assertEqual(status, 200, body)
        # What the console wrote, boto3 reads.
        item = self.ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item["n"], {"N": "7"})
        status, _, body = console(self.server, "/_pogi/api/admin/Tables", {})
        self.assertEqual(status, 200, body)
        summary = [t for t in body["Tables"] if t["TableName"] == name][0]
        self.assertEqual(summary["ItemCount"], 1)
        status, _, body = console(self.server, "/_pogi/api/admin/GetClock", {})
        self.assertEqual(status, 200, body)
        self.assertGreater(body["Now"], 1e9)

    def test_vector_search(self):
        # What the Vector search view calls: CreateTable with VectorIndexes,
        # Admin DescribeTable listing them, SearchVectors and its refusals.
        name = self.unique("vec")
        status, _, body = console(self.server, "/_pogi/api/dynamodb/CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [{"IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 2,
                               "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "ALL"}}]})
        self.assertEqual(status, 200, body)
        for pk, vec in (("near", ["1", "1"]), ("far", ["5", "5"]), ("mid", ["2", "3"])):
            status, _, body = console(self.server, "/_pogi/api/dynamodb/PutItem", {
                "TableName": name, "Item": {"pk": {"S": pk}, "emb": {"L": [{"N": n} for n in vec]}}})
            self.assertEqual(status, 200, body)
        _, _, body = console(self.server, "/_pogi/api/admin/DescribeTable", {"TableName": name})
        index = body["Table"]["VectorIndexes"][0]
        self.assertEqual((index["IndexName"], index["Dimensions"], index["DistanceFunction"], index["IndexStatus"]),
                         ("by-emb", 2, "EUCLIDEAN", "ACTIVE"))
        search = {"TableName": name, "IndexName": "by-emb", "SearchVector": [{"N": "0"}, {"N": "0"}], "TopK": 2}
        status, _, body = console(self.server, "/_pogi/api/dynamodb/SearchVectors", search)
        self.assertEqual(status, 200, body)
        self.assertEqual([(r["Item"]["pk"]["S"], r["Score"]) for r in body["SearchResults"]],
                         [("near", 2 ** 0.5), ("mid", 13 ** 0.5)])
        status, _, body = console(self.server, "/_pogi/api/dynamodb/SearchVectors",
                                  dict(search, SearchVector=[{"N": "0"}]))
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "ValidationException")
        self.assertEqual(body["message"], "Input search vector dimension 1 does not match vector index dimension 2")

    def test_unknown_table(self):
        status, _, body = console(self.server, "/_pogi/api/dynamodb/GetItem",
                                  {"TableName": "no-such-table", "Key": {"pk": {"S": "a"}}})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "ResourceNotFoundException")
        self.assertIn("not found", body["message"])
        status, _, body = console(self.server, "/_pogi/api/admin/DescribeTable", {"TableName": "no-such-table"})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "ResourceNotFoundException")

    def test_malformed_json(self):
        for path in ("/_pogi/api/dynamodb/PutItem", "/_pogi/api/admin/AdvanceClock"):
            status, _, body = console(self.server, path, '{"TableName": "x", ')
            self.assertEqual(status, 400, path)
            self.assertEqual(error_type(body), "SerializationException", path)

    def test_oversized_item(self):
        name = self.create_table()
        big = {"pk": {"S": "big"}, "blob": {"S": "x" * (400 * 1024 + 1)}}
        status, _, body = console(self.server, "/_pogi/api/dynamodb/PutItem", {"TableName": name, "Item": big})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "ValidationException")
        self.assertIn("Item size has exceeded the maximum allowed size", body["message"])
        self.assertServing()

    def test_unknown_calls(self):
        status, _, body = console(self.server, "/_pogi/api/dynamodb/DropEverything", {})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "UnknownOperationException")
        self.assertIn("DropEverything", body["message"])
        status, _, body = console(self.server, "/_pogi/api/admin/Shutdown", {})
        self.assertEqual(error_type(body), "UnknownOperationException")
        self.assertTrue(self.server.alive())
        status, _, body = console(self.server, "/_pogi/api/elsewhere")
        self.assertEqual(status, 404)

    def test_bad_admin_arguments(self):
        status, _, body = console(self.server, "/_pogi/api/admin/CreateSnapshot", {"Name": "../../etc"})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "ValidationException")
        self.assertIn("invalid snapshot name", body["message"])
        status, _, body = console(self.server, "/_pogi/api/admin/AdvanceClock", {"Seconds": -5})
        self.assertIn("only advances", body["message"])

    def test_other_sites_are_refused(self):
        status, _, body = console(self.server, "/_pogi/api/admin/Reset", {},
                                  headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "AccessDeniedException")
        status, _, body = console(self.server, "/_pogi/api/admin/Tables", {},
                                  headers={"Host": "rebound.example:%d" % self.server.port})
        self.assertEqual(error_type(body), "AccessDeniedException")
        status, _, body = console(self.server, "/_pogi/api/admin/Tables", {},
                                  headers={"Origin": "http://%s:%d" % (LOCALHOST, self.server.port)})
        self.assertEqual(status, 200, body)

    def test_changes_poll(self):
        name = self.create_table()
        _, _, first = console(self.server, "/_pogi/api/changes")
        cursor = first["Next"]
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "live"}, "v": {"S": "hello"}})
        _, _, body = console(self.server, "/_pogi/api/changes?after=%d" % cursor)
        events = [e for e in body["Events"] if e["TableName"] == name]
        self.assertEqual(len(events), 1, body)
        self.assertEqual(events[0]["EventName"], "INSERT")
        self.assertEqual(events[0]["NewItem"]["v"], {"S": "hello"})
        _, _, again = console(self.server, "/_pogi/api/changes?after=%d" % body["Next"])
        self.assertEqual(again["Events"], [])

    def test_startup_line_names_the_console(self):
        self.assertIn("console on http://%s:%d/_pogi/" % (LOCALHOST, self.server.port),
                      self.server.stderr_text())


@direct_only("the console is served by the engine's own door")
class ConsoleSignaturesTest(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--check-signatures", "--access-key-id", "AKCONSOLE",
                                  "--secret-access-key", "console-secret"]}

    def test_api_refused_without_the_credentials(self):
        status, _, body = console(self.server, "/_pogi/api/admin/Tables", {})
        self.assertEqual(status, 400)
        self.assertEqual(error_type(body), "MissingAuthenticationTokenException")
        for key, secret, expected in (("AKCONSOLE", "guess", "InvalidSignatureException"),
                                      ("someone", "console-secret", "UnrecognizedClientException")):
            status, _, body = console(self.server, "/_pogi/api/dynamodb/ListTables", {}, headers={
                "X-Pogi-Access-Key-Id": key, "X-Pogi-Secret-Access-Key": secret})
            self.assertEqual(error_type(body), expected)
        # Polls are data too.
        _, _, body = console(self.server, "/_pogi/api/changes")
        self.assertEqual(error_type(body), "MissingAuthenticationTokenException")
        status, _, body = console(self.server, "/_pogi/api/dynamodb/ListTables", {}, headers={
            "X-Pogi-Access-Key-Id": "AKCONSOLE", "X-Pogi-Secret-Access-Key": "console-secret"})
        self.assertEqual(status, 200, body)
        # The page loads (it asks for the credentials itself).
        status, _, _ = console(self.server, "/_pogi/")
        self.assertEqual(status, 200)


@direct_only("the console is served by the engine's own door")
class NoConsoleTest(unittest.TestCase):

    def test_no_console_answers_like_any_other_path(self):
        with Server(extra_args=["--no-console"]) as server:
            for method, path, body in (("GET", "/_pogi/", None), ("GET", "/_pogi/console.js", None),
                                       ("POST", "/_pogi/api/admin/Tables", "{}"),
                                       ("GET", "/_pogi/api/changes", None)):
                other = path.replace("/_pogi/", "/_other/")
                got = console(server, path, body, method=method)
                expected = console(server, other, body, method=method)
                self.assertEqual(got[0], expected[0], path)
                self.assertEqual(got[2], expected[2], path)
                self.assertNotEqual(got[0], 200, path)
            self.assertNotIn("console on", server.stderr_text())
            # The metrics do not belong to the console.
            self.assertEqual(console(server, "/_pogi/metrics")[0], 200)


if __name__ == "__main__":
    unittest.main()
