"""On-demand backups (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
RestoreTableFromBackup with overrides) through boto3 and the AWS CLI, and
kill -9 around them."""

import time
import unittest

from harness import ServerTestCase, Server


def gsi_table_args():
    return dict(
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"},
                              {"AttributeName": "l", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
        LocalSecondaryIndexes=[{"IndexName": "by-l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                                   {"AttributeName": "l", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        BillingMode="PAY_PER_REQUEST")


def item(i):
    it = {"pk": {"S": "p%d" % (i % 3)}, "sk": {"N": str(i)}, "v": {"S": "value-%d" % i}}
    if i % 2 == 0:
        it["g"] = {"S": "g%d" % (i % 4)}
    if i % 5 == 0:
        it["l"] = {"S": "l%d" % i}
    return it


class BackupTest(ServerTestCase):

    def make_table(self, n=20):
        name = self.unique()
        self.ddb.create_table(TableName=name, **gsi_table_args())
        for i in range(n):
            self.ddb.put_item(TableName=name, Item=item(i))
        return name

    def scan(self, name, **kw):
        items, start = [], None
        while True:
            if start:
                kw["ExclusiveStartKey"] = start
            page = self.ddb.scan(TableName=name, **kw)
            items += page["Items"]
            start = page.get("LastEvaluatedKey")
            if not start:
                return sorted(items, key=lambda x: (x["pk"]["S"], int(x["sk"]["N"])))

    def test_backup_restore_round_trip(self):
        name = self.make_table()
        before = self.scan(name)
        details = self.ddb.create_backup(TableName=name, BackupName="nightly")["BackupDetails"]
        arn = details["BackupArn"]
        self.assertRegex(arn, r"^arn:aws:dynamodb:us-east-1:000000000000:table/%s/backup/\d{14}-[0-9a-f]{8}$" % name)
        self.assertEqual((details["BackupName"], details["BackupType"], details["BackupStatus"]),
                         ("nightly", "USER", "CREATING"))
        # Writes after the backup are not in it.
        self.ddb.put_item(TableName=name, Item=item(100))
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}})
        desc = self.ddb.describe_backup(BackupArn=arn)["BackupDescription"]
        self.assertEqual(desc["BackupDetails"]["BackupStatus"], "AVAILABLE")
        self.assertEqual(desc["SourceTableDetails"]["ItemCount"], 20)
        self.assertEqual(desc["SourceTableDetails"]["TableName"], name)
        self.assertEqual([g["IndexName"] for g in desc["SourceTableFeatureDetails"]["GlobalSecondaryIndexes"]],
                         ["by-g"])
        # The backup outlives its table.
        self.ddb.delete_table(TableName=name)
        restored = self.unique("restored")
        td = self.ddb.restore_table_from_backup(TargetTableName=restored, BackupArn=arn)["TableDescription"]
        self.assertEqual(td["RestoreSummary"]["SourceBackupArn"], arn)
        self.assertTrue(td["RestoreSummary"]["RestoreInProgress"])
        t = self.ddb.describe_table(TableName=restored)["Table"]
        self.assertEqual(t["TableStatus"], "ACTIVE")
        self.assertFalse(t["RestoreSummary"]["RestoreInProgress"])
        self.assertEqual(t["ItemCount"], 20)
        self.assertEqual(self.scan(restored), before)
        # Indexes rebuilt: query through them.
        g0 = self.ddb.query(TableName=restored, IndexName="by-g", KeyConditionExpression="g = :g",
                            ExpressionAttributeValues={":g": {"S": "g0"}})["Items"]
        self.assertEqual(sorted(int(i["sk"]["N"]) for i in g0), [0, 4, 8, 12, 16])
        lsi = self.ddb.query(TableName=restored, IndexName="by-l", KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": {"S": "p0"}})["Items"]
        self.assertEqual(sorted(int(i["sk"]["N"]) for i in lsi), [0, 15])
        self.assertEqual(t["GlobalSecondaryIndexes"][0]["ItemCount"], 10)
        # And it takes writes like any table.
        self.ddb.put_item(TableName=restored, Item=item(200))
        self.assertEqual(self.ddb.describe_table(TableName=restored)["Table"]["ItemCount"], 21)

    def test_overrides(self):
        name = self.make_table(6)
        arn = self.ddb.create_backup(TableName=name, BackupName="bk1")["BackupDetails"]["BackupArn"]
        target = self.unique("ovr")
        self.ddb.restore_table_from_backup(
            TargetTableName=target, BackupArn=arn, BillingModeOverride="PROVISIONED",
            ProvisionedThroughputOverride={"ReadCapacityUnits": 7, "WriteCapacityUnits": 3},
            GlobalSecondaryIndexOverride=[],
            LocalSecondaryIndexOverride=[],
            SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"})
        t = self.ddb.describe_table(TableName=target)["Table"]
        self.assertEqual((t["ProvisionedThroughput"]["ReadCapacityUnits"],
                          t["ProvisionedThroughput"]["WriteCapacityUnits"]), (7, 3))
        self.assertEqual(t["SSEDescription"]["Status"], "ENABLED")
        self.assertEqual(t["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"], 7)
        target2 = self.unique("ovr")
        self.ddb.restore_table_from_backup(
            TargetTableName=target2, BackupArn=arn,
            GlobalSecondaryIndexOverride=[{"IndexName": "by-sk", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                                           "Projection": {"ProjectionType": "KEYS_ONLY"}}])
        t2 = self.ddb.describe_table(TableName=target2)["Table"]
        self.assertEqual([g["IndexName"] for g in t2["GlobalSecondaryIndexes"]], ["by-sk"])
        self.assertEqual(t2["GlobalSecondaryIndexes"][0]["ItemCount"], 6)
        self.assertEqual(t2["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")

    def test_list_and_delete(self):
        a = self.make_table(2)
        b = self.make_table(1)
        t0 = time.time() - 1
        arns = [self.ddb.create_backup(TableName=a, BackupName="bka%d" % i)["BackupDetails"]["BackupArn"]
                for i in range(3)]
        barn = self.ddb.create_backup(TableName=b, BackupName="bkb0")["BackupDetails"]["BackupArn"]
        listed = self.ddb.list_backups(TableName=a)["BackupSummaries"]
        self.assertEqual([s["BackupArn"] for s in listed], arns)
        self.assertEqual(listed[0]["BackupSizeBytes"] > 0, True)
        page = self.ddb.list_backups(TableName=a, Limit=2)
        self.assertEqual([s["BackupArn"] for s in page["BackupSummaries"]], arns[:2])
        self.assertEqual(page["LastEvaluatedBackupArn"], arns[1])
        rest = self.ddb.list_backups(TableName=a, Limit=2, ExclusiveStartBackupArn=arns[1])
        self.assertEqual([s["BackupArn"] for s in rest["BackupSummaries"]], arns[2:])
        self.assertNotIn("LastEvaluatedBackupArn", rest)
        every = [s["BackupArn"] for s in self.ddb.list_backups(TimeRangeLowerBound=t0)["BackupSummaries"]]
        self.assertEqual(every[-4:], arns + [barn])
        self.assertEqual(self.ddb.list_backups(TimeRangeUpperBound=t0 - 3600)["BackupSummaries"], [])
        self.assertEqual(self.ddb.list_backups(TableName=a, BackupType="SYSTEM")["BackupSummaries"], [])
        self.assertEqual(len(self.ddb.list_backups(TableName=a, BackupType="ALL")["BackupSummaries"]), 3)
        deleted = self.ddb.delete_backup(BackupArn=arns[0])["BackupDescription"]
        self.assertEqual(deleted["BackupDetails"]["BackupStatus"], "DELETED")
        self.assertEqual(len(self.ddb.list_backups(TableName=a)["BackupSummaries"]), 2)
        self.assertClientError(self.ddb.describe_backup, "BackupNotFoundException",
                               "Backup not found: " + arns[0], BackupArn=arns[0])
        self.assertClientError(self.ddb.delete_backup, "BackupNotFoundException", BackupArn=arns[0])

    def test_errors(self):
        name = self.make_table(1)
        self.assertClientError(self.ddb.create_backup, "TableNotFoundException", "Table not found: nope-table",
                               TableName="nope-table", BackupName="x1y")
        self.assertClientError(self.ddb.create_backup, "ValidationException",
                               "1 validation error detected: Value 'a b' at 'backupName' failed to satisfy "
                               "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                               TableName=name, BackupName="a b")
        arn = self.ddb.create_backup(TableName=name, BackupName="bkp")["BackupDetails"]["BackupArn"]
        self.assertClientError(self.ddb.restore_table_from_backup, "TableAlreadyExistsException",
                               "Table already exists: " + name, TargetTableName=name, BackupArn=arn)
        missing = arn[:-8] + "00000000"
        self.assertClientError(self.ddb.restore_table_from_backup, "BackupNotFoundException",
                               TargetTableName=self.unique(), BackupArn=missing)
        # A table ARN in place of the name.
        tarn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.ddb.create_backup(TableName=tarn, BackupName="by-arn")

    def test_cli(self):
        name = self.make_table(3)
        rc, out, err = self.server.aws("dynamodb", "create-backup", "--table-name", name, "--backup-name", "cli")
        self.assertEqual(rc, 0, err)
        arn = out["BackupDetails"]["BackupArn"]
        rc, out, err = self.server.aws("dynamodb", "list-backups", "--table-name", name)
        self.assertEqual((rc, [s["BackupArn"] for s in out["BackupSummaries"]]), (0, [arn]), err)
        rc, out, err = self.server.aws("dynamodb", "describe-backup", "--backup-arn", arn)
        self.assertEqual((rc, out["BackupDescription"]["SourceTableDetails"]["ItemCount"]), (0, 3), err)
        target = self.unique("cli")
        rc, out, err = self.server.aws("dynamodb", "restore-table-from-backup", "--target-table-name", target,
                                       "--backup-arn", arn)
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.scan(target)), 3)
        rc, out, err = self.server.aws("dynamodb", "delete-backup", "--backup-arn", arn)
        self.assertEqual((rc, out["BackupDescription"]["BackupDetails"]["BackupStatus"]), (0, "DELETED"), err)
        rc, out, err = self.server.aws("dynamodb", "describe-backup", "--backup-arn", arn)
        self.assertIn("BackupNotFoundException", err)


class BackupCrashTest(unittest.TestCase):
    """kill -9 while CreateBackup or a restore of a large table runs: after the
    restart the backup or restored table is there whole, or not at all."""

    def test_kill_during_backup_and_restore(self):
        with Server() as server:
            ddb = server.client()
            ddb.create_table(TableName="big", **gsi_table_args())
            batch = []
            for i in range(6000):
                batch.append({"PutRequest": {"Item": dict(item(i), pad={"S": "x" * 200})}})
                if len(batch) == 25:
                    ddb.batch_write_item(RequestItems={"big": batch})
                    batch = []
            arn = ddb.create_backup(TableName="big", BackupName="base")["BackupDetails"]["BackupArn"]
            import threading
            for op in ("backup", "restore"):
                def run():
                    try:
                        c = server.client()
                        if op == "backup":
                            c.create_backup(TableName="big", BackupName="during")
                        else:
                            c.restore_table_from_backup(TargetTableName="restored", BackupArn=arn)
                    except Exception:
                        pass
                th = threading.Thread(target=run)
                th.start()
                time.sleep(0.05)
                server.kill()
                th.join()
                server.start()
                ddb = server.client()
                if op == "backup":
                    names = [s["BackupName"] for s in ddb.list_backups(TableName="big")["BackupSummaries"]]
                    self.assertIn(names, (["base"], ["base", "during"]))
                    if "during" in names:
                        barn = [s for s in ddb.list_backups(TableName="big")["BackupSummaries"]
                                if s["BackupName"] == "during"][0]["BackupArn"]
                        ddb.restore_table_from_backup(TargetTableName="check", BackupArn=barn)
                        self.assertEqual(ddb.describe_table(TableName="check")["Table"]["ItemCount"], 6000)
                else:
                    tables = ddb.list_tables()["TableNames"]
                    if "restored" in tables:
                        count = ddb.scan(TableName="restored", Select="COUNT")["Count"]
                        total, start = 0, None
                        while True:
                            kw = {"ExclusiveStartKey": start} if start else {}
                            page = ddb.scan(TableName="restored", Select="COUNT", **kw)
                            total += page["Count"]
                            start = page.get("LastEvaluatedKey")
                            if not start:
                                break
                        self.assertEqual(total, 6000)
                        self.assertEqual(ddb.describe_table(TableName="restored")["Table"]["ItemCount"], 6000)


if __name__ == "__main__":
    unittest.main()
