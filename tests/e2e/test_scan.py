"""Scan: whole-table reads, order, paging, parallel segments, filters, select,
projections, the 1 MB page, legacy ScanFilter, the AWS CLI and the errors."""

import json
import unittest

from harness import ServerTestCase

VALIDATION = "ValidationException"

HASH_TABLE = "s-hash"
RANGE_TABLE = "s-range"
BIG_TABLE = "s-big"
EMPTY_TABLE = "s-empty"
N_ITEMS = 100
PARTS, PER_PART = 12, 7
BIG_COUNT = 24
BIG_VALUE = 100_000


def hkey(i):
    return "k%03d" % i


class ScanBase(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        d = cls.ddb
        for name, rng in ((HASH_TABLE, None), (RANGE_TABLE, "N"), (BIG_TABLE, None),
                          (EMPTY_TABLE, None)):
            attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
            schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
            if rng:
                attrs.append({"AttributeName": "sk", "AttributeType": rng})
                schema.append({"AttributeName": "sk", "KeyType": "RANGE"})
            d.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=attrs, KeySchema=schema)
        for i in range(N_ITEMS):  # inserted in key order
            d.put_item(TableName=HASH_TABLE, Item={
                "pk": {"S": hkey(i)}, "n": {"N": str(i)}, "odd": {"BOOL": i % 2 == 1},
                "m": {"M": {"a": {"N": str(i)}, "b": {"S": "b"}}}})
        for p in range(PARTS):
            for s in range(PER_PART):
                d.put_item(TableName=RANGE_TABLE, Item={
                    "pk": {"S": "part%02d" % p}, "sk": {"N": str(PER_PART - s)},  # inserted backwards
                    "v": {"N": str(p * 100 + s)}})
        blob = "y" * BIG_VALUE
        for i in range(BIG_COUNT):
            d.put_item(TableName=BIG_TABLE, Item={"pk": {"S": "b%02d" % i}, "blob": {"S": blob}})

    def raw_error(self, op, payload):
        status, body = self.server.call(op, payload)
        self.assertEqual(status, 400, body)
        return body["__type"].split("#")[-1], body.get("message")

    def scan_pages(self, **kw):
        pages, start = [], None
        for _ in range(1000):
            args = dict(kw)
            if start is not None:
                args["ExclusiveStartKey"] = start
            resp = self.ddb.scan(**args)
            pages.append(resp)
            start = resp.get("LastEvaluatedKey")
            if start is None:
                return pages
        self.fail("scan did not finish within 1000 pages")

    def scan_all(self, **kw):
        return [i for p in self.scan_pages(**kw) for i in p.get("Items", [])]


class WholeTable(ScanBase):

    def test_every_item_once(self):
        resp = self.ddb.scan(TableName=HASH_TABLE)
        self.assertNotIn("LastEvaluatedKey", resp)
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (N_ITEMS, N_ITEMS))
        keys = [i["pk"]["S"] for i in resp["Items"]]
        self.assertEqual(sorted(keys), [hkey(i) for i in range(N_ITEMS)])
        self.assertEqual(resp["Items"][keys.index("k042")],
                         {"pk": {"S": "k042"}, "n": {"N": "42"}, "odd": {"BOOL": False},
                          "m": {"M": {"a": {"N": "42"}, "b": {"S": "b"}}}})

    def test_order_is_not_insertion_order_and_is_stable(self):
        keys = [i["pk"]["S"] for i in self.ddb.scan(TableName=HASH_TABLE)["Items"]]
        self.assertNotEqual(keys, sorted(keys))
        self.assertNotEqual(keys, sorted(keys, reverse=True))
        again = [i["pk"]["S"] for i in self.ddb.scan(TableName=HASH_TABLE)["Items"]]
        self.assertEqual(keys, again)

    def test_partition_items_are_together_in_sort_order(self):
        items = self.scan_all(TableName=RANGE_TABLE)
        self.assertEqual(len(items), PARTS * PER_PART)
        seen = []
        for it in items:
            if not seen or seen[-1][0] != it["pk"]["S"]:
                seen.append((it["pk"]["S"], []))
            seen[-1][1].append(int(it["sk"]["N"]))
        self.assertEqual(len(seen), PARTS, "a partition's items are not contiguous")
        for pk, sks in seen:
            self.assertEqual(sks, list(range(1, PER_PART + 1)), pk)

    def test_empty_table(self):
        resp = self.ddb.scan(TableName=EMPTY_TABLE)
        self.assertEqual((resp["Items"], resp["Count"], resp["ScannedCount"]), ([], 0, 0))
        self.assertNotIn("LastEvaluatedKey", resp)

    def test_consistent_read(self):
        self.assertEqual(self.ddb.scan(TableName=HASH_TABLE, ConsistentRead=True)["Count"], N_ITEMS)

    def test_pagination_matches_unpaged_order(self):
        full = [i["pk"]["S"] for i in self.ddb.scan(TableName=HASH_TABLE)["Items"]]
        for limit in (1, 7, 10, 33, 99, 100):
            with self.subTest(limit=limit):
                pages = self.scan_pages(TableName=HASH_TABLE, Limit=limit)
                for p in pages[:-1]:
                    self.assertEqual(p["Count"], limit)
                    self.assertEqual(p["LastEvaluatedKey"], {"pk": p["Items"][-1]["pk"]})
                self.assertNotIn("LastEvaluatedKey", pages[-1])
                got = [i["pk"]["S"] for p in pages for i in p["Items"]]
                self.assertEqual(got, full)
                self.assertEqual(len(pages), -(-N_ITEMS // limit) + (1 if N_ITEMS % limit == 0 else 0))

    def test_pagination_range_table(self):
        full = self.ddb.scan(TableName=RANGE_TABLE)["Items"]
        pages = self.scan_pages(TableName=RANGE_TABLE, Limit=5)
        for p in pages[:-1]:
            self.assertEqual(p["LastEvaluatedKey"], {"pk": p["Items"][-1]["pk"], "sk": p["Items"][-1]["sk"]})
        self.assertEqual([i for p in pages for i in p["Items"]], full)

    def test_start_key_of_a_deleted_item(self):
        # Resuming from a key that no longer exists continues after it.
        full = [i["pk"]["S"] for i in self.ddb.scan(TableName=RANGE_TABLE)["Items"]
                if i["sk"]["N"] == "1"]
        resp = self.ddb.scan(TableName=RANGE_TABLE, Limit=1,
                             ExclusiveStartKey={"pk": {"S": full[3]}, "sk": {"N": "999"}})
        self.assertEqual(resp["Items"][0]["pk"]["S"], full[4])
        self.assertEqual(resp["Items"][0]["sk"]["N"], "1")

    def test_one_megabyte_page(self):
        pages = self.scan_pages(TableName=BIG_TABLE)
        self.assertGreaterEqual(len(pages), 3)
        for p in pages[:-1]:
            self.assertIn(p["Count"], (10, 11), [x["Count"] for x in pages])
            self.assertIn("LastEvaluatedKey", p)
        keys = [i["pk"]["S"] for p in pages for i in p["Items"]]
        self.assertEqual(sorted(keys), ["b%02d" % i for i in range(BIG_COUNT)])
        pages = self.scan_pages(TableName=BIG_TABLE, Select="COUNT")
        self.assertGreaterEqual(len(pages), 3)
        self.assertEqual(sum(p["Count"] for p in pages), BIG_COUNT)

    def test_consumed_capacity(self):
        resp = self.ddb.scan(TableName=HASH_TABLE, Limit=10, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"]["TableName"], HASH_TABLE)
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 0.5)
        resp = self.ddb.scan(TableName=HASH_TABLE, Limit=10, ReturnConsumedCapacity="TOTAL",
                             ConsistentRead=True)
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 1.0)


class FilterSelectProjection(ScanBase):

    def test_filter_after_limit(self):
        resp = self.ddb.scan(TableName=HASH_TABLE, Limit=10, FilterExpression="odd = :t",
                             ExpressionAttributeValues={":t": {"BOOL": True}})
        self.assertEqual(resp["ScannedCount"], 10)
        self.assertTrue(all(i["odd"]["BOOL"] for i in resp["Items"]))
        self.assertEqual(resp["Count"], len(resp["Items"]))
        self.assertIn("LastEvaluatedKey", resp)
        pages = self.scan_pages(TableName=HASH_TABLE, Limit=10, FilterExpression="odd = :t",
                                ExpressionAttributeValues={":t": {"BOOL": True}})
        self.assertEqual(sum(p["Count"] for p in pages), 50)
        self.assertEqual(sum(p["ScannedCount"] for p in pages), N_ITEMS)
        self.assertEqual(sorted(int(i["n"]["N"]) for p in pages for i in p["Items"]),
                         list(range(1, N_ITEMS, 2)))

    def test_filter_may_use_key_attributes(self):
        resp = self.ddb.scan(TableName=HASH_TABLE, FilterExpression="begins_with(pk, :p)",
                             ExpressionAttributeValues={":p": {"S": "k09"}})
        self.assertEqual(sorted(i["pk"]["S"] for i in resp["Items"]), [hkey(i) for i in range(90, 100)])
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (10, N_ITEMS))

    def test_select_count(self):
        resp = self.ddb.scan(TableName=HASH_TABLE, Select="COUNT")
        self.assertNotIn("Items", resp)
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (N_ITEMS, N_ITEMS))
        resp = self.ddb.scan(TableName=HASH_TABLE, Select="COUNT", FilterExpression="n < :v",
                             ExpressionAttributeValues={":v": {"N": "25"}})
        self.assertEqual((resp["Count"], resp["ScannedCount"]), (25, N_ITEMS))

    def test_projection(self):
        items = self.ddb.scan(TableName=HASH_TABLE, ProjectionExpression="m.a, #n",
                              ExpressionAttributeNames={"#n": "n"})["Items"]
        self.assertEqual(len(items), N_ITEMS)
        for it in items:
            self.assertEqual(it, {"m": {"M": {"a": it["n"]}}, "n": it["n"]})
        items = self.ddb.scan(TableName=HASH_TABLE, AttributesToGet=["odd"], Limit=3)["Items"]
        self.assertEqual([set(i) for i in items], [{"odd"}] * 3)

    def test_legacy_scan_filter(self):
        resp = self.ddb.scan(TableName=HASH_TABLE, ScanFilter={
            "n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "10"}, {"N": "19"}]},
            "odd": {"ComparisonOperator": "EQ", "AttributeValueList": [{"BOOL": False}]}})
        self.assertEqual(sorted(int(i["n"]["N"]) for i in resp["Items"]), [10, 12, 14, 16, 18])
        resp = self.ddb.scan(TableName=HASH_TABLE, ConditionalOperator="OR", ScanFilter={
            "n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "2"}]},
            "pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "k050"}]}})
        self.assertEqual(sorted(int(i["n"]["N"]) for i in resp["Items"]), [0, 1, 50])
        self.assertEqual(resp["ScannedCount"], N_ITEMS)


class ParallelScan(ScanBase):

    def segments(self, table, total, limit=None):
        out = []
        for seg in range(total):
            kw = dict(TableName=table, Segment=seg, TotalSegments=total)
            if limit:
                kw["Limit"] = limit
            out.append(self.scan_all(**kw))
        return out

    def check_cover(self, table, key, expected, spread=True):
        for total in (1, 2, 3, 7):
            for limit in (None, 4):
                with self.subTest(total=total, limit=limit):
                    segs = self.segments(table, total, limit)
                    allkeys = [key(i) for s in segs for i in s]
                    self.assertEqual(len(allkeys), len(set(allkeys)), "an item in two segments")
                    self.assertEqual(sorted(allkeys), sorted(expected))
                    if total == 1:
                        self.assertEqual(segs[0], self.ddb.scan(TableName=table)["Items"])
                    if spread and total == 7 and limit is None:
                        # 100 partitions hashed over 7 segments: none should be empty.
                        self.assertTrue(all(segs), [len(s) for s in segs])

    def test_hash_table(self):
        self.check_cover(HASH_TABLE, lambda i: i["pk"]["S"], [hkey(i) for i in range(N_ITEMS)])

    def test_range_table_keeps_partitions_whole(self):
        self.check_cover(RANGE_TABLE, lambda i: (i["pk"]["S"], i["sk"]["N"]),
                         [("part%02d" % p, str(s)) for p in range(PARTS) for s in range(1, PER_PART + 1)],
                         spread=False)  # only PARTS partitions: a segment may well be empty
        for seg_items in self.segments(RANGE_TABLE, 3):
            parts = {i["pk"]["S"] for i in seg_items}
            self.assertEqual(len(seg_items), len(parts) * PER_PART)

    def test_segments_with_filter_and_count(self):
        total = 0
        for seg in range(3):
            for p in self.scan_pages(TableName=HASH_TABLE, Segment=seg, TotalSegments=3,
                                     Select="COUNT", FilterExpression="odd = :f",
                                     ExpressionAttributeValues={":f": {"BOOL": False}}):
                total += p["Count"]
        self.assertEqual(total, 50)

    def test_many_segments(self):
        total = 1000
        found = []
        for seg in (0, 1, 499, 998, 999):
            found += self.scan_all(TableName=HASH_TABLE, Segment=seg, TotalSegments=total)
        self.assertLessEqual(len(found), N_ITEMS)
        self.assertEqual(len({i["pk"]["S"] for i in found}), len(found))


class Cli(ScanBase):

    def test_cli_scan_auto_paginates(self):
        rc, out, err = self.server.aws("dynamodb", "scan", "--table-name", HASH_TABLE,
                                       "--page-size", "9")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Count"], N_ITEMS)
        self.assertEqual(sorted(i["pk"]["S"] for i in out["Items"]), [hkey(i) for i in range(N_ITEMS)])

    def test_cli_scan_segment_filter_count(self):
        counts = 0
        for seg in range(2):
            rc, out, err = self.server.aws(
                "dynamodb", "scan", "--table-name", HASH_TABLE, "--segment", seg,
                "--total-segments", "2", "--select", "COUNT",
                "--filter-expression", "n >= :v",
                "--expression-attribute-values", json.dumps({":v": {"N": "90"}}))
            self.assertEqual(rc, 0, err)
            counts += out["Count"]
        self.assertEqual(counts, 10)

    def test_cli_no_paginate(self):
        rc, out, err = self.server.aws("dynamodb", "scan", "--table-name", RANGE_TABLE,
                                       "--limit", "3", "--no-paginate",
                                       "--projection-expression", "sk")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(out["Items"]), 3)
        self.assertEqual(set(out["LastEvaluatedKey"]), {"pk", "sk"})
        self.assertEqual([set(i) for i in out["Items"]], [{"sk"}] * 3)


class Errors(ScanBase):

    def s(self, message, code=VALIDATION, contains=False, **kw):
        args = dict(TableName=HASH_TABLE)
        args.update(kw)
        if contains:
            return self.assertClientError(self.ddb.scan, code, message_contains=message, **args)
        return self.assertClientError(self.ddb.scan, code, message, **args)

    def test_segment_without_total(self):
        self.s("The TotalSegments parameter is required but was not present in the request when "
               "Segment parameter is present", Segment=0)

    def test_total_without_segment(self):
        self.s("The Segment parameter is required but was not present in the request when "
               "parameter TotalSegments is present", TotalSegments=2)

    def test_segment_out_of_bounds(self):
        self.s("The Segment parameter is zero-based and must be less than parameter TotalSegments: "
               "Segment: 3 is not less than TotalSegments: 3", Segment=3, TotalSegments=3)
        self.s("The Segment parameter is zero-based and must be less than parameter TotalSegments: "
               "Segment: 5 is not less than TotalSegments: 1", Segment=5, TotalSegments=1)

    def test_segment_ranges(self):
        cases = [
            ({"Segment": 0, "TotalSegments": 0},
             "1 validation error detected: Value '0' at 'totalSegments' failed to satisfy "
             "constraint: Member must have value greater than or equal to 1"),
            ({"Segment": 0, "TotalSegments": 1000001},
             "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy "
             "constraint: Member must have value less than or equal to 1000000"),
            ({"Segment": -1, "TotalSegments": 2},
             "1 validation error detected: Value '-1' at 'segment' failed to satisfy "
             "constraint: Member must have value greater than or equal to 0"),
            ({"Limit": 0},
             "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
             "Member must have value greater than or equal to 1"),
        ]
        for extra, msg in cases:
            with self.subTest(extra=extra):
                body = {"TableName": HASH_TABLE}
                body.update(extra)
                self.assertEqual(self.raw_error("Scan", body), (VALIDATION, msg))

    def test_start_key_not_matching_schema(self):
        msg = "The provided starting key is invalid: The provided key element does not match the schema"
        self.s(msg, ExclusiveStartKey={"pk": {"N": "1"}})
        self.s(msg, ExclusiveStartKey={"other": {"S": "1"}})
        self.s(msg, TableName=RANGE_TABLE, ExclusiveStartKey={"pk": {"S": "part01"}})

    def test_start_key_from_another_segment(self):
        # A key taken from the items of one segment, given to the other one.
        items = self.ddb.scan(TableName=HASH_TABLE, Segment=0, TotalSegments=2)["Items"]
        own, other = (0, 1) if items else (1, 0)
        if not items:
            items = self.ddb.scan(TableName=HASH_TABLE, Segment=1, TotalSegments=2)["Items"]
        self.s("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
               "ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: %d" % other,
               Segment=other, TotalSegments=2, ExclusiveStartKey={"pk": items[0]["pk"]})

    def test_select_rules(self):
        self.s("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
               contains=True, Select="ALL_PROJECTED_ATTRIBUTES")
        self.s("Must specify the AttributesToGet or ProjectionExpression when choosing to get "
               "SPECIFIC_ATTRIBUTES", contains=True, Select="SPECIFIC_ATTRIBUTES")
        self.s("Cannot specify the ProjectionExpression when choosing to get only the Count",
               contains=True, Select="COUNT", ProjectionExpression="n")

    def test_unknown_index_and_table(self):
        self.s("The table does not have the specified index: nope", IndexName="nope")
        self.s(None, code="ResourceNotFoundException", TableName="no-such-scan-table")

    def test_expression_and_legacy_mixed(self):
        self.s("Can not use both expression and non-expression parameters in the same request: "
               "Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}",
               FilterExpression="n > :v", ExpressionAttributeValues={":v": {"N": "1"}},
               ScanFilter={"n": {"ComparisonOperator": "NOT_NULL"}})


if __name__ == "__main__":
    unittest.main()
