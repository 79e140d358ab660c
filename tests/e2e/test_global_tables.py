"""Global tables, version 2019.11.21: UpdateTable's ReplicaUpdates make a
replica of a table in another region (its own ARN and stream, the existing
items copied), DescribeTable shows Replicas and GlobalTableVersion, and a
write in one replica reaches the others after the replication lag (MREC),
last writer wins. `pogi replication lag/freeze/release` control it; queued
changes survive kill -9."""

import time
import unittest

from global_tables_fixture import ATTRS, KEY, wait_value
from harness import Server, ServerTestCase

ACCOUNT = "000000000000"


def create(ddb, name, **kw):
    return ddb.create_table(TableName=name, KeySchema=KEY, AttributeDefinitions=ATTRS,
                            BillingMode="PAY_PER_REQUEST", **kw)["TableDescription"]


def add_replica(ddb, name, region):
    return ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": region}}])["TableDescription"]


class Replicas(ServerTestCase):
    """Default mode: a replica answers its region; the home table the others."""

    def setUp(self):
        self.east = self.ddb
        self.west = self.server.client("us-west-2")
        self.europe = self.server.client("eu-west-1")
        self.assertEqual(self.server.admin("replication", "release").returncode, 0)
        self.assertEqual(self.server.admin("replication", "lag", "50ms").returncode, 0)

    def test_create_replica_copies_items_and_describes(self):
        name = self.unique("gt")
        create(self.east, name)
        self.east.put_item(TableName=name, Item={"pk": {"S": "before"}, "v": {"S": "old"}})
        answer = add_replica(self.east, name, "us-west-2")
        self.assertEqual(answer["TableStatus"], "UPDATING")
        self.assertEqual(answer["GlobalTableVersion"], "2019.11.21")
        self.assertEqual({(r["RegionName"], r["ReplicaStatus"]) for r in answer["Replicas"]},
                         {("us-east-1", "ACTIVE"), ("us-west-2", "CREATING")})
        # Without --transient-delay the replica is ACTIVE at once.
        d = self.east.describe_table(TableName=name)["Table"]
        self.assertEqual(d["TableStatus"], "ACTIVE")
        self.assertEqual({(r["RegionName"], r["ReplicaStatus"]) for r in d["Replicas"]},
                         {("us-east-1", "ACTIVE"), ("us-west-2", "ACTIVE")})
        self.assertEqual(d["GlobalTableVersion"], "2019.11.21")
        # A stream was enabled for it, NEW_AND_OLD_IMAGES.
        self.assertEqual(d["StreamSpecification"], {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        w = self.west.describe_table(TableName=name)["Table"]
        west_arn = "arn:aws:dynamodb:us-west-2:%s:table/%s" % (ACCOUNT, name)
        self.assertEqual(w["TableArn"], west_arn)
        self.assertNotEqual(w["TableId"], d["TableId"])
        self.assertTrue(w["LatestStreamArn"].startswith(west_arn + "/stream/"))
        self.assertEqual(w["GlobalTableVersion"], "2019.11.21")
        # The existing item was copied.
        self.assertEqual(self.west.get_item(TableName=name, Key={"pk": {"S": "before"}})["Item"]["v"]["S"], "old")
        # Other regions still see the home table.
        self.assertEqual(self.europe.describe_table(TableName=name)["Table"]["TableArn"], d["TableArn"])

    def test_writes_replicate_both_ways_and_reach_the_stream(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        self.east.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "from east"}})
        self.assertEqual(wait_value(self.west, name, "a", "from east"), "from east")
        self.west.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                              ExpressionAttributeValues={":v": {"S": "from west"}})
        self.assertEqual(wait_value(self.east, name, "a", "from west"), "from west")
        self.west.delete_item(TableName=name, Key={"pk": {"S": "a"}})
        self.assertIsNone(wait_value(self.east, name, "a", None))
        # The replicated write is in the west replica's own stream, with its region.
        w = self.west.describe_table(TableName=name)["Table"]
        streams = self.server.client("us-west-2", service="dynamodbstreams")
        shard = streams.describe_stream(StreamArn=w["LatestStreamArn"])["StreamDescription"]["Shards"][0]
        it = streams.get_shard_iterator(StreamArn=w["LatestStreamArn"], ShardId=shard["ShardId"],
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=it)["Records"]
        self.assertEqual([(r["eventName"], r["awsRegion"]) for r in records],
                         [("INSERT", "us-west-2"), ("MODIFY", "us-west-2"), ("REMOVE", "us-west-2")])
        # Counters of the replica follow.
        self.assertEqual(self.west.scan(TableName=name)["Count"], 0)
        # The TTL setting is the group's.
        self.west.update_time_to_live(TableName=name,
                                      TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        for ddb in (self.east, self.west):
            ttl = ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"]
            self.assertEqual((ttl["TimeToLiveStatus"], ttl["AttributeName"]), ("ENABLED", "exp"))

    def test_per_item_order_and_no_loop(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        for i in range(20):
            self.east.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"S": "v%d" % i}})
        self.assertEqual(wait_value(self.west, name, "k", "v19"), "v19")
        time.sleep(0.3)  # a loop would bring older versions back
        self.assertEqual(wait_value(self.east, name, "k", "v19", timeout=0), "v19")
        self.assertEqual(self.server.admin("replication").stdout.count("0 changes queued"), 1)

    def test_last_writer_wins(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        add_replica(self.east, name, "eu-west-1")
        self.assertEqual(self.server.admin("replication", "freeze").returncode, 0)
        try:
            self.west.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "west first"}})
            time.sleep(0.01)
            self.east.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "east last"}})
            time.sleep(0.3)
            # Frozen: each region sees its own write only.
            self.assertIsNone(wait_value(self.europe, name, "c", None, timeout=0))
            self.assertEqual(wait_value(self.west, name, "c", "west first", timeout=0), "west first")
            out = self.server.admin("replication").stdout
            self.assertIn("frozen, 2 changes queued", out)
        finally:
            self.assertEqual(self.server.admin("replication", "release").returncode, 0)
        for ddb in (self.east, self.west, self.europe):
            self.assertEqual(wait_value(ddb, name, "c", "east last"), "east last")
        time.sleep(0.3)
        for ddb in (self.east, self.west, self.europe):
            self.assertEqual(wait_value(ddb, name, "c", "east last", timeout=0), "east last")

    def test_lag(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        # The lag is the promise: not there before it, there after it. 3 s
        # leaves the read below (0.3 s after the write: past the default
        # 200 ms lag) room on a busy machine; the wait after is over twice it.
        self.assertEqual(self.server.admin("replication", "lag", "3s").returncode, 0)
        self.east.put_item(TableName=name, Item={"pk": {"S": "l"}, "v": {"S": "x"}})
        time.sleep(0.3)
        self.assertIsNone(wait_value(self.west, name, "l", None, timeout=0))
        self.assertEqual(wait_value(self.west, name, "l", "x", timeout=10), "x")

    def test_index_added_to_every_replica(self):
        name = self.unique("gt")
        create(self.east, name)
        self.east.put_item(TableName=name, Item={"pk": {"S": "a"}, "g": {"S": "red"}})
        add_replica(self.east, name, "us-west-2")
        self.east.update_table(TableName=name, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                               GlobalSecondaryIndexUpdates=[{"Create": {
                                   "IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                   "Projection": {"ProjectionType": "ALL"}}}])
        w = self.west.describe_table(TableName=name)["Table"]
        self.assertEqual(w["GlobalSecondaryIndexes"][0]["IndexArn"],
                         "arn:aws:dynamodb:us-west-2:%s:table/%s/index/by-g" % (ACCOUNT, name))
        got = self.west.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                              ExpressionAttributeValues={":g": {"S": "red"}})["Items"]
        self.assertEqual([i["pk"]["S"] for i in got], ["a"])
        self.east.put_item(TableName=name, Item={"pk": {"S": "b"}, "g": {"S": "red"}})
        deadline = time.time() + 10
        while len(got) < 2 and time.time() < deadline:
            got = self.west.query(TableName=name, IndexName="by-g", KeyConditionExpression="g = :g",
                                  ExpressionAttributeValues={":g": {"S": "red"}})["Items"]
        self.assertEqual(sorted(i["pk"]["S"] for i in got), ["a", "b"])
        self.east.update_table(TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-g"}}])
        self.assertNotIn("GlobalSecondaryIndexes", self.west.describe_table(TableName=name)["Table"])

    def test_delete_replica(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        answer = self.east.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}])
        replicas = {(r["RegionName"], r["ReplicaStatus"]) for r in answer["TableDescription"]["Replicas"]}
        self.assertIn(("us-west-2", "DELETING"), replicas)
        d = self.east.describe_table(TableName=name)["Table"]
        self.assertNotIn("Replicas", d)
        self.assertNotIn("GlobalTableVersion", d)
        # The stream stays; it may be disabled now.
        self.assertTrue(d["StreamSpecification"]["StreamEnabled"])
        # us-west-2 sees the home table again (one namespace).
        self.assertEqual(self.west.describe_table(TableName=name)["Table"]["TableArn"], d["TableArn"])
        self.east.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})

    def test_validation(self):
        name = self.unique("gt")
        create(self.east, name)
        self.assertClientError(
            self.east.update_table, "ValidationException",
            "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, or "
            "UpdateTable as required.",
            TableName=name, ReplicaUpdates=[{"Create": {"RegionName": "us-east-1"}}])
        self.assertClientError(self.east.update_table, "ResourceNotFoundException", TableName=name + "-missing",
                               ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
        add_replica(self.east, name, "us-west-2")
        self.assertClientError(
            self.east.update_table, "ValidationException",
            "One or more parameter values were invalid: Disabling Stream is not allowed for a Global Table replica.",
            TableName=name, StreamSpecification={"StreamEnabled": False})
        self.assertClientError(self.east.update_table, "ValidationException", TableName=name,
                               ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
        self.assertClientError(self.east.update_table, "ValidationException", TableName=name,
                               ReplicaUpdates=[{"Delete": {"RegionName": "ap-south-1"}}])
        # Update records a replica's overrides.
        self.east.update_table(TableName=name, ReplicaUpdates=[{"Update": {
            "RegionName": "us-west-2", "KMSMasterKeyId": "alias/mine", "TableClassOverride": "STANDARD_INFREQUENT_ACCESS"}}])
        west = [r for r in self.east.describe_table(TableName=name)["Table"]["Replicas"]
                if r["RegionName"] == "us-west-2"][0]
        self.assertEqual(west["KMSMasterKeyId"], "alias/mine")
        self.assertEqual(west["ReplicaTableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS")

    def test_delete_table_in_replica_region(self):
        name = self.unique("gt")
        create(self.east, name)
        add_replica(self.east, name, "us-west-2")
        self.west.delete_table(TableName=name)
        d = self.east.describe_table(TableName=name)["Table"]
        self.assertNotIn("Replicas", d)
        self.east.put_item(TableName=name, Item={"pk": {"S": "after"}, "v": {"S": "x"}})


class AwsCli(ServerTestCase):
    """The AWS CLI makes a replica and sees it, signed for two regions."""

    def test_update_table_replica_updates(self):
        name = self.unique("gtcli")
        create(self.ddb, name)
        rc, out, err = self.server.aws("dynamodb", "update-table", "--table-name", name, "--replica-updates",
                                       '[{"Create": {"RegionName": "eu-central-1"}}]')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["TableDescription"]["GlobalTableVersion"], "2019.11.21")
        rc, out, err = self.server.aws("dynamodb", "describe-table", "--table-name", name,
                                       "--region", "eu-central-1")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Table"]["TableArn"], "arn:aws:dynamodb:eu-central-1:%s:table/%s" % (ACCOUNT, name))
        self.assertEqual(sorted(r["RegionName"] for r in out["Table"]["Replicas"]), ["eu-central-1", "us-east-1"])


class StrictRegions(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--strict-regions", "--transient-delay", "2s", "--clock-frozen"]}

    def test_replica_statuses_follow_the_clock(self):
        east, west = self.ddb, self.server.client("us-west-2")
        name = self.unique("gt")
        create(east, name)
        self.server.admin("clock", "advance", "2s")
        self.assertClientError(west.describe_table, "ResourceNotFoundException", TableName=name)
        add_replica(east, name, "us-west-2")
        d = east.describe_table(TableName=name)["Table"]
        self.assertEqual(d["TableStatus"], "UPDATING")
        self.assertEqual({(r["RegionName"], r["ReplicaStatus"]) for r in d["Replicas"]},
                         {("us-east-1", "ACTIVE"), ("us-west-2", "CREATING")})
        self.assertClientError(east.update_table, "ResourceInUseException", TableName=name,
                               ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
        self.assertEqual(self.server.admin("clock", "advance", "2s").returncode, 0)
        d = east.describe_table(TableName=name)["Table"]
        self.assertEqual(d["TableStatus"], "ACTIVE")
        self.assertEqual({r["ReplicaStatus"] for r in d["Replicas"]}, {"ACTIVE"})
        # The replica answers us-west-2 only.
        west.put_item(TableName=name, Item={"pk": {"S": "w"}, "v": {"S": "west"}})
        self.assertEqual(wait_value(east, name, "w", "west"), "west")
        self.assertNotIn(name, self.server.client("eu-west-1").list_tables()["TableNames"])
        self.assertIn(name, west.list_tables()["TableNames"])
        # Deleting: DELETING until the delay passes, the replica gone at once.
        east.update_table(TableName=name, ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}])
        d = east.describe_table(TableName=name)["Table"]
        self.assertIn(("us-west-2", "DELETING"), {(r["RegionName"], r["ReplicaStatus"]) for r in d["Replicas"]})
        self.assertClientError(west.describe_table, "ResourceNotFoundException", TableName=name)
        self.server.admin("clock", "advance", "2s")
        d = east.describe_table(TableName=name)["Table"]
        self.assertNotIn("Replicas", d)
        self.assertEqual(d["TableStatus"], "ACTIVE")


class KillWithQueuedChanges(unittest.TestCase):
    """Changes queued for replication survive kill -9."""

    def test_queued_changes_survive_kill(self):
        server = Server()
        try:
            server.start()
            east, west = server.client(), server.client("us-west-2")
            create(east, "gtk")
            add_replica(east, "gtk", "us-west-2")
            self.assertEqual(server.admin("replication", "freeze").returncode, 0)
            for i in range(10):
                east.put_item(TableName="gtk", Item={"pk": {"S": "k%d" % i}, "v": {"S": "east"}})
                west.put_item(TableName="gtk", Item={"pk": {"S": "w%d" % i}, "v": {"S": "west"}})
            server.kill()
            server.start()  # replication runs again (the freeze was this process's)
            east, west = server.client(), server.client("us-west-2")
            # On a shared PostgreSQL the killed process's replication lease
            # lapses first (seconds).
            for i in range(10):
                self.assertEqual(wait_value(west, "gtk", "k%d" % i, "east", timeout=30), "east")
                self.assertEqual(wait_value(east, "gtk", "w%d" % i, "west"), "west")
            self.assertEqual(east.scan(TableName="gtk")["Count"], 20)
            self.assertEqual(west.scan(TableName="gtk")["Count"], 20)
        finally:
            server.cleanup()


if __name__ == "__main__":
    unittest.main()
