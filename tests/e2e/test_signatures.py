"""`pogi start --check-signatures`: requests must carry a valid AWS Signature
Version 4 made with the configured credentials; boto3 and the AWS CLI (which
sign with what `pogi env` exports) work unchanged."""

import datetime
import json
import os
import socket
import tempfile
import unittest
from unittest import mock

import boto3
import botocore.auth
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from harness import LOCALHOST, Server, ServerTestCase

KEY, SECRET = "pogi", "pogi"


def signed_request(endpoint, key=KEY, secret=SECRET, service="dynamodb", region="us-east-1", when=None):
    """A ListTables signed by botocore's own SigV4 signer: (headers, body)."""
    req = AWSRequest(method="POST", url=endpoint + "/", data=b"{}",
                     headers={"Content-Type": "application/x-amz-json-1.0",
                              "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    signer = SigV4Auth(Credentials(key, secret), service, region)
    if when is None:
        signer.add_auth(req)
    else:
        with mock.patch.object(botocore.auth, "get_current_datetime", return_value=when):
            signer.add_auth(req)
    return dict(req.headers.items()), req.body


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class CheckedSignatures(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--check-signatures"]}

    def send(self, headers, body=b"{}"):
        status, _, data = self.server.raw(body, target=None, content_type=None, headers=headers, auth=False)
        return status, json.loads(data)

    def assertRefused(self, headers, type_, message):
        status, body = self.send(headers)
        self.assertEqual(status, 400, body)
        self.assertEqual(body["__type"], "com.amazon.coral.service#" + type_)
        self.assertEqual(body["message"], message)

    def test_botocore_signer_is_accepted(self):
        status, body = self.send(*signed_request(self.server.endpoint))
        self.assertEqual(status, 200, body)
        self.assertIn("TableNames", body)

    def test_a_replay_inside_the_window_is_accepted(self):
        # As in DynamoDB: a signature stays valid for its 15 minutes.
        headers, body = signed_request(self.server.endpoint, when=utcnow() - datetime.timedelta(minutes=14))
        self.assertEqual(self.send(headers, body)[0], 200)
        self.assertEqual(self.send(headers, body)[0], 200)

    def test_a_replay_outside_the_window_is_refused(self):
        when = utcnow() - datetime.timedelta(minutes=16)
        headers, _ = signed_request(self.server.endpoint, when=when)
        status, body = self.send(headers)
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazon.coral.service#InvalidSignatureException")
        self.assertRegex(body["message"], r"^Signature expired: %s is now earlier than \d{8}T\d{6}Z "
                                          r"\(\d{8}T\d{6}Z - 15 min\.\)$" % when.strftime("%Y%m%dT%H%M%SZ"))

    def test_a_signature_from_the_future_is_refused(self):
        headers, _ = signed_request(self.server.endpoint, when=utcnow() + datetime.timedelta(minutes=16))
        status, body = self.send(headers)
        self.assertEqual(status, 400)
        self.assertTrue(body["message"].startswith("Signature not yet current: "), body)

    def test_scope_of_another_region(self):
        self.assertRefused(signed_request(self.server.endpoint, region="eu-west-1")[0],
                           "InvalidSignatureException",
                           "Credential should be scoped to a valid region, not 'eu-west-1'. ")

    def test_scope_of_another_service(self):
        self.assertRefused(signed_request(self.server.endpoint, service="s3")[0], "InvalidSignatureException",
                           "Credential should be scoped to correct service: 'dynamodb'. ")

    def test_scope_of_another_day(self):
        headers, _ = signed_request(self.server.endpoint)
        day = headers["X-Amz-Date"][:8]
        other = (datetime.datetime.strptime(day, "%Y%m%d") - datetime.timedelta(days=1)).strftime("%Y%m%d")
        headers["Authorization"] = headers["Authorization"].replace("/%s/" % day, "/%s/" % other)
        self.assertRefused(headers, "InvalidSignatureException",
                           "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date "
                           "from HTTP: '%s' != '%s', from '%s'." % (other, day, headers["X-Amz-Date"]))

    def test_scope_with_another_terminator(self):
        headers, _ = signed_request(self.server.endpoint)
        headers["Authorization"] = headers["Authorization"].replace("/aws4_request", "/aws5_request")
        self.assertRefused(headers, "InvalidSignatureException",
                           "Credential should be scoped with a valid terminator: 'aws4_request', "
                           "not 'aws5_request'. ")

    def test_a_changed_body_is_refused(self):
        headers, _ = signed_request(self.server.endpoint)
        status, body = self.send(headers, b'{"Limit": 1}')
        self.assertEqual(body["__type"], "com.amazon.coral.service#InvalidSignatureException")
        self.assertTrue(body["message"].startswith("The request signature we calculated does not match"))

    def test_a_signature_one_digit_off_is_refused(self):
        headers, _ = signed_request(self.server.endpoint)
        auth = headers["Authorization"]
        last = auth[-1]
        headers["Authorization"] = auth[:-1] + ("0" if last != "0" else "1")
        status, body = self.send(headers)
        self.assertEqual(body["__type"], "com.amazon.coral.service#InvalidSignatureException")

    # ---- what is judged before the signature's window, and what after ------

    def test_the_window_comes_before_the_key_and_the_body(self):
        # An unknown access key, a body that is not JSON: the date is still what is refused.
        when = utcnow() - datetime.timedelta(minutes=16)
        for key, body in (("someone-else", b"{}"), (KEY, b"not json"), (KEY, b"")):
            with self.subTest(key=key, body=body):
                headers, _ = signed_request(self.server.endpoint, key=key, when=when)
                status, answer = self.send(headers, body)
                self.assertEqual(status, 400, answer)
                self.assertEqual(answer["__type"], "com.amazon.coral.service#InvalidSignatureException")
                self.assertIn("Signature expired", answer["message"])
        headers, _ = signed_request(self.server.endpoint, key="someone-else",
                                    when=utcnow() + datetime.timedelta(minutes=16))
        self.assertIn("Signature not yet current", self.send(headers)[1]["message"])

    def raw_bytes(self, data):
        """Sends `data` on a fresh connection; (status line, body) of the answer."""
        with socket.create_connection((LOCALHOST, self.server.port), timeout=30) as s:
            try:
                s.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                pass
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        return head.split(b"\r\n")[0].decode(), body

    def test_a_request_line_over_16_kb_is_400_not_a_signature_error(self):
        headers, body = signed_request(self.server.endpoint)
        target = "/?pad=" + "x" * (16 * 1024)
        lines = ["POST %s HTTP/1.1" % target] + ["%s: %s" % kv for kv in headers.items()]
        lines += ["Content-Length: %d" % len(body), "Connection: close"]
        status_line, answer = self.raw_bytes(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        self.assertTrue(status_line.startswith("HTTP/1.1 400 "), status_line)
        self.assertNotIn(b"InvalidSignatureException", answer)
        self.assertEqual(answer, b"Bad Request: the request line exceeds 16384 bytes\n")

    def test_headers_over_16_kb_are_400(self):
        headers, body = signed_request(self.server.endpoint)
        lines = ["POST / HTTP/1.1"] + ["%s: %s" % kv for kv in headers.items()]
        lines += ["Content-Length: %d" % len(body), "Connection: close", "X-Pad: " + "p" * (16 * 1024)]
        status_line, answer = self.raw_bytes(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        self.assertTrue(status_line.startswith("HTTP/1.1 400 "), status_line)
        self.assertEqual(answer, b"Bad Request: the request headers exceed 16384 bytes\n")

    def client_with(self, key, secret):
        return boto3.client("dynamodb", endpoint_url=self.server.endpoint, region_name="us-east-1",
                            aws_access_key_id=key, aws_secret_access_key=secret,
                            config=Config(retries={"max_attempts": 1}))

    def error_of(self, client):
        with self.assertRaises(ClientError) as cm:
            client.list_tables()
        return cm.exception.response["Error"]

    def test_signed_with_the_configured_credentials(self):
        good = self.client_with(KEY, SECRET)
        good.create_table(TableName="signed", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
        good.put_item(TableName="signed", Item={"pk": {"S": "a"}, "text": {"S": "spaces  inside   and ünïcode"}})
        self.assertEqual(good.get_item(TableName="signed", Key={"pk": {"S": "a"}})["Item"]["text"]["S"],
                         "spaces  inside   and ünïcode")

    def test_aws_cli_with_pogi_env(self):
        rc, out, err = self.server.aws("dynamodb", "list-tables")
        self.assertEqual(rc, 0, err)
        self.assertIn("TableNames", out)

    def test_wrong_secret(self):
        err = self.error_of(self.client_with(KEY, "not-the-secret"))
        self.assertEqual(err["Code"], "InvalidSignatureException")
        self.assertTrue(err["Message"].startswith("The request signature we calculated does not match"), err)

    def test_unknown_access_key(self):
        err = self.error_of(self.client_with("someone-else", SECRET))
        self.assertEqual(err["Code"], "UnrecognizedClientException")
        self.assertEqual(err["Message"], "The security token included in the request is invalid.")

    def test_unsigned_request(self):
        status, _, body = self.server.raw({}, target="ListTables", auth=False)
        self.assertEqual(status, 400)
        self.assertIn(b"MissingAuthenticationTokenException", body)

    def test_health_check_needs_no_signature(self):
        status, _, body = self.server.raw(b"", method="GET", content_type=None, auth=False)
        self.assertEqual(status, 200)
        self.assertTrue(body.startswith(b"healthy: "), body)

    def test_malformed_authorization(self):
        status, _, body = self.server.raw({}, target="ListTables", headers={"Authorization": "AWS4-HMAC-SHA256 nonsense"})
        self.assertEqual(status, 400)
        self.assertIn(b"IncompleteSignatureException", body)


class SecretNeverLogged(unittest.TestCase):
    """--log-requests at debug level into a log file: neither the secret nor
    the signing key derived from it appears, whatever the request."""

    SECRET = "Zq9-very-secret-value-7Yx"

    def test_secret_absent_from_log_file_and_stderr(self):
        tmp = tempfile.mkdtemp(prefix="pogi-secret-")
        log_path = os.path.join(tmp, "pogi.log")
        server = Server(in_memory=True, log_level="debug",
                        extra_args=["--check-signatures", "--secret-access-key", self.SECRET,
                                    "--log-requests", "--log-file", log_path])
        server.start()
        try:
            for secret in (self.SECRET, "wrong-secret"):
                headers, body = signed_request(server.endpoint, secret=secret)
                server.raw(body, target=None, content_type=None, headers=headers, auth=False)
            headers, body = signed_request(server.endpoint, secret=self.SECRET, region="eu-west-1")
            server.raw(body, target=None, content_type=None, headers=headers, auth=False)
        finally:
            server.stop()
        with open(log_path) as f:
            log = f.read()
        self.assertIn("ListTables", log)  # the requests were logged
        for text in (log, server.stderr_text()):
            self.assertNotIn(self.SECRET, text)
            self.assertNotIn("AWS4" + self.SECRET, text)
        server.cleanup()


class ListenWarning(unittest.TestCase):
    """A non-loopback address without --check-signatures draws one warning line."""

    WARNING = "without --check-signatures"

    def stderr_of(self, *args):
        server = Server(in_memory=True, extra_args=list(args))
        server.start()
        try:
            server.stop()
            return server.stderr_text()
        finally:
            server.cleanup()

    def test_all_addresses_without_signatures_warns(self):
        lines = [l for l in self.stderr_of("--host", "0.0.0.0").splitlines() if self.WARNING in l]
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("listening on 0.0.0.0", lines[0])

    def test_all_addresses_with_signatures_is_quiet(self):
        self.assertNotIn(self.WARNING, self.stderr_of("--host", "0.0.0.0", "--check-signatures"))

    def test_loopback_is_quiet(self):
        self.assertNotIn(self.WARNING, self.stderr_of("--host", "127.0.0.1"))


if __name__ == "__main__":
    unittest.main()
