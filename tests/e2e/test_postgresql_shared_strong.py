"""Global tables of multi-region strong consistency on one PostgreSQL database
shared by two pogi processes: a write through one process is in every replica
for a strongly consistent read through the other at once, and a write of the
same item from another region through the other process within the
replication lag gets ReplicatedWriteConflictException (the item's mark lives
in the database, not in a process).

Runs against a PostgreSQL 15 of this file's own (shared_db.py); skipped
where that is not installed."""

import unittest

from shared_db import SharedDatabaseTest, error_code, needs_postgresql, start_postgresql, stop_postgresql


def setUpModule():
    start_postgresql()


def tearDownModule():
    stop_postgresql()


@needs_postgresql
class SharedStrong(SharedDatabaseTest):
    PROCESSES = 2

    def test_conflict_across_processes(self):
        a, b = self.servers
        for s in self.servers:
            cp = s.admin("replication", "lag", "5s")
            self.assertEqual(cp.returncode, 0, cp.stderr)
        east = a.client("us-east-1")
        self.create(east, "mrsc")
        east.update_table(TableName="mrsc", MultiRegionConsistency="STRONG",
                          ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}}],
                          GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-west-2"}}])
        ohio = b.client("us-east-2")
        east.put_item(TableName="mrsc", Item={"pk": {"S": "k"}, "v": {"S": "east"}})
        # The other process follows the catalog and reads the replicated write.
        got = ohio.get_item(TableName="mrsc", Key={"pk": {"S": "k"}}, ConsistentRead=True)["Item"]
        self.assertEqual(got["v"]["S"], "east")
        self.assertEqual(ohio.describe_table(TableName="mrsc")["Table"]["MultiRegionConsistency"], "STRONG")
        from botocore.exceptions import ClientError
        with self.assertRaises(ClientError) as cm:
            ohio.put_item(TableName="mrsc", Item={"pk": {"S": "k"}, "v": {"S": "ohio"}})
        self.assertEqual(error_code(cm.exception), "ReplicatedWriteConflictException")
        ohio.put_item(TableName="mrsc", Item={"pk": {"S": "other"}, "v": {"S": "ohio"}})
        got = east.get_item(TableName="mrsc", Key={"pk": {"S": "other"}}, ConsistentRead=True)["Item"]
        self.assertEqual(got["v"]["S"], "ohio")


if __name__ == "__main__":
    unittest.main()
