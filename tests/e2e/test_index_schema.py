"""Secondary indexes in the table's schema: DescribeTable's index
descriptions, CreateTable's index validation, and (class UpdateTableIndexes)
creating and deleting a GSI with UpdateTable. The data path is test_indexes.py."""

import json
import time
import unittest

from index_fixture import (INVALID, PROV_TABLE, SPARSE_TABLE, TABLE, VALIDATION, IndexBase, N, S, attr,
                           gsi, keys, lsi)


class Describe(IndexBase):

    def test_describe_indexes(self):
        t = self.ddb.describe_table(TableName=TABLE)["Table"]
        arn = t["TableArn"]
        self.assertEqual({a["AttributeName"]: a["AttributeType"] for a in t["AttributeDefinitions"]},
                         {"pk": "S", "sk": "N", "gk": "S", "gs": "N", "gn": "N", "ls": "S"})
        gsis = {g["IndexName"]: g for g in t["GlobalSecondaryIndexes"]}
        self.assertEqual(set(gsis), {"g_all", "g_keys", "g_inc", "g_num"})
        for name, g in gsis.items():
            self.assertEqual(g["IndexStatus"], "ACTIVE")
            self.assertEqual(g["IndexArn"], arn + "/index/" + name)
            self.assertIsInstance(g["ItemCount"], int)
            self.assertIsInstance(g["IndexSizeBytes"], int)
            self.assertEqual(g["ProvisionedThroughput"]["ReadCapacityUnits"], 0)
            self.assertEqual(g["ProvisionedThroughput"]["WriteCapacityUnits"], 0)
            self.assertEqual(g["ProvisionedThroughput"]["NumberOfDecreasesToday"], 0)
        self.assertEqual(gsis["g_all"]["KeySchema"], keys("gk", "gs"))
        self.assertEqual(gsis["g_keys"]["KeySchema"], keys("gk"))
        self.assertEqual(gsis["g_inc"]["Projection"], {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b"]})
        self.assertEqual(gsis["g_keys"]["Projection"], {"ProjectionType": "KEYS_ONLY"})
        self.assertEqual(gsis["g_all"]["Projection"], {"ProjectionType": "ALL"})
        lsis = {l["IndexName"]: l for l in t["LocalSecondaryIndexes"]}
        self.assertEqual(set(lsis), {"l_all", "l_keys", "l_inc"})
        for name, l in lsis.items():
            self.assertEqual(l["IndexArn"], arn + "/index/" + name)
            self.assertEqual(l["KeySchema"], keys("pk", "ls"))
            self.assertIsInstance(l["ItemCount"], int)
            self.assertIsInstance(l["IndexSizeBytes"], int)
        self.assertEqual(lsis["l_inc"]["Projection"], {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]})

    def test_sparse_counts(self):
        t = self.ddb.describe_table(TableName=SPARSE_TABLE)["Table"]
        self.assertEqual(t["ItemCount"], 20)
        counts = {g["IndexName"]: g["ItemCount"] for g in t["GlobalSecondaryIndexes"]}
        self.assertEqual(counts, {"by_g": 4, "by_g_r": 2})
        sizes = {g["IndexName"]: g["IndexSizeBytes"] for g in t["GlobalSecondaryIndexes"]}
        self.assertGreater(sizes["by_g"], 0)
        self.assertLess(sizes["by_g"], t["TableSizeBytes"])

    def test_provisioned_index_throughput(self):
        t = self.ddb.describe_table(TableName=PROV_TABLE)["Table"]
        g = t["GlobalSecondaryIndexes"][0]
        self.assertEqual(g["ProvisionedThroughput"]["ReadCapacityUnits"], 7)
        self.assertEqual(g["ProvisionedThroughput"]["WriteCapacityUnits"], 3)

    def test_create_table_response_has_indexes(self):
        name = self.unique("ixc")
        resp = self.ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("pk", "S"), attr("x", "N")], KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("by_x", "x", projection="KEYS_ONLY")])
        g = resp["TableDescription"]["GlobalSecondaryIndexes"][0]
        self.assertEqual(g["IndexName"], "by_x")
        self.assertIn(g["IndexStatus"], ("CREATING", "ACTIVE"))
        self.assertEqual(g["KeySchema"], keys("x"))


class CreateTableValidation(IndexBase):

    def create_error(self, message, contains=False, **kw):
        args = dict(TableName=self.unique("bad"), BillingMode="PAY_PER_REQUEST")
        args.update(kw)
        body = json.loads(json.dumps(args))
        t, m = self.raw_error("CreateTable", body)
        self.assertEqual(t, VALIDATION, m)
        if contains:
            self.assertIn(message, m)
        else:
            self.assertEqual(m, message)
        self.assertNotIn(args["TableName"], self.ddb.list_tables()["TableNames"])

    def test_lsi_without_table_range_key(self):
        self.create_error(
            INVALID + "Table KeySchema does not have a range key, which is required when specifying "
            "a LocalSecondaryIndex",
            AttributeDefinitions=[attr("pk", "S"), attr("x", "S")], KeySchema=keys("pk"),
            LocalSecondaryIndexes=[lsi("lx1", "x")])

    def test_lsi_with_other_hash_key(self):
        self.create_error(
            INVALID + "Index KeySchema does not have the same leading hash key as table KeySchema for "
            "index: lx1. index hash key: x, table hash key: pk",
            AttributeDefinitions=[attr("pk", "S"), attr("sk", "S"), attr("x", "S")],
            KeySchema=keys("pk", "sk"), LocalSecondaryIndexes=[lsi("lx1", "sk", h="x")])

    def test_lsi_without_range_key(self):
        self.create_error(
            INVALID + "Index KeySchema does not have a range key for index: lx1",
            AttributeDefinitions=[attr("pk", "S"), attr("sk", "S")],
            KeySchema=keys("pk", "sk"),
            LocalSecondaryIndexes=[{"IndexName": "lx1", "KeySchema": keys("pk"),
                                    "Projection": {"ProjectionType": "ALL"}}])

    def test_duplicate_index_names(self):
        defs = [attr("pk", "S"), attr("sk", "S"), attr("x", "S")]
        self.create_error(INVALID + "Duplicate index name: dup", AttributeDefinitions=defs,
                          KeySchema=keys("pk", "sk"),
                          GlobalSecondaryIndexes=[gsi("dup", "x"), gsi("dup", "x", "sk")])
        self.create_error(INVALID + "Duplicate index name: dup", AttributeDefinitions=defs,
                          KeySchema=keys("pk", "sk"),
                          GlobalSecondaryIndexes=[gsi("dup", "x")], LocalSecondaryIndexes=[lsi("dup", "x")])

    def test_undefined_index_key(self):
        self.create_error(
            INVALID + "Some index key attributes are not defined in AttributeDefinitions. "
            "Keys: [x], AttributeDefinitions: [pk]",
            AttributeDefinitions=[attr("pk", "S")], KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("gx1", "x")])

    def test_unused_attribute_definition(self):
        self.create_error(
            INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [extra, g, pk], "
            "keys used: [g, pk]",
            # Given in sorted order: the listing order of the message is then unambiguous.
            AttributeDefinitions=[attr("extra", "N"), attr("g", "S"), attr("pk", "S")],
            KeySchema=keys("pk"), GlobalSecondaryIndexes=[gsi("gx1", "g")])

    def test_too_many_lsis(self):
        defs = [attr("pk", "S"), attr("sk", "S")] + [attr("l%d" % i, "S") for i in range(6)]
        self.create_error(
            INVALID + "Number of LocalSecondaryIndexes exceeds per-table limit of 5",
            AttributeDefinitions=defs, KeySchema=keys("pk", "sk"),
            LocalSecondaryIndexes=[lsi("lsi%d" % i, "l%d" % i) for i in range(6)])
        name = self.unique("five")
        self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=defs[:7], KeySchema=keys("pk", "sk"),
                              LocalSecondaryIndexes=[lsi("lsi%d" % i, "l%d" % i) for i in range(5)])

    def test_too_many_gsis(self):
        defs = [attr("pk", "S")] + [attr("g%d" % i, "S") for i in range(21)]
        self.create_error(
            "GlobalSecondaryIndex count exceeds the per-table limit of 20", contains=True,
            AttributeDefinitions=defs, KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("gsi%d" % i, "g%d" % i) for i in range(21)])
        name = self.unique("twenty")
        self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=defs[:21], KeySchema=keys("pk"),
                              GlobalSecondaryIndexes=[gsi("gsi%d" % i, "g%d" % i) for i in range(20)])

    def test_non_key_attributes_need_include(self):
        defs = [attr("pk", "S"), attr("x", "S")]
        for ptype in ("KEYS_ONLY", "ALL"):
            with self.subTest(ptype=ptype):
                self.create_error(
                    INVALID + "ProjectionType is %s, but NonKeyAttributes is specified" % ptype,
                    AttributeDefinitions=defs, KeySchema=keys("pk"),
                    GlobalSecondaryIndexes=[gsi("gx1", "x", projection=ptype, non_key=["a"])])

    def test_index_throughput_rules(self):
        defs = [attr("pk", "S"), attr("x", "S")]
        self.create_error(
            INVALID + "ProvisionedThroughput should not be specified for index: gx1 when BillingMode "
            "is PAY_PER_REQUEST",
            AttributeDefinitions=defs, KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("gx1", "x", throughput={"ReadCapacityUnits": 1,
                                                                "WriteCapacityUnits": 1})])
        self.create_error(
            INVALID + "ProvisionedThroughput is not specified for index: gx1",
            AttributeDefinitions=defs, KeySchema=keys("pk"), BillingMode="PROVISIONED",
            ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
            GlobalSecondaryIndexes=[gsi("gx1", "x")])

    def test_index_name_length(self):
        self.create_error(
            "1 validation error detected: Value 'ab' at 'globalSecondaryIndexes.1.member.indexName' "
            "failed to satisfy constraint: Member must have length greater than or equal to 3",
            AttributeDefinitions=[attr("pk", "S"), attr("x", "S")], KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("ab", "x")])


class UpdateTableIndexes(IndexBase):
    """GSI creation (with backfill) and deletion through UpdateTable."""

    def wait_index(self, table, index, gone=False, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            t = self.ddb.describe_table(TableName=table)["Table"]
            gsis = {g["IndexName"]: g for g in t.get("GlobalSecondaryIndexes", [])}
            if gone and index not in gsis:
                return t
            if not gone and index in gsis and gsis[index]["IndexStatus"] == "ACTIVE" \
                    and not gsis[index].get("Backfilling"):
                return gsis[index]
            time.sleep(0.1)
        self.fail("index %s did not become %s" % (index, "gone" if gone else "ACTIVE"))

    def test_create_backfills_and_delete_removes(self):
        name = self.unique("ut")
        self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[attr("pk", "S")], KeySchema=keys("pk"))
        for i in range(30):
            item = {"pk": S("u%02d" % i), "v": N(i)}
            if i % 3 == 0:
                item["late"] = S("L%d" % (i % 2))
            if i == 1:
                item["late"] = N(1)  # wrong type: not indexed by the backfill
            self.put(item, table=name)
        resp = self.ddb.update_table(
            TableName=name, AttributeDefinitions=[attr("pk", "S"), attr("late", "S")],
            GlobalSecondaryIndexUpdates=[{"Create": gsi("late_idx", "late", projection="INCLUDE",
                                                        non_key=["v"])}])
        g = {x["IndexName"]: x for x in resp["TableDescription"]["GlobalSecondaryIndexes"]}["late_idx"]
        self.assertIn(g["IndexStatus"], ("CREATING", "ACTIVE"))
        self.wait_index(name, "late_idx")
        got = self.iq("late_idx", "late = :l", {":l": S("L0")}, table=name)
        self.assertEqual(sorted(i["pk"]["S"] for i in got), ["u%02d" % i for i in range(0, 30, 6)])
        self.assertEqual(set(got[0]), {"pk", "late", "v"})
        self.assertEqual(len(self.scan_index("late_idx", table=name)), 10)
        # New writes are maintained.
        self.put({"pk": S("new"), "late": S("L0")}, table=name)
        self.assertEqual(len(self.iq("late_idx", "late = :l", {":l": S("L0")}, table=name)), 6)
        self.assertClientError(self.ddb.put_item, VALIDATION,
                               INVALID + "Type mismatch for Index Key late Expected: S Actual: N "
                               "IndexName: late_idx",
                               TableName=name, Item={"pk": S("bad"), "late": N(3)})
        # Delete.
        self.ddb.update_table(TableName=name,
                              GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "late_idx"}}])
        t = self.wait_index(name, "late_idx", gone=True)
        self.assertNotIn("late", {a["AttributeName"] for a in t["AttributeDefinitions"]})
        self.assertClientError(self.ddb.query, VALIDATION,
                               "The table does not have the specified index: late_idx",
                               TableName=name, IndexName="late_idx", KeyConditionExpression="late = :l",
                               ExpressionAttributeValues={":l": S("L0")})
        # The attribute is free again: any type may be written.
        self.put({"pk": S("bad"), "late": N(3)}, table=name)

    def test_create_existing_index_refused(self):
        self.assertClientError(
            self.ddb.update_table, VALIDATION, TableName=SPARSE_TABLE,
            AttributeDefinitions=[attr("g", "S")],
            GlobalSecondaryIndexUpdates=[{"Create": gsi("by_g", "g")}])

    def test_create_with_undefined_attribute_refused(self):
        self.assertClientError(
            self.ddb.update_table, VALIDATION, TableName=SPARSE_TABLE,
            GlobalSecondaryIndexUpdates=[{"Create": gsi("by_nothing", "nothing")}])


if __name__ == "__main__":
    unittest.main()
