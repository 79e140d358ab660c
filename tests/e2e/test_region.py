"""`pogi start --region R`: the one region pogi answers as. boto3 and the AWS
CLI configured for it work against --check-signatures, every ARN and stream
record carries it, and a request signed for another region is refused as
DynamoDB refuses it; `pogi env --region R` exports it."""

import subprocess
import unittest

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from harness import Server, ServerTestCase, StartError, parse_sh_exports, run_pogi

REGION = "eu-west-1"
ACCOUNT = "000000000000"


class OtherRegion(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--region", REGION, "--check-signatures"]}

    def boto(self, service, region=REGION):
        return boto3.client(service, endpoint_url=self.server.endpoint, region_name=region,
                            aws_access_key_id="pogi", aws_secret_access_key="pogi",
                            config=Config(retries={"max_attempts": 1}))

    def test_health_check_names_the_region(self):
        # DynamoDB's `GET /`: its regional endpoint, with a trailing space.
        status, headers, body = self.server.raw(b"", method="GET", content_type=None, auth=False)
        self.assertEqual((status, body), (200, b"healthy: dynamodb.eu-west-1.amazonaws.com "))
        self.assertEqual(headers["content-length"], str(len(body)))

    def test_signed_for_the_region_is_accepted_and_arns_carry_it(self):
        ddb = self.boto("dynamodb")
        table = ddb.create_table(
            TableName="regional",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
            BillingMode="PAY_PER_REQUEST")["TableDescription"]
        arn = "arn:aws:dynamodb:%s:%s:table/regional" % (REGION, ACCOUNT)
        self.assertEqual(table["TableArn"], arn)
        self.assertEqual(table["GlobalSecondaryIndexes"][0]["IndexArn"], arn + "/index/by-g")
        self.assertTrue(table["LatestStreamArn"].startswith(arn + "/stream/"), table["LatestStreamArn"])

        # A table ARN of this region names the table; one of us-east-1 names none here.
        self.assertEqual(ddb.describe_table(TableName=arn)["Table"]["TableName"], "regional")
        with self.assertRaises(ClientError) as cm:
            ddb.describe_table(TableName=arn.replace(REGION, "us-east-1"))
        self.assertEqual(cm.exception.response["Error"]["Code"], "ResourceNotFoundException")

        ddb.put_item(TableName="regional", Item={"pk": {"S": "a"}, "g": {"S": "x"}})
        streams = self.boto("dynamodbstreams")
        shard = streams.describe_stream(StreamArn=table["LatestStreamArn"])["StreamDescription"]["Shards"][0]
        it = streams.get_shard_iterator(StreamArn=table["LatestStreamArn"], ShardId=shard["ShardId"],
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=it)["Records"]
        self.assertEqual([r["awsRegion"] for r in records], [REGION])

        backup = ddb.create_backup(TableName="regional", BackupName="regional-backup")["BackupDetails"]
        self.assertTrue(backup["BackupArn"].startswith(arn + "/backup/"), backup["BackupArn"])

    def test_a_scope_of_another_region_is_refused(self):
        with self.assertRaises(ClientError) as cm:
            self.boto("dynamodb", region="us-east-1").list_tables()
        err = cm.exception.response["Error"]
        self.assertEqual(err["Code"], "InvalidSignatureException")
        self.assertEqual(err["Message"], "Credential should be scoped to a valid region, not 'us-east-1'. ")

    def test_pogi_env_and_the_cli(self):
        cp = run_pogi("env", "--port", self.server.port, "--region", REGION)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        exported = parse_sh_exports(cp.stdout)
        self.assertEqual(exported["AWS_REGION"], REGION)
        self.assertEqual(exported["AWS_DEFAULT_REGION"], REGION)
        env = self.server.cli_env()
        env.update(exported)
        out = subprocess.run(["aws", "dynamodb", "list-tables", "--output", "json"], capture_output=True,
                             text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("TableNames", out.stdout)


class RegionFlag(unittest.TestCase):
    """--region takes an AWS region name, nothing else."""

    def test_a_bad_region_is_refused_at_start(self):
        for bad in ("Mars", "eu_west_1", "us-east", "EU-WEST-1", "eu-west-1a", "-1"):
            server = Server(in_memory=True, extra_args=["--region", bad])
            try:
                with self.assertRaises(StartError) as cm:
                    server.start()
                self.assertIn("invalid --region " + bad, cm.exception.stderr)
            finally:
                server.cleanup()

    def test_pogi_env_refuses_a_bad_region(self):
        cp = run_pogi("env", "--region", "nowhere")
        self.assertEqual(cp.returncode, 2)
        self.assertIn("invalid --region nowhere", cp.stderr)

    def test_pogi_env_defaults_to_us_east_1(self):
        cp = run_pogi("env")
        self.assertEqual(parse_sh_exports(cp.stdout)["AWS_REGION"], "us-east-1")


if __name__ == "__main__":
    unittest.main()
