"""Global tables version 2017.11.29 (the legacy API): CreateGlobalTable joins
same-named, empty tables with NEW_AND_OLD_IMAGES streams, one per region;
writes replicate between them after the replication lag, last writer wins,
with the aws:rep:* attributes on every item; UpdateGlobalTable adds and
removes regions; DescribeGlobalTable, ListGlobalTables (paged) and the
settings operations describe them. Both region modes, boto3 and the AWS CLI
signed for two and three regions."""

import time
import unittest

from global_tables_fixture import ATTRS, KEY, wait_item
from harness import ServerTestCase

ACCOUNT = "000000000000"
STREAM = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}


def create(ddb, name, stream=STREAM, **kw):
    args = dict(TableName=name, KeySchema=KEY, AttributeDefinitions=ATTRS, BillingMode="PAY_PER_REQUEST")
    if stream:
        args["StreamSpecification"] = stream
    args.update(kw)
    return ddb.create_table(**args)["TableDescription"]


def group(ddb, name, *regions):
    return ddb.create_global_table(GlobalTableName=name,
                                   ReplicationGroup=[{"RegionName": r} for r in regions])["GlobalTableDescription"]


def regions_of(description):
    return sorted(r["RegionName"] for r in description["ReplicationGroup"])


class LegacyFlow:
    """The legacy flow, run in each region mode (the subclasses)."""

    def setUp(self):
        self.east = self.ddb
        self.west = self.server.client("us-west-2")
        self.europe = self.server.client("eu-west-1")
        self.assertEqual(self.server.admin("replication", "release").returncode, 0)
        self.assertEqual(self.server.admin("replication", "lag", "50ms").returncode, 0)

    def make_tables(self, name, *clients):
        """The flow's first step: the table in each region (once in the default mode)."""
        raise NotImplementedError

    def test_create_describe_and_replicate(self):
        name = self.unique("legacy")
        self.make_tables(name, self.east, self.west)
        answer = group(self.east, name, "us-east-1", "us-west-2")
        self.assertEqual(answer["GlobalTableName"], name)
        self.assertEqual(answer["GlobalTableStatus"], "CREATING")
        self.assertEqual(answer["GlobalTableArn"], "arn:aws:dynamodb::%s:global-table/%s" % (ACCOUNT, name))
        self.assertEqual(regions_of(answer), ["us-east-1", "us-west-2"])
        self.assertIsInstance(answer["CreationDateTime"].timestamp(), float)
        for ddb in (self.east, self.west):
            d = ddb.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
            self.assertEqual(d["GlobalTableStatus"], "ACTIVE")
            self.assertEqual(regions_of(d), ["us-east-1", "us-west-2"])
        # DescribeTable does not show a legacy table's group; each region's
        # table has its own ARN.
        for ddb, region in ((self.east, "us-east-1"), (self.west, "us-west-2")):
            t = ddb.describe_table(TableName=name)["Table"]
            self.assertNotIn("GlobalTableVersion", t)
            self.assertNotIn("Replicas", t)
            self.assertEqual(t["TableArn"], "arn:aws:dynamodb:%s:%s:table/%s" % (region, ACCOUNT, name))

        # A write in one region reaches the other, with the aws:rep:* attributes.
        self.east.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "from east"}})
        mine = self.east.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(mine["aws:rep:updateregion"], {"S": "us-east-1"})
        self.assertEqual(mine["aws:rep:deleting"], {"BOOL": False})
        self.assertAlmostEqual(float(mine["aws:rep:updatetime"]["N"]), time.time(), delta=60)
        item = wait_item(self.west, name, "a", "from east")
        self.assertEqual(item["v"]["S"], "from east")
        self.assertEqual(item["aws:rep:updateregion"], {"S": "us-east-1"})
        self.assertEqual(item["aws:rep:updatetime"], mine["aws:rep:updatetime"])
        self.west.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                              ExpressionAttributeValues={":v": {"S": "from west"}})
        item = wait_item(self.east, name, "a", "from west")
        self.assertEqual(item["v"]["S"], "from west")
        self.assertEqual(item["aws:rep:updateregion"], {"S": "us-west-2"})
        self.west.delete_item(TableName=name, Key={"pk": {"S": "a"}})
        self.assertIsNone(wait_item(self.east, name, "a", None))

    def test_last_writer_wins(self):
        name = self.unique("legacy")
        self.make_tables(name, self.east, self.west)
        group(self.east, name, "us-east-1", "us-west-2")
        self.assertEqual(self.server.admin("replication", "freeze").returncode, 0)
        try:
            self.west.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "west first"}})
            time.sleep(0.01)
            self.east.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "east last"}})
            time.sleep(0.3)
            self.assertEqual(wait_item(self.west, name, "c", "west first", timeout=0)["v"]["S"], "west first")
            self.assertIn("frozen, 2 changes queued", self.server.admin("replication").stdout)
        finally:
            self.assertEqual(self.server.admin("replication", "release").returncode, 0)
        for ddb in (self.east, self.west):
            item = wait_item(ddb, name, "c", "east last")
            self.assertEqual(item["v"]["S"], "east last")
            self.assertEqual(item["aws:rep:updateregion"], {"S": "us-east-1"})

    def test_update_global_table_add_and_remove(self):
        name = self.unique("legacy")
        self.make_tables(name, self.east, self.west)
        group(self.east, name, "us-east-1", "us-west-2")
        self.make_tables(name, self.europe)
        answer = self.east.update_global_table(GlobalTableName=name,
                                               ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        d = answer["GlobalTableDescription"]
        self.assertEqual(d["GlobalTableStatus"], "UPDATING")
        self.assertEqual(regions_of(d), ["eu-west-1", "us-east-1", "us-west-2"])
        self.east.put_item(TableName=name, Item={"pk": {"S": "e"}, "v": {"S": "x"}})
        self.assertEqual(wait_item(self.europe, name, "e", "x")["v"]["S"], "x")
        self.assertEqual(
            self.europe.describe_table(TableName=name)["Table"]["TableArn"],
            "arn:aws:dynamodb:eu-west-1:%s:table/%s" % (ACCOUNT, name))
        # Removing a region leaves its table, out of the group.
        d = self.east.update_global_table(GlobalTableName=name, ReplicaUpdates=[
            {"Delete": {"RegionName": "us-west-2"}}])["GlobalTableDescription"]
        self.assertEqual(regions_of(d), ["eu-west-1", "us-east-1"])
        d = self.west.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
        self.assertEqual(regions_of(d), ["eu-west-1", "us-east-1"])
        west = self.west.describe_table(TableName=name)["Table"]
        self.assertEqual(west["TableArn"], "arn:aws:dynamodb:us-west-2:%s:table/%s" % (ACCOUNT, name))
        self.assertEqual(self.west.get_item(TableName=name, Key={"pk": {"S": "e"}})["Item"]["v"]["S"], "x")
        self.east.put_item(TableName=name, Item={"pk": {"S": "after"}, "v": {"S": "y"}})
        self.assertEqual(wait_item(self.europe, name, "after", "y")["v"]["S"], "y")
        time.sleep(0.3)
        self.assertNotIn("Item", self.west.get_item(TableName=name, Key={"pk": {"S": "after"}}))
        # A write to the removed table goes nowhere, and carries no aws:rep:*.
        self.west.put_item(TableName=name, Item={"pk": {"S": "alone"}, "v": {"S": "z"}})
        self.assertNotIn("aws:rep:updateregion",
                         self.west.get_item(TableName=name, Key={"pk": {"S": "alone"}})["Item"])
        self.assertClientError(self.east.update_global_table, "ReplicaAlreadyExistsException",
                               GlobalTableName=name, ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        self.assertClientError(self.east.update_global_table, "ReplicaNotFoundException",
                               GlobalTableName=name, ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}])

    def test_settings(self):
        name = self.unique("legacy")
        self.make_tables(name, self.east, self.west)
        group(self.east, name, "us-east-1", "us-west-2")
        s = self.east.describe_global_table_settings(GlobalTableName=name)
        self.assertEqual(s["GlobalTableName"], name)
        self.assertEqual(sorted(r["RegionName"] for r in s["ReplicaSettings"]), ["us-east-1", "us-west-2"])
        for r in s["ReplicaSettings"]:
            self.assertEqual(r["ReplicaStatus"], "ACTIVE")
            self.assertEqual(r["ReplicaBillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
            self.assertEqual(r["ReplicaProvisionedReadCapacityAutoScalingSettings"], {"AutoScalingDisabled": True})
        answer = self.east.update_global_table_settings(
            GlobalTableName=name, GlobalTableBillingMode="PROVISIONED",
            GlobalTableProvisionedWriteCapacityUnits=5,
            GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate={
                "MinimumUnits": 5, "MaximumUnits": 50,
                "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 70.0}}},
            ReplicaSettingsUpdate=[{"RegionName": "us-west-2", "ReplicaProvisionedReadCapacityUnits": 7,
                                    "ReplicaTableClass": "STANDARD_INFREQUENT_ACCESS"}])
        by_region = {r["RegionName"]: r for r in answer["ReplicaSettings"]}
        for region in ("us-east-1", "us-west-2"):
            r = by_region[region]
            self.assertEqual(r["ReplicaBillingModeSummary"]["BillingMode"], "PROVISIONED")
            self.assertEqual(r["ReplicaProvisionedWriteCapacityUnits"], 5)
            w = r["ReplicaProvisionedWriteCapacityAutoScalingSettings"]
            self.assertEqual((w["MinimumUnits"], w["MaximumUnits"], w["AutoScalingDisabled"]), (5, 50, False))
            self.assertEqual(w["ScalingPolicies"][0]["TargetTrackingScalingPolicyConfiguration"]["TargetValue"], 70.0)
        self.assertEqual(by_region["us-west-2"]["ReplicaProvisionedReadCapacityUnits"], 7)
        self.assertEqual(by_region["us-west-2"]["ReplicaTableClassSummary"]["TableClass"],
                         "STANDARD_INFREQUENT_ACCESS")
        self.assertEqual(by_region["us-east-1"]["ReplicaProvisionedReadCapacityUnits"], 5)
        # Described back, and each table shows its capacity.
        again = self.west.describe_global_table_settings(GlobalTableName=name)["ReplicaSettings"]
        self.assertEqual({r["RegionName"]: r["ReplicaProvisionedReadCapacityUnits"] for r in again},
                         {"us-east-1": 5, "us-west-2": 7})
        t = self.west.describe_table(TableName=name)["Table"]
        self.assertEqual(t["ProvisionedThroughput"]["ReadCapacityUnits"], 7)
        self.assertEqual(t["ProvisionedThroughput"]["WriteCapacityUnits"], 5)
        self.assertClientError(self.east.update_global_table_settings, "ReplicaNotFoundException",
                               GlobalTableName=name,
                               ReplicaSettingsUpdate=[{"RegionName": "ap-south-1",
                                                       "ReplicaProvisionedReadCapacityUnits": 3}])
        self.assertClientError(self.east.update_global_table_settings, "IndexNotFoundException",
                               GlobalTableName=name, GlobalTableGlobalSecondaryIndexSettingsUpdate=[
                                   {"IndexName": "nope", "ProvisionedWriteCapacityUnits": 3}])
        self.assertClientError(self.east.describe_global_table_settings, "GlobalTableNotFoundException",
                               GlobalTableName=name + "-missing")
        self.assertClientError(self.east.update_global_table_settings, "GlobalTableNotFoundException",
                               GlobalTableName=name + "-missing", GlobalTableProvisionedWriteCapacityUnits=3)

    def test_errors(self):
        name = self.unique("legacy")
        self.make_tables(name, self.east, self.west)
        self.assertClientError(self.east.describe_global_table, "GlobalTableNotFoundException",
                               GlobalTableName=name)
        self.assertClientError(self.east.update_global_table, "GlobalTableNotFoundException", GlobalTableName=name,
                               ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        # boto3 checks lengths itself: a raw request reaches pogi's check.
        status, body = self.server.call("CreateGlobalTable", {"GlobalTableName": "ab",
                                                              "ReplicationGroup": [{"RegionName": "us-east-1"}]})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazon.coral.validate#ValidationException")
        self.assertEqual(body["message"], "1 validation error detected: Value 'ab' at 'globalTableName' failed to "
                                          "satisfy constraint: Member must have length greater than or equal to 3")
        status, body = self.server.call("DescribeGlobalTable", {"GlobalTableName": name + "-none"})
        self.assertEqual((status, body["__type"]),
                         (400, "com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException"))
        self.assertClientError(self.east.create_global_table, "TableNotFoundException",
                               "Table not found: Table: '%s-none' not found in region: 'us-east-1'." % name,
                               GlobalTableName=name + "-none", ReplicationGroup=[{"RegionName": "us-east-1"}])
        self.assertClientError(self.east.create_global_table, "ValidationException", GlobalTableName=name,
                               ReplicationGroup=[{"RegionName": "us-east-1"}, {"RegionName": "us-east-1"}])
        status, body = self.server.call("ListGlobalTables", {"Limit": 0})
        self.assertEqual((status, body["message"]),
                         (400, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                               "Member must have value greater than or equal to 1"))
        # Not empty.
        self.east.put_item(TableName=name, Item={"pk": {"S": "x"}})
        self.assertClientError(self.east.create_global_table, "ValidationException",
                               message_contains="is not empty", GlobalTableName=name,
                               ReplicationGroup=[{"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])
        self.east.delete_item(TableName=name, Key={"pk": {"S": "x"}})
        group(self.east, name, "us-east-1", "us-west-2")
        self.assertClientError(self.east.create_global_table, "GlobalTableAlreadyExistsException",
                               GlobalTableName=name, ReplicationGroup=[{"RegionName": "us-east-1"}])
        # A table without the stream the group needs.
        other = self.unique("nostream")
        create(self.east, other, stream=None)
        self.assertClientError(self.east.create_global_table, "ValidationException",
                               message_contains="NEW_AND_OLD_IMAGES", GlobalTableName=other,
                               ReplicationGroup=[{"RegionName": "us-east-1"}])
        # Its group changes through UpdateGlobalTable, not UpdateTable.
        self.assertClientError(self.east.update_table, "ValidationException", message_contains="2017.11.29",
                               TableName=name, ReplicaUpdates=[{"Create": {"RegionName": "eu-central-1"}}])
        # A member's stream cannot be disabled.
        self.assertClientError(self.east.update_table, "ValidationException", TableName=name,
                               StreamSpecification={"StreamEnabled": False})

    def test_list_global_tables_paged(self):
        made = []
        for i in range(3):
            name = self.unique("list%d" % i)
            self.make_tables(name, self.east, self.west)
            group(self.east, name, "us-east-1", "us-west-2")
            made.append(name)
        solo = self.unique("listsolo")
        self.make_tables(solo, self.europe)
        group(self.europe, solo, "eu-west-1")
        seen, start = [], None
        while True:
            kw = {"Limit": 1}
            if start:
                kw["ExclusiveStartGlobalTableName"] = start
            page = self.east.list_global_tables(**kw)
            self.assertLessEqual(len(page["GlobalTables"]), 1)
            seen += page["GlobalTables"]
            start = page.get("LastEvaluatedGlobalTableName")
            if not start:
                break
        names = [g["GlobalTableName"] for g in seen]
        self.assertEqual(names, sorted(names))
        for name in made + [solo]:
            self.assertIn(name, names)
        by_name = {g["GlobalTableName"]: g for g in seen}
        self.assertEqual(regions_of(by_name[made[0]]), ["us-east-1", "us-west-2"])
        in_europe = [g["GlobalTableName"] for g in self.east.list_global_tables(RegionName="eu-west-1")["GlobalTables"]]
        self.assertIn(solo, in_europe)
        self.assertNotIn(made[0], in_europe)


class StrictRegions(LegacyFlow, ServerTestCase):
    """--strict-regions: the user creates the table in each region, as in AWS."""

    SERVER_ARGS = {"extra_args": ["--strict-regions"]}

    def make_tables(self, name, *clients):
        for ddb in clients:
            create(ddb, name)

    def test_each_region_needs_its_table(self):
        name = self.unique("legacy")
        create(self.east, name)
        self.assertClientError(self.east.create_global_table, "TableNotFoundException",
                               "Table not found: Table: '%s' not found in region: 'us-west-2'." % name,
                               GlobalTableName=name,
                               ReplicationGroup=[{"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])
        create(self.west, name, KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
               AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}])
        self.assertClientError(self.east.create_global_table, "ValidationException",
                               message_contains="key schema", GlobalTableName=name,
                               ReplicationGroup=[{"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])


class OneNamespace(LegacyFlow, ServerTestCase):
    """The default mode: the table made once answers every region; the
    group's other regions get a member of their own."""

    def make_tables(self, name, *clients):
        # The first CreateTable makes the table every region sees; another
        # region's finds the table it already sees.
        for ddb in clients:
            if name not in ddb.list_tables()["TableNames"]:
                create(ddb, name)
            else:
                self.assertClientError(ddb.create_table, "ResourceInUseException", TableName=name, KeySchema=KEY,
                                       AttributeDefinitions=ATTRS, BillingMode="PAY_PER_REQUEST",
                                       StreamSpecification=STREAM)

    def test_regions_outside_the_group_see_the_home_table(self):
        name = self.unique("legacy")
        create(self.east, name)
        group(self.east, name, "us-west-2", "eu-west-1")
        # The home table is not in the group: us-east-1 and ap-south-1 see it, untouched.
        south = self.server.client("ap-south-1")
        self.west.put_item(TableName=name, Item={"pk": {"S": "w"}, "v": {"S": "west"}})
        self.assertEqual(wait_item(self.europe, name, "w", "west")["v"]["S"], "west")
        time.sleep(0.3)
        self.assertNotIn("Item", south.get_item(TableName=name, Key={"pk": {"S": "w"}}))
        self.assertEqual(south.describe_table(TableName=name)["Table"]["TableArn"],
                         "arn:aws:dynamodb:us-east-1:%s:table/%s" % (ACCOUNT, name))


class AwsCli(ServerTestCase):
    """The AWS CLI's legacy flow, signed for two regions (the default mode)."""

    def test_cli_flow(self):
        name = self.unique("legacycli")

        def aws(*args):
            rc, out, err = self.server.aws("dynamodb", *args)
            self.assertEqual(rc, 0, err)
            return out

        aws("create-table", "--table-name", name, "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST",
            "--stream-specification", "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES", "--region", "us-east-1")
        out = aws("create-global-table", "--global-table-name", name, "--replication-group",
                  "RegionName=us-east-1", "RegionName=us-east-2", "--region", "us-east-2")
        self.assertEqual(out["GlobalTableDescription"]["GlobalTableStatus"], "CREATING")
        out = aws("describe-global-table", "--global-table-name", name, "--region", "us-east-1")
        self.assertEqual(regions_of(out["GlobalTableDescription"]), ["us-east-1", "us-east-2"])
        out = aws("list-global-tables", "--region", "us-east-2")
        self.assertIn(name, [g["GlobalTableName"] for g in out["GlobalTables"]])
        aws("put-item", "--table-name", name, "--item", '{"pk": {"S": "cli"}, "v": {"S": "east"}}',
            "--region", "us-east-1")
        deadline = time.time() + 10
        while True:
            out = aws("get-item", "--table-name", name, "--key", '{"pk": {"S": "cli"}}', "--region", "us-east-2")
            if (out or {}).get("Item") or time.time() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual(out["Item"]["aws:rep:updateregion"], {"S": "us-east-1"})
        out = aws("describe-global-table-settings", "--global-table-name", name)
        self.assertEqual(sorted(r["RegionName"] for r in out["ReplicaSettings"]), ["us-east-1", "us-east-2"])
        rc, _, err = self.server.aws("dynamodb", "describe-global-table", "--global-table-name", name + "-no")
        self.assertNotEqual(rc, 0)
        self.assertIn("GlobalTableNotFoundException", err)


class ClockedStatuses(ServerTestCase):
    """GlobalTableStatus follows pogi's clock under --transient-delay."""

    SERVER_ARGS = {"extra_args": ["--strict-regions", "--transient-delay", "2s", "--clock-frozen"]}

    def test_creating_then_active(self):
        east, west = self.ddb, self.server.client("us-west-2")
        name = self.unique("legacy")
        create(east, name)
        create(west, name)
        self.server.admin("clock", "advance", "2s")
        group(east, name, "us-east-1", "us-west-2")
        d = west.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
        self.assertEqual(d["GlobalTableStatus"], "CREATING")
        self.assertEqual(self.server.admin("clock", "advance", "2s").returncode, 0)
        d = west.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
        self.assertEqual(d["GlobalTableStatus"], "ACTIVE")
        east.update_global_table(GlobalTableName=name, ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}])
        self.assertEqual(east.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
                         ["GlobalTableStatus"], "UPDATING")
        self.server.admin("clock", "advance", "2s")
        self.assertEqual(east.describe_global_table(GlobalTableName=name)["GlobalTableDescription"]
                         ["GlobalTableStatus"], "ACTIVE")


if __name__ == "__main__":
    unittest.main()
