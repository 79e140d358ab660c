"""Random, malformed and hostile requests to every operation: each gets a
DynamoDB error or an answer, never a 5xx, a hang or a crash, and pogi keeps
serving. Bounded: a fixed seed and a fixed number of requests (the same ones
on every machine, however fast)."""

import json
import random
import sys
import time
import unittest

from harness import ServerTestCase

OPERATIONS = ["CreateTable", "DescribeTable", "DeleteTable", "ListTables", "UpdateTable", "PutItem",
              "GetItem", "DeleteItem", "UpdateItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem",
              "TransactWriteItems", "TransactGetItems"]
MEMBERS = ["TableName", "Item", "Key", "S", "N", "B", "M", "L", "SS", "NS", "BS", "NULL", "BOOL", "KeySchema",
           "AttributeDefinitions", "AttributeName", "AttributeType", "KeyType", "BillingMode",
           "UpdateExpression", "ConditionExpression", "ExpressionAttributeValues", "ExpressionAttributeNames",
           "KeyConditionExpression", "FilterExpression", "ProjectionExpression", "RequestItems", "TransactItems",
           "Put", "Update", "Delete", "ConditionCheck", "Get", "IndexName", "Limit", "ExclusiveStartKey",
           "Segment", "TotalSegments", "GlobalSecondaryIndexes", "Projection", "ProjectionType", "ReturnValues",
           "Select", "Expected", "AttributeUpdates", "QueryFilter", "ScanFilter", "KeyConditions",
           "ComparisonOperator", "AttributeValueList", "GlobalSecondaryIndexUpdates", "Create", "PutRequest",
           "DeleteRequest", "Keys"]
SCALARS = [None, True, False, 0, -1, 1.5, 10 ** 30, "", "x", "pk", "#a", ":v", "S", "N", "a" * 3000, "1e400",
           "(((", "SET a = :v", "attribute_exists(pk)", "NOT NOT NOT a", "a.b[99999999999].c"]
REQUESTS = 20000  # about what 8 s gave on a quiet 2-core machine


def random_value(rng, depth=0):
    r = rng.random()
    if depth > 4 or r < 0.3:
        return rng.choice(SCALARS)
    if r < 0.6:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(MEMBERS): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


class HostileInput(ServerTestCase):

    def test_random_requests_never_break_the_server(self):
        table = self.create_table()
        rng = random.Random(20261130)
        counts = {}
        conn = self.server.connection()
        started = time.monotonic()
        for _ in range(REQUESTS):
            body = random_value(rng)
            if isinstance(body, dict) and rng.random() < 0.5:
                body["TableName"] = table
            text = json.dumps(body) if rng.random() < 0.95 else '{"TableName": "%s", ' % table
            status, _, answer = self.server.raw(text, target="DynamoDB_20120810." + rng.choice(OPERATIONS),
                                                conn=conn)
            self.assertLess(status, 500, "request %r answered %r" % (text[:300], answer))
            counts[status] = counts.get(status, 0) + 1
        conn.close()
        print("\nhostile input: %d requests in %.1f s, answers by status %r"
              % (REQUESTS, time.monotonic() - started, sorted(counts.items())), file=sys.stderr)
        self.assertEqual(sum(counts.values()), REQUESTS)
        self.assertTrue(self.server.alive())
        # Still serving (the random requests may well have deleted the table).
        after = self.create_table()
        self.ddb.put_item(TableName=after, Item={"pk": {"S": "k"}, "n": {"N": "1.50"}})
        item = self.ddb.get_item(TableName=after, Key={"pk": {"S": "k"}})["Item"]
        self.assertEqual(item["n"], {"N": "1.5"})


if __name__ == "__main__":
    unittest.main()
