"""Vector indexes on tables (issue 27): CreateTable's VectorIndexes,
UpdateTable's VectorIndexUpdates and DescribeTable's VectorIndexes, with
DynamoDB's refusals; the lifecycle by pogi's clock; every write path
keeping an index's entries (refusing a bad vector with DynamoDB's
messages); backups and point-in-time restores keeping the indexes. boto3
drives the items; what botocore 1.43 has no shapes for goes as SigV4-signed
requests (vector_fixture.signed_call). The searches: test_vector_search."""

import unittest

from harness import ServerTestCase
from vector_fixture import as_list, as_search_vector, signed_call, vector_index

NOT_ON_DEMAND = ("One or more parameter values were invalid: Vector indexes are only supported for "
                 "PAY_PER_REQUEST tables")


class VectorIndexTest(ServerTestCase):
    # DynamoDB Local's transient statuses (an index UpdateTable adds is
    # allocated for 15 s, then backfills for 15 s; a deleted one is DELETING
    # for 15 s) on a standing clock that the test moves (pogi clock advance).
    SERVER_ARGS = {"extra_args": ["--clock-frozen", "--delay-transient-statuses"]}

    def call(self, op, payload, status=200):
        got, body = signed_call(self.server, op, payload)
        self.assertEqual(got, status, body)
        return body

    def refused(self, op, payload, error, message):
        body = self.call(op, payload, status=400)
        self.assertEqual(body["__type"].split("#")[-1], error, body)
        self.assertEqual(body.get("message") or body.get("Message"), message)

    def create(self, indexes, definitions=(), name=None, **extra):
        name = name or self.unique()
        defs = [{"AttributeName": "pk", "AttributeType": "S"}] + [
            {"AttributeName": a, "AttributeType": t} for a, t in definitions]
        req = {"TableName": name, "AttributeDefinitions": defs, "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "VectorIndexes": indexes}
        req.update(extra)
        return name, self.call("CreateTable", req)["TableDescription"]

    def describe(self, name):
        return self.call("DescribeTable", {"TableName": name})["Table"]

    def advance(self, duration="2s"):
        cp = self.server.admin("clock", "advance", duration)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def test_create_and_describe(self):
        name, created = self.create(
            [vector_index("by-emb", "emb", 3, "COSINE",
                          schema=[("cat", "HASH"), ("brand", "INLINE_FILTER")]),
             vector_index("by-emb-l2", "emb", 3, "EUCLIDEAN",
                          projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]})],
            definitions=[("cat", "S"), ("brand", "S")])
        self.assertEqual([v["IndexStatus"] for v in created["VectorIndexes"]], ["CREATING", "CREATING"])
        self.assertNotIn("Backfilling", created["VectorIndexes"][0])
        for i in range(4):
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "k%d" % i}, "cat": {"S": "c%d" % (i % 2)},
                                                    "emb": as_list([i, 1, 2])})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "no-vector"}, "cat": {"S": "c0"}})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "no-cat"}, "emb": as_list([1, 1, 1])})
        d = self.describe(name)
        self.assertEqual([a["AttributeName"] for a in d["AttributeDefinitions"]], ["pk", "cat", "brand"])
        v = {x["IndexName"]: x for x in d["VectorIndexes"]}
        self.assertEqual(v["by-emb"], {
            "IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"}, "Dimensions": 3,
            "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"},
            "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"},
                             {"AttributeName": "brand", "SearchSchemaElementType": "INLINE_FILTER"}],
            "IndexStatus": "ACTIVE", "IndexArn": d["TableArn"] + "/index/by-emb",
            "ItemCount": 4, "IndexSizeBytes": v["by-emb"]["IndexSizeBytes"]})
        # Without the HASH attribute an item is in no partition of by-emb, but in by-emb-l2.
        self.assertEqual(v["by-emb-l2"]["ItemCount"], 5)
        self.assertEqual(v["by-emb-l2"]["Projection"], {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]})
        self.assertGreater(v["by-emb"]["IndexSizeBytes"], 4 * 12)
        # boto3 reads what it knows of the description and ignores the rest.
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["TableName"], name)

    def test_create_table_refusals(self):
        ok = vector_index("vix", "emb", 3, "COSINE")
        base = {"TableName": self.unique(), "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}
        self.refused("CreateTable", dict(base, BillingMode="PROVISIONED", VectorIndexes=[ok],
                                         ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}),
                     "ValidationException", NOT_ON_DEMAND)
        self.refused("CreateTable", dict(base, VectorIndexes=[dict(ok, Dimensions=4097)]), "ValidationException",
                     "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 "
                     "inclusive.")
        self.refused("CreateTable", dict(base, VectorIndexes=[vector_index("vix", "emb", 3, "COSINE",
                                                                           schema=[("tenant", "HASH")])]),
                     "ValidationException", "One or more parameter values were invalid: One element in SearchSchema "
                     "is not defined in attribute definitions")
        self.refused("CreateTable", dict(base, VectorIndexes=[dict(ok, IndexName="vix%d" % i) for i in range(6)]),
                     "ValidationException",
                     "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5")
        self.refused("CreateTable", dict(base, VectorIndexes=[ok, dict(ok, IndexName="vix2", Dimensions=4)]),
                     "ValidationException", "One or more parameter values were invalid: Conflicting attribute "
                     "definition for 'emb'. All VectorIndexes on the same vector attribute must use the same "
                     "dimensions.")
        self.refused("CreateTable", dict(base, VectorIndexes=[dict(ok, DistanceFunction="HAMMING")]),
                     "ValidationException", "1 validation error detected: Value 'HAMMING' at "
                     "'vectorIndexes.1.member.distanceFunction' failed to satisfy constraint: Member must satisfy "
                     "enum value set: [DOT_PRODUCT, COSINE, EUCLIDEAN]")
        self.refused("CreateTable", dict(base, VectorIndexes=[{"IndexName": "vix", "Dimensions": 3}]),
                     "ValidationException", "3 validation errors detected: Value null at "
                     "'vectorIndexes.1.member.vectorAttribute' failed to satisfy constraint: Member must not be null; "
                     "Value null at 'vectorIndexes.1.member.projection' failed to satisfy constraint: Member must not "
                     "be null; Value null at 'vectorIndexes.1.member.distanceFunction' failed to satisfy constraint: "
                     "Member must not be null")
        self.assertNotIn(base["TableName"], self.ddb.list_tables()["TableNames"])

    def test_writes_are_checked_and_kept(self):
        name, _ = self.create([vector_index("vix", "emb", 2, "DOT_PRODUCT", schema=[("cat", "HASH")])],
                              definitions=[("cat", "S")])
        from botocore.exceptions import ClientError

        def refuses(item, message, fn=None):
            with self.assertRaises(ClientError) as cm:
                (fn or (lambda: self.ddb.put_item(TableName=name, Item=item)))()
            err = cm.exception.response["Error"]
            self.assertEqual((err["Code"], err["Message"]), ("ValidationException", message))

        good = {"pk": {"S": "a"}, "cat": {"S": "x"}, "emb": as_list([1, 2])}
        self.ddb.put_item(TableName=name, Item=good)
        refuses(dict(good, emb=as_list([1, 2, 3])), "One or more parameter values were invalid. Invalid size for "
                "parameter emb, Expected: 2, Actual: 3 IndexName: vix")
        refuses(dict(good, emb={"NS": ["1", "2"]}), "One or more parameter values were invalid. Invalid type for "
                "parameter emb, Expected: 32-bit floating point number list IndexName: vix")
        refuses(dict(good, emb={"L": [{"N": "1"}, {"BOOL": True}]}), "One or more parameter values were invalid. "
                "Invalid type for parameter emb[1], Expected: 32-bit floating point number, Actual: BOOL. "
                "IndexName: vix")
        refuses(dict(good, emb={"L": [{"N": "1"}, {"N": "5E+38"}]}), "One or more parameter values were invalid. "
                "Invalid value for parameter emb[1], Value: 500000000000000000000000000000000000000 is outside valid "
                "range [-3.4028235E38, 3.4028235E38]. IndexName: vix")
        refuses(dict(good, cat={"N": "1"}), "One or more parameter values were invalid. Attribute 'cat' type "
                "mismatch. Expected: S, Actual: N. IndexName: vix")
        refuses(dict(good, cat={"S": ""}), "One or more parameter values are not valid. A value specified for a "
                "secondary index key is not supported. The AttributeValue for a key attribute cannot contain an "
                "empty string value. IndexName: vix, IndexKey: cat")
        # The refused writes left the item as it was, through every write path.
        refuses(None, "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 2, "
                "Actual: 1 IndexName: vix", lambda: self.ddb.update_item(
                    TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET emb = :v",
                    ExpressionAttributeValues={":v": as_list([9])}))
        refuses(None, "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 2, "
                "Actual: 1 IndexName: vix", lambda: self.ddb.batch_write_item(RequestItems={name: [
                    {"PutRequest": {"Item": dict(good, pk={"S": "b"}, emb=as_list([9]))}}]}))
        with self.assertRaises(ClientError) as cm:
            self.ddb.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": dict(
                good, pk={"S": "c"}, emb=as_list([9]))}}])
        self.assertEqual(cm.exception.response["Error"]["Code"], "TransactionCanceledException")
        self.assertEqual(cm.exception.response["CancellationReasons"][0]["Code"], "ValidationError")
        with self.assertRaises(ClientError) as cm:
            self.ddb.execute_statement(Statement="INSERT INTO \"%s\" VALUE {'pk': 'd', 'cat': 'x', 'emb': [1]}" % name)
        self.assertIn("Invalid size for parameter emb", cm.exception.response["Error"]["Message"])
        self.assertEqual(self.ddb.scan(TableName=name)["Count"], 1)
        self.assertEqual(self.ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]["emb"],
                         {"L": [{"N": "1"}, {"N": "2"}]})
        # A write that touches no attribute of the index leaves its entry
        # alone: nothing is charged to it.
        status, raw = signed_call(self.server, "UpdateItem", {
            "TableName": name, "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET note = :o",
            "ExpressionAttributeValues": {":o": {"S": "x"}}, "ReturnConsumedCapacity": "INDEXES"})
        self.assertEqual(status, 200, raw)
        self.assertNotIn("VectorIndexes", raw["ConsumedCapacity"])
        # A write of a vector is charged its bytes (at least 1 KB).
        status, raw = signed_call(self.server, "PutItem", {"TableName": name, "Item": dict(good, pk={"S": "f"}),
                                                            "ReturnConsumedCapacity": "INDEXES"})
        self.assertEqual(raw["ConsumedCapacity"]["VectorIndexes"], {"vix": {"VectorWriteRequestBytes": 1024}})
        self.assertEqual(raw["ConsumedCapacity"]["CapacityUnits"], 1)
        self.assertEqual(self.describe(name)["VectorIndexes"][0]["ItemCount"], 2)

    def test_update_table_lifecycle(self):
        name, _ = self.create([])
        for i in range(3):
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "k%d" % i}, "f": {"N": str(i)},
                                                    "emb": as_list([i, 1])})
        # Written before the index: its wrong size leaves it out of the backfill.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "bad"}, "emb": as_list([1, 2, 3])})
        create = {"Create": vector_index("vix", "emb", 2, "EUCLIDEAN", schema=[("f", "INLINE_FILTER")])}
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [create]}, "ValidationException",
                     "One or more parameter values were invalid: One element in SearchSchema is not defined in "
                     "attribute definitions")
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            create, {"Create": vector_index("vix2", "emb", 2, "COSINE")}]}, "LimitExceededException",
            "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
        defs = [{"AttributeName": "f", "AttributeType": "N"}]
        got = self.call("UpdateTable", {"TableName": name, "AttributeDefinitions": defs,
                                        "VectorIndexUpdates": [create]})["TableDescription"]
        self.assertEqual((got["VectorIndexes"][0]["IndexStatus"], got["VectorIndexes"][0]["Backfilling"]),
                         ("CREATING", False))
        search = {"TableName": name, "IndexName": "vix", "SearchVector": as_search_vector([1, 1]), "TopK": 1}
        # Allocating: the table UPDATING, the index neither searchable nor deletable.
        d = self.describe(name)
        self.assertEqual((d["TableStatus"], d["VectorIndexes"][0]["IndexStatus"],
                          d["VectorIndexes"][0]["Backfilling"]), ("UPDATING", "CREATING", False))
        self.refused("SearchVectors", search, "ValidationException", "Cannot search backfilling vector index: vix")
        self.advance("15s")
        d = self.describe(name)
        v = d["VectorIndexes"][0]
        self.assertEqual((d["TableStatus"], v["IndexStatus"], v["Backfilling"], v["ItemCount"]),
                         ("ACTIVE", "CREATING", True, 3))
        self.refused("SearchVectors", search, "ValidationException", "Cannot search backfilling vector index: vix")
        # The same index again (two spaces: DynamoDB's text), another one.
        self.refused("UpdateTable", {"TableName": name, "AttributeDefinitions": defs, "VectorIndexUpdates": [create]},
                     "ResourceInUseException", "Attempt to change a resource which is still in use: Index is being "
                     "created.  Table: %s Index: vix" % name)
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            {"Create": vector_index("vix2", "emb", 2, "COSINE")}]}, "LimitExceededException",
            "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
        self.advance("15s")
        self.assertEqual(len(self.call("SearchVectors", search)["SearchResults"]), 1)
        v = self.describe(name)["VectorIndexes"][0]
        self.assertEqual(v["IndexStatus"], "ACTIVE")
        self.assertNotIn("Backfilling", v)
        self.refused("UpdateTable", {"TableName": name, "AttributeDefinitions": defs, "VectorIndexUpdates": [create]},
                     "ValidationException", "Attempting to create an index which already exists")
        self.refused("UpdateTable", {"TableName": name, "BillingMode": "PROVISIONED", "ProvisionedThroughput": {
            "ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}, "ValidationException", NOT_ON_DEMAND)
        got = self.call("UpdateTable", {"TableName": name, "VectorIndexUpdates": [{"Delete": {"IndexName": "vix"}}]})
        self.assertEqual(got["TableDescription"]["VectorIndexes"][0]["IndexStatus"], "DELETING")
        self.assertEqual(self.describe(name)["VectorIndexes"][0]["IndexStatus"], "DELETING")
        self.advance("15s")
        d = self.describe(name)
        self.assertNotIn("VectorIndexes", d)
        self.assertEqual([a["AttributeName"] for a in d["AttributeDefinitions"]], ["pk"])
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [{"Delete": {"IndexName": "vix"}}]},
                     "ResourceNotFoundException", "Requested resource not found: Index: vix not found")
        self.refused("UpdateTable", {"TableName": name, "VectorIndexUpdates": [
            {"Create": vector_index("vix", "pk", 2, "COSINE")}]}, "ValidationException",
            "One or more parameter values were invalid: Attributes cannot be redefined. Please check that your "
            "attribute has the same type as previously defined. Existing schema: Schema:[SchemaElement: "
            "key{pk:S:HASH}] New schema: VectorIndexSchema:[VectorAttribute: key{pk:L:2}]")

    def test_backups_and_restores_keep_vector_indexes(self):
        index = vector_index("vix", "emb", 2, "COSINE", schema=[("cat", "HASH")])
        name, _ = self.create([index], definitions=[("cat", "S")])
        for i in range(5):
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "k%d" % i}, "cat": {"S": "c"},
                                                    "emb": as_list([i, 1])})
        arn = self.ddb.create_backup(TableName=name, BackupName="bkp")["BackupDetails"]["BackupArn"]
        features = self.call("DescribeBackup", {"BackupArn": arn})["BackupDescription"]["SourceTableFeatureDetails"]
        self.assertEqual(features["VectorIndexes"], [{
            "IndexName": "vix", "VectorAttribute": {"AttributeName": "emb"},
            "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}, "Dimensions": 2, "DistanceFunction": "COSINE"}])
        target = self.unique()
        self.refused("RestoreTableFromBackup", {"TargetTableName": target, "BackupArn": arn, "VectorIndexOverride": [
            dict(index, Dimensions=3)]}, "ValidationException",
            "One or more parameter values were invalid: VectorIndexOverride for index vix does not match the source "
            "table's definition of it")
        self.call("RestoreTableFromBackup", {"TargetTableName": target, "BackupArn": arn})
        v = self.describe(target)["VectorIndexes"][0]
        # Rebuilt from the items inside the restore, as its secondary indexes are.
        self.assertEqual((v["IndexStatus"], v["ItemCount"]), ("ACTIVE", 5))
        self.assertEqual(self.describe(target)["AttributeDefinitions"], self.describe(name)["AttributeDefinitions"])
        # Point in time.
        self.ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": True})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "k9"}, "cat": {"S": "c"}, "emb": as_list([9, 1])})
        self.advance("1s")
        pitr = self.unique()
        self.call("RestoreTableToPointInTime", {"SourceTableName": name, "TargetTableName": pitr,
                                                "UseLatestRestorableTime": True})
        v = self.describe(pitr)["VectorIndexes"][0]
        self.assertEqual((v["IndexStatus"], v["ItemCount"], v["IndexName"]), ("ACTIVE", 6, "vix"))


if __name__ == "__main__":
    unittest.main()
