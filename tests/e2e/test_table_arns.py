"""A table ARN in place of a table name, wherever DynamoDB takes one: table
operations, item operations, batches (answers keyed as the client sent them),
transactions, TTL, backups and PITR; ARNs of another region or account name
no table, and ARNs of something else than a table are refused; --account-id
puts another account in every ARN and makes it the one that names tables."""

import unittest

from harness import ServerTestCase, run_pogi

ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/"


class TableArnTest(ServerTestCase):

    def setUp(self):
        self.name = self.create_table(range_key=("sk", "N"))
        self.arn = ARN + self.name

    def key(self, n):
        return {"pk": {"S": "a"}, "sk": {"N": str(n)}}

    def test_table_operations(self):
        d = self.ddb.describe_table(TableName=self.arn)["Table"]
        self.assertEqual((d["TableName"], d["TableArn"]), (self.name, self.arn))
        d = self.ddb.update_table(TableName=self.arn, DeletionProtectionEnabled=True)["TableDescription"]
        self.assertEqual(d["TableName"], self.name)
        self.assertTrue(d["DeletionProtectionEnabled"])
        self.ddb.update_table(TableName=self.arn, DeletionProtectionEnabled=False)
        self.ddb.update_time_to_live(TableName=self.arn,
                                     TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        ttl = self.ddb.describe_time_to_live(TableName=self.arn)["TimeToLiveDescription"]
        self.assertEqual(ttl["AttributeName"], "exp")
        rc, out, err = self.server.aws("dynamodb", "describe-table", "--table-name", self.arn)
        self.assertEqual((rc, out["Table"]["TableName"]), (0, self.name), err)
        d = self.ddb.delete_table(TableName=self.arn)["TableDescription"]
        self.assertEqual((d["TableName"], d["TableStatus"]), (self.name, "DELETING"))
        self.assertNotIn(self.name, self.ddb.list_tables()["TableNames"])

    def test_create_table_by_arn(self):
        name = self.unique()
        d = self.ddb.create_table(TableName=ARN + name, AttributeDefinitions=[{"AttributeName": "pk",
                                                                              "AttributeType": "S"}],
                                  KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                  BillingMode="PAY_PER_REQUEST")["TableDescription"]
        self.assertEqual((d["TableName"], d["TableArn"]), (name, ARN + name))
        self.assertIn(name, self.ddb.list_tables()["TableNames"])
        self.assertClientError(self.ddb.create_table, "ResourceInUseException", "Table already exists: " + name,
                               TableName=ARN + name,
                               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
        self.ddb.delete_table(TableName=ARN + name)

    def test_item_operations(self):
        t = self.arn
        put = self.ddb.put_item(TableName=t, Item=dict(self.key(1), v={"S": "one"}), ReturnConsumedCapacity="TOTAL")
        # DynamoDB names the table in ConsumedCapacity as the request did.
        self.assertEqual(put["ConsumedCapacity"]["TableName"], t)
        self.assertEqual(self.ddb.get_item(TableName=t, Key=self.key(1))["Item"]["v"], {"S": "one"})
        self.ddb.update_item(TableName=t, Key=self.key(1), UpdateExpression="SET v = :v",
                             ExpressionAttributeValues={":v": {"S": "uno"}})
        self.assertEqual(self.ddb.get_item(TableName=self.name, Key=self.key(1))["Item"]["v"], {"S": "uno"})
        self.ddb.put_item(TableName=t, Item=self.key(2))
        q = self.ddb.query(TableName=t, KeyConditionExpression="pk = :p",
                           ExpressionAttributeValues={":p": {"S": "a"}})
        self.assertEqual(q["Count"], 2)
        s = self.ddb.scan(TableName=t, ReturnConsumedCapacity="TOTAL")
        self.assertEqual((s["Count"], s["ConsumedCapacity"]["TableName"]), (2, t))
        g = self.ddb.get_item(TableName=t, Key=self.key(1), ReturnConsumedCapacity="TOTAL")
        self.assertEqual(g["ConsumedCapacity"]["TableName"], t)
        g = self.ddb.get_item(TableName=self.name, Key=self.key(1), ReturnConsumedCapacity="TOTAL")
        self.assertEqual(g["ConsumedCapacity"]["TableName"], self.name)
        self.ddb.delete_item(TableName=t, Key=self.key(2))
        rc, out, err = self.server.aws("dynamodb", "scan", "--table-name", t)
        self.assertEqual((rc, out["Count"]), (0, 1), err)

    def test_batches_answer_under_the_key_sent(self):
        w = self.ddb.batch_write_item(RequestItems={self.arn: [{"PutRequest": {"Item": self.key(i)}}
                                                               for i in range(3)]},
                                      ReturnConsumedCapacity="TOTAL")
        self.assertEqual(w["UnprocessedItems"], {})
        self.assertEqual([c["TableName"] for c in w["ConsumedCapacity"]], [self.arn])
        g = self.ddb.batch_get_item(RequestItems={self.arn: {"Keys": [self.key(0), self.key(2)]}})
        self.assertEqual(list(g["Responses"]), [self.arn])
        self.assertEqual(len(g["Responses"][self.arn]), 2)
        # A name and an ARN of the same table are two keys of the request.
        g = self.ddb.batch_get_item(RequestItems={self.arn: {"Keys": [self.key(0)]},
                                                  self.name: {"Keys": [self.key(1)]}})
        self.assertEqual(sorted(g["Responses"]), sorted([self.arn, self.name]))

    def test_transactions(self):
        self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": self.arn, "Item": self.key(1)}},
            {"Update": {"TableName": self.arn, "Key": self.key(2), "UpdateExpression": "SET v = :v",
                        "ExpressionAttributeValues": {":v": {"N": "2"}}}}])
        got = self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": self.arn, "Key": self.key(1)}},
                                                         {"Get": {"TableName": self.arn, "Key": self.key(2)}}])
        self.assertEqual(len([r for r in got["Responses"] if "Item" in r]), 2)
        # One item named once by name and once by ARN is one item.
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               "Transaction request cannot include multiple operations on one item",
                               TransactItems=[{"Put": {"TableName": self.arn, "Item": self.key(1)}},
                                              {"Delete": {"TableName": self.name, "Key": self.key(1)}}])

    def test_backups_and_pitr(self):
        self.ddb.put_item(TableName=self.arn, Item=self.key(1))
        b = self.ddb.create_backup(TableName=self.arn, BackupName="by-arn")["BackupDetails"]
        self.assertTrue(b["BackupArn"].startswith(self.arn + "/backup/"), b["BackupArn"])
        listed = self.ddb.list_backups(TableName=self.arn)["BackupSummaries"]
        self.assertEqual([s["TableName"] for s in listed], [self.name])
        self.ddb.update_continuous_backups(TableName=self.arn,
                                           PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        d = self.ddb.describe_continuous_backups(TableName=self.arn)["ContinuousBackupsDescription"]
        self.assertEqual(d["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"], "ENABLED")
        self.ddb.delete_backup(BackupArn=b["BackupArn"])

    def test_other_region_or_account_names_no_table(self):
        for arn in ("arn:aws:dynamodb:eu-west-1:000000000000:table/" + self.name,
                    "arn:aws:dynamodb:us-east-1:123456789012:table/" + self.name):
            self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException",
                                   "Requested resource not found: Table: %s not found" % arn, TableName=arn)
            self.assertClientError(self.ddb.get_item, "ResourceNotFoundException", "Requested resource not found",
                                   TableName=arn, Key=self.key(1))
            self.assertClientError(self.ddb.put_item, "ResourceNotFoundException", "Requested resource not found",
                                   TableName=arn, Item=self.key(1))
            self.assertClientError(self.ddb.batch_get_item, "ResourceNotFoundException",
                                   "Requested resource not found", RequestItems={arn: {"Keys": [self.key(1)]}})
            self.assertClientError(self.ddb.delete_table, "ResourceNotFoundException",
                                   "Requested resource not found: Table: %s not found" % arn, TableName=arn)
            self.assertClientError(self.ddb.create_backup, "TableNotFoundException", "Table not found: " + arn,
                                   TableName=arn, BackupName="nope")
        self.assertIn(self.name, self.ddb.list_tables()["TableNames"])

    def test_arns_of_other_things_are_refused(self):
        msg = "Invalid TableArn: Invalid ResourceArn provided as input "
        for arn in (self.arn + "/index/by-x", self.arn + "/stream/2030-01-01T00:00:00.000",
                    "arn:aws:s3:us-east-1:000000000000:table/" + self.name, "arn:aws:dynamodb:us-east-1"):
            self.assertClientError(self.ddb.describe_table, "ValidationException", msg + arn, TableName=arn)
            self.assertClientError(self.ddb.get_item, "ValidationException", msg + arn, TableName=arn,
                                   Key=self.key(1))
        # Beyond 1024 characters the member constraint answers first.
        long_arn = self.arn + "x" * 1024
        self.assertClientError(self.ddb.describe_table, "ValidationException",
                               "1 validation error detected: Value '%s' at 'tableName' failed to satisfy "
                               "constraint: Member must have length less than or equal to 1024" % long_arn,
                               TableName=long_arn)
        # A name is still held to the name rules.
        self.assertClientError(self.ddb.describe_table, "ValidationException",
                               message_contains="Member must satisfy regular expression pattern",
                               TableName="not:an/arn")


class AccountIdTest(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--account-id", "123456789012"]}

    def test_every_arn_names_the_account_and_only_it_names_tables(self):
        name = self.create_table(range_key=("sk", "N"))
        arn = "arn:aws:dynamodb:us-east-1:123456789012:table/" + name
        self.assertEqual(self.ddb.describe_table(TableName=arn)["Table"]["TableArn"], arn)
        self.ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True,
                                                                   "StreamViewType": "KEYS_ONLY"})
        d = self.ddb.describe_table(TableName=name)["Table"]
        self.assertTrue(d["LatestStreamArn"].startswith(arn + "/stream/"), d["LatestStreamArn"])
        backup = self.ddb.create_backup(TableName=arn, BackupName="bak")["BackupDetails"]["BackupArn"]
        self.assertTrue(backup.startswith(arn + "/backup/"), backup)
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}])
        self.assertEqual(self.ddb.list_tags_of_resource(ResourceArn=arn)["Tags"], [{"Key": "k", "Value": "v"}])
        # DynamoDB Local's account is another account here.
        other = "arn:aws:dynamodb:us-east-1:000000000000:table/" + name
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException",
                               "Requested resource not found: Table: %s not found" % other, TableName=other)

    def test_an_account_id_is_twelve_digits(self):
        for bad in ("12345678901", "1234567890123", "12345678901x"):
            cp = run_pogi("start", "--in-memory", "--port", "1", "--account-id", bad)
            self.assertNotEqual(cp.returncode, 0)
            self.assertIn("invalid --account-id " + bad, cp.stderr)


if __name__ == "__main__":
    unittest.main()
