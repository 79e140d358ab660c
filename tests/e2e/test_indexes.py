"""Global and local secondary indexes on the data path: projections,
sparseness, maintenance on every write (batches and transactions too),
ordering, paging, capacity and the errors of index queries. The schema side
(DescribeTable, CreateTable validation, UpdateTable) is test_index_schema.py."""

import json
import unittest

from index_fixture import (CAP_TABLE, INVALID, SPARSE_TABLE, TABLE, TYPE_TABLE, VALIDATION, IndexBase, N,
                           S)


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
            "The provided starting key is invalid",  # a missing attribute (behaviours.md V13)
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


if __name__ == "__main__":
    unittest.main()
