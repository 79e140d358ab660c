"""Transient statuses (`pogi start --transient-delay D`, DynamoDB Local's
-delayTransientStatuses): tables and indexes stay CREATING, UPDATING or
DELETING for D of pogi's clock, and DynamoDB's answers while they do. The
clock stands still here and `pogi clock advance` ends them: nothing sleeps.
By default (every other test file) they end inside the call."""

import signal
import subprocess
import unittest

import boto3
from botocore.config import Config

from harness import LOCALHOST, ServerTestCase, free_port, pogi_bin

IN_USE = "Attempt to change a resource which is still in use: "


class TransientStatuses(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--transient-delay", "10s", "--clock-frozen"]}

    def advance(self, duration):
        cp = self.server.admin("clock", "advance", duration)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def status(self, name):
        t = self.ddb.describe_table(TableName=name)["Table"]
        return t["TableStatus"], {g["IndexName"]: (g["IndexStatus"], g.get("Backfilling"))
                                  for g in t.get("GlobalSecondaryIndexes", [])}

    def active_table(self, **kw):
        name = self.create_table(**kw)
        self.advance("10s")
        self.assertEqual(self.status(name)[0], "ACTIVE")
        return name

    def query_index(self, name, index, value="x"):
        return self.ddb.query(TableName=name, IndexName=index, KeyConditionExpression="g = :v",
                              ExpressionAttributeValues={":v": {"S": value}})

    def test_a_table_is_creating_until_the_clock_passes_the_delay(self):
        name = self.create_table(
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        # Its indexes are CREATING with it, without a Backfilling member.
        self.assertEqual(self.status(name), ("CREATING", {"by-g": ("CREATING", None)}))
        self.assertIn(name, self.ddb.list_tables()["TableNames"])
        # Its items answer as for a table that is not there.
        key = {"pk": {"S": "a"}}
        for call, kw in ((self.ddb.put_item, {"Item": key}), (self.ddb.get_item, {"Key": key}),
                         (self.ddb.scan, {})):
            self.assertClientError(call, "ResourceNotFoundException", "Requested resource not found",
                                   TableName=name, **kw)
        self.assertClientError(self.ddb.execute_statement, "ResourceNotFoundException",
                               Statement='SELECT * FROM "%s"' % name)
        being_created = IN_USE + "Table is being created: " + name
        self.assertClientError(self.ddb.update_table, "ResourceInUseException", being_created,
                               TableName=name, DeletionProtectionEnabled=True)
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException", being_created, TableName=name)
        self.assertClientError(self.create_table, "ResourceInUseException", being_created, name=name)
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.assertClientError(self.ddb.list_tags_of_resource, "ResourceNotFoundException", ResourceArn=arn)

        self.advance("9s")
        self.assertEqual(self.status(name)[0], "CREATING")
        self.advance("1s")
        self.assertEqual(self.status(name), ("ACTIVE", {"by-g": ("ACTIVE", None)}))
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "g": {"S": "x"}})
        self.assertEqual(self.query_index(name, "by-g")["Count"], 1)
        self.assertClientError(self.create_table, "ResourceInUseException", "Table already exists: " + name,
                               name=name)

    def test_an_added_index_is_allocated_then_backfilled_then_active(self):
        name = self.active_table()
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "before"}, "g": {"S": "x"}})
        r = self.ddb.update_table(
            TableName=name, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}}])["TableDescription"]
        self.assertEqual(r["TableStatus"], "UPDATING")
        self.assertEqual([(g["IndexStatus"], g["Backfilling"]) for g in r["GlobalSecondaryIndexes"]],
                         [("CREATING", False)])
        self.assertEqual(self.status(name), ("UPDATING", {"by-g": ("CREATING", False)}))
        backfilling = "Cannot read from backfilling global secondary index: by-g"
        self.assertClientError(self.query_index, "ValidationException", backfilling, name=name, index="by-g")
        self.assertClientError(self.ddb.scan, "ValidationException", backfilling, TableName=name, IndexName="by-g")
        # Items are served meanwhile, and land in the index.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "during"}, "g": {"S": "x"}})
        where = " Table: %s Index: by-g" % name
        self.assertClientError(
            self.ddb.update_table, "ResourceInUseException",
            IN_USE + "Index creation is in resource allocation phase. Retry deletion during backfilling phase "
            "or when the index is active." + where,
            TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-g"}}])
        self.assertClientError(
            self.ddb.update_table, "LimitExceededException",
            "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
            TableName=name, AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "by-h", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}}}])
        self.assertClientError(self.ddb.update_table, "ResourceInUseException",
                               IN_USE + "Table is being updated: " + name,
                               TableName=name, BillingMode="PROVISIONED",
                               ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        no_delete = IN_USE + "Cannot delete table while indexes are being created, updated, or deleted."
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException", no_delete, TableName=name)

        self.advance("10s")  # allocated: the table ACTIVE, the index backfilling
        self.assertEqual(self.status(name), ("ACTIVE", {"by-g": ("CREATING", True)}))
        self.assertClientError(self.query_index, "ValidationException", backfilling, name=name, index="by-g")
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException", no_delete, TableName=name)
        self.advance("10s")
        self.assertEqual(self.status(name), ("ACTIVE", {"by-g": ("ACTIVE", None)}))
        keys = sorted(i["pk"]["S"] for i in self.query_index(name, "by-g")["Items"])
        self.assertEqual(keys, ["before", "during"])

        r = self.ddb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-g"}}])
        self.assertEqual(r["TableDescription"]["TableStatus"], "UPDATING")
        self.assertEqual(self.status(name), ("UPDATING", {"by-g": ("DELETING", None)}))
        self.assertClientError(self.query_index, "ValidationException",
                               "The table does not have the specified index: by-g", name=name, index="by-g")
        self.assertClientError(self.ddb.update_table, "ResourceInUseException",
                               IN_USE + "Index is being deleted." + where,
                               TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-g"}}])
        self.assertClientError(self.ddb.update_table, "ResourceInUseException",
                               IN_USE + "Can't change table IOPS when an index is being deleted. Table: %s "
                               "Indexes: [by-g]" % name,
                               TableName=name, BillingMode="PROVISIONED",
                               ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
        self.ddb.update_table(TableName=name, DeletionProtectionEnabled=False)  # admitted meanwhile
        self.advance("10s")
        t = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(t["TableStatus"], "ACTIVE")
        self.assertNotIn("GlobalSecondaryIndexes", t)
        self.assertEqual([a["AttributeName"] for a in t["AttributeDefinitions"]], ["pk"])

    def test_an_updated_table_is_updating(self):
        name = self.active_table()
        r = self.ddb.update_table(TableName=name, BillingMode="PROVISIONED",
                                  ProvisionedThroughput={"ReadCapacityUnits": 2, "WriteCapacityUnits": 2})
        self.assertEqual(r["TableDescription"]["TableStatus"], "UPDATING")
        self.assertEqual(self.status(name)[0], "UPDATING")
        being_updated = IN_USE + "Table is being updated: " + name
        self.assertClientError(self.ddb.update_table, "ResourceInUseException", being_updated, TableName=name,
                               StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException", being_updated, TableName=name)
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})  # items are served
        self.advance("10s")
        self.assertEqual(self.status(name)[0], "ACTIVE")
        self.ddb.update_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 3})

    def test_a_deleted_table_is_deleting_then_gone(self):
        name = self.active_table()
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
        r = self.ddb.delete_table(TableName=name)
        self.assertEqual(r["TableDescription"]["TableStatus"], "DELETING")
        self.assertEqual(self.status(name)[0], "DELETING")
        self.assertIn(name, self.ddb.list_tables()["TableNames"])
        self.assertClientError(self.ddb.get_item, "ResourceNotFoundException", "Requested resource not found",
                               TableName=name, Key={"pk": {"S": "a"}})
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException",
                               IN_USE + "Table is being deleted: " + name, TableName=name)
        self.assertClientError(self.create_table, "ResourceInUseException", "Table already exists: " + name,
                               name=name)
        self.advance("10s")
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException",
                               "Requested resource not found: Table: %s not found" % name, TableName=name)
        self.assertNotIn(name, self.ddb.list_tables()["TableNames"])
        # The name is free again, and the new table starts empty.
        self.create_table(name=name)
        self.advance("10s")
        self.assertEqual(self.ddb.scan(TableName=name)["Count"], 0)

    def test_the_admin_cli_sees_them_too(self):
        name = self.create_table()
        cp = self.server.admin("tables")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        line = [ln for ln in cp.stdout.splitlines() if name in ln]
        self.assertTrue(line and "CREATING" in line[0], cp.stdout)
        self.advance("10s")
        cp = self.server.admin("tables")
        line = [ln for ln in cp.stdout.splitlines() if name in ln]
        self.assertTrue(line and "ACTIVE" in line[0], cp.stdout)


class DynamoDbLocalDelays(unittest.TestCase):
    """DynamoDB Local's command line with -delayTransientStatuses: as it does,
    tables are ACTIVE at once and an index added by UpdateTable is CREATING
    for 15 s (allocated), then 15 s (backfilling); a deleted one DELETING for
    15 s."""

    def test_index_statuses_last_as_dynamodb_locals(self):
        port, grpc = free_port(), free_port()
        proc = subprocess.Popen([pogi_bin(), "-port", str(port), "-inMemory", "-sharedDb", "-delayTransientStatuses",
                                 "--grpc-port", str(grpc), "--clock-frozen"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.addCleanup(proc.stdout.close)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        for line in proc.stdout:
            if line.strip() == b"Ready.":
                break
        ddb = boto3.client("dynamodb", endpoint_url="http://%s:%d" % (LOCALHOST, port), region_name="us-east-1",
                           aws_access_key_id="k", aws_secret_access_key="s", config=Config(retries={"max_attempts": 1}))

        def advance(d):
            cp = subprocess.run([pogi_bin(), "clock", "advance", d, "--host", LOCALHOST, "--grpc-port", str(grpc)],
                                capture_output=True, text=True, timeout=30)
            self.assertEqual(cp.returncode, 0, cp.stderr)

        def index_status():
            t = ddb.describe_table(TableName="orders")["Table"]
            return t["TableStatus"], [(g["IndexStatus"], g.get("Backfilling")) for g in t.get("GlobalSecondaryIndexes", [])]

        ddb.create_table(TableName="orders", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        self.assertEqual(index_status(), ("ACTIVE", []))
        ddb.update_table(TableName="orders", AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
                         GlobalSecondaryIndexUpdates=[{"Create": {
                             "IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "ALL"}}}])
        self.assertEqual(index_status(), ("UPDATING", [("CREATING", False)]))
        advance("15s")
        self.assertEqual(index_status(), ("ACTIVE", [("CREATING", True)]))
        advance("15s")
        self.assertEqual(index_status(), ("ACTIVE", [("ACTIVE", None)]))
        ddb.update_table(TableName="orders", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "by-g"}}])
        self.assertEqual(index_status(), ("UPDATING", [("DELETING", None)]))
        advance("15s")
        self.assertEqual(index_status(), ("ACTIVE", []))
        # A table is deleted at once, as DynamoDB Local deletes it.
        ddb.delete_table(TableName="orders")
        self.assertEqual(ddb.list_tables()["TableNames"], [])
        proc.send_signal(signal.SIGTERM)
        self.assertEqual(proc.wait(timeout=10), 0)


if __name__ == "__main__":
    unittest.main()
