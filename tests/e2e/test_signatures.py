"""`pogi start --check-signatures`: requests must carry a valid AWS Signature
Version 4 made with the configured credentials; boto3 and the AWS CLI (which
sign with what `pogi env` exports) work unchanged."""

import unittest

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from harness import ServerTestCase

KEY, SECRET = "pogi", "pogi"


class CheckedSignatures(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--check-signatures"]}

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


if __name__ == "__main__":
    unittest.main()
