"""Time to Live: UpdateTimeToLive/DescribeTimeToLive with DynamoDB's rules, and
expiry driven by `pogi clock advance` through the one write path."""

import unittest

from harness import ServerTestCase

T0 = 1893456000  # 2030-01-01T00:00:00Z


class TimeToLive(ServerTestCase):
    SERVER_ARGS = {"in_memory": True,
                   "extra_args": ["--clock", "2030-01-01T00:00:00Z", "--clock-frozen", "--ttl-interval", "1h"]}

    def clock(self, *args):
        cp = self.server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return cp.stdout.strip()

    def enable(self, name, attr="exp"):
        return self.ddb.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": attr})

    def test_describe_update_and_rules(self):
        name = self.create_table()
        self.assertEqual(self.ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "DISABLED"})
        self.assertEqual(self.enable(name)["TimeToLiveSpecification"], {"Enabled": True, "AttributeName": "exp"})
        self.assertEqual(self.ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"})
        self.assertClientError(lambda: self.enable(name), "ValidationException", "TimeToLive is already enabled")
        self.assertClientError(lambda: self.enable(name, "other"), "ValidationException",
                               "TimeToLive is active on a different AttributeName: current AttributeName is exp")
        off = dict(TableName=name, TimeToLiveSpecification={"Enabled": False, "AttributeName": "exp"})
        self.assertClientError(self.ddb.update_time_to_live, "ValidationException",
                               "Time to live has been modified multiple times within a fixed interval", **off)
        self.clock("advance", "61m")
        self.ddb.update_time_to_live(**off)
        self.assertEqual(self.ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"],
                         {"TimeToLiveStatus": "DISABLED"})
        self.clock("advance", "61m")
        self.assertClientError(self.ddb.update_time_to_live, "ValidationException",
                               "TimeToLive is already disabled", **off)
        # DescribeTable does not show TTL (and never pogi's own fields).
        table = self.ddb.describe_table(TableName=name)["Table"]
        self.assertFalse([k for k in table if k.lower().startswith("pogi") or "TimeToLive" in k], table)

    def test_validation(self):
        name = self.create_table()
        s, body = self.server.call("UpdateTimeToLive", {"TableName": name})
        self.assertEqual(s, 400)
        self.assertEqual(body["message"], "1 validation error detected: Value null at 'timeToLiveSpecification' "
                                          "failed to satisfy constraint: Member must not be null")
        s, body = self.server.call("UpdateTimeToLive", {"TableName": name,
                                                        "TimeToLiveSpecification": {"Enabled": True}})
        self.assertIn("timeToLiveSpecification.attributeName", body["message"])
        s, body = self.server.call("UpdateTimeToLive", {"TableName": "nope-nope",
                                                        "TimeToLiveSpecification": {"Enabled": True,
                                                                                    "AttributeName": "e"}})
        self.assertEqual(body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")
        s, body = self.server.call("DescribeTimeToLive", {"TableName": "nope-nope"})
        self.assertEqual(body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")

    def test_expiry_by_clock_advance(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        name = self.create_table(
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        self.enable(name)
        items = {
            "soon": {"N": str(T0 + 3600)},            # expires after an hour
            "later": {"N": str(T0 + 7 * 86400)},      # a week
            "past": {"N": str(T0 - 60)},              # already expired
            "ancient": {"N": str(T0 - 6 * 365 * 86400)},  # > 5 years ago: ignored
            "string": {"S": str(T0 - 60)},            # not a number: ignored
            "set": {"NS": [str(T0 - 60)]},            # not a number: ignored
            "fraction": {"N": "%d.5" % (T0 + 1800)},
        }
        for k, v in items.items():
            self.ddb.put_item(TableName=name, Item={"pk": {"S": k}, "g": {"S": "x"}, "exp": v})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "none"}, "g": {"S": "x"}})
        # Until the sweep runs the expired item stays readable, as on AWS.
        self.assertIn("Item", self.ddb.get_item(TableName=name, Key={"pk": {"S": "past"}}))

        def keys():
            got = self.ddb.scan(TableName=name)["Items"]
            return sorted(i["pk"]["S"] for i in got)

        def index_keys():
            got = self.ddb.query(TableName=name, IndexName="byg", KeyConditionExpression="g = :g",
                                 ExpressionAttributeValues={":g": {"S": "x"}})["Items"]
            return sorted(i["pk"]["S"] for i in got)

        self.clock("advance", "0s")
        self.assertEqual(keys(), ["ancient", "fraction", "later", "none", "set", "soon", "string"])
        self.clock("advance", "1h")
        self.assertEqual(keys(), ["ancient", "later", "none", "set", "string"])
        self.assertEqual(index_keys(), ["ancient", "later", "none", "set", "string"])
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["ItemCount"], 5)
        cp = self.server.admin("clock", "advance", "7d")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(keys(), ["ancient", "none", "set", "string"])

    def test_many_items_are_swept_in_chunks(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        name = self.create_table()
        self.enable(name)
        n = 2600
        for start in range(0, n, 25):
            self.ddb.batch_write_item(RequestItems={name: [
                {"PutRequest": {"Item": {"pk": {"S": "k%05d" % i},
                                         "exp": {"N": str(T0 + (60 if i % 2 else 7200))}}}}
                for i in range(start, min(n, start + 25))]})
        self.clock("advance", "2m")
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["ItemCount"], n // 2)
        count, kw = 0, {"TableName": name, "Select": "COUNT"}
        while True:
            page = self.ddb.scan(**kw)
            count += page["Count"]
            if "LastEvaluatedKey" not in page:
                break
            kw["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        self.assertEqual(count, n // 2)

    def test_background_sweep(self):
        # A server with the default 1 s interval deletes without being asked.
        from harness import Server
        import time
        server = Server(in_memory=True, extra_args=["--clock", "2030-01-01T00:00:00Z", "--clock-frozen"])
        self.addCleanup(server.cleanup)
        server.start()
        c = server.client()
        c.create_table(TableName="bgt", BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        c.update_time_to_live(TableName="bgt", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        c.put_item(TableName="bgt", Item={"pk": {"S": "a"}, "exp": {"N": str(T0 - 1)}})
        deadline = time.time() + 10  # ten times the interval (1 s, docs/operations.md)
        while time.time() < deadline and c.scan(TableName="bgt")["Count"]:
            time.sleep(0.1)
        self.assertEqual(c.scan(TableName="bgt")["Count"], 0)


if __name__ == "__main__":
    unittest.main()
