"""Global secondary indexes with multi-attribute keys (up to four partition-key
and four sort-key attributes, DynamoDB since November 2025): CreateTable and
UpdateTable validation, DescribeTable, sparse index maintenance, Query's
key-condition rules, ordering, paging, Scan, backfill and PartiQL."""

import time
import unittest

from harness import ServerTestCase

VALIDATION = "ValidationException"
INVALID = "One or more parameter values were invalid: "


def attr(name, typ):
    return {"AttributeName": name, "AttributeType": typ}


def ks(*pairs):
    return [{"AttributeName": n, "KeyType": k} for n, k in pairs]


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


def B(v):
    return {"B": v}


# Matches: partition (tournament S, area S); sort (round N, bracket S, game B).
TABLE = "mak-matches"
INDEX = "by_bracket"
INDEX_KEYS = ks(("tournament", "HASH"), ("area", "HASH"), ("round", "RANGE"), ("bracket", "RANGE"),
                ("game", "RANGE"))


class MultiAttributeKeys(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ddb.create_table(
            TableName=TABLE, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S"), attr("tournament", "S"), attr("area", "S"),
                                  attr("round", "N"), attr("bracket", "S"), attr("game", "B")],
            KeySchema=ks(("id", "HASH")),
            GlobalSecondaryIndexes=[
                {"IndexName": INDEX, "KeySchema": INDEX_KEYS, "Projection": {"ProjectionType": "ALL"}},
                {"IndexName": "by_area", "KeySchema": ks(("area", "HASH"), ("tournament", "HASH")),
                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["score"]}},
            ])
        cls.expected = []
        n = 0
        for tournament in ("W24", "S25"):
            for region in ("EU", "NA"):
                for rnd in (-1, 2, 10):
                    for bracket in ("lower", "upper", "up"):
                        for game in (b"\x00", b"\x00\x01", b"\xff"):
                            n += 1
                            item = {"id": S("m%03d" % n), "tournament": S(tournament), "area": S(region),
                                    "round": N(rnd), "bracket": S(bracket), "game": B(game),
                                    "score": N(n), "note": S("x")}
                            cls.ddb.put_item(TableName=TABLE, Item=item)
                            cls.expected.append(item)
        # Sparse: an item lacking one key attribute of an index is not in it.
        cls.ddb.put_item(TableName=TABLE, Item={"id": S("no-game"), "tournament": S("W24"),
                                                 "area": S("EU"), "round": N(2), "bracket": S("up")})
        cls.ddb.put_item(TableName=TABLE, Item={"id": S("no-region"), "tournament": S("W24")})

    def q(self, kce, values, index=INDEX, **kw):
        out, start = [], None
        while True:
            args = dict(TableName=TABLE, IndexName=index, KeyConditionExpression=kce,
                        ExpressionAttributeValues=values, **kw)
            if start:
                args["ExclusiveStartKey"] = start
            r = self.ddb.query(**args)
            out.extend(r["Items"])
            start = r.get("LastEvaluatedKey")
            if not start:
                return out

    def expect(self, pred, reverse=False):
        items = [i for i in self.expected if pred(i)]
        items.sort(key=lambda i: (int(i["round"]["N"]), i["bracket"]["S"], i["game"]["B"], i["id"]["S"]),
                   reverse=reverse)
        return [i["id"]["S"] for i in items]

    P = {":t": S("W24"), ":r": S("EU")}
    PK = "tournament = :t AND area = :r"

    def in_partition(self, i):
        return i["tournament"]["S"] == "W24" and i["area"]["S"] == "EU"

    # ---- schema -------------------------------------------------------------

    def test_describe_table(self):
        t = self.ddb.describe_table(TableName=TABLE)["Table"]
        gsis = {g["IndexName"]: g for g in t["GlobalSecondaryIndexes"]}
        self.assertEqual(gsis[INDEX]["KeySchema"], INDEX_KEYS)
        self.assertEqual(gsis["by_area"]["KeySchema"], ks(("area", "HASH"), ("tournament", "HASH")))
        self.assertEqual(gsis[INDEX]["ItemCount"], len(self.expected))
        self.assertEqual(gsis["by_area"]["ItemCount"], len(self.expected) + 1)
        self.assertEqual(t["KeySchema"], ks(("id", "HASH")))

    def create_error(self, index_keys, defs, message, local=False):
        spec = {"IndexName": "idx", "KeySchema": index_keys, "Projection": {"ProjectionType": "ALL"}}
        kw = {"LocalSecondaryIndexes" if local else "GlobalSecondaryIndexes": [spec]}
        table_keys = ks(("id", "HASH"), ("s", "RANGE")) if local else ks(("id", "HASH"))
        defs = [attr("id", "S")] + ([attr("s", "S")] if local else []) + [attr(n, t) for n, t in defs]
        self.assertClientError(self.ddb.create_table, VALIDATION, message, TableName=self.unique("bad"),
                               BillingMode="PAY_PER_REQUEST", AttributeDefinitions=defs,
                               KeySchema=table_keys, **kw)

    def test_create_table_validation(self):
        five = [(c, "S") for c in "abcde"]
        self.create_error(ks(*[(c, "HASH") for c in "abcde"]), five,
                          "Too many partition keys. GSI can have at most 4 partition keys")
        self.create_error(ks(("a", "HASH"), *[(c, "RANGE") for c in "bcdef"]), five + [("f", "S")],
                          "Too many sort keys. GSI can have at most 4 sort keys")
        self.create_error(ks(("a", "HASH"), ("b", "RANGE"), ("c", "HASH")), five[:3],
                          "Invalid key order. Hash Key must be specified first in key schema, Range Key "
                          "must be specifed second")
        self.create_error(ks(("b", "RANGE"), ("a", "HASH")), five[:2],
                          "Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
        self.create_error(ks(("a", "HASH"), ("b", "HASH"), ("a", "RANGE")), five[:2],
                          "Two keys can not have the same name")
        self.create_error(ks(("a", "HASH"), ("b", "HASH")), five[:1],
                          INVALID + "Some index key attributes are not defined in AttributeDefinitions. "
                          "Keys: [a, b], AttributeDefinitions: [id, a]")
        nine = [(c, "S") for c in "abcdefghi"]
        # Nine elements break the member constraint before any other rule.
        spec = {"IndexName": "idx", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": ks(*[(c, "HASH") for c in "abcd"], *[(c, "RANGE") for c in "efghi"])}
        self.assertClientError(
            self.ddb.create_table, VALIDATION,
            message_contains="Member must have length less than or equal to 8",
            TableName=self.unique("bad"), BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S")] + [attr(n, t) for n, t in nine],
            KeySchema=ks(("id", "HASH")), GlobalSecondaryIndexes=[spec])
        # The table's own key and a local index stay single-attribute.
        self.assertClientError(
            self.ddb.create_table, VALIDATION,
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
            TableName=self.unique("bad"), BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S"), attr("a", "S")], KeySchema=ks(("id", "HASH"), ("a", "HASH")))
        self.assertClientError(
            self.ddb.create_table, VALIDATION, message_contains="Member must have length less than or equal to 2",
            TableName=self.unique("bad"), BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S"), attr("s", "S"), attr("a", "S"), attr("b", "S")],
            KeySchema=ks(("id", "HASH"), ("s", "RANGE")),
            LocalSecondaryIndexes=[{"IndexName": "loc", "Projection": {"ProjectionType": "ALL"},
                                    "KeySchema": ks(("id", "HASH"), ("a", "RANGE"), ("b", "RANGE"))}])

    # ---- writes ---------------------------------------------------------------

    def test_write_checks_every_key_attribute(self):
        self.assertClientError(self.ddb.put_item, VALIDATION,
                               INVALID + "Type mismatch for Index Key round Expected: N Actual: S "
                               "IndexName: " + INDEX,
                               TableName=TABLE, Item={"id": S("bad"), "round": S("1")})
        self.assertClientError(self.ddb.put_item, VALIDATION,
                               "One or more parameter values are not valid. A value specified for a secondary "
                               "index key is not supported. The AttributeValue for a key attribute cannot "
                               "contain an empty string value. IndexName: " + INDEX + ", IndexKey: bracket",
                               TableName=TABLE, Item={"id": S("bad"), "bracket": S("")})

    def test_sparse_and_maintained(self):
        name = "mak-sparse"
        self.ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S"), attr("a", "S"), attr("b", "N"), attr("c", "S")],
            KeySchema=ks(("id", "HASH")),
            GlobalSecondaryIndexes=[{"IndexName": "abc", "KeySchema": ks(("a", "HASH"), ("b", "HASH"),
                                                                         ("c", "RANGE")),
                                     "Projection": {"ProjectionType": "KEYS_ONLY"}}])
        put = lambda item: self.ddb.put_item(TableName=name, Item=item)  # noqa: E731
        q = lambda: self.ddb.query(  # noqa: E731
            TableName=name, IndexName="abc", KeyConditionExpression="a = :a AND b = :b",
            ExpressionAttributeValues={":a": S("A"), ":b": N(1)})["Items"]
        put({"id": S("1"), "a": S("A"), "b": N(1), "c": S("z"), "other": S("o")})
        put({"id": S("2"), "a": S("A"), "b": N(1)})                # no sort attribute
        put({"id": S("3"), "a": S("A"), "c": S("y")})              # no b
        self.assertEqual(q(), [{"id": S("1"), "a": S("A"), "b": N(1), "c": S("z")}])  # KEYS_ONLY
        # An update that completes the key brings the item in; one that
        # changes a key attribute moves it; removing one takes it out.
        self.ddb.update_item(TableName=name, Key={"id": S("2")}, UpdateExpression="SET c = :c",
                             ExpressionAttributeValues={":c": S("a")})
        self.assertEqual([i["id"]["S"] for i in q()], ["2", "1"])
        self.ddb.update_item(TableName=name, Key={"id": S("1")}, UpdateExpression="SET b = :b",
                             ExpressionAttributeValues={":b": N(2)})
        self.assertEqual([i["id"]["S"] for i in q()], ["2"])
        self.ddb.update_item(TableName=name, Key={"id": S("2")}, UpdateExpression="REMOVE a")
        self.assertEqual(q(), [])
        t = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(t["GlobalSecondaryIndexes"][0]["ItemCount"], 1)

    # ---- query ----------------------------------------------------------------

    def test_partition_only_in_sort_order(self):
        self.assertEqual([i["id"]["S"] for i in self.q(self.PK, self.P)], self.expect(self.in_partition))
        self.assertEqual([i["id"]["S"] for i in self.q(self.PK, self.P, ScanIndexForward=False)],
                         self.expect(self.in_partition, reverse=True))
        # The item without `game` is in neither answer.
        self.assertNotIn("no-game", [i["id"]["S"] for i in self.q(self.PK, self.P)])

    def test_sort_conditions(self):
        def check(cond, values, pred):
            kw = {"ExpressionAttributeNames": {"#r": "round"}} if "#r" in cond else {}
            got = [i["id"]["S"] for i in self.q(self.PK + " AND " + cond, {**self.P, **values}, **kw)]
            self.assertEqual(got, self.expect(lambda i: self.in_partition(i) and pred(i)), cond)
        rnd = lambda i: int(i["round"]["N"])  # noqa: E731
        br = lambda i: i["bracket"]["S"]  # noqa: E731
        m = lambda i: i["game"]["B"]  # noqa: E731
        check("#r = :n", {":n": N(2)}, lambda i: rnd(i) == 2)
        check("#r < :n", {":n": N(2)}, lambda i: rnd(i) < 2)
        check("#r <= :n", {":n": N(2)}, lambda i: rnd(i) <= 2)
        check("#r > :n", {":n": N(2)}, lambda i: rnd(i) > 2)
        check(":n <= #r", {":n": N(2)}, lambda i: rnd(i) >= 2)
        check("#r BETWEEN :lo AND :hi", {":lo": N(-1), ":hi": N(2)}, lambda i: -1 <= rnd(i) <= 2)
        check("#r = :n AND bracket = :b", {":n": N(2), ":b": S("up")}, lambda i: rnd(i) == 2 and br(i) == "up")
        check("#r = :n AND begins_with(bracket, :b)", {":n": N(2), ":b": S("up")},
              lambda i: rnd(i) == 2 and br(i).startswith("up"))
        check("#r = :n AND bracket > :b", {":n": N(10), ":b": S("up")},
              lambda i: rnd(i) == 10 and br(i) > "up")
        check("#r = :n AND bracket = :b AND game > :m", {":n": N(2), ":b": S("up"), ":m": B(b"\x00")},
              lambda i: rnd(i) == 2 and br(i) == "up" and m(i) > b"\x00")
        check("#r = :n AND bracket = :b AND begins_with(game, :m)", {":n": N(2), ":b": S("up"), ":m": B(b"\x00")},
              lambda i: rnd(i) == 2 and br(i) == "up" and m(i).startswith(b"\x00"))
        check("#r = :n AND bracket = :b AND game = :m", {":n": N(2), ":b": S("up"), ":m": B(b"\xff")},
              lambda i: rnd(i) == 2 and br(i) == "up" and m(i) == b"\xff")

    def query_error(self, kce, values, message, **kw):
        self.assertClientError(self.ddb.query, VALIDATION, message, TableName=TABLE, IndexName=INDEX,
                               KeyConditionExpression=kce, ExpressionAttributeValues=values, **kw)

    def test_refused_conditions(self):
        self.query_error("tournament = :t", {":t": S("W24")},
                         "HASH key attributes area must have equality conditions specified in the query")
        self.query_error("tournament = :t AND area > :r", self.P,
                         "HASH key attributes area must have equality conditions specified in the query")
        self.query_error(self.PK + " AND bracket = :b", {**self.P, ":b": S("up")},
                         "RANGE key attributes round must have equality conditions specified in the query "
                         "because a condition is present on key attribute bracket")
        self.query_error(self.PK + " AND #r > :n AND bracket = :b", {**self.P, ":n": N(1), ":b": S("up")},
                         "RANGE key attributes round must have equality conditions specified in the query "
                         "because a condition is present on key attribute bracket",
                         ExpressionAttributeNames={"#r": "round"})
        self.query_error(self.PK + " AND game = :m", {**self.P, ":m": B(b"x")},
                         "RANGE key attributes round, bracket must have equality conditions specified in the "
                         "query because a condition is present on key attribute game")
        self.query_error(self.PK + " AND #r = :n AND #r > :n", {**self.P, ":n": N(1)},
                         "KeyConditionExpressions must only contain one condition per key",
                         ExpressionAttributeNames={"#r": "round"})
        self.query_error(self.PK + " AND #r = :n", {**self.P, ":n": S("1")},
                         INVALID + "Condition parameter type does not match schema type",
                         ExpressionAttributeNames={"#r": "round"})
        self.query_error(self.PK + " AND begins_with(#r, :n)", {**self.P, ":n": N(1)},
                         "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
                         "operator or function: begins_with, operand type: N",
                         ExpressionAttributeNames={"#r": "round"})
        self.query_error(self.PK, self.P, "Filter Expression can only contain non-primary key attributes: "
                         "Primary key attribute: bracket", FilterExpression="bracket = :r")

    def test_paging_with_limit(self):
        for limit in (1, 4, 7):
            got, start, pages = [], None, 0
            while True:
                kw = {"ExclusiveStartKey": start} if start else {}
                r = self.ddb.query(TableName=TABLE, IndexName=INDEX, KeyConditionExpression=self.PK,
                                   ExpressionAttributeValues=self.P, Limit=limit, **kw)
                pages += 1
                got.extend(i["id"]["S"] for i in r["Items"])
                start = r.get("LastEvaluatedKey")
                if start:
                    self.assertEqual(set(start), {"id", "tournament", "area", "round", "bracket", "game"})
                if not start:
                    break
            self.assertEqual(got, self.expect(self.in_partition))
            self.assertGreaterEqual(pages, len(got) // limit)
        # A start key must carry every index key attribute.
        # A missing attribute in a Query's start key (behaviours.md V13).
        self.query_error(self.PK, self.P, "The provided starting key is invalid",
                         ExclusiveStartKey={"id": S("m001"), "tournament": S("W24"), "area": S("EU")})

    def test_partition_by_two_attributes_and_scan(self):
        got = self.q("area = :r AND tournament = :t", {":t": S("S25"), ":r": S("NA")}, index="by_area")
        want = sorted(i["id"]["S"] for i in self.expected
                      if i["tournament"]["S"] == "S25" and i["area"]["S"] == "NA")
        self.assertEqual(sorted(i["id"]["S"] for i in got), want)
        self.assertEqual(set(got[0]), {"id", "tournament", "area", "score"})  # INCLUDE projection
        scanned, start = [], None
        while True:
            kw = {"ExclusiveStartKey": start} if start else {}
            r = self.ddb.scan(TableName=TABLE, IndexName=INDEX, Limit=10, **kw)
            scanned.extend(i["id"]["S"] for i in r["Items"])
            start = r.get("LastEvaluatedKey")
            if not start:
                break
        self.assertEqual(sorted(scanned), sorted(i["id"]["S"] for i in self.expected))

    def test_partiql_select_on_index(self):
        r = self.ddb.execute_statement(
            Statement='SELECT id FROM "%s"."%s" WHERE tournament = ? AND area = ? AND "round" = ?'
                      % (TABLE, INDEX), Parameters=[S("W24"), S("EU"), N(2)])
        self.assertEqual(sorted(i["id"]["S"] for i in r["Items"]),
                         sorted(self.expect(lambda i: self.in_partition(i) and i["round"]["N"] == "2")))

    # ---- UpdateTable ------------------------------------------------------------

    def test_update_table_backfills(self):
        name = "mak-backfill"
        self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                              AttributeDefinitions=[attr("id", "S")], KeySchema=ks(("id", "HASH")))
        for i in range(20):
            item = {"id": S("i%02d" % i), "g": S("G%d" % (i % 2)), "n": N(i % 3)}
            if i % 5 == 0:
                del item["n"]  # sparse: not backfilled
            self.ddb.put_item(TableName=name, Item=item)
        self.assertClientError(
            self.ddb.update_table, VALIDATION, "Too many sort keys. GSI can have at most 4 sort keys",
            TableName=name, AttributeDefinitions=[attr(c, "S") for c in "abcdef"],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "toomany", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": ks(("a", "HASH"), *[(c, "RANGE") for c in "bcdef"])}}])
        self.ddb.update_table(
            TableName=name, AttributeDefinitions=[attr("id", "S"), attr("g", "S"), attr("n", "N")],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": "g_n", "Projection": {"ProjectionType": "ALL"},
                "KeySchema": ks(("g", "HASH"), ("n", "HASH"), ("id", "RANGE"))}}])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            g = self.ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]
            if g["IndexStatus"] == "ACTIVE" and not g.get("Backfilling"):
                break
            time.sleep(0.1)
        self.assertEqual(g["KeySchema"], ks(("g", "HASH"), ("n", "HASH"), ("id", "RANGE")))
        r = self.ddb.query(TableName=name, IndexName="g_n", KeyConditionExpression="g = :g AND n = :n",
                           ExpressionAttributeValues={":g": S("G1"), ":n": N(1)})
        want = [("i%02d" % i) for i in range(20) if i % 2 == 1 and i % 3 == 1 and i % 5 != 0]
        self.assertEqual([i["id"]["S"] for i in r["Items"]], want)
        self.assertEqual(g["ItemCount"], 16)


class MultiAttributeKeysDurable(ServerTestCase):
    """A multi-attribute index survives kill -9: its catalog entry and its
    entries are read back as written."""

    def test_kill_and_restart(self):
        name = "mak-durable"
        self.ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[attr("id", "S"), attr("a", "S"), attr("b", "N"), attr("c", "N"),
                                  attr("d", "S")],
            KeySchema=ks(("id", "HASH")),
            GlobalSecondaryIndexes=[{"IndexName": "abcd", "Projection": {"ProjectionType": "ALL"},
                                     "KeySchema": ks(("a", "HASH"), ("b", "HASH"), ("c", "RANGE"),
                                                     ("d", "RANGE"))}])
        for i in range(12):
            self.ddb.put_item(TableName=name, Item={"id": S("i%d" % i), "a": S("A"), "b": N(i % 2),
                                                     "c": N(-i), "d": S("d%d" % (i % 3))})
        self.server.kill()
        self.server.start()
        r = self.ddb.query(TableName=name, IndexName="abcd",
                           KeyConditionExpression="a = :a AND b = :b AND c >= :c",
                           ExpressionAttributeValues={":a": S("A"), ":b": N(0), ":c": N(-6)})
        self.assertEqual([i["id"]["S"] for i in r["Items"]], ["i6", "i4", "i2", "i0"])
        g = self.ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"][0]
        self.assertEqual(g["KeySchema"], ks(("a", "HASH"), ("b", "HASH"), ("c", "RANGE"), ("d", "RANGE")))
        self.assertEqual(g["ItemCount"], 12)


if __name__ == "__main__":
    unittest.main()
