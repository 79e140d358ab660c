"""Global tables of multi-region strong consistency (MRSC): UpdateTable with
MultiRegionConsistency STRONG, ReplicaUpdates Create and
GlobalTableWitnessUpdates makes an empty table a group of three regions in one
region set; DescribeTable shows MultiRegionConsistency and
GlobalTableWitnesses. A write reaches every replica before it is acknowledged,
so a strongly consistent read in any region sees it at once; a write of the
same item from another region within the replication lag gets
ReplicatedWriteConflictException; transactions and Time to Live are refused."""

import threading
import time
import unittest

from global_tables_fixture import ATTRS, KEY
from harness import ServerTestCase

CONFLICT = ("The request was rejected because one or more items in the request are being modified by a request "
            "in another Region.")


def create(ddb, name, **kw):
    return ddb.create_table(TableName=name, KeySchema=KEY, AttributeDefinitions=kw.pop("attrs", ATTRS),
                            BillingMode="PAY_PER_REQUEST", **kw)["TableDescription"]


def make_strong(ddb, name, replicas=("us-east-2",), witness="us-west-2"):
    kw = {}
    if witness:
        kw["GlobalTableWitnessUpdates"] = [{"Create": {"RegionName": witness}}]
    return ddb.update_table(TableName=name, MultiRegionConsistency="STRONG",
                            ReplicaUpdates=[{"Create": {"RegionName": r}} for r in replicas],
                            **kw)["TableDescription"]


def item(v, key="k"):
    return {"pk": {"S": key}, "v": {"S": v}}


class Strong(ServerTestCase):

    def setUp(self):
        self.east = self.ddb
        self.ohio = self.server.client("us-east-2")
        self.oregon = self.server.client("us-west-2")
        self.lag("0")

    def lag(self, value):
        cp = self.server.admin("replication", "lag", value)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def test_convert_with_witness_and_describe(self):
        name = self.unique("mrsc")
        create(self.east, name)
        answer = make_strong(self.east, name)
        self.assertEqual(answer["MultiRegionConsistency"], "STRONG")
        self.assertEqual(answer["GlobalTableWitnesses"], [{"RegionName": "us-west-2", "WitnessStatus": "CREATING"}])
        self.assertEqual({(r["RegionName"], r["ReplicaStatus"]) for r in answer["Replicas"]},
                         {("us-east-1", "ACTIVE"), ("us-east-2", "CREATING")})
        for ddb in (self.east, self.ohio):
            d = ddb.describe_table(TableName=name)["Table"]
            self.assertEqual(d["MultiRegionConsistency"], "STRONG")
            self.assertEqual(d["GlobalTableWitnesses"], [{"RegionName": "us-west-2", "WitnessStatus": "ACTIVE"}])
            self.assertEqual(sorted(r["RegionName"] for r in d["Replicas"]), ["us-east-1", "us-east-2"])
            self.assertEqual(d["GlobalTableVersion"], "2019.11.21")

    def test_three_replicas(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name, replicas=("us-east-2", "us-west-2"), witness=None)
        d = self.oregon.describe_table(TableName=name)["Table"]
        self.assertEqual(d["MultiRegionConsistency"], "STRONG")
        self.assertNotIn("GlobalTableWitnesses", d)
        self.assertEqual(sorted(r["RegionName"] for r in d["Replicas"]), ["us-east-1", "us-east-2", "us-west-2"])
        self.oregon.put_item(TableName=name, Item=item("from oregon"))
        for ddb in (self.east, self.ohio):
            got = ddb.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
            self.assertEqual(got["v"]["S"], "from oregon")

    def test_strongly_consistent_read_in_another_region_at_once(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name)
        # A lag set (and replication frozen) does not hold a strong write back.
        self.lag("5s")
        self.assertEqual(self.server.admin("replication", "freeze").returncode, 0)
        try:
            self.east.put_item(TableName=name, Item=item("one"))
            got = self.ohio.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
            self.assertEqual(got["v"]["S"], "one")
            self.east.update_item(TableName=name, Key={"pk": {"S": "k"}}, UpdateExpression="SET v = :v",
                                  ExpressionAttributeValues={":v": {"S": "two"}})
            got = self.ohio.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
            self.assertEqual(got["v"]["S"], "two")
            self.east.delete_item(TableName=name, Key={"pk": {"S": "k"}})
            self.assertNotIn("Item", self.ohio.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True))
            self.assertEqual(self.server.admin("replication").stdout.count("0 changes queued"), 1)
        finally:
            self.server.admin("replication", "release")

    def test_conflicting_write_from_another_region(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name)
        # The writes below from the other region fall within the lag: they
        # take milliseconds, and 3 s leaves a busy machine room.
        self.lag("3s")
        self.east.put_item(TableName=name, Item=item("east"))
        # The same item from the other replica's region while the first
        # write's replication is under way.
        self.assertClientError(self.ohio.put_item, "ReplicatedWriteConflictException", CONFLICT,
                               TableName=name, Item=item("ohio"))
        self.assertClientError(self.ohio.delete_item, "ReplicatedWriteConflictException", CONFLICT,
                               TableName=name, Key={"pk": {"S": "k"}})
        # The refused writes changed nothing; another item, and the same
        # region, are not in conflict.
        got = self.ohio.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
        self.assertEqual(got["v"]["S"], "east")
        self.ohio.put_item(TableName=name, Item=item("other", key="k2"))
        self.east.put_item(TableName=name, Item=item("east again"))
        time.sleep(3.2)  # past the lag (wall time: slowness only lengthens it)
        self.ohio.put_item(TableName=name, Item=item("ohio later"))
        got = self.east.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
        self.assertEqual(got["v"]["S"], "ohio later")

    def test_concurrent_writes_from_two_regions(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name)
        self.lag("3s")
        from botocore.exceptions import ClientError
        results = {}
        barrier = threading.Barrier(2)

        def write(label, ddb):
            barrier.wait()
            try:
                ddb.put_item(TableName=name, Item=item(label))
                results[label] = "ok"
            except ClientError as e:
                results[label] = e.response["Error"]["Code"]

        threads = [threading.Thread(target=write, args=("east", self.server.client("us-east-1"))),
                   threading.Thread(target=write, args=("ohio", self.server.client("us-east-2")))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(sorted(results.values()), ["ReplicatedWriteConflictException", "ok"], results)
        winner = [k for k, v in results.items() if v == "ok"][0]
        for ddb in (self.east, self.ohio):
            got = ddb.get_item(TableName=name, Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
            self.assertEqual(got["v"]["S"], winner)

    def test_refused_operations(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name)
        self.assertClientError(
            self.east.transact_write_items, "ValidationException",
            "Transactions are not supported for the global table %s with MultiRegionConsistency STRONG" % name,
            TransactItems=[{"Put": {"TableName": name, "Item": item("x")}}])
        self.assertClientError(
            self.ohio.transact_get_items, "ValidationException",
            "Transactions are not supported for the global table %s with MultiRegionConsistency STRONG" % name,
            TransactItems=[{"Get": {"TableName": name, "Key": {"pk": {"S": "k"}}}}])
        self.assertClientError(
            self.east.execute_transaction, "ValidationException",
            "Transactions are not supported for the global table %s with MultiRegionConsistency STRONG" % name,
            TransactStatements=[{"Statement": "INSERT INTO \"%s\" VALUE {'pk': 'p'}" % name}])
        self.assertClientError(
            self.east.update_time_to_live, "ValidationException",
            "Time to Live is not supported for the global table %s with MultiRegionConsistency STRONG" % name,
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        self.assertClientError(
            self.east.update_table, "ValidationException",
            "Replicas cannot be added to a global table with MultiRegionConsistency STRONG",
            TableName=name, ReplicaUpdates=[{"Create": {"RegionName": "us-west-1"}}])
        self.assertServing()

    def test_conversion_rules(self):
        # Not empty.
        full = self.unique("mrsc")
        create(self.east, full)
        self.east.put_item(TableName=full, Item=item("x"))
        self.assertClientError(make_strong, "ValidationException",
                               "A table must be empty to become a global table with MultiRegionConsistency STRONG",
                               ddb=self.east, name=full)
        self.assertNotIn("Replicas", self.east.describe_table(TableName=full)["Table"])
        name = self.unique("mrsc")
        create(self.east, name)
        # Two regions only.
        self.assertClientError(make_strong, "ValidationException", message_contains="exactly three Regions",
                               ddb=self.east, name=name, witness=None)
        # Outside one region set.
        self.assertClientError(make_strong, "ValidationException", message_contains="within one Region set",
                               ddb=self.east, name=name, witness="eu-west-1")
        # MultiRegionConsistency without a replica being created; a witness
        # without STRONG.
        self.assertClientError(self.east.update_table, "ValidationException", message_contains="only be specified",
                               TableName=name, MultiRegionConsistency="STRONG")
        self.assertClientError(self.east.update_table, "ValidationException", message_contains="STRONG",
                               TableName=name, ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}],
                               GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-west-2"}}])
        self.assertClientError(self.east.update_table, "ValidationException",
                               message_contains="Member must satisfy enum value set",
                               TableName=name, MultiRegionConsistency="STRONGER",
                               ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}])
        # A table with a local secondary index.
        lsi = self.unique("mrsc")
        self.east.create_table(
            TableName=lsi, BillingMode="PAY_PER_REQUEST",
            KeySchema=KEY + [{"AttributeName": "s", "KeyType": "RANGE"}],
            AttributeDefinitions=ATTRS + [{"AttributeName": "s", "AttributeType": "S"},
                                          {"AttributeName": "l", "AttributeType": "S"}],
            LocalSecondaryIndexes=[{"IndexName": "by-l", "Projection": {"ProjectionType": "ALL"},
                                    "KeySchema": KEY + [{"AttributeName": "l", "KeyType": "RANGE"}]}])
        self.assertClientError(make_strong, "ValidationException", message_contains="local secondary indexes",
                               ddb=self.east, name=lsi)
        # Nothing of the refused requests stayed.
        for n in (name, lsi):
            self.assertNotIn("Replicas", self.east.describe_table(TableName=n)["Table"])
        self.assertServing()

    def test_replica_deleted_leaves_a_regional_table(self):
        name = self.unique("mrsc")
        create(self.east, name)
        make_strong(self.east, name)
        self.ohio.delete_table(TableName=name)
        d = self.east.describe_table(TableName=name)["Table"]
        self.assertNotIn("MultiRegionConsistency", d)
        self.assertNotIn("GlobalTableWitnesses", d)
        self.assertNotIn("Replicas", d)
        self.east.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": item("x")}}])

    def test_aws_cli(self):
        name = self.unique("mrsccli")
        create(self.east, name)
        rc, out, err = self.server.aws(
            "dynamodb", "update-table", "--table-name", name, "--multi-region-consistency", "STRONG",
            "--replica-updates", '[{"Create": {"RegionName": "us-east-2"}}]',
            "--global-table-witness-updates", '[{"Create": {"RegionName": "us-west-2"}}]')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["TableDescription"]["MultiRegionConsistency"], "STRONG")
        rc, out, err = self.server.aws("dynamodb", "put-item", "--table-name", name, "--item",
                                       '{"pk": {"S": "cli"}, "v": {"S": "1"}}')
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "get-item", "--table-name", name, "--consistent-read",
                                       "--key", '{"pk": {"S": "cli"}}', "--region", "us-east-2")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Item"]["v"]["S"], "1")


if __name__ == "__main__":
    unittest.main()
