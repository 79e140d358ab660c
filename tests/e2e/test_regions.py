"""Regions: a request's region is its credential scope's. By default every
table answers from every region (one namespace); `pogi start --strict-regions`
gives each region its own tables, ARNs, streams and backups, as in AWS; the
AWS CLI and boto3 signed for several regions see that, over both doors."""

import subprocess

from harness import ServerTestCase

ACCOUNT = "000000000000"
KEY = [{"AttributeName": "pk", "KeyType": "HASH"}]
ATTRS = [{"AttributeName": "pk", "AttributeType": "S"}]


def create(ddb, name, **kw):
    return ddb.create_table(TableName=name, KeySchema=KEY, AttributeDefinitions=ATTRS,
                            BillingMode="PAY_PER_REQUEST", **kw)["TableDescription"]


def names(ddb):
    return ddb.list_tables()["TableNames"]


class OneNamespace(ServerTestCase):
    """The default: a table made through any region answers from every one."""

    def test_every_region_sees_every_table(self):
        west, europe = self.server.client("us-west-2"), self.server.client("eu-west-1")
        name = self.unique("shared")
        table = create(west, name)
        self.assertEqual(table["TableArn"], "arn:aws:dynamodb:us-east-1:%s:table/%s" % (ACCOUNT, name))
        europe.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "from eu-west-1"}})
        item = self.ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item["v"], {"S": "from eu-west-1"})
        for ddb in (west, europe, self.ddb):
            self.assertIn(name, names(ddb))
        self.assertClientError(europe.create_table, "ResourceInUseException", TableName=name, KeySchema=KEY,
                               AttributeDefinitions=ATTRS, BillingMode="PAY_PER_REQUEST")


class StrictRegions(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--strict-regions", "--check-signatures", "--access-key-id", "pogi-test",
                                  "--secret-access-key", "pogi-test"]}

    def test_each_region_has_its_own_tables(self):
        east, west = self.ddb, self.server.client("us-west-2")
        name = self.unique("orders")
        east_table = create(east, name, StreamSpecification={"StreamEnabled": True,
                                                              "StreamViewType": "NEW_IMAGE"})
        self.assertNotIn(name, names(west))
        self.assertClientError(west.describe_table, "ResourceNotFoundException", TableName=name)
        # The same name again in us-west-2: another table, with its own ARN and stream.
        west_table = create(west, name, StreamSpecification={"StreamEnabled": True,
                                                              "StreamViewType": "NEW_IMAGE"})
        west_arn = "arn:aws:dynamodb:us-west-2:%s:table/%s" % (ACCOUNT, name)
        self.assertEqual(west_table["TableArn"], west_arn)
        self.assertNotEqual(west_table["TableId"], east_table["TableId"])
        self.assertTrue(west_table["LatestStreamArn"].startswith(west_arn + "/stream/"))
        east.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"S": "east"}})
        west.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"S": "west"}})
        self.assertEqual(east.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"]["S"], "east")
        self.assertEqual(west.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"]["S"], "west")
        self.assertEqual(west.scan(TableName=name)["Count"], 1)

        # A table ARN names the table of its region, from that region only.
        self.assertEqual(west.describe_table(TableName=west_arn)["Table"]["TableId"], west_table["TableId"])
        self.assertClientError(east.describe_table, "ResourceNotFoundException", TableName=west_arn)

        # Each region's stream carries its region; each region lists its own.
        streams = self.server.client("us-west-2", service="dynamodbstreams")
        listed = streams.list_streams(TableName=name)["Streams"]
        self.assertEqual([s["StreamArn"] for s in listed], [west_table["LatestStreamArn"]])
        shard = streams.describe_stream(StreamArn=west_table["LatestStreamArn"])["StreamDescription"]["Shards"][0]
        it = streams.get_shard_iterator(StreamArn=west_table["LatestStreamArn"], ShardId=shard["ShardId"],
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=it)["Records"]
        self.assertEqual([(r["awsRegion"], r["dynamodb"]["NewImage"]["v"]["S"]) for r in records],
                         [("us-west-2", "west")])

        # Backups belong to their table's region.
        backup = west.create_backup(TableName=name, BackupName="west-backup")["BackupDetails"]
        self.assertTrue(backup["BackupArn"].startswith(west_arn + "/backup/"), backup["BackupArn"])
        self.assertEqual([b["BackupArn"] for b in west.list_backups(TableName=name)["BackupSummaries"]],
                         [backup["BackupArn"]])
        self.assertEqual(east.list_backups(TableName=name)["BackupSummaries"], [])

        # Deleting one region's table leaves the other's.
        west.delete_table(TableName=name)
        self.assertClientError(west.describe_table, "ResourceNotFoundException", TableName=name)
        self.assertEqual(east.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"]["S"], "east")

    def test_the_aws_cli_signed_for_another_region(self):
        name = self.unique("cli")
        env = self.server.cli_env()
        env["AWS_ACCESS_KEY_ID"] = env["AWS_SECRET_ACCESS_KEY"] = "pogi-test"

        def aws(region, *args):
            cp = subprocess.run(["aws", "dynamodb", "--region", region, "--output", "json"] + list(args),
                                capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
            self.assertEqual(cp.returncode, 0, cp.stderr)
            return cp.stdout

        aws("ap-southeast-2", "create-table", "--table-name", name, "--attribute-definitions",
            "AttributeName=pk,AttributeType=S", "--key-schema", "AttributeName=pk,KeyType=HASH",
            "--billing-mode", "PAY_PER_REQUEST")
        self.assertIn(name, aws("ap-southeast-2", "list-tables"))
        self.assertNotIn(name, aws("us-east-1", "list-tables"))
        self.assertIn("arn:aws:dynamodb:ap-southeast-2:", aws("ap-southeast-2", "describe-table", "--table-name",
                                                              name))


class SignaturesInOneNamespace(ServerTestCase):
    """--check-signatures without --strict-regions serves pogi's own region
    (and those of global tables' replicas): another is refused as DynamoDB
    refuses a scope it does not serve."""

    SERVER_ARGS = {"extra_args": ["--check-signatures", "--access-key-id", "pogi-test",
                                  "--secret-access-key", "pogi-test"]}

    def test_a_region_pogi_does_not_serve_is_refused(self):
        self.assertClientError(self.server.client("eu-west-1").list_tables, "InvalidSignatureException",
                               "Credential should be scoped to a valid region, not 'eu-west-1'. ")
        self.assertIn("TableNames", self.ddb.list_tables())


if __name__ == "__main__":
    import unittest
    unittest.main()
