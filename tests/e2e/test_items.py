"""PutItem, GetItem, DeleteItem: round trips, numbers, return values, validation."""

import base64
import json
import unittest

from harness import ServerTestCase

VALIDATION = "ValidationException"
HASH_TABLE = "items-hash"
RANGE_TABLE = "items-range"
BIN_TABLE = "items-bin"
NUM_TABLE = "items-num"


def deep_map(levels, leaf=None):
    v = leaf or {"S": "leaf"}
    for _ in range(levels):
        v = {"M": {"n": v}}
    return v


def deep_list(levels):
    v = {"S": "leaf"}
    for _ in range(levels):
        v = {"L": [v]}
    return v


class ItemsBase(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        d = cls.ddb
        d.create_table(TableName=HASH_TABLE, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        d.create_table(TableName=RANGE_TABLE, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                             {"AttributeName": "sk", "AttributeType": "N"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                  {"AttributeName": "sk", "KeyType": "RANGE"}])
        d.create_table(TableName=BIN_TABLE, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "B"},
                                             {"AttributeName": "r", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "h", "KeyType": "HASH"},
                                  {"AttributeName": "r", "KeyType": "RANGE"}])
        d.create_table(TableName=NUM_TABLE, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "n", "AttributeType": "N"}],
                       KeySchema=[{"AttributeName": "n", "KeyType": "HASH"}])

    def put(self, item, table=HASH_TABLE, **kw):
        return self.ddb.put_item(TableName=table, Item=item, **kw)

    def get(self, key, table=HASH_TABLE, **kw):
        return self.ddb.get_item(TableName=table, Key=key, **kw).get("Item")

    def raw_error(self, op, payload):
        """Sends payload raw; expects a 400 and returns (short type, message)."""
        status, body = self.server.call(op, payload)
        self.assertEqual(status, 400, body)
        return body["__type"].split("#")[-1], body.get("message")

    def assertPutRejected(self, item, message, table=HASH_TABLE, code=VALIDATION):
        """Raw PutItem (so boto3 cannot refuse it first) gets exactly this error."""
        t, m = self.raw_error("PutItem", {"TableName": table, "Item": item})
        self.assertEqual((t, m), (code, message))
        # Nothing was written and the server still answers.
        self.assertServing()


class RoundTrips(ItemsBase):

    def test_put_get_delete(self):
        item = {"pk": {"S": "rt-1"}, "v": {"S": "hello"}}
        self.assertEqual(self.put(item)["ResponseMetadata"]["HTTPStatusCode"], 200)
        self.assertEqual(self.get({"pk": {"S": "rt-1"}}), item)
        self.ddb.delete_item(TableName=HASH_TABLE, Key={"pk": {"S": "rt-1"}})
        self.assertIsNone(self.get({"pk": {"S": "rt-1"}}))

    def test_put_replaces_whole_item(self):
        self.put({"pk": {"S": "rep"}, "a": {"S": "1"}, "b": {"S": "2"}})
        self.put({"pk": {"S": "rep"}, "c": {"S": "3"}})
        self.assertEqual(self.get({"pk": {"S": "rep"}}), {"pk": {"S": "rep"}, "c": {"S": "3"}})

    def test_get_missing_item_has_no_item_key(self):
        resp = self.ddb.get_item(TableName=HASH_TABLE, Key={"pk": {"S": "never-written"}})
        self.assertNotIn("Item", resp)
        status, body = self.server.call("GetItem", {"TableName": HASH_TABLE,
                                                    "Key": {"pk": {"S": "never-written"}}})
        self.assertEqual((status, body), (200, {}))

    def test_delete_missing_item_is_fine(self):
        status, body = self.server.call("DeleteItem", {"TableName": HASH_TABLE,
                                                       "Key": {"pk": {"S": "nothing-here"}}})
        self.assertEqual((status, body), (200, {}))

    def test_all_types_round_trip(self):
        item = {
            "pk": {"S": "all-types"},
            "s": {"S": "text with unicode: \u00e9\u4e2d\U0001F600"},
            "n": {"N": "-12.5"},
            "b": {"B": b"\x00\x01\x02\xff"},
            "ss": {"SS": ["a", "b", "c"]},
            "ns": {"NS": ["1", "2.5", "-3"]},
            "bs": {"BS": [b"\x01", b"\x02\x03"]},
            "m": {"M": {"inner": {"S": "x"}, "num": {"N": "7"},
                        "deeper": {"M": {"l": {"L": [{"BOOL": False}, {"NULL": True}]}}}}},
            "l": {"L": [{"S": "one"}, {"N": "2"}, {"B": b"3"}, {"L": []}, {"M": {}},
                        {"SS": ["z"]}]},
            "null": {"NULL": True},
            "t": {"BOOL": True},
            "f": {"BOOL": False},
            "empty_s": {"S": ""},
            "empty_b": {"B": b""},
        }
        self.put(item)
        got = self.get({"pk": {"S": "all-types"}})
        # Sets are unordered.
        for k in ("ss", "ns", "bs"):
            t = list(item[k])[0]
            self.assertCountEqual(got[k][t], item[k][t], k)
            got.pop(k)
        expected = {k: v for k, v in item.items() if k not in ("ss", "ns", "bs")}
        self.assertEqual(got, expected)

    def test_raw_json_binary_is_base64(self):
        status, _ = self.server.call("PutItem", {"TableName": HASH_TABLE, "Item": {
            "pk": {"S": "raw-bin"}, "b": {"B": "AAEC/w=="}, "bs": {"BS": ["AQ==", "AgM="]}}})
        self.assertEqual(status, 200)
        status, body = self.server.call("GetItem", {"TableName": HASH_TABLE,
                                                    "Key": {"pk": {"S": "raw-bin"}}})
        self.assertEqual(status, 200)
        self.assertEqual(body["Item"]["b"], {"B": "AAEC/w=="})
        self.assertCountEqual(body["Item"]["bs"]["BS"], ["AQ==", "AgM="])

    def test_hash_and_range(self):
        for sk in ("1", "2", "10"):
            self.put({"pk": {"S": "p"}, "sk": {"N": sk}, "v": {"S": "v" + sk}}, table=RANGE_TABLE)
        self.assertEqual(self.get({"pk": {"S": "p"}, "sk": {"N": "2"}}, table=RANGE_TABLE)["v"],
                         {"S": "v2"})
        self.assertEqual(self.get({"pk": {"S": "p"}, "sk": {"N": "10.0"}}, table=RANGE_TABLE)["v"],
                         {"S": "v10"})
        self.ddb.delete_item(TableName=RANGE_TABLE, Key={"pk": {"S": "p"}, "sk": {"N": "1"}})
        self.assertIsNone(self.get({"pk": {"S": "p"}, "sk": {"N": "1"}}, table=RANGE_TABLE))
        self.assertIsNotNone(self.get({"pk": {"S": "p"}, "sk": {"N": "2"}}, table=RANGE_TABLE))

    def test_binary_keys(self):
        self.put({"h": {"B": b"\x00\xff"}, "r": {"S": "x"}, "v": {"N": "1"}}, table=BIN_TABLE)
        self.assertEqual(self.get({"h": {"B": b"\x00\xff"}, "r": {"S": "x"}}, table=BIN_TABLE)["v"],
                         {"N": "1"})
        self.assertIsNone(self.get({"h": {"B": b"\x00\xfe"}, "r": {"S": "x"}}, table=BIN_TABLE))

    def test_consistent_read(self):
        self.put({"pk": {"S": "cr"}})
        self.assertIsNotNone(self.get({"pk": {"S": "cr"}}, ConsistentRead=True))


class Numbers(ItemsBase):

    def test_canonical_form(self):
        cases = {"1.50": "1.5", "1e3": "1000", "1E3": "1000", "0.000": "0", "-0": "0",
                 "+5": "5", "007": "7", "1.0e-2": "0.01", "-1.2300e-5": "-0.0000123",
                 "12345678901234567890123456789012345678": "12345678901234567890123456789012345678",
                 "1E+125": "1" + "0" * 125, "1e-130": "0." + "0" * 129 + "1"}
        item = {"pk": {"S": "numbers"}}
        for i, src in enumerate(cases):
            item["n%d" % i] = {"N": src}
        self.put(item)
        got = self.get({"pk": {"S": "numbers"}})
        for i, (src, want) in enumerate(cases.items()):
            with self.subTest(src=src):
                self.assertEqual(got["n%d" % i], {"N": want})

    def test_number_set_canonical(self):
        self.put({"pk": {"S": "ns-canon"}, "ns": {"NS": ["1.50", "2e1", "-0.5", "100"]}})
        got = self.get({"pk": {"S": "ns-canon"}})
        self.assertCountEqual(got["ns"]["NS"], ["1.5", "20", "-0.5", "100"])

    def test_equal_numbers_are_the_same_key(self):
        self.put({"n": {"N": "1e3"}, "v": {"S": "first"}}, table=NUM_TABLE)
        self.put({"n": {"N": "1000.00"}, "v": {"S": "second"}}, table=NUM_TABLE)
        got = self.get({"n": {"N": "1000"}}, table=NUM_TABLE)
        self.assertEqual(got, {"n": {"N": "1000"}, "v": {"S": "second"}})
        self.assertEqual(self.ddb.describe_table(TableName=NUM_TABLE)["Table"]["ItemCount"], 1)

    def test_invalid_numbers(self):
        cases = [
            ("abc", "The parameter cannot be converted to a numeric value: abc"),
            ("1e126", "Number overflow. Attempting to store a number with magnitude larger than "
                      "supported range"),
            ("1e-131", "Number underflow. Attempting to store a number with magnitude smaller "
                       "than supported range"),
            ("1" * 39, "Attempting to store more than 38 significant digits in a Number"),
        ]
        for src, msg in cases:
            with self.subTest(src=src):
                self.assertPutRejected({"pk": {"S": "bad-num"}, "n": {"N": src}}, msg)

    def test_empty_number(self):
        # DynamoDB's message has nothing after "value" for an empty string.
        self.assertPutRejected({"pk": {"S": "bad-num"}, "n": {"N": ""}},
                               "The parameter cannot be converted to a numeric value")

    def test_invalid_number_in_set(self):
        self.assertPutRejected({"pk": {"S": "bad-num"}, "n": {"NS": ["1", "x"]}},
                               "The parameter cannot be converted to a numeric value: x")


class ReturnValuesAndCapacity(ItemsBase):

    def test_put_all_old(self):
        resp = self.put({"pk": {"S": "rv"}, "a": {"N": "1"}}, ReturnValues="ALL_OLD")
        self.assertNotIn("Attributes", resp)
        resp = self.put({"pk": {"S": "rv"}, "a": {"N": "2"}}, ReturnValues="ALL_OLD")
        self.assertEqual(resp["Attributes"], {"pk": {"S": "rv"}, "a": {"N": "1"}})
        resp = self.put({"pk": {"S": "rv"}, "a": {"N": "3"}}, ReturnValues="NONE")
        self.assertNotIn("Attributes", resp)

    def test_delete_all_old(self):
        self.put({"pk": {"S": "rv-del"}, "x": {"SS": ["q"]}})
        resp = self.ddb.delete_item(TableName=HASH_TABLE, Key={"pk": {"S": "rv-del"}},
                                    ReturnValues="ALL_OLD")
        self.assertEqual(resp["Attributes"], {"pk": {"S": "rv-del"}, "x": {"SS": ["q"]}})
        resp = self.ddb.delete_item(TableName=HASH_TABLE, Key={"pk": {"S": "rv-del"}},
                                    ReturnValues="ALL_OLD")
        self.assertNotIn("Attributes", resp)

    def test_put_rejects_other_return_values(self):
        for rv in ("ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"):
            with self.subTest(rv=rv):
                self.assertClientError(self.ddb.put_item, VALIDATION,
                                       message="ReturnValues can only be ALL_OLD or NONE",
                                       TableName=HASH_TABLE, Item={"pk": {"S": "x"}},
                                       ReturnValues=rv)
                self.assertClientError(self.ddb.delete_item, VALIDATION,
                                       message="ReturnValues can only be ALL_OLD or NONE",
                                       TableName=HASH_TABLE, Key={"pk": {"S": "x"}},
                                       ReturnValues=rv)

    def test_return_values_not_in_enum(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE, "Item": {"pk": {"S": "x"}},
                                          "ReturnValues": "SOME"})
        self.assertEqual(t, VALIDATION)
        self.assertTrue(m.startswith("1 validation error detected: Value 'SOME' at 'returnValues' "
                                     "failed to satisfy constraint: Member must satisfy enum "
                                     "value set: ["), m)

    def test_consumed_capacity_total(self):
        resp = self.put({"pk": {"S": "cap"}, "v": {"S": "small"}}, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"], {"TableName": HASH_TABLE, "CapacityUnits": 1.0})
        resp = self.ddb.get_item(TableName=HASH_TABLE, Key={"pk": {"S": "cap"}},
                                 ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"], {"TableName": HASH_TABLE, "CapacityUnits": 0.5})
        resp = self.ddb.get_item(TableName=HASH_TABLE, Key={"pk": {"S": "cap"}},
                                 ReturnConsumedCapacity="TOTAL", ConsistentRead=True)
        self.assertEqual(resp["ConsumedCapacity"], {"TableName": HASH_TABLE, "CapacityUnits": 1.0})
        resp = self.ddb.delete_item(TableName=HASH_TABLE, Key={"pk": {"S": "cap"}},
                                    ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"], {"TableName": HASH_TABLE, "CapacityUnits": 1.0})

    def test_consumed_capacity_grows_with_item_size(self):
        # 1 WCU per started KB written; 0.5 RCU per started 4 KB read eventually consistent.
        item = {"pk": {"S": "cap-big"}, "v": {"S": "x" * (5 * 1024)}}
        resp = self.put(item, ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 6.0)
        resp = self.ddb.get_item(TableName=HASH_TABLE, Key={"pk": {"S": "cap-big"}},
                                 ReturnConsumedCapacity="TOTAL")
        self.assertEqual(resp["ConsumedCapacity"]["CapacityUnits"], 1.0)

    def test_consumed_capacity_none_omits_it(self):
        resp = self.put({"pk": {"S": "cap-none"}}, ReturnConsumedCapacity="NONE")
        self.assertNotIn("ConsumedCapacity", resp)


class Validation(ItemsBase):

    def test_missing_key(self):
        self.assertPutRejected({"other": {"S": "x"}},
                               "One or more parameter values were invalid: Missing the key pk in "
                               "the item")

    def test_missing_range_key(self):
        self.assertPutRejected({"pk": {"S": "x"}},
                               "One or more parameter values were invalid: Missing the key sk in "
                               "the item", table=RANGE_TABLE)

    def test_key_type_mismatch(self):
        self.assertPutRejected({"pk": {"N": "1"}},
                               "One or more parameter values were invalid: Type mismatch for key "
                               "pk expected: S actual: N")
        self.assertPutRejected({"pk": {"S": "x"}, "sk": {"S": "1"}},
                               "One or more parameter values were invalid: Type mismatch for key "
                               "sk expected: N actual: S", table=RANGE_TABLE)
        self.assertPutRejected({"pk": {"SS": ["x"]}},
                               "One or more parameter values were invalid: Type mismatch for key "
                               "pk expected: S actual: SS")

    def test_empty_string_key(self):
        self.assertPutRejected({"pk": {"S": ""}},
                               "One or more parameter values are not valid. The AttributeValue "
                               "for a key attribute cannot contain an empty string value. Key: pk")
        # A Key parameter is worded as "were invalid:" (behaviours.md V15).
        t, m = self.raw_error("GetItem", {"TableName": HASH_TABLE, "Key": {"pk": {"S": ""}}})
        self.assertEqual(m, "One or more parameter values were invalid: The AttributeValue for a "
                            "key attribute cannot contain an empty string value. Key: pk")
        t, m = self.raw_error("DeleteItem", {"TableName": HASH_TABLE, "Key": {"pk": {"S": ""}}})
        self.assertEqual(m, "One or more parameter values were invalid: The AttributeValue for a "
                            "key attribute cannot contain an empty string value. Key: pk")

    def test_empty_binary_key(self):
        self.assertPutRejected({"h": {"B": ""}, "r": {"S": "x"}},
                               "One or more parameter values are not valid. The AttributeValue "
                               "for a key attribute cannot contain an empty binary value. Key: h",
                               table=BIN_TABLE)

    def test_empty_sets(self):
        self.assertPutRejected({"pk": {"S": "x"}, "s": {"SS": []}},
                               "One or more parameter values were invalid: An string set  may not "
                               "be empty")
        self.assertPutRejected({"pk": {"S": "x"}, "s": {"NS": []}},
                               "One or more parameter values were invalid: An number set  may not "
                               "be empty")
        self.assertPutRejected({"pk": {"S": "x"}, "s": {"BS": []}},
                               "One or more parameter values were invalid: Binary sets should not "
                               "be empty")

    def test_empty_set_nested(self):
        self.assertPutRejected({"pk": {"S": "x"}, "m": {"M": {"s": {"SS": []}}}},
                               "One or more parameter values were invalid: An string set  may not "
                               "be empty")

    def test_duplicate_string_set_members(self):
        self.assertPutRejected({"pk": {"S": "x"}, "s": {"SS": ["a", "b", "a"]}},
                               "One or more parameter values were invalid: Input collection "
                               "[a, b, a] contains duplicates.")

    def test_duplicate_number_set_members(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE, "Item": {
            "pk": {"S": "x"}, "s": {"NS": ["1", "1.0"]}}})
        self.assertEqual(t, VALIDATION)
        self.assertIn("contains duplicates", m)

    def test_duplicate_binary_set_members(self):
        # DynamoDB echoes the base64 text and names the type, without a space before "of".
        self.assertPutRejected({"pk": {"S": "x"}, "s": {"BS": ["Yg==", "Yg=="]}},
                               "One or more parameter values were invalid: Input collection "
                               "[Yg==, Yg==]of type BS contains duplicates.")

    def test_null_false(self):
        self.assertPutRejected({"pk": {"S": "x"}, "n": {"NULL": False}},
                               "One or more parameter values were invalid: Null attribute value "
                               "types must have the value of true")

    def test_attribute_value_with_no_type_or_two_types(self):
        self.assertPutRejected({"pk": {"S": "x"}, "v": {}},
                               "Supplied AttributeValue is empty, must contain exactly one of the "
                               "supported datatypes")
        self.assertPutRejected({"pk": {"S": "x"}, "v": {"S": "a", "N": "1"}},
                               "Supplied AttributeValue has more than one datatypes set, must "
                               "contain exactly one of the supported datatypes")

    def test_hash_key_size(self):
        self.put({"pk": {"S": "k" * 2048}})
        self.assertIsNotNone(self.get({"pk": {"S": "k" * 2048}}))
        msg = ("One or more parameter values were invalid: Size of hashkey has exceeded the "
               "maximum size limit of2048 bytes")
        self.assertPutRejected({"pk": {"S": "k" * 2049}}, msg)
        # Bytes, not characters: 1025 two-byte characters are 2050 bytes.
        self.assertPutRejected({"pk": {"S": "\u00e9" * 1025}}, msg)
        t, m = self.raw_error("GetItem", {"TableName": HASH_TABLE, "Key": {"pk": {"S": "k" * 2049}}})
        self.assertEqual(m, msg)

    def test_range_key_size(self):
        msg = ("One or more parameter values were invalid: Aggregated size of all range keys has "
               "exceeded the size limit of 1024 bytes")
        self.put({"h": {"B": b"h"}, "r": {"S": "r" * 1024}}, table=BIN_TABLE)
        self.assertPutRejected({"h": {"B": "aA=="}, "r": {"S": "r" * 1025}}, msg, table=BIN_TABLE)

    def test_item_size_limit(self):
        # DynamoDB's size: UTF-8 bytes of every attribute name plus its value.
        # "pk"+"big" = 3, "big" = 3: 400 KB = 409600 bytes in all.
        limit = 400 * 1024
        fits = limit - len("pk") - len("big") - len("big")
        self.put({"pk": {"S": "big"}, "big": {"S": "x" * fits}})
        self.assertIsNotNone(self.get({"pk": {"S": "big"}}))
        self.assertPutRejected({"pk": {"S": "big"}, "big": {"S": "x" * (fits + 1)}},
                               "Item size has exceeded the maximum allowed size")

    def test_item_size_counts_attribute_names(self):
        limit = 400 * 1024
        name = "n" * 1000
        fits = limit - len("pk") - len("bg2") - len(name)
        self.put({"pk": {"S": "bg2"}, name: {"S": "x" * fits}})
        self.assertPutRejected({"pk": {"S": "bg2"}, name: {"S": "x" * (fits + 1)}},
                               "Item size has exceeded the maximum allowed size")

    def test_nesting_limit(self):
        # 31 wraps (leaf at level 32) is the deepest DynamoDB accepts.
        self.put({"pk": {"S": "deep-ok"}, "d": deep_map(31)})
        self.assertEqual(self.get({"pk": {"S": "deep-ok"}})["d"], deep_map(31))
        self.put({"pk": {"S": "deep-ok-l"}, "d": deep_list(31)})
        self.assertEqual(self.get({"pk": {"S": "deep-ok-l"}})["d"], deep_list(31))

    def test_nesting_too_deep(self):
        msg = ("1 validation error detected: Nesting Levels have exceeded supported limits: "
               "Attributes in the item have nested levels beyond supported limit")
        self.assertPutRejected({"pk": {"S": "deep"}, "d": deep_map(32)}, msg)
        self.assertPutRejected({"pk": {"S": "deep"}, "d": deep_list(32)}, msg)

    def test_nesting_far_too_deep_still_a_validation_error(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE,
                                          "Item": {"pk": {"S": "deep"}, "d": deep_map(200)}})
        self.assertEqual(t, VALIDATION)
        self.assertIn("Nesting Levels have exceeded supported limits", m)
        self.assertServing()

    def test_get_key_with_extra_attribute(self):
        self.assertClientError(self.ddb.get_item, VALIDATION,
                               message="The provided key element does not match the schema",
                               TableName=HASH_TABLE, Key={"pk": {"S": "a"}, "x": {"S": "b"}})

    def test_get_key_missing_range(self):
        self.assertClientError(self.ddb.get_item, VALIDATION,
                               message="The provided key element does not match the schema",
                               TableName=RANGE_TABLE, Key={"pk": {"S": "a"}})

    def test_get_key_wrong_type(self):
        self.assertClientError(self.ddb.get_item, VALIDATION,
                               message="The provided key element does not match the schema",
                               TableName=HASH_TABLE, Key={"pk": {"N": "1"}})

    def test_get_key_wrong_name(self):
        self.assertClientError(self.ddb.get_item, VALIDATION,
                               message="The provided key element does not match the schema",
                               TableName=HASH_TABLE, Key={"id": {"S": "a"}})

    def test_delete_key_with_extra_attribute(self):
        self.assertClientError(self.ddb.delete_item, VALIDATION,
                               message="The provided key element does not match the schema",
                               TableName=HASH_TABLE, Key={"pk": {"S": "a"}, "x": {"S": "b"}})

    def test_empty_key_map(self):
        # An empty map is not null: it just does not match the schema.
        t, m = self.raw_error("GetItem", {"TableName": HASH_TABLE, "Key": {}})
        self.assertEqual((t, m), (VALIDATION, "The provided key element does not match the schema"))

    def test_missing_item(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE})
        self.assertEqual((t, m), (VALIDATION, "1 validation error detected: Value null at 'item' "
                                              "failed to satisfy constraint: Member must not be "
                                              "null"))

    def test_missing_table(self):
        for fn, kw in ((self.ddb.get_item, {"Key": {"pk": {"S": "a"}}}),
                       (self.ddb.put_item, {"Item": {"pk": {"S": "a"}}}),
                       (self.ddb.delete_item, {"Key": {"pk": {"S": "a"}}})):
            with self.subTest(op=fn.__name__):
                self.assertClientError(fn, "ResourceNotFoundException",
                                       message="Requested resource not found",
                                       TableName="no-such-table", **kw)

    def test_invalid_base64(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE,
                                          "Item": {"pk": {"S": "x"}, "b": {"B": "!!!"}}})
        self.assertEqual(t, "SerializationException")

    def test_wrong_json_type_for_attribute_value(self):
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE,
                                          "Item": {"pk": {"S": "x"}, "v": {"S": 5}}})
        self.assertEqual(t, "SerializationException")
        t, m = self.raw_error("PutItem", {"TableName": HASH_TABLE, "Item": [1]})
        self.assertEqual(t, "SerializationException")

    def test_nothing_was_stored_by_rejected_writes(self):
        before = self.ddb.describe_table(TableName=HASH_TABLE)["Table"]["ItemCount"]
        self.raw_error("PutItem", {"TableName": HASH_TABLE,
                                   "Item": {"pk": {"S": "rejected"}, "s": {"SS": []}}})
        self.assertIsNone(self.get({"pk": {"S": "rejected"}}))
        self.assertEqual(self.ddb.describe_table(TableName=HASH_TABLE)["Table"]["ItemCount"],
                         before)


class ThroughTheCli(ItemsBase):
    """The issue's walk-through: the AWS CLI with nothing but `pogi env`."""

    def test_cli_put_get_delete(self):
        rc, out, err = self.server.aws(
            "dynamodb", "put-item", "--table-name", HASH_TABLE,
            "--item", json.dumps({"pk": {"S": "cli-a"}, "n": {"N": "1.50"},
                                  "ns": {"NS": ["1e3", "2.50"]}}))
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "get-item", "--table-name", HASH_TABLE,
                                       "--key", json.dumps({"pk": {"S": "cli-a"}}))
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Item"]["n"], {"N": "1.5"})
        self.assertCountEqual(out["Item"]["ns"]["NS"], ["1000", "2.5"])
        # The same item through boto3.
        self.assertEqual(self.get({"pk": {"S": "cli-a"}})["n"], {"N": "1.5"})
        rc, out, err = self.server.aws("dynamodb", "delete-item", "--table-name", HASH_TABLE,
                                       "--key", json.dumps({"pk": {"S": "cli-a"}}),
                                       "--return-values", "ALL_OLD")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Attributes"]["pk"], {"S": "cli-a"})
        rc, out, err = self.server.aws("dynamodb", "get-item", "--table-name", HASH_TABLE,
                                       "--key", json.dumps({"pk": {"S": "cli-a"}}))
        self.assertEqual(rc, 0, err)
        self.assertFalse(out and "Item" in out)

    def test_cli_validation_error(self):
        rc, out, err = self.server.aws("dynamodb", "put-item", "--table-name", HASH_TABLE,
                                       "--item", json.dumps({"pk": {"N": "1"}}))
        self.assertNotEqual(rc, 0)
        self.assertIn("ValidationException", err)
        self.assertIn("Type mismatch for key pk expected: S actual: N", err)

    def test_cli_missing_table(self):
        rc, out, err = self.server.aws("dynamodb", "get-item", "--table-name", "nope-table",
                                       "--key", json.dumps({"pk": {"S": "a"}}))
        self.assertNotEqual(rc, 0)
        self.assertIn("ResourceNotFoundException", err)

    def test_cli_uses_service_specific_endpoint(self):
        env = self.server.cli_env()
        self.assertNotIn("AWS_ENDPOINT_URL", env)
        self.assertEqual(env["AWS_ENDPOINT_URL_DYNAMODB"], self.server.endpoint)


if __name__ == "__main__":
    unittest.main()
