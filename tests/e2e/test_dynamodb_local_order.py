"""pogi answers in DynamoDB Local's order, compared with DynamoDB Local itself.

Test suites written against DynamoDB Local compare Object.keys(item) and set
members as arrays, so pogi gives every item's attributes, every map's
entries and every set's members the order DynamoDB Local gives them
(service/value/attribute_order.h says what that order is). This test sends
the same request bytes to pogi and to DynamoDB Local 3.3.1
(tests/dynamodb_local_server.py) and compares the answers with every JSON
object's members in the order they came: random items of 1 to 200
attributes (ASCII and non-ASCII names, characters above U+FFFF, names of
equal Java hash), nested maps, lists, sets of every type, through PutItem,
GetItem (with and without a projection), UpdateItem (SET, nested SET,
REMOVE, ADD and DELETE on sets, each ReturnValues), DeleteItem, Query, Scan,
BatchGetItem and TransactGetItems. Zero differences pass.

Skipped where java, node or npm are missing (./dev test installs them), and
through `pogi gateway` (POGI_TEST_DOOR=gateway): see docs/operations.md.
"""
import base64
import json
import os
import random
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "differential"))
import dynamodb_local_server  # noqa: E402
import harness  # noqa: E402
import wire  # noqa: E402

SEED = 43
ITEMS = 120  # items written, each then updated and read back
TABLE = "order_test"

# Strings of the blocks "Aa" and "BB" share Java's String.hashCode, so names
# made of them share every HashMap bucket: only the order they were put in
# tells them apart.
COLLIDING = ["k" + a + b + c for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB")]
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.é中ß😀～"


def parse(body):
    """A JSON answer with every object as a list of (name, value) pairs, in order."""
    return json.loads(body, object_pairs_hook=list)


class Generator:
    """Random items and updates, the same for both servers (fixed seed)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def name(self, colliding=True):
        if colliding and self.rng.random() < 0.1:
            return self.rng.choice(COLLIDING)
        length = self.rng.randint(1, 12)
        return "".join(self.rng.choice(ALPHABET) for _ in range(length))

    def names(self, count, taken=()):
        """`count` new names; at most four of one Java hash code in a map:
        Java keeps a bucket of more than eight entries as a tree, an order
        pogi does not follow (service/value/attribute_order.h)."""
        out = []
        seen = set(taken)
        while len(out) < count:
            n = self.name(colliding=sum(1 for s in seen if s in COLLIDING) < 4)
            if n not in seen:
                seen.add(n)
                out.append(n)
        return out

    def number(self):
        if self.rng.random() < 0.5:
            return str(self.rng.randint(-100000, 100000))
        whole, frac = self.rng.randint(-999, 999), self.rng.randint(1, 99)
        return "%s%d.%d" % ("-" if whole < 0 else "", abs(whole), frac if frac % 10 else frac + 1)

    def string(self):
        return "".join(self.rng.choice(ALPHABET) for _ in range(self.rng.randint(1, 8)))

    def binary(self):
        return base64.b64encode(bytes(self.rng.randint(0, 255) for _ in range(self.rng.randint(1, 6)))).decode()

    def set_value(self, kind):
        count = self.rng.randint(1, 8)
        make = {"SS": self.string, "NS": self.number, "BS": self.binary}[kind]
        members, canonical = [], set()
        while len(members) < count:
            m = make()
            key = float(m) if kind == "NS" else m
            if key not in canonical:
                canonical.add(key)
                members.append(m)
        return {kind: members}

    def value(self, depth=0):
        kinds = ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS"] + (["M", "M", "L"] if depth < 3 else [])
        kind = self.rng.choice(kinds)
        if kind == "S":
            return {"S": self.string()}
        if kind == "N":
            return {"N": self.number()}
        if kind == "B":
            return {"B": self.binary()}
        if kind == "BOOL":
            return {"BOOL": self.rng.random() < 0.5}
        if kind == "NULL":
            return {"NULL": True}
        if kind in ("SS", "NS", "BS"):
            return self.set_value(kind)
        if kind == "M":
            return {"M": self.map(self.rng.randint(1, 20), depth + 1)}
        return {"L": [self.value(depth + 1) for _ in range(self.rng.randint(0, 4))]}

    def map(self, count, depth=0):
        return {n: self.value(depth) for n in self.names(count)}

    def item(self, pk, sk):
        size = self.rng.choice([1, 2, 3, 5, 8, 12, 13, 24, 25, 40, 48, 49, 100, 200, self.rng.randint(1, 200)])
        attrs = self.map(max(size - 2, 0))
        attrs["pk"] = {"S": pk}
        attrs["sk"] = {"N": str(sk)}
        keys = list(attrs)
        self.rng.shuffle(keys)  # the request's order is the client's
        return {k: attrs[k] for k in keys}


@harness.direct_only("pogi gateway reaches the engine over gRPC, whose protobuf maps do not carry the "
                     "order a request wrote an item's attributes in; answers keep their order through it")
class DynamoDBLocalOrderTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = dynamodb_local_server.problem()
        if why:
            raise unittest.SkipTest(why)
        cls.reference = dynamodb_local_server.DynamoDBLocal().start()
        cls.server = harness.Server(in_memory=True).start()
        cls.pogi = wire.Client(cls.server.port)
        cls.local = wire.Client(cls.reference.port)
        cls.differences = []

    @classmethod
    def tearDownClass(cls):
        cls.pogi.close()
        cls.local.close()
        cls.server.cleanup()
        cls.reference.cleanup()

    def both(self, op, request, normalize=None):
        """Sends `request` to both servers and records any difference of
        status or body, member order included. Returns pogi's answer."""
        body = json.dumps(request).encode()
        (s1, b1), (s2, b2) = self.pogi.exchange(op, body), self.local.exchange(op, body)
        # The answer's own members may come in any order (no SDK sees it);
        # what is inside them is compared as it came.
        a1, a2 = sorted_members(parse(b1)), sorted_members(parse(b2))
        if normalize:
            a1, a2 = normalize(a1), normalize(a2)
        if s1 != s2 or (s1 == 200 and a1 != a2):
            where, mine, theirs = first_difference(a1, a2)
            self.differences.append({"op": op, "at": where, "pogi": [s1, mine], "dynamodb_local": [s2, theirs],
                                     "request": request})
        return s1, a1

    def create_table(self):
        request = {
            "TableName": TABLE,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "BillingMode": "PAY_PER_REQUEST",
        }
        body = json.dumps(request).encode()
        for client in (self.pogi, self.local):
            status, answer = client.exchange("CreateTable", body)
            self.assertEqual(status, 200, answer)

    def scan_all(self, client):
        """Every item of the table by Scan, page after page, in key order:
        the servers walk partitions in different orders and cut pages at
        different sizes, which no client can count on; each item's own order
        is what is compared."""
        items, start = [], None
        while True:
            request = {"TableName": TABLE}
            if start:
                request["ExclusiveStartKey"] = start
            status, body = client.exchange("Scan", json.dumps(request).encode())
            self.assertEqual(status, 200, body)
            answer = parse(body)
            items += dict(answer)["Items"]
            last = dict(answer).get("LastEvaluatedKey")
            if not last:
                return sorted(items, key=key_of)
            start = pairs_to_dict(last)

    def update_for(self, gen, key, item):
        """A valid random UpdateItem of `item`: new attributes, new values,
        a nested SET, REMOVE, ADD and DELETE on sets."""
        rng = gen.rng
        names, values, sets, removes, adds, deletes = {}, {}, [], [], [], []

        def name_ref(n):
            ref = "#n%d" % len(names)
            names[ref] = n
            return ref

        def value_ref(v):
            ref = ":v%d" % len(values)
            values[ref] = v
            return ref

        others = [n for n in item if n not in ("pk", "sk")]
        rng.shuffle(others)
        used = set()
        taken = set(item)  # no two paths of one update may overlap

        def new_names(count):
            fresh = gen.names(count, taken=taken)
            taken.update(fresh)
            return fresh

        for n in new_names(rng.randint(0, 4)):
            sets.append("%s = %s" % (name_ref(n), value_ref(gen.value())))
        for n in others[:rng.randint(0, 3)]:
            used.add(n)
            v = item[n]
            if "M" in v and v["M"] and rng.random() < 0.6:
                inner = gen.names(1, taken=v["M"])[0] if rng.random() < 0.5 else next(iter(v["M"]))
                sets.append("%s.%s = %s" % (name_ref(n), name_ref(inner), value_ref(gen.value(1))))
            elif kind_of(v) in ("SS", "NS", "BS") and rng.random() < 0.7:
                more = gen.set_value(kind_of(v))
                adds.append("%s %s" % (name_ref(n), value_ref(more)))
            elif kind_of(v) in ("SS", "NS", "BS"):
                members = v[kind_of(v)]
                gone = rng.sample(members, rng.randint(1, len(members)))
                deletes.append("%s %s" % (name_ref(n), value_ref({kind_of(v): gone})))
            else:
                sets.append("%s = %s" % (name_ref(n), value_ref(gen.value())))
        for n in others[3:3 + rng.randint(0, 2)]:
            if n not in used:
                removes.append(name_ref(n))
        if rng.random() < 0.3:
            adds.append("%s %s" % (name_ref(new_names(1)[0]), value_ref(gen.set_value("SS"))))
        clauses = []
        for word, parts in (("SET", sets), ("REMOVE", removes), ("ADD", adds), ("DELETE", deletes)):
            if parts:
                clauses.append(word + " " + ", ".join(parts))
        if not clauses:
            clauses.append("SET %s = %s" % (name_ref("touched"), value_ref({"N": "1"})))
        # UPDATED_NEW and UPDATED_OLD of a nested path: DynamoDB answers the
        # path, DynamoDB Local the whole top-level attribute (pogi answers as
        # DynamoDB), so those are asked of top-level paths only.
        nested = any("." in part for part in sets)
        choices = ["ALL_NEW", "ALL_OLD"] if nested else ["ALL_NEW", "ALL_NEW", "UPDATED_NEW", "UPDATED_OLD", "ALL_OLD"]
        request = {"TableName": TABLE, "Key": key, "UpdateExpression": " ".join(clauses),
                   "ExpressionAttributeNames": names, "ReturnValues": rng.choice(choices)}
        if values:
            request["ExpressionAttributeValues"] = values
        return request

    def projection_for(self, gen, key, item):
        rng = gen.rng
        chosen = rng.sample(list(item), rng.randint(1, min(len(item), 10)))
        names = {"#p%d" % i: n for i, n in enumerate(chosen)}
        paths = []
        for ref, n in list(names.items()):
            v = item[n]
            if "M" in v and v["M"] and rng.random() < 0.5:
                inner = list(v["M"])[: rng.randint(1, len(v["M"]))]
                for j, m in enumerate(inner):
                    names["%s_%d" % (ref, j)] = m
                    paths.append("%s.%s_%d" % (ref, ref, j))
            else:
                paths.append(ref)
        return {"TableName": TABLE, "Key": key, "ProjectionExpression": ", ".join(paths),
                "ExpressionAttributeNames": names}

    def test_same_order_as_dynamodb_local(self):
        gen = Generator(SEED)
        self.create_table()
        keys = []
        for i in range(ITEMS):
            pk, sk = "p%d" % (i % 15), i
            key = {"pk": {"S": pk}, "sk": {"N": str(sk)}}
            keys.append(key)
            item = gen.item(pk, sk)
            self.both("PutItem", {"TableName": TABLE, "Item": item})
            self.both("GetItem", {"TableName": TABLE, "Key": key})
            status, answer = self.both("UpdateItem", self.update_for(gen, key, item))
            self.assertEqual(status, 200, answer)
            status, got = self.both("GetItem", {"TableName": TABLE, "Key": key, "ConsistentRead": True})
            current = json.loads(json.dumps(pairs_to_dict(got)))["Item"]
            self.both("GetItem", self.projection_for(gen, key, current))
            if i % 10 == 9:
                self.both("PutItem", {"TableName": TABLE, "Item": gen.item(pk, sk), "ReturnValues": "ALL_OLD"})
        for p in range(15):
            self.both("Query", {"TableName": TABLE, "KeyConditionExpression": "pk = :p",
                                "ExpressionAttributeValues": {":p": {"S": "p%d" % p}}})
        mine, theirs = self.scan_all(self.pogi), self.scan_all(self.local)
        if mine != theirs:
            where, a, b = first_difference(mine, theirs)
            self.differences.append({"op": "Scan", "at": where, "pogi": a, "dynamodb_local": b})
        for start in range(0, len(keys), 25):
            batch = {"RequestItems": {TABLE: {"Keys": keys[start:start + 25]}}}
            self.both("BatchGetItem", batch, normalize=sorted_batch)
        self.both("TransactGetItems", {"TransactItems": [{"Get": {"TableName": TABLE, "Key": k}} for k in keys[:25]]})
        for k in keys[::7]:
            self.both("DeleteItem", {"TableName": TABLE, "Key": k, "ReturnValues": "ALL_OLD"})
        if self.differences:
            shown = json.dumps(self.differences[:3], ensure_ascii=False)[:6000]
            if os.environ.get("POGI_ORDER_DUMP"):
                with open(os.environ["POGI_ORDER_DUMP"], "w") as f:
                    json.dump(self.differences, f, ensure_ascii=False, indent=1)
            self.fail("%d answers differ from DynamoDB Local's; the first: %s" % (len(self.differences), shown))


def kind_of(value):
    return next(iter(value))


def pairs_to_dict(pairs):
    """An answer parsed as pairs, back into dicts (order kept)."""
    if isinstance(pairs, list) and all(isinstance(p, tuple) and len(p) == 2 for p in pairs) and pairs:
        return {k: pairs_to_dict(v) for k, v in pairs}
    if isinstance(pairs, list):
        return [pairs_to_dict(p) for p in pairs]
    return pairs


def first_difference(a, b, path="$"):
    """Where two parsed answers first differ: (path, a's part, b's part)."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, tuple):
        if a[0] != b[0]:
            return path, a[0], b[0]
        return first_difference(a[1], b[1], path + "." + str(a[0]))
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                if isinstance(x, tuple) and isinstance(y, tuple) and x[0] != y[0]:
                    # An object's members in another order: show both orders.
                    return path, [p[0] for p in a], [p[0] for p in b]
                return first_difference(x, y, "%s[%d]" % (path, i))
        if len(a) != len(b):
            return path, a, b
        return path, None, None
    return path, a, b


def sorted_members(answer):
    if isinstance(answer, list) and all(isinstance(p, tuple) for p in answer):
        return sorted(answer, key=lambda p: p[0])
    return answer


def key_of(item):
    return json.dumps([v for k, v in item if k in ("pk", "sk")])


def sorted_batch(answer):
    """BatchGetItem's items by key (DynamoDB answers them in no set order)."""
    out = []
    for k, v in answer:
        if k == "Responses":
            v = [(table, sorted(items, key=key_of)) for table, items in v]
        out.append((k, v))
    return out


if __name__ == "__main__":
    unittest.main()
