"""The tables and helpers shared by the secondary-index tests (test_indexes.py,
test_index_schema.py): IndexBase creates them once per test class."""

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
