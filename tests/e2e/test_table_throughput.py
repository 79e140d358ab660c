"""OnDemandThroughput and WarmThroughput: accepted by CreateTable and
UpdateTable, stored, and described (pogi throttles nothing)."""

import unittest

from harness import ServerTestCase


class ThroughputSettingsTest(ServerTestCase):

    def test_create_describe_update(self):
        name = self.create_table(
            OnDemandThroughput={"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50},
            WarmThroughput={"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000},
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"},
                                     "OnDemandThroughput": {"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 5}}])
        t = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(t["OnDemandThroughput"], {"MaxReadRequestUnits": 100, "MaxWriteRequestUnits": 50})
        self.assertEqual(t["WarmThroughput"], {"ReadUnitsPerSecond": 13000, "WriteUnitsPerSecond": 5000,
                                               "Status": "ACTIVE"})
        self.assertEqual(t["GlobalSecondaryIndexes"][0]["OnDemandThroughput"],
                         {"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 5})
        self.ddb.update_table(TableName=name, OnDemandThroughput={"MaxReadRequestUnits": 200,
                                                                  "MaxWriteRequestUnits": 60})
        self.ddb.update_table(TableName=name, WarmThroughput={"ReadUnitsPerSecond": 14000,
                                                              "WriteUnitsPerSecond": 6000})
        t = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(t["OnDemandThroughput"]["MaxReadRequestUnits"], 200)
        self.assertEqual(t["WarmThroughput"]["WriteUnitsPerSecond"], 6000)
        # Kept by an on-demand backup's restore.
        arn = self.ddb.create_backup(TableName=name, BackupName="thr")["BackupDetails"]["BackupArn"]
        target = self.unique("thr")
        self.ddb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
        t = self.ddb.describe_table(TableName=target)["Table"]
        self.assertEqual(t["OnDemandThroughput"]["MaxReadRequestUnits"], 200)


if __name__ == "__main__":
    unittest.main()
