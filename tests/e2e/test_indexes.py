"""Global and local secondary indexes: projections, sparseness, maintenance on
every write, ordering, paging, DescribeTable, capacity, CreateTable
validation, the errors, and (class UpdateTableIndexes) UpdateTable."""

import json
import time
import unittest

from harness import ServerTestCase

VALIDATION = "ValidationException"
INVALID = "One or more parameter values were invalid: "

TABLE = "ix-main"
TYPE_TABLE = "ix-types"
SPARSE_TABLE = "ix-sparse"
CAP_TABLE = "ix-cap"
PROV_TABLE = "ix-prov"


def attr(name, typ):
    return {"AttributeName": name, "AttributeType": typ}


def keys(h, r=None):
    ks = [{"AttributeName": h, "KeyType": "HASH"}]
    if r:
        ks.append({"AttributeName": r, "KeyType": "RANGE"})
    return ks


def gsi(name, h, r=None, projection="ALL", non_key=None, throughput=None):
    p = {"ProjectionType": projection}
    if non_key is not None:
        p["NonKeyAttributes"] = non_key
    g = {"IndexName": name, "KeySchema": keys(h, r), "Projection": p}
    if throughput:
        g["ProvisionedThroughput"] = throughput
    return g


def lsi(name, r, projection="ALL", non_key=None, h="pk"):
    p = {"ProjectionType": projection}
    if non_key is not None:
        p["NonKeyAttributes"] = non_key
    return {"IndexName": name, "KeySchema": keys(h, r), "Projection": p}


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


class IndexBase(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        d = cls.ddb
        d.create_table(
            TableName=TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("pk", "S"), attr("sk", "N"), attr("gk", "S"),
                                  attr("gs", "N"), attr("gn", "N"), attr("ls", "S")],
            KeySchema=keys("pk", "sk"),
            GlobalSecondaryIndexes=[
                gsi("g_all", "gk", "gs"),
                gsi("g_keys", "gk", projection="KEYS_ONLY"),
                gsi("g_inc", "gk", "gs", projection="INCLUDE", non_key=["a", "b"]),
                gsi("g_num", "gn", "sk", projection="KEYS_ONLY"),
            ],
            LocalSecondaryIndexes=[
                lsi("l_all", "ls"),
                lsi("l_keys", "ls", projection="KEYS_ONLY"),
                lsi("l_inc", "ls", projection="INCLUDE", non_key=["a"]),
            ])
        d.create_table(
            TableName=TYPE_TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("pk", "S"), attr("sk", "S"), attr("tk", "S"), attr("lr", "N"),
                                  attr("tb", "B")],
            KeySchema=keys("pk", "sk"),
            GlobalSecondaryIndexes=[gsi("gtk", "tk"), gsi("gtb", "tb", projection="KEYS_ONLY")],
            LocalSecondaryIndexes=[lsi("llr", "lr")])
        d.create_table(
            TableName=SPARSE_TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("pk", "S"), attr("g", "S"), attr("r", "N")],
            KeySchema=keys("pk"),
            GlobalSecondaryIndexes=[gsi("by_g", "g"), gsi("by_g_r", "g", "r", projection="KEYS_ONLY")])
        for i in range(20):
            item = {"pk": S("s%02d" % i), "v": N(i)}
            if i % 5 == 0:
                item["g"] = S("G")
            if i % 2 == 0:
                item["r"] = N(i)
            d.put_item(TableName=SPARSE_TABLE, Item=item)
        d.create_table(
            TableName=CAP_TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("pk", "S"), attr("gk", "S")],
            KeySchema=keys("pk"), GlobalSecondaryIndexes=[gsi("cap_g", "gk")])
        pt = {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3}
        d.create_table(
            TableName=PROV_TABLE, ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
            AttributeDefinitions=[attr("pk", "S"), attr("gk", "S")],
            KeySchema=keys("pk"), GlobalSecondaryIndexes=[gsi("prov_g", "gk", throughput=pt)])

    # ---- helpers ----------------------------------------------------------

    def raw_error(self, op, payload):
        status, body = self.server.call(op, payload)
        self.assertEqual(status, 400, body)
        return body["__type"].split("#")[-1], body.get("message")

    def put(self, item, table=TABLE, **kw):
        return self.ddb.put_item(TableName=table, Item=item, **kw)

    def iq(self, index, kce, eav, table=TABLE, **kw):
        """All items of a query on an index (every page)."""
        items, start = [], None
        while True:
            args = dict(TableName=table, IndexName=index, KeyConditionExpression=kce,
                        ExpressionAttributeValues=eav, **kw)
            if start:
                args["ExclusiveStartKey"] = start
            resp = self.ddb.query(**args)
            items += resp.get("Items", [])
            start = resp.get("LastEvaluatedKey")
            if not start:
                return items

    def by_gk(self, index, value, **kw):
        return self.iq(index, "gk = :g", {":g": S(value)}, **kw)

    def scan_index(self, index, table=TABLE, **kw):
        items, start = [], None
        while True:
            args = dict(TableName=table, IndexName=index, **kw)
            if start:
                args["ExclusiveStartKey"] = start
            resp = self.ddb.scan(**args)
            items += resp.get("Items", [])
            start = resp.get("LastEvaluatedKey")
            if not start:
                return items


class Projections(IndexBase):

    ITEM = {"pk": S("proj"), "sk": N(1), "gk": S("proj"), "gs": N(5), "gn": N(77), "ls": S("l"),
            "a": S("A"), "b": N(2), "c": {"M": {"x": S("y")}}}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ddb.put_item(TableName=TABLE, Item=cls.ITEM)

    def pick(self, *names):
        return {k: v for k, v in self.ITEM.items() if k in names}

    def test_gsi_all(self):
        self.assertEqual(self.by_gk("g_all", "proj"), [self.ITEM])
        self.assertEqual(self.by_gk("g_all", "proj", Select="ALL_ATTRIBUTES"), [self.ITEM])
        self.assertEqual(self.by_gk("g_all", "proj", Select="ALL_PROJECTED_ATTRIBUTES"), [self.ITEM])

    def test_gsi_keys_only(self):
        self.assertEqual(self.by_gk("g_keys", "proj"), [self.pick("pk", "sk", "gk")])
        self.assertEqual(self.iq("g_num", "gn = :n", {":n": N(77)}), [self.pick("pk", "sk", "gn")])

    def test_gsi_include(self):
        self.assertEqual(self.by_gk("g_inc", "proj"), [self.pick("pk", "sk", "gk", "gs", "a", "b")])
        self.assertEqual(self.by_gk("g_inc", "proj", ProjectionExpression="a, sk"),
                         [self.pick("a", "sk")])

    def test_include_with_missing_attribute(self):
        self.put({"pk": S("proj2"), "sk": N(1), "gk": S("proj2"), "gs": N(1), "b": N(9), "c": N(1)})
        self.assertEqual(self.by_gk("g_inc", "proj2"),
                         [{"pk": S("proj2"), "sk": N(1), "gk": S("proj2"), "gs": N(1), "b": N(9)}])

    def test_lsi_projections(self):
        eav = {":p": S("proj"), ":l": S("l")}
        kce = "pk = :p AND ls = :l"
        self.assertEqual(self.iq("l_all", kce, eav), [self.ITEM])
        self.assertEqual(self.iq("l_keys", kce, eav), [self.pick("pk", "sk", "ls")])
        self.assertEqual(self.iq("l_inc", kce, eav), [self.pick("pk", "sk", "ls", "a")])

    def test_lsi_fetches_unprojected_attributes(self):
        eav = {":p": S("proj"), ":l": S("l")}
        kce = "pk = :p AND ls = :l"
        self.assertEqual(self.iq("l_keys", kce, eav, Select="ALL_ATTRIBUTES"), [self.ITEM])
        self.assertEqual(self.iq("l_inc", kce, eav, ProjectionExpression="c.x, a, gs"),
                         [{"c": {"M": {"x": S("y")}}, "a": S("A"), "gs": N(5)}])
        self.assertEqual(self.iq("l_keys", kce, eav, ConsistentRead=True, Select="ALL_ATTRIBUTES"),
                         [self.ITEM])

    def test_scan_index_projection(self):
        got = [i for i in self.scan_index("g_keys") if i["gk"] == S("proj")]
        self.assertEqual(got, [self.pick("pk", "sk", "gk")])
        got = [i for i in self.scan_index("l_inc") if i["pk"] == S("proj")]
        self.assertEqual(got, [self.pick("pk", "sk", "ls", "a")])

    def test_gsi_projection_of_unprojected_attribute_refused(self):
        self.assertClientError(self.ddb.query, VALIDATION,
                               INVALID + "Global secondary index g_keys does not project [c]",
                               TableName=TABLE, IndexName="g_keys", KeyConditionExpression="gk = :g",
                               ExpressionAttributeValues={":g": S("proj")}, ProjectionExpression="c")
        # Keys of the table and of the index may be asked for.
        self.assertEqual(self.by_gk("g_keys", "proj", ProjectionExpression="sk, gk"),
                         [self.pick("sk", "gk")])

    def test_select_all_attributes_on_partial_gsi(self):
        for index in ("g_keys", "g_inc"):
            self.assertClientError(
                self.ddb.query, VALIDATION,
                INVALID + "Select type ALL_ATTRIBUTES is not supported for global secondary index "
                + index + " because its projection type is not ALL",
                TableName=TABLE, IndexName=index, KeyConditionExpression="gk = :g",
                ExpressionAttributeValues={":g": S("proj")}, Select="ALL_ATTRIBUTES")
        self.assertClientError(
            self.ddb.scan, VALIDATION,
            INVALID + "Select type ALL_ATTRIBUTES is not supported for global secondary index "
            "g_keys because its projection type is not ALL",
            TableName=TABLE, IndexName="g_keys", Select="ALL_ATTRIBUTES")


class Sparse(IndexBase):

    def test_only_items_with_the_key(self):
        items = self.scan_index("by_g", table=SPARSE_TABLE)
        self.assertEqual(sorted(i["pk"]["S"] for i in items), ["s00", "s05", "s10", "s15"])
        resp = self.ddb.scan(TableName=SPARSE_TABLE, IndexName="by_g", Select="COUNT")
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (4, 4))
        # Both the hash and the range key are needed.
        items = self.scan_index("by_g_r", table=SPARSE_TABLE)
        self.assertEqual(sorted(i["pk"]["S"] for i in items), ["s00", "s10"])
        items = self.iq("by_g_r", "g = :g", {":g": S("G")}, table=SPARSE_TABLE, ScanIndexForward=False)
        self.assertEqual(items, [{"pk": S("s10"), "g": S("G"), "r": N(10)},
                                 {"pk": S("s00"), "g": S("G"), "r": N(0)}])
        self.assertEqual(self.ddb.scan(TableName=SPARSE_TABLE)["Count"], 20)

    def test_lsi_is_sparse(self):
        self.put({"pk": S("lsp"), "sk": N(1), "ls": S("x")})
        self.put({"pk": S("lsp"), "sk": N(2)})
        self.put({"pk": S("lsp"), "sk": N(3), "ls": S("a")})
        items = self.iq("l_keys", "pk = :p", {":p": S("lsp")})
        self.assertEqual(items, [{"pk": S("lsp"), "sk": N(3), "ls": S("a")},
                                 {"pk": S("lsp"), "sk": N(1), "ls": S("x")}])
        resp = self.ddb.query(TableName=TABLE, IndexName="l_all", KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": S("lsp")}, Select="COUNT")
        self.assertEqual(resp["Count"], 2)


class Maintenance(IndexBase):

    def test_changing_the_key_moves_the_item(self):
        self.put({"pk": S("mv"), "sk": N(1), "gk": S("mv-1"), "gs": N(1), "a": S("old")})
        self.assertEqual(len(self.by_gk("g_all", "mv-1")), 1)
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("mv"), "sk": N(1)},
                             UpdateExpression="SET gk = :g, a = :a",
                             ExpressionAttributeValues={":g": S("mv-2"), ":a": S("new")})
        for index in ("g_all", "g_keys", "g_inc"):
            with self.subTest(index=index):
                self.assertEqual(self.by_gk(index, "mv-1"), [])
                got = self.by_gk(index, "mv-2")
                self.assertEqual(len(got), 1)
                self.assertEqual(got[0]["gk"], S("mv-2"))
        self.assertEqual(self.by_gk("g_inc", "mv-2")[0]["a"], S("new"))

    def test_non_key_update_is_visible(self):
        self.put({"pk": S("nk"), "sk": N(1), "gk": S("nk"), "gs": N(1), "a": S("1"), "z": S("1")})
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("nk"), "sk": N(1)},
                             UpdateExpression="SET a = :a, z = :z REMOVE b",
                             ExpressionAttributeValues={":a": S("2"), ":z": S("2")})
        self.assertEqual(self.by_gk("g_inc", "nk")[0]["a"], S("2"))
        self.assertEqual(self.by_gk("g_all", "nk")[0]["z"], S("2"))
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("nk"), "sk": N(1)},
                             UpdateExpression="REMOVE a")
        self.assertNotIn("a", self.by_gk("g_inc", "nk")[0])

    def test_range_key_change_reorders(self):
        for i, gs in enumerate([5, -1, 3]):
            self.put({"pk": S("ro%d" % i), "sk": N(0), "gk": S("ro"), "gs": N(gs)})
        order = lambda: [i["pk"]["S"] for i in self.by_gk("g_all", "ro")]
        self.assertEqual(order(), ["ro1", "ro2", "ro0"])
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("ro1"), "sk": N(0)},
                             UpdateExpression="SET gs = :v", ExpressionAttributeValues={":v": N(10)})
        self.assertEqual(order(), ["ro2", "ro0", "ro1"])
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("ro2"), "sk": N(0)},
                             UpdateExpression="REMOVE gs")
        self.assertEqual(order(), ["ro0", "ro1"])
        # The hash-only index still has all three.
        self.assertEqual(len(self.by_gk("g_keys", "ro")), 3)

    def test_removing_the_key_removes_the_entry(self):
        self.put({"pk": S("rm"), "sk": N(1), "gk": S("rm"), "gs": N(1), "ls": S("x")})
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("rm"), "sk": N(1)},
                             UpdateExpression="REMOVE gk, ls")
        for index in ("g_all", "g_keys", "g_inc"):
            self.assertEqual(self.by_gk(index, "rm"), [], index)
        self.assertEqual(self.iq("l_all", "pk = :p", {":p": S("rm")}), [])
        # Setting it again puts it back.
        self.ddb.update_item(TableName=TABLE, Key={"pk": S("rm"), "sk": N(1)},
                             UpdateExpression="SET gk = :g", ExpressionAttributeValues={":g": S("rm")})
        self.assertEqual(len(self.by_gk("g_keys", "rm")), 1)

    def test_delete_and_overwrite(self):
        self.put({"pk": S("del"), "sk": N(1), "gk": S("del"), "gs": N(1), "ls": S("x")})
        self.put({"pk": S("del"), "sk": N(2), "gk": S("del"), "gs": N(2), "ls": S("y")})
        self.ddb.delete_item(TableName=TABLE, Key={"pk": S("del"), "sk": N(1)})
        self.assertEqual([i["sk"] for i in self.by_gk("g_all", "del")], [N(2)])
        self.assertEqual([i["sk"] for i in self.iq("l_keys", "pk = :p", {":p": S("del")})], [N(2)])
        # Overwriting with an item without the index keys drops it from every index.
        self.put({"pk": S("del"), "sk": N(2), "other": S("o")})
        self.assertEqual(self.by_gk("g_all", "del"), [])
        self.assertEqual(self.by_gk("g_keys", "del"), [])
        self.assertEqual(self.iq("l_keys", "pk = :p", {":p": S("del")}), [])
        self.assertEqual(self.ddb.get_item(TableName=TABLE, Key={"pk": S("del"), "sk": N(2)})["Item"],
                         {"pk": S("del"), "sk": N(2), "other": S("o")})

    def test_failed_condition_leaves_index_alone(self):
        self.put({"pk": S("cf"), "sk": N(1), "gk": S("cf")})
        self.assertClientError(self.ddb.put_item, "ConditionalCheckFailedException",
                               TableName=TABLE, Item={"pk": S("cf"), "sk": N(1), "gk": S("cf-2")},
                               ConditionExpression="attribute_not_exists(pk)")
        self.assertEqual(len(self.by_gk("g_keys", "cf")), 1)
        self.assertEqual(self.by_gk("g_keys", "cf-2"), [])


class BatchAndTransactionMaintenance(IndexBase):
    """Every write path keeps the indexes exact (batches and transactions too)."""

    def test_batch_write_item(self):
        self.ddb.batch_write_item(RequestItems={TABLE: [
            {"PutRequest": {"Item": {"pk": S("bw%d" % i), "sk": N(0), "gk": S("bw"), "gs": N(i),
                                     "ls": S("x")}}}
            for i in range(5)]})
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_all", "bw")],
                         ["bw%d" % i for i in range(5)])
        self.ddb.batch_write_item(RequestItems={TABLE: [
            {"DeleteRequest": {"Key": {"pk": S("bw1"), "sk": N(0)}}},
            {"PutRequest": {"Item": {"pk": S("bw2"), "sk": N(0), "gk": S("bw-moved"), "gs": N(0)}}},
            {"PutRequest": {"Item": {"pk": S("bw3"), "sk": N(0)}}}]})
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_all", "bw")], ["bw0", "bw4"])
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_keys", "bw-moved")], ["bw2"])
        self.assertEqual(self.iq("l_keys", "pk = :p", {":p": S("bw1")}), [])
        self.assertEqual(self.iq("l_keys", "pk = :p", {":p": S("bw3")}), [])

    def test_batch_type_mismatch_writes_nothing(self):
        self.assertClientError(
            self.ddb.batch_write_item, VALIDATION,
            INVALID + "Type mismatch for Index Key tk Expected: S Actual: N IndexName: gtk",
            RequestItems={TYPE_TABLE: [
                {"PutRequest": {"Item": {"pk": S("bt"), "sk": S("1"), "tk": S("ok")}}},
                {"PutRequest": {"Item": {"pk": S("bt"), "sk": S("2"), "tk": N(1)}}}]})
        self.assertNotIn("Item", self.ddb.get_item(TableName=TYPE_TABLE,
                                                   Key={"pk": S("bt"), "sk": S("1")}))
        self.assertEqual(self.iq("gtk", "tk = :t", {":t": S("ok")}, table=TYPE_TABLE), [])

    def test_transact_write_items(self):
        self.put({"pk": S("tx1"), "sk": N(0), "gk": S("tx"), "gs": N(1)})
        self.put({"pk": S("tx2"), "sk": N(0), "gk": S("tx"), "gs": N(2)})
        self.ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {"pk": S("tx3"), "sk": N(0), "gk": S("tx"), "gs": N(3)}}},
            {"Update": {"TableName": TABLE, "Key": {"pk": S("tx1"), "sk": N(0)},
                        "UpdateExpression": "SET gk = :g", "ExpressionAttributeValues": {":g": S("tx-b")}}},
            {"Delete": {"TableName": TABLE, "Key": {"pk": S("tx2"), "sk": N(0)}}}])
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_all", "tx")], ["tx3"])
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_keys", "tx-b")], ["tx1"])
        # A cancelled transaction changes no index.
        self.assertClientError(self.ddb.transact_write_items, "TransactionCanceledException", TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {"pk": S("tx4"), "sk": N(0), "gk": S("tx"), "gs": N(4)}}},
            {"ConditionCheck": {"TableName": TABLE, "Key": {"pk": S("tx3"), "sk": N(0)},
                                "ConditionExpression": "attribute_not_exists(pk)"}}])
        self.assertEqual([i["pk"]["S"] for i in self.by_gk("g_all", "tx")], ["tx3"])


class QueryingIndexes(IndexBase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        for i in range(15):
            cls.ddb.put_item(TableName=TABLE, Item={
                "pk": S("same%02d" % (i % 5)), "sk": N(i), "gk": S("same"), "gs": N(7), "v": N(i)})
        for i, gs in enumerate(["-10", "-2.5", "0", "0.5", "3", "100", "-0.001"]):
            cls.ddb.put_item(TableName=TABLE, Item={
                "pk": S("ord"), "sk": N(i), "gk": S("ord"), "gs": N(gs), "gn": N(gs)})

    def test_equal_gsi_keys_all_returned(self):
        want = sorted((("same%02d" % (i % 5)), i) for i in range(15))
        for index in ("g_keys", "g_all", "g_inc"):
            for limit in (None, 1, 4):
                with self.subTest(index=index, limit=limit):
                    kw = {"Limit": limit} if limit else {}
                    got = self.by_gk(index, "same", **kw)
                    self.assertEqual(sorted((i["pk"]["S"], int(i["sk"]["N"])) for i in got), want)

    def test_last_evaluated_key_has_table_and_index_keys(self):
        resp = self.ddb.query(TableName=TABLE, IndexName="g_keys", KeyConditionExpression="gk = :g",
                              ExpressionAttributeValues={":g": S("same")}, Limit=2)
        self.assertEqual(set(resp["LastEvaluatedKey"]), {"pk", "sk", "gk"})
        last = resp["Items"][-1]
        self.assertEqual(resp["LastEvaluatedKey"], {"pk": last["pk"], "sk": last["sk"], "gk": last["gk"]})
        resp = self.ddb.query(TableName=TABLE, IndexName="g_all", KeyConditionExpression="gk = :g",
                              ExpressionAttributeValues={":g": S("same")}, Limit=2)
        self.assertEqual(set(resp["LastEvaluatedKey"]), {"pk", "sk", "gk", "gs"})
        resp = self.ddb.query(TableName=TABLE, IndexName="l_keys", KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": S("ord")}, Limit=1)
        self.assertEqual(resp["Count"], 0 if not resp["Items"] else 1)

    def test_numeric_range_on_gsi(self):
        got = [i["gs"]["N"] for i in self.by_gk("g_all", "ord")]
        self.assertEqual(got, ["-10", "-2.5", "-0.001", "0", "0.5", "3", "100"])
        got = [i["gs"]["N"] for i in self.iq("g_inc", "gk = :g AND gs BETWEEN :a AND :b",
                                             {":g": S("ord"), ":a": N("-2.5"), ":b": N("0.5")},
                                             ScanIndexForward=False)]
        self.assertEqual(got, ["0.5", "0", "-0.001", "-2.5"])
        got = [i["gs"]["N"] for i in self.iq("g_all", "gk = :g AND gs < :a",
                                             {":g": S("ord"), ":a": N("0")}, Limit=2)]
        self.assertEqual(got, ["-10", "-2.5", "-0.001"])

    def test_numeric_gsi_hash_key(self):
        self.put({"pk": S("num"), "sk": N(1), "gn": N("5.0")})
        self.put({"pk": S("num"), "sk": N(2), "gn": N("5")})
        self.put({"pk": S("num2"), "sk": N(0), "gn": N("50")})
        got = self.iq("g_num", "gn = :n", {":n": N("5.00")})
        self.assertEqual(got, [{"pk": S("num"), "sk": N(1), "gn": N(5)},
                               {"pk": S("num"), "sk": N(2), "gn": N(5)}])
        got = self.iq("g_num", "gn = :n AND sk > :s", {":n": N("-2.5"), ":s": N(0)})
        self.assertEqual(got, [{"pk": S("ord"), "sk": N(1), "gn": N("-2.5")}])

    def test_lsi_order_and_consistent_read(self):
        for i, ls in enumerate(["m", "b", "z", "a"]):
            self.put({"pk": S("lo"), "sk": N(i), "ls": S(ls), "v": N(i)})
        got = [i["ls"]["S"] for i in self.iq("l_all", "pk = :p", {":p": S("lo")}, ConsistentRead=True)]
        self.assertEqual(got, ["a", "b", "m", "z"])
        got = [i["sk"]["N"] for i in self.iq("l_keys", "pk = :p AND ls >= :l",
                                             {":p": S("lo"), ":l": S("c")}, ScanIndexForward=False,
                                             Limit=1)]
        self.assertEqual(got, ["2", "0"])

    def test_gsi_scan_and_parallel_scan(self):
        items = [i for i in self.scan_index("g_all") if i["gk"] == S("same")]
        self.assertEqual(len(items), 15)
        everything = sorted((i["pk"]["S"], i["sk"]["N"]) for i in self.scan_index("g_keys"))
        for total in (2, 3):
            segs = []
            for seg in range(total):
                segs += [(i["pk"]["S"], i["sk"]["N"]) for i in
                         self.scan_index("g_keys", Segment=seg, TotalSegments=total, Limit=5)]
            self.assertEqual(sorted(segs), everything)

    def test_filter_on_index_query(self):
        resp = self.ddb.query(TableName=TABLE, IndexName="g_all", KeyConditionExpression="gk = :g",
                              FilterExpression="v >= :v", Limit=6,
                              ExpressionAttributeValues={":g": S("same"), ":v": N(10)})
        self.assertEqual(resp["ScannedCount"], 6)
        self.assertTrue(all(int(i["v"]["N"]) >= 10 for i in resp["Items"]))

    def test_cli_query_on_index(self):
        rc, out, err = self.server.aws(
            "dynamodb", "query", "--table-name", TABLE, "--index-name", "g_all",
            "--key-condition-expression", "gk = :g AND gs > :z",
            "--expression-attribute-values", json.dumps({":g": S("ord"), ":z": N(0)}),
            "--page-size", "1")
        self.assertEqual(rc, 0, err)
        self.assertEqual([i["gs"]["N"] for i in out["Items"]], ["0.5", "3", "100"])


class IndexErrors(IndexBase):

    def test_consistent_read_on_gsi(self):
        msg = "Consistent reads are not supported on global secondary indexes"
        self.assertClientError(self.ddb.query, VALIDATION, msg, TableName=TABLE, IndexName="g_all",
                               KeyConditionExpression="gk = :g", ConsistentRead=True,
                               ExpressionAttributeValues={":g": S("x")})
        self.assertClientError(self.ddb.scan, VALIDATION, msg, TableName=TABLE, IndexName="g_keys",
                               ConsistentRead=True)

    def test_key_condition_must_use_index_keys(self):
        self.assertClientError(self.ddb.query, VALIDATION,
                               "Query condition missed key schema element: gk",
                               TableName=TABLE, IndexName="g_all", KeyConditionExpression="pk = :p",
                               ExpressionAttributeValues={":p": S("x")})
        self.assertClientError(self.ddb.query, VALIDATION,
                               INVALID + "Condition parameter type does not match schema type",
                               TableName=TABLE, IndexName="g_num", KeyConditionExpression="gn = :p",
                               ExpressionAttributeValues={":p": S("x")})

    def test_unknown_index(self):
        self.assertClientError(self.ddb.query, VALIDATION,
                               "The table does not have the specified index: g_nope",
                               TableName=TABLE, IndexName="g_nope", KeyConditionExpression="gk = :g",
                               ExpressionAttributeValues={":g": S("x")})

    def test_start_key_must_have_index_keys(self):
        self.assertClientError(
            self.ddb.query, VALIDATION,
            "The provided starting key is invalid: The provided key element does not match the schema",
            TableName=TABLE, IndexName="g_all", KeyConditionExpression="gk = :g",
            ExpressionAttributeValues={":g": S("same")},
            ExclusiveStartKey={"pk": S("a"), "sk": N(1)}, message_contains=None)

    def test_type_mismatch_on_write(self):
        cases = [("tk", N(1), "Expected: S Actual: N IndexName: gtk"),
                 ("tk", {"M": {}}, "Expected: S Actual: M IndexName: gtk"),
                 ("lr", S("1"), "Expected: N Actual: S IndexName: llr"),
                 ("tb", S("1"), "Expected: B Actual: S IndexName: gtb")]
        for name, value, tail in cases:
            with self.subTest(name=name, value=value):
                msg = INVALID + "Type mismatch for Index Key %s %s" % (name, tail)
                self.assertEqual(self.raw_error("PutItem", {
                    "TableName": TYPE_TABLE,
                    "Item": {"pk": S("tm"), "sk": S("1"), name: value}}), (VALIDATION, msg))
                self.put({"pk": S("tm2"), "sk": S("1")}, table=TYPE_TABLE)
                self.assertClientError(
                    self.ddb.update_item, VALIDATION, msg, TableName=TYPE_TABLE,
                    Key={"pk": S("tm2"), "sk": S("1")}, UpdateExpression="SET #a = :v",
                    ExpressionAttributeNames={"#a": name}, ExpressionAttributeValues={":v": value})
        self.assertNotIn("Item", self.ddb.get_item(TableName=TYPE_TABLE,
                                                   Key={"pk": S("tm"), "sk": S("1")}))
        self.assertEqual(self.ddb.get_item(TableName=TYPE_TABLE, Key={"pk": S("tm2"), "sk": S("1")})["Item"],
                         {"pk": S("tm2"), "sk": S("1")})

    def test_empty_index_key_value(self):
        self.assertClientError(
            self.ddb.put_item, VALIDATION,
            "One or more parameter values are not valid. A value specified for a secondary index key "
            "is not supported. The AttributeValue for a key attribute cannot contain an empty string "
            "value. IndexName: gtk, IndexKey: tk",
            TableName=TYPE_TABLE, Item={"pk": S("e"), "sk": S("1"), "tk": S("")})

    def test_select_all_projected_on_table(self):
        self.assertClientError(self.ddb.scan, VALIDATION, TableName=TABLE,
                               Select="ALL_PROJECTED_ATTRIBUTES",
                               message_contains="ALL_PROJECTED_ATTRIBUTES can be used only when "
                                                "Querying using an IndexName")

    def test_projection_with_all_projected(self):
        self.assertClientError(self.ddb.query, VALIDATION, TableName=TABLE, IndexName="g_all",
                               KeyConditionExpression="gk = :g", ExpressionAttributeValues={":g": S("x")},
                               Select="ALL_PROJECTED_ATTRIBUTES", ProjectionExpression="a",
                               message_contains="Cannot specify the ProjectionExpression when choosing "
                                                "to get ALL_PROJECTED_ATTRIBUTES")


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


class Capacity(IndexBase):

    def test_writes_count_index_units(self):
        r = self.ddb.put_item(TableName=CAP_TABLE, Item={"pk": S("c1"), "gk": S("g")},
                              ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        self.assertEqual(r["CapacityUnits"], 2.0)
        self.assertEqual(r["Table"]["CapacityUnits"], 1.0)
        self.assertEqual(r["GlobalSecondaryIndexes"]["cap_g"]["CapacityUnits"], 1.0)
        r = self.ddb.put_item(TableName=CAP_TABLE, Item={"pk": S("c2")},
                              ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
        self.assertEqual(r["CapacityUnits"], 1.0)
        # Changing the index key: a delete and a put in the index.
        r = self.ddb.update_item(TableName=CAP_TABLE, Key={"pk": S("c1")}, UpdateExpression="SET gk = :g",
                                 ExpressionAttributeValues={":g": S("h")},
                                 ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        self.assertEqual(r["GlobalSecondaryIndexes"]["cap_g"]["CapacityUnits"], 2.0)
        self.assertEqual(r["CapacityUnits"], 3.0)
        r = self.ddb.delete_item(TableName=CAP_TABLE, Key={"pk": S("c1")},
                                 ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        self.assertEqual(r["CapacityUnits"], 2.0)

    def test_index_reads(self):
        self.ddb.put_item(TableName=CAP_TABLE, Item={"pk": S("r1"), "gk": S("rg")})
        r = self.ddb.query(TableName=CAP_TABLE, IndexName="cap_g", KeyConditionExpression="gk = :g",
                           ExpressionAttributeValues={":g": S("rg")},
                           ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        self.assertEqual(r["TableName"], CAP_TABLE)
        self.assertEqual(r["CapacityUnits"], 0.5)
        self.assertEqual(r["GlobalSecondaryIndexes"]["cap_g"]["CapacityUnits"], 0.5)
        r = self.ddb.query(TableName=TABLE, IndexName="l_keys", KeyConditionExpression="pk = :p",
                           ExpressionAttributeValues={":p": S("nobody")}, ConsistentRead=True,
                           ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
        self.assertIn("l_keys", r["LocalSecondaryIndexes"])


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
            INVALID + "ProvisionedThroughput must be specified for index: gx1",
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
