"""Deleting a table with point-in-time recovery on: the SYSTEM backup it
leaves (ListBackups by BackupType, its 35-day retention on pogi's clock),
RestoreTableToPointInTime of the deleted table by SourceTableArn, and the
backup-and-restore runbook of issue 12 end to end: write, back up, keep
writing, delete the table, restore the backup and a point in time between two
writes, and check every item of both restored tables, through their indexes
too. The clock is frozen and advanced, so every write has its own instant."""

import datetime
import threading
import time
import unittest

from harness import Server, ServerTestCase
from test_backups import gsi_table_args, item

T0 = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)


def at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


class DeletedTableRestoreTest(ServerTestCase):
    SERVER_ARGS = {"in_memory": True, "extra_args": ["--clock", "2030-01-01T00:00:00Z", "--clock-frozen"]}

    def setUp(self):
        self.clock("set", "2030-01-01T00:00:00Z")

    def clock(self, *args):
        cp = self.server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def make_table(self, n, pitr=True):
        name = self.unique()
        self.ddb.create_table(TableName=name, **gsi_table_args())
        if pitr:
            self.ddb.update_continuous_backups(TableName=name,
                                               PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        for i in range(n):
            self.ddb.put_item(TableName=name, Item=item(i))
        return name

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
        """Every item as the GSI (all attributes) and the LSI (keys) show it."""
        gsi, lsi = [], []
        for g in ("g0", "g1", "g2", "g3"):
            gsi += sorted(self.ddb.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                                         ExpressionAttributeValues={":g": {"S": g}})["Items"],
                          key=lambda x: (x["pk"]["S"], int(x["sk"]["N"])))
        for p in ("p0", "p1", "p2"):
            lsi += [(i["pk"]["S"], i["l"]["S"], i["sk"]["N"]) for i in self.ddb.query(
                TableName=name, IndexName="by-l", KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": p}})["Items"]]
        return gsi, lsi

    def expected_index_view(self, items):
        gsi = sorted([i for i in items if "g" in i], key=lambda x: (x["g"]["S"], x["pk"]["S"], int(x["sk"]["N"])))
        lsi = sorted((i["pk"]["S"], i["l"]["S"], i["sk"]["N"]) for i in items if "l" in i)
        return gsi, lsi

    def assertRestored(self, table, items, source_arn):
        self.assertEqual(self.scan(table), items)
        self.assertEqual(self.index_view(table), self.expected_index_view(items))
        desc = self.ddb.describe_table(TableName=table)["Table"]
        self.assertEqual(desc["TableStatus"], "ACTIVE")
        self.assertEqual(desc["ItemCount"], len(items))
        self.assertEqual(desc["RestoreSummary"]["SourceTableArn"], source_arn)
        self.assertEqual([g["IndexName"] for g in desc["GlobalSecondaryIndexes"]], ["by-g"])
        self.assertEqual([l["IndexName"] for l in desc["LocalSecondaryIndexes"]], ["by-l"])

    def system_backups(self, name):
        return self.ddb.list_backups(TableName=name, BackupType="SYSTEM")["BackupSummaries"]

    def test_runbook(self):
        # Write (instant 0), then change item 1 (10 s).
        name = self.make_table(12)
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        original = self.scan(name)
        self.clock("advance", "10s")
        self.ddb.put_item(TableName=name, Item=dict(item(1), v={"S": "first change"}))
        # Back up (20 s).
        self.clock("advance", "10s")
        backup = self.ddb.create_backup(TableName=name, BackupName="runbook")["BackupDetails"]["BackupArn"]
        backed_up = self.scan(name)
        # Keep writing (30 s): change, delete, add, and an index key moved.
        self.clock("advance", "10s")
        self.ddb.put_item(TableName=name, Item=dict(item(1), v={"S": "second change"}))
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "p2"}, "sk": {"N": "2"}})
        self.ddb.put_item(TableName=name, Item=item(30))
        self.ddb.update_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}},
                             UpdateExpression="SET g = :g", ExpressionAttributeValues={":g": {"S": "g3"}})
        last = self.scan(name)
        self.assertNotEqual(last, backed_up)
        # Delete the table (40 s), with the AWS CLI.
        self.clock("advance", "10s")
        rc, out, err = self.server.aws("dynamodb", "delete-table", "--table-name", name)
        self.assertEqual(rc, 0, err)
        self.assertNotIn(name, self.ddb.list_tables()["TableNames"])

        # Restore the backup.
        from_backup = self.unique("bak")
        self.ddb.restore_table_from_backup(TargetTableName=from_backup, BackupArn=backup)
        self.assertRestored(from_backup, backed_up, arn)
        # Restore the point in time between the first writes and the first
        # change, by the deleted table's ARN.
        between = self.unique("pit")
        td = self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=between,
                                                     RestoreDateTime=at(5))["TableDescription"]
        self.assertEqual(td["RestoreSummary"]["RestoreDateTime"], at(5))
        self.assertEqual(td["RestoreSummary"]["SourceTableArn"], arn)
        self.assertRestored(between, original, arn)
        got = self.ddb.get_item(TableName=between, Key={"pk": {"S": "p1"}, "sk": {"N": "1"}})["Item"]
        self.assertEqual(got["v"], {"S": "value-1"})
        # And between the backup and the later writes: the backup's state.
        mid = self.unique("mid")
        self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=mid, RestoreDateTime=at(25))
        self.assertRestored(mid, backed_up, arn)

        # The SYSTEM backup: the table as it was just before the deletion.
        [system] = self.system_backups(name)
        self.assertEqual(system["BackupName"], name + "$DeletedTableBackup")
        self.assertEqual(system["BackupType"], "SYSTEM")
        self.assertEqual(system["BackupCreationDateTime"], at(40))
        self.assertEqual(system["BackupExpiryDateTime"], at(40 + 35 * 86400))
        self.assertEqual(system["TableArn"], arn)
        rc, out, err = self.server.aws("dynamodb", "restore-table-from-backup", "--backup-arn",
                                       system["BackupArn"], "--target-table-name", name + "-sys")
        self.assertEqual(rc, 0, err)
        self.assertRestored(name + "-sys", last, arn)
        latest = self.unique("latest")
        rc, out, err = self.server.aws("dynamodb", "restore-table-to-point-in-time", "--source-table-arn", arn,
                                       "--target-table-name", latest, "--use-latest-restorable-time")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["TableDescription"]["RestoreSummary"]["RestoreDateTime"], at(40).timestamp())
        self.assertRestored(latest, last, arn)

    def test_list_backups_by_type(self):
        name = self.make_table(3)
        user = self.ddb.create_backup(TableName=name, BackupName="mine")["BackupDetails"]["BackupArn"]
        self.ddb.delete_table(TableName=name)
        listed = lambda **kw: [(b["BackupName"], b["BackupType"])
                               for b in self.ddb.list_backups(TableName=name, **kw)["BackupSummaries"]]
        # Without a BackupType DynamoDB lists USER backups only.
        self.assertEqual(listed(), [("mine", "USER")])
        self.assertEqual(listed(BackupType="USER"), [("mine", "USER")])
        self.assertEqual(listed(BackupType="SYSTEM"), [(name + "$DeletedTableBackup", "SYSTEM")])
        self.assertEqual(sorted(listed(BackupType="ALL")),
                         sorted([("mine", "USER"), (name + "$DeletedTableBackup", "SYSTEM")]))
        [system] = self.system_backups(name)
        d = self.ddb.describe_backup(BackupArn=system["BackupArn"])["BackupDescription"]
        self.assertEqual(d["BackupDetails"]["BackupType"], "SYSTEM")
        self.assertEqual(d["BackupDetails"]["BackupStatus"], "AVAILABLE")
        self.assertEqual(d["SourceTableDetails"]["ItemCount"], 3)
        self.assertEqual(d["SourceTableDetails"]["TableName"], name)
        self.ddb.delete_backup(BackupArn=user)

    def test_no_system_backup_without_pitr(self):
        name = self.make_table(2, pitr=False)
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.ddb.delete_table(TableName=name)
        self.assertEqual(self.system_backups(name), [])
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableNotFoundException",
                               "Table not found: " + arn, SourceTableArn=arn, TargetTableName=self.unique(),
                               UseLatestRestorableTime=True)

    def test_deleted_table_window_and_errors(self):
        name = self.make_table(2)
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.clock("advance", "10s")
        self.ddb.delete_table(TableName=name)
        self.clock("advance", "1h")
        # The window ends at the deletion.
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "InvalidRestoreTimeException",
                               SourceTableArn=arn, TargetTableName=self.unique(), RestoreDateTime=at(11))
        # A deleted table is named by its ARN; its name names no table.
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableNotFoundException",
                               SourceTableName=name, TargetTableName=self.unique(), RestoreDateTime=at(5))
        target = self.unique()
        self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=target, RestoreDateTime=at(10))
        self.assertEqual(len(self.scan(target)), 2)
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableAlreadyExistsException",
                               SourceTableArn=arn, TargetTableName=target, RestoreDateTime=at(10))
        # A table made again under the name is the one its ARN names now.
        self.ddb.create_table(TableName=name, **gsi_table_args())
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "PointInTimeRecoveryUnavailableException",
                               SourceTableArn=arn, TargetTableName=self.unique(), UseLatestRestorableTime=True)
        self.ddb.delete_table(TableName=name)
        # Deleting the SYSTEM backup forgets the history it kept.
        [system] = self.system_backups(name)
        self.ddb.delete_backup(BackupArn=system["BackupArn"])
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableNotFoundException",
                               SourceTableArn=arn, TargetTableName=self.unique(), RestoreDateTime=at(5))

    def test_system_backup_expires_after_35_days(self):
        name = self.make_table(2)
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.ddb.delete_table(TableName=name)
        [system] = self.system_backups(name)
        self.clock("advance", "34d")
        self.assertEqual(len(self.system_backups(name)), 1)
        target = self.unique()
        self.ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName=target,
                                                UseLatestRestorableTime=True)
        self.assertEqual(len(self.scan(target)), 2)
        self.clock("advance", "1d")
        self.assertEqual(self.system_backups(name), [])
        self.assertClientError(self.ddb.describe_backup, "BackupNotFoundException",
                               "Backup not found: " + system["BackupArn"], BackupArn=system["BackupArn"])
        self.assertClientError(self.ddb.restore_table_from_backup, "BackupNotFoundException",
                               BackupArn=system["BackupArn"], TargetTableName=self.unique())
        self.assertClientError(self.ddb.restore_table_to_point_in_time, "TableNotFoundException",
                               SourceTableArn=arn, TargetTableName=self.unique(), UseLatestRestorableTime=True)


def count(ddb, table):
    total, start = 0, None
    while True:
        kw = {"ExclusiveStartKey": start} if start else {}
        page = ddb.scan(TableName=table, Select="COUNT", **kw)
        total += page["Count"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return total


class DeleteCrashTest(unittest.TestCase):
    """kill -9 while a large table with PITR is deleted: after the restart the
    table is there (and no SYSTEM backup), or it is gone and its SYSTEM backup
    and history are there whole."""

    def test_kill_during_delete(self):
        with Server() as server:
            ddb = server.client()
            ddb.create_table(TableName="big", **gsi_table_args())
            ddb.update_continuous_backups(TableName="big",
                                          PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
            arn = ddb.describe_table(TableName="big")["Table"]["TableArn"]
            for rnd in range(2):
                batch = []
                for i in range(3000):
                    batch.append({"PutRequest": {"Item": dict(item(i), pad={"S": "%d" % rnd * 200})}})
                    if len(batch) == 25:
                        ddb.batch_write_item(RequestItems={"big": batch})
                        batch = []

            def run():
                try:
                    server.client().delete_table(TableName="big")
                except Exception:
                    pass
            th = threading.Thread(target=run)
            th.start()
            time.sleep(0.06)
            server.kill()
            th.join()
            server.start()
            ddb = server.client()
            system = ddb.list_backups(TableName="big", BackupType="SYSTEM")["BackupSummaries"]
            print("kill: table kept" if "big" in ddb.list_tables()["TableNames"] else "kill: table deleted")
            if "big" in ddb.list_tables()["TableNames"]:
                self.assertEqual(system, [])
                self.assertEqual(count(ddb, "big"), 3000)
            else:
                self.assertEqual(len(system), 1)
                ddb.restore_table_from_backup(TargetTableName="from-system", BackupArn=system[0]["BackupArn"])
                self.assertEqual(count(ddb, "from-system"), 3000)
            ddb.restore_table_to_point_in_time(SourceTableArn=arn, TargetTableName="pit",
                                               UseLatestRestorableTime=True)
            self.assertEqual(count(ddb, "pit"), 3000)
            self.assertEqual(ddb.describe_table(TableName="pit")["Table"]["ItemCount"], 3000)


if __name__ == "__main__":
    unittest.main()
