"""BatchGetItem and BatchWriteItem against the real binary, with boto3 and the AWS CLI.

Validations with DynamoDB's messages, then functionality: several tables,
projections, ConsumedCapacity per table, the 16 MB response limit with
UnprocessedKeys, and that a failed batch writes nothing.

Run: cd tests/e2e && python3 -m unittest -v test_batch
"""

import json
import re
import unittest

from harness import ServerTestCase

MAP_KEYS = ("Map keys must satisfy constraint: [Member must have length less than or equal to 255, "
            "Member must have length greater than or equal to 3, "
            "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]")
MAP_VALUE = ("Map value must satisfy constraint: [Member must have length less than or equal to 25, "
             "Member must have length greater than or equal to 1]")


def S(s):
    return {"S": s}


def N(n):
    return {"N": str(n)}


class BatchTest(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.hash = "batch-hash"
        cls.range = "batch-range"
        for name, extra in ((cls.hash, None), (cls.range, ("sk", "N"))):
            attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
            schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
            if extra:
                attrs.append({"AttributeName": extra[0], "AttributeType": extra[1]})
                schema.append({"AttributeName": extra[0], "KeyType": "RANGE"})
            cls.ddb.create_table(TableName=name, AttributeDefinitions=attrs, KeySchema=schema,
                                 BillingMode="PAY_PER_REQUEST")

    # ---- BatchWriteItem validations -----------------------------------------

    def test_write_empty_request_items(self):
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "The requestItems parameter is required for BatchWriteItem", RequestItems={})

    def test_write_more_than_25_in_one_table(self):
        reqs = [{"PutRequest": {"Item": {"pk": S("k%d" % i)}}} for i in range(26)]
        resp = self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                                      RequestItems={self.hash: reqs})
        msg = resp["Error"]["Message"]
        self.assertRegex(msg, r"^1 validation error detected: Value '\{batch-hash=\[WriteRequest\(putRequest="
                              r"PutRequest\(item=\{pk=AttributeValue\(S=k0\)\}\).*\]\}' at 'requestItems' "
                              r"failed to satisfy constraint: " + re.escape(MAP_VALUE) + "$")

    def test_write_more_than_25_over_tables(self):
        reqs = [{"PutRequest": {"Item": {"pk": S("k%d" % i)}}} for i in range(13)]
        reqs2 = [{"PutRequest": {"Item": {"pk": S("k%d" % i), "sk": N(1)}}} for i in range(13)]
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "Too many items requested for the BatchWriteItem call",
                               RequestItems={self.hash: reqs, self.range: reqs2})

    def test_write_empty_list_and_bad_name(self):
        status, body = self.server.call("BatchWriteItem", {"RequestItems": {self.hash: []}})
        self.assertEqual(status, 400)
        self.assertEqual(body["message"], "1 validation error detected: Value '{batch-hash=[]}' at 'requestItems' "
                                          "failed to satisfy constraint: " + MAP_VALUE)
        status, body = self.server.call("BatchWriteItem", {
            "RequestItems": {"bad!name": [{"PutRequest": {"Item": {"pk": S("x")}}}]},
            "ReturnConsumedCapacity": "BOGUS"})
        # Listed together with the RequestItems constraints (behaviours.md O10).
        self.assertRegex(body["message"], r"^2 validation errors detected: Value 'BOGUS' at 'returnConsumedCapacity' "
                                          r"failed to satisfy constraint: Member must satisfy enum value set: "
                                          r"\[INDEXES, TOTAL, NONE\]; Value '\{bad!name=.*' at 'requestItems' failed "
                                          r"to satisfy constraint: " + re.escape(MAP_KEYS) + "$")
        status, body = self.server.call("BatchWriteItem", {
            "RequestItems": {"bad!name": [{"PutRequest": {"Item": {"pk": S("x")}}}]}})
        self.assertRegex(body["message"], r"^1 validation error detected: Value '\{bad!name=\[WriteRequest\("
                                          r"putRequest=PutRequest\(item=\{pk=.+\}.*\)\]\}' at 'requestItems' failed "
                                          r"to satisfy constraint: " + re.escape(MAP_KEYS) + "$")

    def test_write_duplicates_and_keys(self):
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "Provided list of item keys contains duplicates",
                               RequestItems={self.hash: [{"PutRequest": {"Item": {"pk": S("d")}}},
                                                         {"DeleteRequest": {"Key": {"pk": S("d")}}}]})
        # Numbers are one key whatever their spelling.
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "Provided list of item keys contains duplicates",
                               RequestItems={self.range: [{"PutRequest": {"Item": {"pk": S("d"), "sk": N("1e3")}}},
                                                          {"PutRequest": {"Item": {"pk": S("d"), "sk": N(1000)}}}]})
        for item in ({"pk": N(5)}, {"other": S("x")}, {"pk": {"L": [S("x")]}}):
            self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                                   "The provided key element does not match the schema",
                                   RequestItems={self.hash: [{"PutRequest": {"Item": item}}]})
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "The provided key element does not match the schema",
                               RequestItems={self.hash: [{"DeleteRequest": {"Key": {"other": S("x")}}}]})
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "One or more parameter values are not valid. The AttributeValue for a key attribute "
                               "cannot contain an empty string value. Key: pk",
                               RequestItems={self.hash: [{"PutRequest": {"Item": {"pk": S("")}}}]})
        self.assertClientError(self.ddb.batch_write_item, "ResourceNotFoundException", "Requested resource not found",
                               RequestItems={"no-such-table": [{"PutRequest": {"Item": {"pk": S("x")}}}]})
        self.assertClientError(self.ddb.batch_write_item, "ValidationException",
                               "Item size has exceeded the maximum allowed size",
                               RequestItems={self.hash: [{"PutRequest": {"Item": {"pk": S("big"),
                                                                                   "b": S("x" * 409600)}}}]})
        status, body = self.server.call("BatchWriteItem", {"RequestItems": {self.hash: [{}]}})
        self.assertEqual(body["message"], "Supplied AttributeValue has more than one datatypes set, must contain "
                                          "exactly one of the supported datatypes")

    def test_failed_batch_writes_nothing(self):
        # The second table does not exist: nothing of the first is written.
        self.assertClientError(self.ddb.batch_write_item, "ResourceNotFoundException",
                               RequestItems={self.hash: [{"PutRequest": {"Item": {"pk": S("nothing")}}}],
                                             "zzz-missing": [{"PutRequest": {"Item": {"pk": S("x")}}}]})
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.hash, Key={"pk": S("nothing")}))

    # ---- BatchWriteItem functionality ------------------------------------------

    def test_write_puts_and_deletes_over_tables(self):
        self.ddb.put_item(TableName=self.hash, Item={"pk": S("w-old"), "v": N(1)})
        resp = self.ddb.batch_write_item(
            RequestItems={
                self.hash: [{"PutRequest": {"Item": {"pk": S("w1"), "v": N("1.50")}}},
                            {"DeleteRequest": {"Key": {"pk": S("w-old")}}}],
                self.range: [{"PutRequest": {"Item": {"pk": S("w1"), "sk": N(2), "b": {"BOOL": True}}}}],
            },
            ReturnConsumedCapacity="TOTAL", ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(resp["UnprocessedItems"], {})
        caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
        self.assertEqual(caps, {self.hash: 2.0, self.range: 1.0})
        self.assertEqual(self.ddb.get_item(TableName=self.hash, Key={"pk": S("w1")})["Item"],
                         {"pk": S("w1"), "v": N("1.5")})
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.hash, Key={"pk": S("w-old")}))
        self.assertEqual(self.ddb.get_item(TableName=self.range, Key={"pk": S("w1"), "sk": N(2)})["Item"]["b"],
                         {"BOOL": True})
        resp = self.ddb.batch_write_item(
            RequestItems={self.hash: [{"PutRequest": {"Item": {"pk": S("w2")}}}]}, ReturnConsumedCapacity="INDEXES")
        self.assertEqual(resp["ConsumedCapacity"],
                         [{"TableName": self.hash, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}])

    def test_write_25_items_counts(self):
        reqs = [{"PutRequest": {"Item": {"pk": S("c%02d" % i), "n": N(i)}}} for i in range(25)]
        table = self.create_table()
        self.ddb.batch_write_item(RequestItems={table: reqs})
        desc = self.ddb.describe_table(TableName=table)["Table"]
        self.assertEqual(desc["ItemCount"], 25)
        self.ddb.batch_write_item(RequestItems={table: [{"DeleteRequest": {"Key": {"pk": S("c%02d" % i)}}}
                                                        for i in range(10)]})
        self.assertEqual(self.ddb.describe_table(TableName=table)["Table"]["ItemCount"], 15)

    def test_cli_batch_write_and_get(self):
        items = {self.hash: [{"PutRequest": {"Item": {"pk": S("cli1"), "a": S("x")}}},
                             {"PutRequest": {"Item": {"pk": S("cli2"), "a": S("y")}}}]}
        rc, out, err = self.server.aws("dynamodb", "batch-write-item", "--request-items", json.dumps(items))
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, {"UnprocessedItems": {}})
        keys = {self.hash: {"Keys": [{"pk": S("cli1")}, {"pk": S("cli2")}, {"pk": S("cli3")}],
                            "ProjectionExpression": "a"}}
        rc, out, err = self.server.aws("dynamodb", "batch-get-item", "--request-items", json.dumps(keys))
        self.assertEqual(rc, 0, err)
        self.assertEqual(sorted(i["a"]["S"] for i in out["Responses"][self.hash]), ["x", "y"])
        self.assertEqual(out["UnprocessedKeys"], {})

    # ---- BatchGetItem validations ----------------------------------------------

    def test_get_validations(self):
        status, body = self.server.call("BatchGetItem", {"RequestItems": {}})
        # Today's DynamoDB words it as a required parameter (an older record
        # listed a length constraint).
        self.assertEqual(body["message"], "The requestItems parameter is required for BatchGetItem")
        keys = [{"pk": S("g%d" % i)} for i in range(101)]
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               "1 validation error detected: Value at 'RequestItems.batch-hash.member.Keys' failed to "
                               "satisfy constraint: Member must have length less than or equal to 100",
                               RequestItems={self.hash: {"Keys": keys}})
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               "Too many items requested for the BatchGetItem call",
                               RequestItems={self.hash: {"Keys": keys[:100]},
                                             self.range: {"Keys": [{"pk": S("a"), "sk": N(1)}]}})
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               "Provided list of item keys contains duplicates",
                               RequestItems={self.hash: {"Keys": [{"pk": S("a")}, {"pk": S("b")}, {"pk": S("a")}]}})
        self.assertClientError(self.ddb.batch_get_item, "ResourceNotFoundException", "Requested resource not found",
                               RequestItems={"no-such-table": {"Keys": [{"pk": S("a")}]}})
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               "The provided key element does not match the schema",
                               RequestItems={self.range: {"Keys": [{"pk": S("a")}]}})
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               message_contains="Can not use both expression and non-expression parameters in the "
                                                "same request: Non-expression parameters: {AttributesToGet} "
                                                "Expression parameters: {ProjectionExpression}",
                               RequestItems={self.hash: {"Keys": [{"pk": S("a")}], "AttributesToGet": ["pk"],
                                                         "ProjectionExpression": "pk"}})
        self.assertClientError(self.ddb.batch_get_item, "ValidationException",
                               "Invalid ProjectionExpression: Two document paths overlap with each other; must "
                               "remove or rewrite one of these paths; path one: [a], path two: [a]",
                               RequestItems={self.hash: {"Keys": [{"pk": S("a")}], "ProjectionExpression": "a, a"}})
        status, body = self.server.call("BatchGetItem", {"RequestItems": {"bad!name": {"Keys": [{"pk": S("a")}]}},
                                                         "ReturnConsumedCapacity": "BOGUS"})
        self.assertEqual(body["message"],
                         "2 validation errors detected: Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' "
                         "at 'requestItems' failed to satisfy constraint: " + MAP_KEYS + "; Value 'BOGUS' at "
                         "'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: "
                         "[INDEXES, TOTAL, NONE]")
        self.assertServing()

    # ---- BatchGetItem functionality ----------------------------------------------

    def test_get_over_tables_with_projection_and_capacity(self):
        self.ddb.put_item(TableName=self.hash, Item={"pk": S("g1"), "a": S("A"), "b": {"M": {"c": N(1)}}})
        self.ddb.put_item(TableName=self.hash, Item={"pk": S("g2"), "a": S("A2")})
        self.ddb.put_item(TableName=self.range, Item={"pk": S("g1"), "sk": N(1), "z": S("Z")})
        resp = self.ddb.batch_get_item(
            RequestItems={
                self.hash: {"Keys": [{"pk": S("g1")}, {"pk": S("g2")}, {"pk": S("missing")}],
                            "ProjectionExpression": "#b.c, a", "ExpressionAttributeNames": {"#b": "b"},
                            "ConsistentRead": True},
                self.range: {"Keys": [{"pk": S("g1"), "sk": N("1.0")}], "ProjectionExpression": "z"},
            },
            ReturnConsumedCapacity="TOTAL")
        got = sorted(resp["Responses"][self.hash], key=lambda i: i["a"]["S"])
        self.assertEqual(got, [{"a": S("A"), "b": {"M": {"c": N(1)}}}, {"a": S("A2")}])
        self.assertEqual(resp["Responses"][self.range], [{"z": S("Z")}])
        self.assertEqual(resp["UnprocessedKeys"], {})
        caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
        self.assertEqual(caps, {self.hash: 3.0, self.range: 0.5})
        resp = self.ddb.batch_get_item(RequestItems={self.hash: {"Keys": [{"pk": S("nope")}, {"pk": S("g2")}],
                                                                 "AttributesToGet": ["pk"]}})
        self.assertEqual(resp["Responses"], {self.hash: [{"pk": S("g2")}]})

    def test_get_16mb_limit_leaves_unprocessed_keys(self):
        table = self.create_table()
        blob = "x" * (400 * 1024 - 20)
        n = 45  # ~17.6 MB in all: more than one response can carry
        for start in range(0, n, 15):
            self.ddb.batch_write_item(RequestItems={table: [
                {"PutRequest": {"Item": {"pk": S("big%02d" % i), "b": S(blob)}}} for i in range(start, min(n, start + 15))]})
        keys = [{"pk": S("big%02d" % i)} for i in range(n)]
        resp = self.ddb.batch_get_item(RequestItems={table: {"Keys": keys, "ConsistentRead": True,
                                                             "ProjectionExpression": "pk"}})
        got = [i["pk"]["S"] for i in resp["Responses"][table]]
        unprocessed = resp["UnprocessedKeys"][table]
        self.assertTrue(unprocessed["ConsistentRead"])
        self.assertEqual(unprocessed["ProjectionExpression"], "pk")
        left = [k["pk"]["S"] for k in unprocessed["Keys"]]
        self.assertGreater(len(got), 30)
        self.assertGreater(len(left), 0)
        self.assertEqual(sorted(got + left), ["big%02d" % i for i in range(n)])
        # Retrying the unprocessed keys returns the rest.
        resp = self.ddb.batch_get_item(RequestItems={table: unprocessed})
        self.assertEqual(sorted(i["pk"]["S"] for i in resp["Responses"][table]), sorted(left))
        self.assertEqual(resp["UnprocessedKeys"], {})


if __name__ == "__main__":
    unittest.main()
