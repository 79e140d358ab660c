"""Query: key conditions on S/N/B sort keys, order, paging, filters, select,
projections, the 1 MB page, legacy parameters, the AWS CLI and the errors.

Expected results are computed here from DynamoDB's documented ordering rules:
strings by their UTF-8 bytes, numbers numerically, binary bytewise (unsigned).
"""

import base64
import json
import unittest
from decimal import Decimal

from harness import ServerTestCase

VALIDATION = "ValidationException"

S_TABLE = "q-str"
N_TABLE = "q-num"
B_TABLE = "q-bin"
F_TABLE = "q-filter"
BIG_TABLE = "q-big"
P_TABLE = "q-proj"
H_TABLE = "q-hashonly"

# Sort keys in no particular order; the expected order is computed.
S_KEYS = ["b", "a", "Z", "A", "aa", "abc", "ab", "ba", "c", "z", "\u00e9", "\u4e2d",
          "\uff5e", "\U0001F600", "a b", "a-", "0", "9"]
N_KEYS = ["-1000", "-100.5", "-100", "-10", "-9.99", "-1", "-0.001", "0", "0.001",
          "0.5", "1", "1.5", "2", "9", "10", "10.01", "99", "100", "1000000",
          "12345678901234567890123456789012345678", "-0.0000000001"]
B_KEYS = [b"\x00", b"\x00\x00", b"\x00\x01", b"\x01", b"\x7f", b"\x7f\xff", b"\x80",
          b"\x80\x00", b"\xfe", b"\xff", b"\xff\xff", b"a", b"ab"]
BIG_COUNT = 25
BIG_VALUE = 100_000


def s_order(v):
    return v.encode("utf-8")


def n_order(v):
    return Decimal(v)


def b_order(v):
    return bytes(v)


def sk_of(item, typ):
    v = item["sk"][typ]
    if typ == "N":
        return str(Decimal(v))
    return v


class QueryBase(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        d = cls.ddb

        def table(name, sk_type, hash_type="S"):
            attrs = [{"AttributeName": "pk", "AttributeType": hash_type}]
            schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
            if sk_type:
                attrs.append({"AttributeName": "sk", "AttributeType": sk_type})
                schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
            d.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=attrs, KeySchema=schema)

        table(S_TABLE, "S")
        table(N_TABLE, "N")
        table(B_TABLE, "B")
        table(F_TABLE, "N")
        table(BIG_TABLE, "N")
        table(P_TABLE, "S")
        table(H_TABLE, None)
        for i, k in enumerate(S_KEYS):
            d.put_item(TableName=S_TABLE, Item={"pk": {"S": "p"}, "sk": {"S": k}, "i": {"N": str(i)}})
            # Neighbouring partitions must never leak into a query of "p".
            d.put_item(TableName=S_TABLE, Item={"pk": {"S": "o"}, "sk": {"S": k}})
            d.put_item(TableName=S_TABLE, Item={"pk": {"S": "q"}, "sk": {"S": k}})
            d.put_item(TableName=S_TABLE, Item={"pk": {"S": "p0"}, "sk": {"S": k}})
        for k in N_KEYS:
            d.put_item(TableName=N_TABLE, Item={"pk": {"S": "p"}, "sk": {"N": k}})
            d.put_item(TableName=N_TABLE, Item={"pk": {"S": "pp"}, "sk": {"N": k}})
        for k in B_KEYS:
            d.put_item(TableName=B_TABLE, Item={"pk": {"S": "p"}, "sk": {"B": k}})
            d.put_item(TableName=B_TABLE, Item={"pk": {"S": "o"}, "sk": {"B": k}})
        for i in range(1, 21):
            item = {"pk": {"S": "f"}, "sk": {"N": str(i)}, "n": {"N": str(i)},
                    "odd": {"BOOL": i % 2 == 1}}
            if i % 3 == 0:
                item["three"] = {"S": "yes"}
            d.put_item(TableName=F_TABLE, Item=item)
        blob = "x" * BIG_VALUE
        for i in range(BIG_COUNT):
            d.put_item(TableName=BIG_TABLE, Item={"pk": {"S": "big"}, "sk": {"N": str(i)},
                                                  "blob": {"S": blob}})
        d.put_item(TableName=P_TABLE, Item={
            "pk": {"S": "p"}, "sk": {"S": "1"}, "top": {"S": "t"}, "other": {"N": "7"},
            "m": {"M": {"a": {"S": "x"}, "b": {"M": {"c": {"N": "1"}, "d": {"N": "2"}}}}},
            "l": {"L": [{"S": "l0"}, {"S": "l1"}, {"M": {"x": {"S": "y"}, "z": {"S": "w"}}}]}})
        for i in range(3):
            d.put_item(TableName=H_TABLE, Item={"pk": {"S": "h%d" % i}, "v": {"N": str(i)}})

    # ---- helpers ----------------------------------------------------------

    def raw_error(self, op, payload):
        status, body = self.server.call(op, payload)
        self.assertEqual(status, 400, body)
        return body["__type"].split("#")[-1], body.get("message")

    def query_pages(self, **kw):
        """All pages of a query; checks LastEvaluatedKey on each page."""
        pages = []
        start = None
        for _ in range(500):
            args = dict(kw)
            if start is not None:
                args["ExclusiveStartKey"] = start
            resp = self.ddb.query(**args)
            pages.append(resp)
            start = resp.get("LastEvaluatedKey")
            if start is None:
                return pages
        self.fail("query did not finish within 500 pages")

    def query_all(self, **kw):
        items = []
        for page in self.query_pages(**kw):
            items.extend(page.get("Items", []))
        return items


class KeyConditionOrder(QueryBase):
    """Each sort key operator on S, N and B keys, both directions, paged and not."""

    CASES = {
        "S": (S_TABLE, S_KEYS, s_order, [
            ("sk = :a", {":a": "ab"}, lambda k, v: k == v[":a"]),
            ("sk < :a", {":a": "ab"}, lambda k, v: s_order(k) < s_order(v[":a"])),
            ("sk <= :a", {":a": "ab"}, lambda k, v: s_order(k) <= s_order(v[":a"])),
            ("sk > :a", {":a": "ab"}, lambda k, v: s_order(k) > s_order(v[":a"])),
            ("sk >= :a", {":a": "ab"}, lambda k, v: s_order(k) >= s_order(v[":a"])),
            ("sk > :a", {":a": "z"}, lambda k, v: s_order(k) > s_order(v[":a"])),
            ("sk BETWEEN :a AND :b", {":a": "a", ":b": "b"},
             lambda k, v: s_order(v[":a"]) <= s_order(k) <= s_order(v[":b"])),
            ("sk BETWEEN :a AND :b", {":a": "\u00e9", ":b": "\U0001F600"},
             lambda k, v: s_order(v[":a"]) <= s_order(k) <= s_order(v[":b"])),
            ("begins_with(sk, :a)", {":a": "a"}, lambda k, v: k.startswith(v[":a"])),
            ("begins_with(sk, :a)", {":a": "ab"}, lambda k, v: k.startswith(v[":a"])),
            ("begins_with(sk, :a)", {":a": "nothing"}, lambda k, v: k.startswith(v[":a"])),
        ]),
        "N": (N_TABLE, N_KEYS, n_order, [
            ("sk = :a", {":a": "-100.5"}, lambda k, v: Decimal(k) == Decimal(v[":a"])),
            ("sk = :a", {":a": "10.010"}, lambda k, v: Decimal(k) == Decimal(v[":a"])),
            ("sk < :a", {":a": "-1"}, lambda k, v: Decimal(k) < Decimal(v[":a"])),
            ("sk <= :a", {":a": "0"}, lambda k, v: Decimal(k) <= Decimal(v[":a"])),
            ("sk > :a", {":a": "9"}, lambda k, v: Decimal(k) > Decimal(v[":a"])),
            ("sk >= :a", {":a": "-0.5"}, lambda k, v: Decimal(k) >= Decimal(v[":a"])),
            ("sk BETWEEN :a AND :b", {":a": "-10", ":b": "10"},
             lambda k, v: Decimal(v[":a"]) <= Decimal(k) <= Decimal(v[":b"])),
            ("sk BETWEEN :a AND :b", {":a": "-9.995", ":b": "0.0005"},
             lambda k, v: Decimal(v[":a"]) <= Decimal(k) <= Decimal(v[":b"])),
            ("sk BETWEEN :a AND :b", {":a": "2", ":b": "2"},
             lambda k, v: Decimal(v[":a"]) <= Decimal(k) <= Decimal(v[":b"])),
        ]),
        "B": (B_TABLE, B_KEYS, b_order, [
            ("sk = :a", {":a": b"\x80"}, lambda k, v: k == v[":a"]),
            ("sk < :a", {":a": b"\x80"}, lambda k, v: k < v[":a"]),
            ("sk <= :a", {":a": b"\x7f\xff"}, lambda k, v: k <= v[":a"]),
            ("sk > :a", {":a": b"\x7f"}, lambda k, v: k > v[":a"]),
            ("sk >= :a", {":a": b"\x00\x01"}, lambda k, v: k >= v[":a"]),
            ("sk BETWEEN :a AND :b", {":a": b"\x01", ":b": b"\xfe"},
             lambda k, v: v[":a"] <= k <= v[":b"]),
            ("begins_with(sk, :a)", {":a": b"\x00"}, lambda k, v: k.startswith(v[":a"])),
            ("begins_with(sk, :a)", {":a": b"\x7f"}, lambda k, v: k.startswith(v[":a"])),
            ("begins_with(sk, :a)", {":a": b"\xff"}, lambda k, v: k.startswith(v[":a"])),
        ]),
    }

    def check_type(self, typ):
        table, keys, order, cases = self.CASES[typ]
        for expr, values, pred in cases:
            expected = sorted([k for k in keys if pred(k, values)], key=order)
            if typ == "N":
                expected = [str(Decimal(k)) for k in expected]
            eav = {":p": {"S": "p"}}
            eav.update({n: {typ: v} for n, v in values.items()})
            kce = "pk = :p AND " + expr
            for forward in (True, False):
                want = expected if forward else list(reversed(expected))
                with self.subTest(expr=expr, values=values, forward=forward):
                    resp = self.ddb.query(TableName=table, KeyConditionExpression=kce,
                                          ExpressionAttributeValues=eav, ScanIndexForward=forward)
                    got = [sk_of(i, typ) for i in resp["Items"]]
                    self.assertEqual(got, want)
                    self.assertEqual(resp["Count"], len(want))
                    self.assertEqual(resp["ScannedCount"], len(want))
                    self.assertNotIn("LastEvaluatedKey", resp)
                    for it in resp["Items"]:
                        self.assertEqual(it["pk"], {"S": "p"})
                    # Paged with a small Limit: the same list, in the same order.
                    pages = self.query_pages(TableName=table, KeyConditionExpression=kce,
                                             ExpressionAttributeValues=eav,
                                             ScanIndexForward=forward, Limit=3)
                    paged = []
                    for page in pages[:-1]:
                        self.assertEqual(page["Count"], 3)
                        self.assertEqual(page["LastEvaluatedKey"],
                                         {"pk": page["Items"][-1]["pk"],
                                          "sk": page["Items"][-1]["sk"]})
                    for page in pages:
                        paged.extend(sk_of(i, typ) for i in page["Items"])
                    self.assertEqual(paged, want)

    def test_string_sort_key(self):
        self.check_type("S")

    def test_number_sort_key(self):
        self.check_type("N")

    def test_binary_sort_key(self):
        self.check_type("B")

    def test_whole_partition_in_order(self):
        for typ, (table, keys, order, _) in self.CASES.items():
            expected = sorted(keys, key=order)
            if typ == "N":
                expected = [str(Decimal(k)) for k in expected]
            for forward in (True, False):
                with self.subTest(typ=typ, forward=forward):
                    got = [sk_of(i, typ) for i in self.query_all(
                        TableName=table, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": {"S": "p"}}, ScanIndexForward=forward)]
                    self.assertEqual(got, expected if forward else expected[::-1])

    def test_number_keys_come_back_normalized(self):
        resp = self.ddb.query(TableName=N_TABLE, KeyConditionExpression="pk = :p AND sk = :v",
                              ExpressionAttributeValues={":p": {"S": "p"}, ":v": {"N": "-100.50"}})
        self.assertEqual(resp["Items"], [{"pk": {"S": "p"}, "sk": {"N": "-100.5"}}])

    def test_value_on_the_left(self):
        # ":v < sk" is the same condition as "sk > :v".
        resp = self.ddb.query(TableName=N_TABLE, KeyConditionExpression="pk = :p AND :v < sk",
                              ExpressionAttributeValues={":p": {"S": "p"}, ":v": {"N": "99"}})
        got = [i["sk"]["N"] for i in resp["Items"]]
        self.assertEqual(got, ["100", "1000000", "12345678901234567890123456789012345678"])

    def test_names_and_parentheses(self):
        resp = self.ddb.query(TableName=N_TABLE,
                              KeyConditionExpression="(#h = :p) AND (#r BETWEEN :a AND :b)",
                              ExpressionAttributeNames={"#h": "pk", "#r": "sk"},
                              ExpressionAttributeValues={":p": {"S": "p"}, ":a": {"N": "1"},
                                                         ":b": {"N": "2"}})
        self.assertEqual([i["sk"]["N"] for i in resp["Items"]], ["1", "1.5", "2"])

    def test_unknown_partition_is_empty(self):
        resp = self.ddb.query(TableName=S_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": {"S": "nope"}})
        self.assertEqual((resp["Items"], resp["Count"], resp["ScannedCount"]), ([], 0, 0))
        self.assertNotIn("LastEvaluatedKey", resp)

    def test_hash_only_table(self):
        resp = self.ddb.query(TableName=H_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": {"S": "h1"}})
        self.assertEqual(resp["Items"], [{"pk": {"S": "h1"}, "v": {"N": "1"}}])
        resp = self.ddb.query(TableName=H_TABLE, KeyConditionExpression="pk = :p", Limit=1,
                              ExpressionAttributeValues={":p": {"S": "h1"}})
        self.assertEqual(resp["LastEvaluatedKey"], {"pk": {"S": "h1"}})
        resp = self.ddb.query(TableName=H_TABLE, KeyConditionExpression="pk = :p", Limit=1,
                              ExclusiveStartKey={"pk": {"S": "h1"}},
                              ExpressionAttributeValues={":p": {"S": "h1"}})
        self.assertEqual((resp["Items"], resp["Count"]), ([], 0))
        self.assertNotIn("LastEvaluatedKey", resp)

    def test_consistent_read_on_table(self):
        resp = self.ddb.query(TableName=S_TABLE, KeyConditionExpression="pk = :p AND sk = :s",
                              ConsistentRead=True,
                              ExpressionAttributeValues={":p": {"S": "p"}, ":s": {"S": "a"}})
        self.assertEqual(resp["Count"], 1)


class Paging(QueryBase):

    def test_limit_equal_to_result_size_returns_a_key(self):
        # DynamoDB stops at Limit and returns LastEvaluatedKey even when nothing
        # is left; the next page is empty and has none.
        eav = {":p": {"S": "f"}}
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=eav, Limit=20)
        self.assertEqual(resp["Count"], 20)
        self.assertEqual(resp["LastEvaluatedKey"], {"pk": {"S": "f"}, "sk": {"N": "20"}})
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=eav, Limit=20,
                              ExclusiveStartKey=resp["LastEvaluatedKey"])
        self.assertEqual((resp["Items"], resp["Count"], resp["ScannedCount"]), ([], 0, 0))
        self.assertNotIn("LastEvaluatedKey", resp)
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=eav, Limit=21)
        self.assertEqual(resp["Count"], 20)
        self.assertNotIn("LastEvaluatedKey", resp)

    def test_every_limit_both_directions(self):
        eav = {":p": {"S": "f"}}
        full = [str(i) for i in range(1, 21)]
        for limit in (1, 2, 3, 7, 19):
            for forward in (True, False):
                with self.subTest(limit=limit, forward=forward):
                    pages = self.query_pages(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                                             ExpressionAttributeValues=eav, Limit=limit,
                                             ScanIndexForward=forward)
                    got = [i["sk"]["N"] for p in pages for i in p["Items"]]
                    self.assertEqual(got, full if forward else full[::-1])
                    self.assertEqual(len(pages), -(-20 // limit) + (1 if 20 % limit == 0 else 0))

    def test_start_key_within_range_condition(self):
        # Resume in the middle of a BETWEEN, backwards.
        eav = {":p": {"S": "f"}, ":a": {"N": "5"}, ":b": {"N": "15"}}
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                              ExpressionAttributeValues=eav, ScanIndexForward=False,
                              ExclusiveStartKey={"pk": {"S": "f"}, "sk": {"N": "10"}})
        self.assertEqual([i["sk"]["N"] for i in resp["Items"]], ["9", "8", "7", "6", "5"])

    def test_start_key_need_not_exist(self):
        eav = {":p": {"S": "f"}}
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=eav, Limit=3,
                              ExclusiveStartKey={"pk": {"S": "f"}, "sk": {"N": "4.5"}})
        self.assertEqual([i["sk"]["N"] for i in resp["Items"]], ["5", "6", "7"])

    def test_one_megabyte_page(self):
        # Items of ~100 KB: a page stops after about 1 MB (about 10 items).
        for forward in (True, False):
            with self.subTest(forward=forward):
                pages = self.query_pages(TableName=BIG_TABLE, KeyConditionExpression="pk = :p",
                                         ExpressionAttributeValues={":p": {"S": "big"}},
                                         ScanIndexForward=forward)
                self.assertGreaterEqual(len(pages), 3)
                for p in pages[:-1]:
                    self.assertIn(p["Count"], (10, 11), [x["Count"] for x in pages])
                    self.assertEqual(p["Count"], p["ScannedCount"])
                    self.assertEqual(p["LastEvaluatedKey"]["sk"], p["Items"][-1]["sk"])
                got = [int(i["sk"]["N"]) for p in pages for i in p["Items"]]
                want = list(range(BIG_COUNT))
                self.assertEqual(got, want if forward else want[::-1])
                for p in pages:
                    for i in p["Items"]:
                        self.assertEqual(len(i["blob"]["S"]), BIG_VALUE)

    def test_one_megabyte_applies_before_the_filter(self):
        pages = self.query_pages(TableName=BIG_TABLE, KeyConditionExpression="pk = :p",
                                 FilterExpression="attribute_exists(nothing)",
                                 ExpressionAttributeValues={":p": {"S": "big"}})
        self.assertGreaterEqual(len(pages), 3)
        self.assertEqual(sum(p["Count"] for p in pages), 0)
        self.assertEqual(sum(p["ScannedCount"] for p in pages), BIG_COUNT)
        self.assertIn(pages[0]["ScannedCount"], (10, 11))
        self.assertIn("LastEvaluatedKey", pages[0])

    def test_one_megabyte_with_count(self):
        pages = self.query_pages(TableName=BIG_TABLE, KeyConditionExpression="pk = :p",
                                 Select="COUNT", ExpressionAttributeValues={":p": {"S": "big"}})
        self.assertGreaterEqual(len(pages), 3)
        self.assertEqual(sum(p["Count"] for p in pages), BIG_COUNT)

    def test_projection_does_not_change_the_page_size(self):
        # The 1 MB is of items read, not of attributes returned.
        pages = self.query_pages(TableName=BIG_TABLE, KeyConditionExpression="pk = :p",
                                 ProjectionExpression="sk",
                                 ExpressionAttributeValues={":p": {"S": "big"}})
        self.assertGreaterEqual(len(pages), 3)
        self.assertIn(pages[0]["Count"], (10, 11))
        self.assertEqual(pages[0]["Items"][0], {"sk": {"N": "0"}})


class FilterSelectProjection(QueryBase):

    EAV = {":p": {"S": "f"}}

    def test_filter_is_applied_after_limit(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              FilterExpression="odd = :t", Limit=5,
                              ExpressionAttributeValues={":p": {"S": "f"}, ":t": {"BOOL": True}})
        self.assertEqual([i["sk"]["N"] for i in resp["Items"]], ["1", "3", "5"])
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (3, 5))
        self.assertEqual(resp["LastEvaluatedKey"], {"pk": {"S": "f"}, "sk": {"N": "5"}})

    def test_filter_page_can_be_empty_but_continue(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              FilterExpression="n > :big", Limit=4,
                              ExpressionAttributeValues={":p": {"S": "f"}, ":big": {"N": "18"}})
        self.assertEqual((resp["Items"], resp["Count"], resp["ScannedCount"]), ([], 0, 4))
        self.assertEqual(resp["LastEvaluatedKey"]["sk"], {"N": "4"})

    def test_filter_over_all_pages(self):
        pages = self.query_pages(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                                 FilterExpression="attribute_exists(three) AND NOT odd = :t",
                                 ExpressionAttributeValues={":p": {"S": "f"}, ":t": {"BOOL": True}},
                                 Limit=4)
        self.assertEqual(len(pages), 6)  # 5 full pages, then an empty one
        self.assertEqual([i["sk"]["N"] for p in pages for i in p["Items"]], ["6", "12", "18"])
        self.assertEqual(sum(p["ScannedCount"] for p in pages), 20)
        self.assertEqual(sum(p["Count"] for p in pages), 3)

    def test_select_count(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              Select="COUNT", ExpressionAttributeValues=self.EAV)
        self.assertNotIn("Items", resp)
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (20, 20))
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p AND sk > :a",
                              Select="COUNT", FilterExpression="odd = :f",
                              ExpressionAttributeValues={":p": {"S": "f"}, ":a": {"N": "10"},
                                                         ":f": {"BOOL": False}})
        self.assertNotIn("Items", resp)
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (5, 10))
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              Select="COUNT", Limit=7, ExpressionAttributeValues=self.EAV)
        self.assertEqual(resp["Count"], 7)
        self.assertEqual(resp["LastEvaluatedKey"], {"pk": {"S": "f"}, "sk": {"N": "7"}})

    def test_select_all_attributes(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p AND sk = :s",
                              Select="ALL_ATTRIBUTES",
                              ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"N": "3"}})
        self.assertEqual(resp["Items"], [{"pk": {"S": "f"}, "sk": {"N": "3"}, "n": {"N": "3"},
                                          "odd": {"BOOL": True}, "three": {"S": "yes"}}])

    def test_nested_projection(self):
        resp = self.ddb.query(TableName=P_TABLE, KeyConditionExpression="pk = :p",
                              ProjectionExpression="m.b.c, l[2].x, l[0], #t, absent, m.nope",
                              ExpressionAttributeNames={"#t": "top"},
                              ExpressionAttributeValues={":p": {"S": "p"}})
        self.assertEqual(resp["Items"], [{
            "m": {"M": {"b": {"M": {"c": {"N": "1"}}}}},
            "l": {"L": [{"S": "l0"}, {"M": {"x": {"S": "y"}}}]},
            "top": {"S": "t"}}])
        resp = self.ddb.query(TableName=P_TABLE, KeyConditionExpression="pk = :p",
                              Select="SPECIFIC_ATTRIBUTES", ProjectionExpression="sk, #o",
                              ExpressionAttributeNames={"#o": "other"},
                              ExpressionAttributeValues={":p": {"S": "p"}})
        self.assertEqual(resp["Items"], [{"sk": {"S": "1"}, "other": {"N": "7"}}])

    def test_projection_with_filter_on_unprojected_attribute(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              FilterExpression="odd = :t AND n < :five", ProjectionExpression="n",
                              ExpressionAttributeValues={":p": {"S": "f"}, ":t": {"BOOL": True},
                                                         ":five": {"N": "5"}})
        self.assertEqual(resp["Items"], [{"n": {"N": "1"}}, {"n": {"N": "3"}}])
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (2, 20))

    def test_attributes_to_get(self):
        resp = self.ddb.query(TableName=P_TABLE, AttributesToGet=["top", "sk", "absent"],
                              KeyConditions={"pk": {"ComparisonOperator": "EQ",
                                                    "AttributeValueList": [{"S": "p"}]}})
        self.assertEqual(resp["Items"], [{"top": {"S": "t"}, "sk": {"S": "1"}}])
        resp = self.ddb.query(TableName=P_TABLE, AttributesToGet=["other"],
                              Select="SPECIFIC_ATTRIBUTES",
                              KeyConditions={"pk": {"ComparisonOperator": "EQ",
                                                    "AttributeValueList": [{"S": "p"}]}})
        self.assertEqual(resp["Items"], [{"other": {"N": "7"}}])

    def test_legacy_key_conditions(self):
        def kc(op, *vals):
            return {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]},
                    "sk": {"ComparisonOperator": op,
                           "AttributeValueList": [{"N": str(v)} for v in vals]}}
        cases = [("EQ", (4,), [4]), ("LT", (3,), [1, 2]), ("LE", (3,), [1, 2, 3]),
                 ("GT", (18,), [19, 20]), ("GE", (18,), [18, 19, 20]),
                 ("BETWEEN", (9, 11), [9, 10, 11])]
        for op, vals, want in cases:
            with self.subTest(op=op):
                resp = self.ddb.query(TableName=F_TABLE, KeyConditions=kc(op, *vals))
                self.assertEqual([int(i["sk"]["N"]) for i in resp["Items"]], want)
        resp = self.ddb.query(TableName=S_TABLE, KeyConditions={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]},
            "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "ab"}]}},
            ScanIndexForward=False)
        self.assertEqual([i["sk"]["S"] for i in resp["Items"]], ["abc", "ab"])
        # Hash key alone.
        resp = self.ddb.query(TableName=F_TABLE, KeyConditions={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]}},
            Limit=2)
        self.assertEqual([i["sk"]["N"] for i in resp["Items"]], ["1", "2"])

    def test_legacy_query_filter(self):
        key = {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]}}
        resp = self.ddb.query(TableName=F_TABLE, KeyConditions=key, QueryFilter={
            "n": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "15"}]},
            "odd": {"ComparisonOperator": "EQ", "AttributeValueList": [{"BOOL": True}]}},
            AttributesToGet=["n"])
        self.assertEqual(resp["Items"], [{"n": {"N": "17"}}, {"n": {"N": "19"}}])
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (2, 20))
        resp = self.ddb.query(TableName=F_TABLE, KeyConditions=key, ConditionalOperator="OR",
                              QueryFilter={
                                  "n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "3"}]},
                                  "three": {"ComparisonOperator": "NOT_NULL"}})
        self.assertEqual([int(i["sk"]["N"]) for i in resp["Items"]], [1, 2, 3, 6, 9, 12, 15, 18])

    def test_consumed_capacity(self):
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=self.EAV, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"]["TableName"], F_TABLE)
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 0.5)
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=self.EAV, ReturnConsumedCapacity="TOTAL",
                              ConsistentRead=True)
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 1.0)
        resp = self.ddb.query(TableName=F_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues=self.EAV, ReturnConsumedCapacity="NONE")
        self.assertNotIn("ConsumedCapacity", resp)
        # Ten ~100 KB items: about 1 MB read, ~245 units strongly consistent.
        resp = self.ddb.query(TableName=BIG_TABLE, KeyConditionExpression="pk = :p",
                              ExpressionAttributeValues={":p": {"S": "big"}}, Limit=10,
                              ReturnConsumedCapacity="TOTAL", ConsistentRead=True)
        self.assertGreaterEqual(resp["ConsumedCapacity"]["CapacityUnits"], 244)
        self.assertLessEqual(resp["ConsumedCapacity"]["CapacityUnits"], 250)


class Cli(QueryBase):

    def test_cli_auto_paginates(self):
        rc, out, err = self.server.aws(
            "dynamodb", "query", "--table-name", N_TABLE,
            "--key-condition-expression", "pk = :p AND sk BETWEEN :a AND :b",
            "--expression-attribute-values",
            json.dumps({":p": {"S": "p"}, ":a": {"N": "-100"}, ":b": {"N": "10"}}),
            "--page-size", "2")
        self.assertEqual(rc, 0, err)
        want = sorted([k for k in N_KEYS if Decimal(-100) <= Decimal(k) <= 10], key=Decimal)
        self.assertEqual([i["sk"]["N"] for i in out["Items"]], want)
        self.assertEqual(out["Count"], len(want))

    def test_cli_no_paginate_and_reverse(self):
        rc, out, err = self.server.aws(
            "dynamodb", "query", "--table-name", S_TABLE,
            "--key-condition-expression", "pk = :p AND begins_with(sk, :a)",
            "--expression-attribute-values", json.dumps({":p": {"S": "p"}, ":a": {"S": "a"}}),
            "--no-scan-index-forward", "--limit", "2", "--no-paginate")
        self.assertEqual(rc, 0, err)
        self.assertEqual([i["sk"]["S"] for i in out["Items"]], ["abc", "ab"])
        self.assertEqual(out["LastEvaluatedKey"], {"pk": {"S": "p"}, "sk": {"S": "ab"}})

    def test_cli_select_count(self):
        rc, out, err = self.server.aws(
            "dynamodb", "query", "--table-name", F_TABLE,
            "--key-condition-expression", "pk = :p", "--select", "COUNT",
            "--filter-expression", "odd = :t",
            "--expression-attribute-values", json.dumps({":p": {"S": "f"}, ":t": {"BOOL": True}}))
        self.assertEqual(rc, 0, err)
        self.assertEqual((out["Count"], out["ScannedCount"]), (10, 20))

    def test_cli_error(self):
        rc, out, err = self.server.aws(
            "dynamodb", "query", "--table-name", F_TABLE,
            "--key-condition-expression", "sk = :s",
            "--expression-attribute-values", json.dumps({":s": {"N": "1"}}))
        self.assertNotEqual(rc, 0)
        self.assertIn("ValidationException", err)
        self.assertIn("Query condition missed key schema element: pk", err)


class Errors(QueryBase):

    def q(self, message, code=VALIDATION, contains=False, **kw):
        args = dict(TableName=F_TABLE)
        args.update(kw)
        if contains:
            return self.assertClientError(self.ddb.query, code, message_contains=message, **args)
        return self.assertClientError(self.ddb.query, code, message, **args)

    def test_no_key_condition(self):
        self.assertEqual(self.raw_error("Query", {"TableName": F_TABLE}), (
            VALIDATION, "Either the KeyConditions or KeyConditionExpression parameter must be "
                        "specified in the request."))

    def test_missing_hash_key(self):
        self.q("Query condition missed key schema element: pk", KeyConditionExpression="sk = :s",
               ExpressionAttributeValues={":s": {"N": "1"}})
        self.q("Query condition missed key schema element: pk", KeyConditions={
            "sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})

    def test_or_in_key_condition(self):
        self.q("Invalid operator used in KeyConditionExpression: OR",
               KeyConditionExpression="pk = :p OR sk = :s",
               ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"N": "1"}})

    def test_not_in_key_condition(self):
        self.q("Invalid operator used in KeyConditionExpression: NOT",
               KeyConditionExpression="pk = :p AND NOT sk = :s",
               ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"N": "1"}})

    def test_hash_key_not_equality(self):
        self.q("Query key condition not supported", KeyConditionExpression="pk > :p",
               ExpressionAttributeValues={":p": {"S": "f"}})

    def test_filter_on_key_attribute(self):
        self.q("Filter Expression can only contain non-primary key attributes: Primary key attribute: sk",
               KeyConditionExpression="pk = :p", FilterExpression="sk > :s",
               ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"N": "1"}})
        self.q("Filter Expression can only contain non-primary key attributes: Primary key attribute: pk",
               KeyConditionExpression="pk = :p", FilterExpression="attribute_exists(pk)",
               ExpressionAttributeValues={":p": {"S": "f"}})

    def test_unknown_index(self):
        self.q("The table does not have the specified index: xyz", IndexName="xyz",
               KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "f"}})

    def test_condition_type_mismatch(self):
        msg = "One or more parameter values were invalid: Condition parameter type does not match schema type"
        self.q(msg, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"N": "1"}})
        self.q(msg, KeyConditionExpression="pk = :p AND sk > :s",
               ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"S": "1"}})
        self.q(msg, KeyConditions={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"B": b"f"}]}})

    def test_begins_with_on_number(self):
        self.q("Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
               "operator or function: begins_with, operand type: N",
               KeyConditionExpression="pk = :p AND begins_with(sk, :s)",
               ExpressionAttributeValues={":p": {"S": "f"}, ":s": {"N": "1"}})

    def test_between_bounds_reversed(self):
        self.q("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
               "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, "
               "upper bound operand: AttributeValue: {N:1}",
               KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
               ExpressionAttributeValues={":p": {"S": "f"}, ":a": {"N": "5"}, ":b": {"N": "1"}})

    def test_too_many_conditions(self):
        self.q("Conditions can be of length 1 or 2 only",
               KeyConditionExpression="pk = :p AND sk > :a AND sk < :b",
               ExpressionAttributeValues={":p": {"S": "f"}, ":a": {"N": "1"}, ":b": {"N": "5"}})
        self.q("Conditions can be of length 1 or 2 only", KeyConditions={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]},
            "sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]},
            "n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})

    def test_two_conditions_on_one_key(self):
        self.q("KeyConditionExpressions must only contain one condition per key", contains=True,
               KeyConditionExpression="pk = :p AND pk = :q",
               ExpressionAttributeValues={":p": {"S": "f"}, ":q": {"S": "g"}})

    def test_expression_and_legacy_projection(self):
        self.q("Can not use both expression and non-expression parameters in the same request: "
               "Non-expression parameters: {AttributesToGet} Expression parameters: {KeyConditionExpression}",
               KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "f"}},
               AttributesToGet=["n"])

    def test_both_key_parameters(self):
        self.q("Can not use both expression and non-expression parameters in the same request: "
               "Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}",
               KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "f"}},
               KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]}})

    def test_unused_expression_value(self):
        self.q("Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}",
               KeyConditionExpression="pk = :p",
               ExpressionAttributeValues={":p": {"S": "f"}, ":x": {"S": "y"}})

    def test_exclusive_start_key_not_matching_schema(self):
        # A Query words these apart (behaviours.md V13): a wrong count or a
        # missing attribute, then a wrong type.
        invalid = "The provided starting key is invalid"
        mismatch = "The provided key element does not match the schema"
        eav = {":p": {"S": "f"}}
        self.q(invalid, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               ExclusiveStartKey={"pk": {"S": "f"}})
        self.q(mismatch, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               ExclusiveStartKey={"pk": {"S": "f"}, "sk": {"S": "1"}})
        self.q(invalid, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               ExclusiveStartKey={"pk": {"S": "f"}, "sk": {"N": "1"}, "x": {"S": "1"}})

    def test_limit_out_of_range(self):
        self.assertEqual(self.raw_error("Query", {
            "TableName": F_TABLE, "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": "f"}}, "Limit": 0}), (
            VALIDATION, "1 validation error detected: Value at 'Limit' failed to satisfy "
                        "constraint: Member must have value greater than or equal to 1"))

    def test_select_rules(self):
        eav = {":p": {"S": "f"}}
        self.q("Must specify the AttributesToGet or ProjectionExpression when choosing to get "
               "SPECIFIC_ATTRIBUTES", contains=True, KeyConditionExpression="pk = :p",
               ExpressionAttributeValues=eav, Select="SPECIFIC_ATTRIBUTES")
        self.q("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
               contains=True, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               Select="ALL_PROJECTED_ATTRIBUTES")
        # Captured from DynamoDB: the COUNT case says "only the Count".
        self.q("Cannot specify the ProjectionExpression when choosing to get only the Count",
               contains=True, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               Select="COUNT", ProjectionExpression="n")
        self.q("Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES",
               contains=True, KeyConditionExpression="pk = :p", ExpressionAttributeValues=eav,
               Select="ALL_ATTRIBUTES", ProjectionExpression="n")
        self.q("Cannot specify the AttributesToGet when choosing to get only the Count",
               contains=True, KeyConditions={
                   "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]}},
               Select="COUNT", AttributesToGet=["n"])
        t, m = self.raw_error("Query", {"TableName": F_TABLE, "KeyConditionExpression": "pk = :p",
                                        "ExpressionAttributeValues": eav, "Select": "SOME"})
        self.assertEqual(t, VALIDATION)
        self.assertIn("Value 'SOME' at 'select' failed to satisfy constraint: Member must satisfy "
                      "enum value set", m)

    def test_unknown_table(self):
        self.assertClientError(self.ddb.query, "ResourceNotFoundException", TableName="nope-q",
                               KeyConditionExpression="pk = :p",
                               ExpressionAttributeValues={":p": {"S": "f"}})

    def test_query_filter_on_key(self):
        self.q("QueryFilter can only contain non-key attributes", contains=True, KeyConditions={
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "f"}]}},
            QueryFilter={"sk": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "1"}]}})


if __name__ == "__main__":
    unittest.main()
