"""DynamoDB's HTTP edge, raw: what is not an API call (404), the health check,
content types, CORS, the Authorization header's presence and form (and
--allow-unsigned), expired signatures under --check-signatures, compressed
requests and answers, the Date header."""

import email.utils
import gzip
import json
import socket
import time
import unittest
import zlib

from harness import LOCALHOST, UNVERIFIED_AUTH, Server, ServerTestCase

NOT_API = b"<UnknownOperationException/>\n"
SERVICE = "com.amazon.coral.service#"


class Edge(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ddb.create_table(TableName="edge", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

    def error(self, status, data, want_status, want_type, message=None):
        self.assertEqual(status, want_status, data[:300])
        body = json.loads(data)
        self.assertEqual(body["__type"], SERVICE + want_type, body)
        if message is not None:
            self.assertEqual(body.get("message"), message)
        return body

    # ---- not an API call ---------------------------------------------------

    def test_other_methods_are_404(self):
        for method in ("PUT", "DELETE", "PATCH", "OPTIONS"):
            with self.subTest(method=method):
                status, headers, data = self.server.raw("{}", target="ListTables", method=method)
                self.assertEqual((status, data), (404, NOT_API))
                self.assertEqual(headers["x-amz-crc32"], "3552371480")
                self.assertRegex(headers["x-amzn-requestid"], r"^[0-9A-Z]{52}$")

    def test_wrong_content_types_are_404(self):
        for ct in (None, "whatever", "application/x-amz-json-1.1", "application/jsonasdf", "text/plain"):
            with self.subTest(content_type=ct):
                status, _, data = self.server.raw("hi", target="ListTables", content_type=ct)
                self.assertEqual((status, data), (404, NOT_API))

    def test_health_check_names_the_regional_endpoint(self):
        # DynamoDB: `healthy: dynamodb.<region>.amazonaws.com ` (trailing space), whatever
        # host the client used; a 200 here is also pogi's readiness signal.
        for extra in ({}, {"Host": "dynamodb.local"}):
            with self.subTest(headers=extra):
                status, headers, data = self.server.raw(b"", method="GET", content_type=None, auth=False,
                                                        headers=extra)
                self.assertEqual(status, 200)
                self.assertEqual(data, b"healthy: dynamodb.us-east-1.amazonaws.com ")
                self.assertRegex(headers["x-amz-crc32"], r"^\d+$")
                self.assertEqual(headers["x-amz-crc32"], str(zlib.crc32(data)))
                self.assertEqual(headers["content-length"], str(len(data)))

    def test_other_get_paths_are_4xx(self):
        for path in ("/tables", "/favicon.ico", "/_nothing"):
            with self.subTest(path=path):
                status, _, _ = self.server.raw(b"", method="GET", path=path, content_type=None,
                                               auth=False)
                self.assertGreaterEqual(status, 400)
                self.assertLess(status, 500)

    # ---- content types -----------------------------------------------------

    def test_application_json_is_accepted_and_echoed(self):
        for ct in ("application/json", "application/json; charset=utf-8", "  application/json  ;   asfd"):
            with self.subTest(content_type=ct):
                status, headers, data = self.server.raw({"TableName": "edge"}, target="DescribeTable",
                                                        content_type=ct)
                self.assertEqual(status, 200, data)
                self.assertEqual(headers["content-type"], "application/json")
        status, headers, _ = self.server.raw({}, target="ListTables")
        self.assertEqual(headers["content-type"], "application/x-amz-json-1.0")

    def test_non_json_body(self):
        for ct in ("application/json", "application/x-amz-json-1.0;blahblah"):
            with self.subTest(content_type=ct):
                status, headers, data = self.server.raw("hi", target="ListTables", content_type=ct)
                self.assertEqual((status, json.loads(data)), (400, {"__type": SERVICE + "SerializationException"}))
        # Not JSON is judged before the target and the signature.
        status, _, data = self.server.raw("hi", target=None, content_type="application/json", auth=False)
        self.error(status, data, 400, "SerializationException")
        # A JSON body with no target is an unknown operation, before the signature.
        status, headers, data = self.server.raw("{}", target=None, content_type="application/json",
                                                auth=False)
        self.assertEqual(json.loads(data), {"__type": SERVICE + "UnknownOperationException"})
        self.assertEqual(headers["x-amz-crc32"], "1368724161")
        # No body at all with a valid target: a SerializationException.
        status, _, data = self.server.raw(b"", target="ListTables", content_type=None)
        self.error(status, data, 400, "SerializationException")

    # ---- CORS --------------------------------------------------------------

    def test_cors_on_answers_to_requests_with_origin(self):
        exposed = "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date"
        status, headers, data = self.server.raw({}, target="ListTables", headers={"Origin": "http://x"})
        self.assertEqual(status, 200)
        self.assertEqual(headers["access-control-allow-origin"], "*")
        self.assertEqual(headers["access-control-expose-headers"], exposed)
        status, headers, _ = self.server.raw({}, target="NoSuchOp", headers={"Origin": "http://x"})
        self.assertEqual(status, 400)
        self.assertEqual(headers["access-control-allow-origin"], "*")
        self.assertEqual(headers["access-control-expose-headers"], exposed)
        _, headers, _ = self.server.raw({}, target="ListTables")
        self.assertNotIn("access-control-allow-origin", headers)
        self.assertNotIn("access-control-expose-headers", headers)

    def test_preflight(self):
        status, headers, data = self.server.raw(b"", method="OPTIONS", content_type=None, auth=False,
                                                headers={"Origin": "http://x",
                                                         "Access-Control-Request-Headers": "a, b, c",
                                                         "Access-Control-Request-Method": "POST"})
        self.assertEqual((status, data), (200, b""))
        self.assertEqual(headers["access-control-allow-origin"], "*")
        self.assertEqual(headers["access-control-allow-headers"], "a, b, c")
        self.assertEqual(headers["access-control-allow-methods"], "POST")
        self.assertEqual(headers["access-control-max-age"], "172800")
        self.assertIn("access-control-expose-headers", headers)
        self.assertEqual(headers["content-length"], "0")
        status, headers, _ = self.server.raw(b"", method="OPTIONS", content_type=None, auth=False,
                                             headers={"Origin": "http://x"})
        self.assertEqual(status, 200)
        self.assertNotIn("access-control-allow-headers", headers)

    # ---- Authorization -----------------------------------------------------

    def auth_error(self, headers=None, path="/", auth=False):
        h = {"X-Amz-Date": "20260101T000000Z"}
        h.update(headers or {})
        status, _, data = self.server.raw({}, target="ListTables", headers=h, path=path, auth=auth)
        return status, data

    def test_missing_authentication_token(self):
        for headers, path in (({}, "/"), ({"Authorization": "AWS4"}, "/"),
                              ({"Authorization": "Bearer x"}, "/"),
                              ({}, "/?X-Amz-Credential=a&X-Amz-Signature=b&X-Amz-SignedHeaders=c&X-Amz-Date=d")):
            with self.subTest(headers=headers, path=path):
                status, data = self.auth_error(headers, path)
                self.error(status, data, 400, "MissingAuthenticationTokenException",
                           "Request is missing Authentication Token")

    def test_incomplete_signature(self):
        status, data = self.auth_error({"Authorization": "AWS4- Signature=b, Credential=a"})
        self.error(status, data, 400, "IncompleteSignatureException",
                   "Authorization header requires 'SignedHeaders' parameter. "
                   "Authorization=AWS4- Signature=b, Credential=a")
        status, _, data = self.server.raw({}, target="ListTables", auth=False,
                                          headers={"Authorization": "AWS4-"})
        self.error(status, data, 400, "IncompleteSignatureException",
                   "Authorization header requires 'Credential' parameter. "
                   "Authorization header requires 'Signature' parameter. "
                   "Authorization header requires 'SignedHeaders' parameter. "
                   "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                   "Authorization=AWS4-")
        status, data = self.auth_error(path="/?X-Amz-Algorithm=a&X-Amz-Credential=b&X-Amz-Signature=c&X-Amz-Date=d")
        self.error(status, data, 400, "IncompleteSignatureException",
                   "AWS query-string parameters must include 'X-Amz-SignedHeaders'. "
                   "Re-examine the query-string parameters.")

    def test_header_and_query_string_signing(self):
        status, data = self.auth_error({"Authorization": "X"}, path="/?X-Amz-Algorithm")
        self.error(status, data, 400, "InvalidSignatureException",
                   "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.")

    def test_query_string_signing_is_accepted(self):
        status, data = self.auth_error(
            path="/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=a&X-Amz-Signature=c"
                 "&X-Amz-SignedHeaders=host&X-Amz-Date=20260101T000000Z")
        self.assertEqual(status, 200, data)

    def test_health_check_needs_no_authorization(self):
        status, _, _ = self.server.raw(b"", method="GET", content_type=None, auth=False)
        self.assertEqual(status, 200)

    # ---- compression -------------------------------------------------------

    def put_get(self, encoding, packed_put, pk):
        status, _, data = self.server.raw(packed_put, target="PutItem",
                                          headers={"Content-Encoding": encoding})
        self.assertEqual(status, 200, data)
        item = self.ddb.get_item(TableName="edge", Key={"pk": {"S": pk}})["Item"]
        self.assertEqual(item["v"]["S"], "x" * 3000)

    def test_compressed_requests(self):
        def body(pk):
            return json.dumps({"TableName": "edge", "Item": {"pk": {"S": pk}, "v": {"S": "x" * 3000}}}).encode()
        self.put_get("gzip", gzip.compress(body("gz")), "gz")
        self.put_get("deflate", zlib.compress(body("zl")), "zl")
        raw = zlib.compressobj(wbits=-15)
        self.put_get("deflate", raw.compress(body("raw")) + raw.flush(), "raw")
        half = len(body("two")) // 2
        self.put_get("gzip", gzip.compress(body("two")[:half]) + gzip.compress(body("two")[half:]), "two")

    def test_broken_compressed_requests(self):
        plain = json.dumps({"TableName": "edge", "Item": {"pk": {"S": "broken"}}}).encode()
        for encoding, payload in (("gzip", plain), ("gzip", gzip.compress(plain)[:-1]), ("gzip", b""),
                                  ("garbage", plain)):
            with self.subTest(encoding=encoding, payload=payload[:10]):
                status, _, data = self.server.raw(payload, target="PutItem",
                                                  headers={"Content-Encoding": encoding})
                self.assertEqual(status, 500, data)
                self.assertEqual(json.loads(data)["__type"].split("#")[-1], "InternalServerError")
        self.assertNotIn("Item", self.ddb.get_item(TableName="edge", Key={"pk": {"S": "broken"}}))
        self.assertServing()

    def test_compressed_answers(self):
        self.ddb.put_item(TableName="edge", Item={"pk": {"S": "big"}, "v": {"S": "y" * 9000}})
        key = {"TableName": "edge", "Key": {"pk": {"S": "big"}}}
        for accept, decode in (("gzip", gzip.decompress), ("deflate", zlib.decompress),
                               ("br, deflate;q=0.5, gzip;q=0", zlib.decompress)):
            with self.subTest(accept=accept):
                status, headers, data = self.server.raw(key, target="GetItem",
                                                        headers={"Accept-Encoding": accept})
                self.assertEqual(status, 200)
                self.assertEqual(headers["content-encoding"], accept.split(",")[0] if "br" not in accept
                                 else "deflate")
                self.assertEqual(headers["x-amz-crc32"], str(zlib.crc32(data)))
                self.assertEqual(int(headers["content-length"]), len(data))
                self.assertEqual(json.loads(decode(data))["Item"]["v"]["S"], "y" * 9000)
        # The rules of the choice (tests/unit/gateway/edge_test.cc has them all), through the wire.
        for accept, want in (("*", "gzip"), ("*, gzip;q=0.5", "deflate"), ("*, deflate", "deflate"),
                             ("br, identity, deflate, gzip", "deflate"), ("gzip;q=31,deflate;q=51", "gzip"),
                             ("gzip;q=0, gzip;q=1, gzip;q=0", "gzip"), ("gzip;q =0;q=1", "gzip"),
                             ("gzip;nq=0;q=1", None), ("gzip;q=0.", None), ('"gzip"', None),
                             ("gzip br", None), ("identity", None)):
            with self.subTest(accept=accept):
                status, headers, data = self.server.raw(key, target="GetItem",
                                                        headers={"Accept-Encoding": accept})
                self.assertEqual(status, 200)
                self.assertEqual(headers.get("content-encoding"), want)
                self.assertEqual(int(headers["content-length"]), len(data))
        # Only the first Accept-Encoding header counts.
        self.assertEqual(self.encoding_of([("Accept-Encoding", "deflate"), ("Accept-Encoding", "gzip")]),
                         "deflate")
        self.assertEqual(self.encoding_of([("Accept-Encoding", "identity"), ("Accept-Encoding", "gzip")]),
                         None)
        # Small answers and answers nobody asked to compress are sent as they are.
        _, headers, _ = self.server.raw({}, target="ListTables", headers={"Accept-Encoding": "gzip"})
        self.assertNotIn("content-encoding", headers)
        _, headers, data = self.server.raw(key, target="GetItem")
        self.assertNotIn("content-encoding", headers)
        self.assertIn(b"yyyy", data)

    def encoding_of(self, header_lines):
        """The Content-Encoding of a big GetItem sent raw with `header_lines`
        (repeated headers, which http.client cannot send)."""
        body = json.dumps({"TableName": "edge", "Key": {"pk": {"S": "big"}}}).encode()
        lines = ["POST / HTTP/1.1", "Host: %s" % LOCALHOST, "Content-Type: application/x-amz-json-1.0",
                 "X-Amz-Target: DynamoDB_20120810.GetItem", "Content-Length: %d" % len(body),
                 "Connection: close"]
        lines += ["%s: %s" % kv for kv in UNVERIFIED_AUTH.items()] + ["%s: %s" % kv for kv in header_lines]
        with socket.create_connection((LOCALHOST, self.server.port), timeout=30) as s:
            s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head = data.partition(b"\r\n\r\n")[0].decode("latin-1")
        self.assertTrue(head.startswith("HTTP/1.1 200 "), head)
        found = [line.split(":", 1)[1].strip() for line in head.split("\r\n")
                 if line.lower().startswith("content-encoding:")]
        return found[0] if found else None

    # ---- Date --------------------------------------------------------------

    def test_date_on_every_answer(self):
        for method, target, body in (("POST", "ListTables", {}), ("POST", "Nope", {}), ("GET", None, b""),
                                     ("PUT", None, b"")):
            with self.subTest(method=method, target=target):
                _, headers, _ = self.server.raw(body, target=target, method=method)
                when = email.utils.parsedate_to_datetime(headers["date"])
                # The current time (to the second), not a fixed or stale one:
                # 60 s leaves a busy machine room between answer and check.
                self.assertLess(abs(when.timestamp() - time.time()), 60)


class AllowUnsigned(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--allow-unsigned"]}

    def test_no_authorization_needed(self):
        status, _, data = self.server.raw({}, target="ListTables", auth=False)
        self.assertEqual(status, 200, data)

    def test_a_malformed_one_is_still_refused(self):
        status, _, data = self.server.raw({}, target="ListTables", auth=False,
                                          headers={"Authorization": "AWS4- Credential=a"})
        self.assertEqual(status, 400, data)
        self.assertIn(b"IncompleteSignatureException", data)


class ExpiredSignatures(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--check-signatures"]}

    def signed_at(self, amz_date):
        headers = {"Authorization": "AWS4-HMAC-SHA256 Credential=pogi/%s/us-east-1/dynamodb/aws4_request, "
                                    "SignedHeaders=host;x-amz-date, Signature=00" % amz_date[:8],
                   "X-Amz-Date": amz_date}
        status, _, data = self.server.raw({}, target="ListTables", headers=headers)
        return status, json.loads(data)

    def test_expired(self):
        status, body = self.signed_at("20130301T000000Z")
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], SERVICE + "InvalidSignatureException")
        self.assertRegex(body["message"], r"^Signature expired: 20130301T000000Z is now earlier than "
                                          r"\d{8}T\d{6}Z \(\d{8}T\d{6}Z - 15 min\.\)$")

    def test_not_yet_current(self):
        status, body = self.signed_at("20990101T000000Z")
        self.assertEqual(status, 400)
        self.assertRegex(body["message"], r"^Signature not yet current: 20990101T000000Z is still later than "
                                          r"\d{8}T\d{6}Z \(\d{8}T\d{6}Z \+ 15 min\.\)$")

    def test_the_window_is_judged_before_the_body_and_the_key(self):
        # DynamoDB judges the date first: a body that is not JSON, an unknown
        # access key or a body over the limit are not what is answered.
        old = "20130301T000000Z"
        for key, body, content_type in (("pogi", b"not json", "application/x-amz-json-1.0"),
                                         ("someone-else", b"{}", "application/x-amz-json-1.0"),
                                         ("pogi", b"", "application/json")):
            with self.subTest(key=key, body=body):
                headers = {"Authorization": "AWS4-HMAC-SHA256 Credential=%s/20130301/us-east-1/dynamodb/"
                                            "aws4_request, SignedHeaders=host;x-amz-date, Signature=00" % key,
                           "X-Amz-Date": old}
                status, resp_headers, data = self.server.raw(body, target="ListTables", headers=headers,
                                                             content_type=content_type, auth=False)
                self.assertEqual(status, 400, data)
                self.assertEqual(resp_headers["content-type"], content_type)
                self.assertEqual(json.loads(data)["__type"], SERVICE + "InvalidSignatureException")
                self.assertIn("Signature expired", json.loads(data)["message"])

    def test_answered_without_waiting_for_the_body(self):
        head = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                "X-Amz-Target: DynamoDB_20120810.ListTables\r\nX-Amz-Date: 20990101T000000Z\r\n"
                "Authorization: AWS4-HMAC-SHA256 Credential=pogi/20990101/us-east-1/dynamodb/aws4_request, "
                "SignedHeaders=host;x-amz-date, Signature=00\r\nContent-Length: %d\r\n\r\n"
                % (LOCALHOST, 32 * 1024 * 1024)).encode()  # announced, never sent (and over 16 MiB)
        with socket.create_connection((LOCALHOST, self.server.port), timeout=10) as s:
            s.sendall(head)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        self.assertTrue(head.startswith(b"HTTP/1.1 400 "), head)
        self.assertEqual(json.loads(body)["__type"], SERVICE + "InvalidSignatureException")
        self.assertTrue(json.loads(body)["message"].startswith("Signature not yet current: "), body)
        status, _, _ = self.server.raw(b"", method="GET", content_type=None, auth=False)
        self.assertEqual(status, 200)

    def test_current_date_reaches_the_signature_check(self):
        status, body = self.signed_at(time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
        self.assertEqual(body["__type"], SERVICE + "InvalidSignatureException")
        self.assertTrue(body["message"].startswith("The request signature we calculated"), body)


if __name__ == "__main__":
    unittest.main()
