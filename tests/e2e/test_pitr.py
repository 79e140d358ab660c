"""Point-in-time recovery (UpdateContinuousBackups, DescribeContinuousBackups,
RestoreTableToPointInTime) and the backup-and-restore runbook: write, back
up, keep writing, restore a point in time between two writes, delete the
table, restore the backup, and check every item of both restored tables,
through their indexes too."""

import math
import time
import unittest

from harness import ServerTestCase
from test_backups import gsi_table_args, item


def wait_until(t):
    while time.time() < t:
        time.sleep(0.02)


class PitrTest(ServerTestCase):

    def make_table(self, n=0):
        name = self.unique()
        self.ddb.create_table(TableName=name, **gsi_table_args())
        for i in range(n):
            self.ddb.put_item(TableName=name, Item=item(i))
        return name

    def enable(self, name, **spec):
        spec.setdefault("PointInTimeRecoveryEnabled", True)
        return self.ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification=spec)

    def scan(self, name):
        items, start = [], None
        while True:
            kw = {"ExclusiveStartKey": start} if start else {}
            page = self.ddb.scan(TableName=name, ConsistentRead=True, **kw)
            items += page["Items"]
            start = page.get("LastEvaluatedKey")
            if not start:
                return sorted(items, key=lambda x: (x["pk"]["S"], int(x["sk"]["N"])))

    def index_view(self, name):
        """Every item as the GSI and the LSI show it (keys only, sorted)."""
        gsi, lsi = [], []
        for g in ("g0", "g1", "g2", "g3"):
            gsi += [(i["g"]["S"], i["pk"]["S"], i["sk"]["N"]) for i in self.ddb.query(
                TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                ExpressionAttributeValues={":g": {"S": g}})["Items"]]
        for p in ("p0", "p1", "p2"):
            lsi += [(i["pk"]["S"], i["l"]["S"], i["sk"]["N"]) for i in self.ddb.query(
                TableName=name, IndexName="by-l", KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": p}})["Items"]]
        return sorted(gsi), sorted(lsi)

    def test_describe_and_update(self):
        name = self.make_table()
        d = self.ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
        self.assertEqual(d["ContinuousBackupsStatus"], "ENABLED")
        self.assertEqual(d["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"], "DISABLED")
        before = time.time()
        d = self.enable(name, RecoveryPeriodInDays=7)["ContinuousBackupsDescription"]
        p = d["PointInTimeRecoveryDescription"]
        self.assertEqual((p["PointInTimeRecoveryStatus"], p["RecoveryPeriodInDays"]), ("ENABLED", 7))
        self.assertGreaterEqual(p["EarliestRestorableDateTime"].timestamp(), before - 1)
        self.assertGreaterEqual(p["LatestRestorableDateTime"], p["EarliestRestorableDateTime"])
        p = self.enable(name)["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        self.assertEqual(p["RecoveryPeriodInDays"], 7)  # kept when not given
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        p = self.ddb.describe_continuous_backups(TableName=arn)["ContinuousBackupsDescription"]
        self.assertEqual(p["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"], "ENABLED")
        self.enable(name, PointInTimeRecoveryEnabled=False)
        p = self.ddb.describe_continuous_backups(TableName=name)["ContinuousBackupsDescription"]
        self.assertEqual(p["PointInTimeRecoveryDescription"], {"PointInTimeRecoveryStatus": "DISABLED"})
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "PointInTimeRecoveryUnavailableException",
                               SourceTableName=name, TargetTableName=self.unique(), UseLatestRestorableTime=True)

    def test_errors(self):
        name = self.make_table()
        self.assertClientError(
            self.enable, "ValidationException",
            "1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' "
            "failed to satisfy constraint: Member must have value less than or equal to 35",
            name=name, RecoveryPeriodInDays=36)
        self.assertClientError(self.enable, "TableNotFoundException", "Table not found: missing-table",
                               name="missing-table")
        self.assertClientError(self.ddb.describe_continuous_backups, "TableNotFoundException",
                               TableName="missing-table")
        self.enable(name)
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "InvalidRestoreTimeException",
                               SourceTableName=name, TargetTableName=self.unique(),
                               RestoreDateTime=time.time() - 3600)
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableAlreadyExistsException",
                               "Table already exists: " + name,
                               SourceTableName=name, TargetTableName=name, UseLatestRestorableTime=True)
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableNotFoundException",
                               SourceTableName="missing-table", TargetTableName=self.unique(),
                               UseLatestRestorableTime=True)
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "ValidationException",
                               SourceTableName=name, TargetTableName=self.unique())

    def test_runbook(self):
        name = self.make_table(12)
        self.enable(name)
        # More writes, each at least a second apart from the instant chosen.
        self.ddb.put_item(TableName=name, Item=dict(item(1), v={"S": "first change"}))
        state_at_t = self.scan(name)
        index_at_t = self.index_view(name)
        t = math.ceil(time.time())
        wait_until(t + 0.05)
        backup = self.ddb.create_backup(TableName=name, BackupName="runbook")["BackupDetails"]["BackupArn"]
        # Keep writing after the backup: change, delete, add, and an index key moved.
        self.ddb.put_item(TableName=name, Item=dict(item(1), v={"S": "second change"}))
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "p2"}, "sk": {"N": "2"}})
        self.ddb.put_item(TableName=name, Item=item(30))
        self.ddb.update_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}},
                             UpdateExpression="SET g = :g", ExpressionAttributeValues={":g": {"S": "g3"}})
        latest_state = self.scan(name)
        self.assertNotEqual(latest_state, state_at_t)
        # Restore the point in time between the two changes of item 1.
        at_t = self.unique("pit")
        td = self.ddb.restore_table_to_point_in_time(SourceTableName=name, TargetTableName=at_t,
                                                     RestoreDateTime=t)["TableDescription"]
        self.assertEqual(td["RestoreSummary"]["RestoreDateTime"].timestamp(), t)
        latest = self.unique("latest")
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=latest,
                                                UseLatestRestorableTime=True)
        # Delete the source, then restore the backup.
        self.ddb.delete_table(TableName=name)
        from_backup = self.unique("bak")
        self.ddb.restore_table_from_backup(TargetTableName=from_backup, BackupArn=backup)
        # Every item of every restored table, and what their indexes hold.
        self.assertEqual(self.scan(at_t), state_at_t)
        self.assertEqual(self.index_view(at_t), index_at_t)
        self.assertEqual(self.scan(from_backup), state_at_t)
        self.assertEqual(self.index_view(from_backup), index_at_t)
        self.assertEqual(self.scan(latest), latest_state)
        for table, n in ((at_t, 12), (from_backup, 12), (latest, 12)):
            desc = self.ddb.describe_table(TableName=table)["Table"]
            self.assertEqual(desc["ItemCount"], n)
        got = self.ddb.get_item(TableName=at_t, Key={"pk": {"S": "p1"}, "sk": {"N": "1"}})["Item"]
        self.assertEqual(got["v"], {"S": "first change"})

    def test_history_survives_restart_and_cli(self):
        name = self.make_table(3)
        rc, out, err = self.server.aws("dynamodb", "update-continuous-backups", "--table-name", name,
                                       "--point-in-time-recovery-specification",
                                       "PointInTimeRecoveryEnabled=true,RecoveryPeriodInDays=3")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                         ["RecoveryPeriodInDays"], 3)
        self.ddb.put_item(TableName=name, Item=item(50))
        self.server.restart()
        self.ddb = self.server.client()
        rc, out, err = self.server.aws("dynamodb", "describe-continuous-backups", "--table-name", name)
        self.assertEqual((rc, out["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
                          ["PointInTimeRecoveryStatus"]), (0, "ENABLED"), err)
        target = self.unique("cli")
        rc, out, err = self.server.aws("dynamodb", "restore-table-to-point-in-time", "--source-table-name", name,
                                       "--target-table-name", target, "--use-latest-restorable-time")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(self.scan(target)), 4)


if __name__ == "__main__":
    unittest.main()
