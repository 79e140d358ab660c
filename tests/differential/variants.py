"""The requests the differential test sends: a valid base request per
operation (some operations have a second base in the legacy, pre-expression
style, or on an index), and variants of it with one or two problems.

A variant is named by what was done to which member, so its id stays the same
from run to run and seed to seed: "PutItem:expr/drop:Item.pk",
"Query:legacy/value:KeyConditions.pk.AttributeValueList[0]=bad-number",
"Scan:expr/range:Limit=0 & enum:Select=COUNT" (two problems at once).

The kinds of mutation:
  drop:P          the member (or list element) P removed
  null:P          P sent as JSON null
  empty:P         P as "", [] or {}
  type:P=T        P as another JSON type T (number, string, object, list, bool)
  range:P=R       P out of range: lengths, 0, negative, huge, too many, duplicates
  enum:P=V        P another enum value (valid but maybe not here) or BOGUS/lowercase
  flip:P          a boolean negated
  value:P=K       the AttributeValue at P replaced by a bad one of kind K
  expr:P=K        the expression P broken: syntax, undefined name/value, reserved word, ...
  add:P           a member added: an unused name/value, or legacy and expression members mixed
  rename:P=R      a RequestItems table key renamed

variants(op, seed, count) lists the first `count` variants of op's stream:
singles in a seeded shuffle, every third one a pair of two singles on
disjoint members. The stream does not depend on count, so a smaller budget
runs a prefix of a larger one (the same seed).
"""
import copy
import random
import re

from fixture import DOOMED, HASH, MISSING, NEW, RANGE, UPDATED


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


# ---- the base requests ------------------------------------------------------

BASES = {
    "CreateTable": {
        "indexes": {
            "TableName": NEW,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"},
                                     {"AttributeName": "lsk", "AttributeType": "S"},
                                     {"AttributeName": "gk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "LocalSecondaryIndexes": [{"IndexName": "lsi",
                                       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                     {"AttributeName": "lsk", "KeyType": "RANGE"}],
                                       "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["v"]}}],
            "GlobalSecondaryIndexes": [{"IndexName": "gsi",
                                        "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
                                        "Projection": {"ProjectionType": "KEYS_ONLY"},
                                        "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        },
        "ondemand": {
            "TableName": NEW,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST",
        },
    },
    "DescribeTable": {"base": {"TableName": HASH}},
    "DeleteTable": {"base": {"TableName": DOOMED}},
    "UpdateTable": {
        "throughput": {"TableName": UPDATED, "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 10}},
        "billing": {"TableName": UPDATED, "BillingMode": "PAY_PER_REQUEST"},
    },
    "ListTables": {"base": {"ExclusiveStartTableName": "diff_a", "Limit": 10}},
    "PutItem": {
        "expr": {
            "TableName": HASH,
            "Item": {"pk": S("a"), "n": N(1), "s": S("x"), "b": {"B": "YWJj"}, "ss": {"SS": ["a", "b"]},
                     "ns": {"NS": ["1", "2"]}, "l": {"L": [S("x"), N(2)]}, "m": {"M": {"k": S("v")}},
                     "t": {"BOOL": True}, "z": {"NULL": True}},
            "ConditionExpression": "attribute_not_exists(#n) OR #n < :v",
            "ExpressionAttributeNames": {"#n": "n2"},
            "ExpressionAttributeValues": {":v": N(5)},
            "ReturnValues": "ALL_OLD",
            "ReturnConsumedCapacity": "TOTAL",
        },
        "legacy": {
            "TableName": HASH,
            "Item": {"pk": S("b"), "s": S("x")},
            "Expected": {"n2": {"Exists": False},
                         "s": {"ComparisonOperator": "NE", "AttributeValueList": [S("zzz")]}},
            "ConditionalOperator": "AND",
            "ReturnValues": "NONE",
        },
    },
    "GetItem": {
        "expr": {"TableName": HASH, "Key": {"pk": S("a")}, "ProjectionExpression": "#n, s, m.k, l[0]",
                 "ExpressionAttributeNames": {"#n": "n"}, "ConsistentRead": True, "ReturnConsumedCapacity": "TOTAL"},
        "legacy": {"TableName": RANGE, "Key": {"pk": S("a"), "sk": N(1)}, "AttributesToGet": ["v", "gk"]},
    },
    "UpdateItem": {
        "expr": {
            "TableName": HASH, "Key": {"pk": S("a")},
            "UpdateExpression": "SET #s = :s, n = n + :one ADD ns :ns REMOVE gone",
            "ConditionExpression": "attribute_exists(pk) AND size(#s) < :max",
            "ExpressionAttributeNames": {"#s": "s"},
            "ExpressionAttributeValues": {":s": S("y"), ":one": N(1), ":ns": {"NS": ["3"]}, ":max": N(100)},
            "ReturnValues": "UPDATED_NEW",
        },
        "legacy": {
            "TableName": HASH, "Key": {"pk": S("a")},
            "AttributeUpdates": {"s": {"Action": "PUT", "Value": S("y")}, "n": {"Action": "ADD", "Value": N(1)},
                                 "gone": {"Action": "DELETE"}},
            "Expected": {"pk": {"Exists": True, "Value": S("a")}},
            "ReturnValues": "ALL_NEW",
        },
    },
    "DeleteItem": {
        "expr": {"TableName": HASH, "Key": {"pk": S("b")}, "ConditionExpression": "attribute_not_exists(#s) OR #s = :s",
                 "ExpressionAttributeNames": {"#s": "s"}, "ExpressionAttributeValues": {":s": S("x")},
                 "ReturnValues": "ALL_OLD"},
        "legacy": {"TableName": RANGE, "Key": {"pk": S("a"), "sk": N(2)},
                   "Expected": {"v": {"ComparisonOperator": "EQ", "AttributeValueList": [S("y")]}}},
    },
    "Query": {
        "expr": {
            "TableName": RANGE, "KeyConditionExpression": "pk = :pk AND sk BETWEEN :lo AND :hi",
            "FilterExpression": "#v <> :x", "ProjectionExpression": "pk, sk, #v",
            "ExpressionAttributeNames": {"#v": "v"},
            "ExpressionAttributeValues": {":pk": S("a"), ":lo": N(0), ":hi": N(10), ":x": S("zzz")},
            "Limit": 10, "ScanIndexForward": False, "ExclusiveStartKey": {"pk": S("a"), "sk": N(3)},
            "ConsistentRead": True, "ReturnConsumedCapacity": "TOTAL", "Select": "SPECIFIC_ATTRIBUTES",
        },
        "legacy": {
            "TableName": RANGE, "IndexName": "lsi",
            "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("a")]},
                              "lsk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [S("l")]}},
            "QueryFilter": {"v": {"ComparisonOperator": "NOT_NULL"}},
            "AttributesToGet": ["pk", "sk", "v"], "Select": "SPECIFIC_ATTRIBUTES", "Limit": 5,
        },
        "gsi": {"TableName": RANGE, "IndexName": "gsi", "KeyConditionExpression": "gk = :g",
                "ExpressionAttributeValues": {":g": S("g1")}, "Select": "ALL_PROJECTED_ATTRIBUTES"},
    },
    "Scan": {
        "expr": {
            "TableName": RANGE, "FilterExpression": "#v IN (:x, :y) AND sk > :zero", "ProjectionExpression": "pk, #v",
            "ExpressionAttributeNames": {"#v": "v"},
            "ExpressionAttributeValues": {":x": S("x"), ":y": S("y"), ":zero": N(0)},
            "Limit": 5, "Segment": 0, "TotalSegments": 2, "ReturnConsumedCapacity": "INDEXES",
        },
        "legacy": {
            "TableName": HASH,
            "ScanFilter": {"n": {"ComparisonOperator": "GT", "AttributeValueList": [N(0)]},
                           "s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [S("x")]}},
            "ConditionalOperator": "OR", "AttributesToGet": ["pk", "n"], "ExclusiveStartKey": {"pk": S("a")},
            "Select": "SPECIFIC_ATTRIBUTES",
        },
        "index": {"TableName": RANGE, "IndexName": "gsi", "ConsistentRead": False, "Limit": 2},
    },
    "BatchGetItem": {
        "expr": {
            "RequestItems": {
                HASH: {"Keys": [{"pk": S("a")}, {"pk": S("b")}], "ProjectionExpression": "pk, #s",
                       "ExpressionAttributeNames": {"#s": "s"}, "ConsistentRead": True},
                RANGE: {"Keys": [{"pk": S("a"), "sk": N(1)}], "ProjectionExpression": "pk, v"},
            },
            "ReturnConsumedCapacity": "TOTAL",
        },
        "legacy": {
            "RequestItems": {
                HASH: {"Keys": [{"pk": S("a")}], "AttributesToGet": ["pk", "s"]},
                RANGE: {"Keys": [{"pk": S("a"), "sk": N(1)}, {"pk": S("a"), "sk": N(2)}], "AttributesToGet": ["v"],
                        "ConsistentRead": False},
            },
        },
    },
    "BatchWriteItem": {
        "base": {
            "RequestItems": {
                HASH: [{"PutRequest": {"Item": {"pk": S("c"), "s": S("x"), "n": N(3)}}},
                       {"DeleteRequest": {"Key": {"pk": S("d")}}}],
                RANGE: [{"PutRequest": {"Item": {"pk": S("b"), "sk": N(3), "v": S("z")}}}],
            },
            "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "SIZE",
        },
    },
}
OPERATIONS = list(BASES)

# ---- what the mutations put in ----------------------------------------------

ENUMS = {
    "ReturnValues": ["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"],
    "ReturnConsumedCapacity": ["INDEXES", "TOTAL", "NONE"],
    "ReturnItemCollectionMetrics": ["SIZE", "NONE"],
    "Select": ["ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"],
    "ComparisonOperator": ["EQ", "NE", "IN", "LE", "LT", "GE", "GT", "BETWEEN", "NOT_NULL", "NULL", "CONTAINS",
                           "NOT_CONTAINS", "BEGINS_WITH"],
    "ConditionalOperator": ["AND", "OR"],
    "KeyType": ["HASH", "RANGE"],
    "AttributeType": ["S", "N", "B"],
    "ProjectionType": ["ALL", "KEYS_ONLY", "INCLUDE"],
    "BillingMode": ["PROVISIONED", "PAY_PER_REQUEST"],
    "Action": ["ADD", "PUT", "DELETE"],
}

# AttributeValues that are wrong in one way each (V11, V12, S1 of dynamodb-behaviours.md and more).
BAD_VALUES = {
    "empty": {},
    "empty-SS": {"SS": []},
    "empty-NS": {"NS": []},
    "empty-BS": {"BS": []},
    "bad-number": {"N": "abc"},
    "empty-number": {"N": ""},
    "huge-number": {"N": "1e126"},
    "tiny-number": {"N": "1e-131"},
    "39-digits": {"N": "1." + "1" * 38},
    "bad-base64": {"B": "!!!!"},
    "noncanonical-base64": {"B": "YR=="},
    "NULL-false": {"NULL": False},
    "two-types": {"S": "a", "N": "1"},
    "two-types-bad-number": {"S": "a", "N": "b"},
    "dup-SS": {"SS": ["a", "a"]},
    "dup-NS": {"NS": ["1", "1.0"]},
    "bad-NS": {"NS": ["1", "b"]},
    "empty-S": {"S": ""},
    "empty-B": {"B": ""},
    "BOOL-string": {"BOOL": "true"},
    "L-object": {"L": {}},
    "M-list": {"M": []},
    "unknown-type": {"X": "1"},
    "lowercase-type": {"s": "a"},
    "as-number": {"N": "1"},
    "as-string": {"S": "1"},
    "as-list": {"L": [S("1")]},
}

LONG = {"2chars": "ab", "256chars": "t" * 256, "badchars": "bad name!"}
RANGES = {
    "TableName": dict(LONG, missing=MISSING),
    "IndexName": dict(LONG, missing="nope_index"),
    "ExclusiveStartTableName": LONG,
    "Limit": {"0": 0, "-1": -1, "2^31": 2 ** 31, "1e20": 10 ** 20, "1.5": 1.5},
    "ReadCapacityUnits": {"0": 0, "-1": -1, "1e12+1": 10 ** 12 + 1, "2^63": 2 ** 63},
    "WriteCapacityUnits": {"0": 0, "-1": -1, "1e12+1": 10 ** 12 + 1, "2^63": 2 ** 63},
    "Segment": {"-1": -1, "2": 2, "1000000": 1000000},
    "TotalSegments": {"0": 0, "1": 1, "1000001": 1000001},
    "AttributeName": {"256chars": "a" * 256},
    "NonKeyAttributes": {"21": ["n%d" % i for i in range(21)], "dup": ["v", "v"]},
    "AttributesToGet": {"dup": ["pk", "pk"], "empty-name": [""]},
    "Keys": {"101": [{"pk": S("k%d" % i)} for i in range(101)], "dup": [{"pk": S("a")}, {"pk": S("a")}]},
}
# Key values too long (2048 bytes for a partition key, 1024 for a sort key) and an item over 400 KB.
KEY_VALUE_RANGES = {"pk": {"2049bytes": S("k" * 2049)}, "sk": {"1e126": N("1e126")}}
ITEM_RANGES = {"400KB": S("x" * 409600)}

# Members that hold AttributeValue maps (name -> value) and lists of them.
VALUE_MAPS = {"Item", "Key", "ExpressionAttributeValues", "ExclusiveStartKey"}

# Legacy members to mix into expression requests, and expression members into legacy ones.
LEGACY_MEMBERS = {
    "PutItem": {"Expected": {"n2": {"Exists": False}}, "ConditionalOperator": "AND"},
    "DeleteItem": {"Expected": {"n2": {"Exists": False}}, "ConditionalOperator": "AND"},
    "UpdateItem": {"Expected": {"n2": {"Exists": False}},
                   "AttributeUpdates": {"x": {"Action": "PUT", "Value": S("y")}}, "ConditionalOperator": "AND"},
    "GetItem": {"AttributesToGet": ["pk"]},
    "Query": {"KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [S("a")]}},
              "QueryFilter": {"v": {"ComparisonOperator": "NOT_NULL"}}, "AttributesToGet": ["pk"],
              "ConditionalOperator": "OR"},
    "Scan": {"ScanFilter": {"v": {"ComparisonOperator": "NOT_NULL"}}, "AttributesToGet": ["pk"],
             "ConditionalOperator": "OR"},
}
EXPRESSION_MEMBERS = {
    "PutItem": {"ConditionExpression": "attribute_exists(pk)"},
    "DeleteItem": {"ConditionExpression": "attribute_exists(pk)"},
    "UpdateItem": {"UpdateExpression": "REMOVE z", "ConditionExpression": "attribute_exists(pk)"},
    "GetItem": {"ProjectionExpression": "pk"},
    "Query": {"KeyConditionExpression": "pk = :pk", "FilterExpression": "attribute_exists(v)",
              "ProjectionExpression": "pk"},
    "Scan": {"FilterExpression": "attribute_exists(v)", "ProjectionExpression": "pk"},
}


def broken_expressions(member, expr):
    """{kind: broken expression} for the expression member `member` whose value is expr."""
    first_value = (re.findall(r":\w+", expr) or [":undefined"])[0]
    long = " OR ".join(["attribute_exists(a%d)" % i for i in range(260)])  # > 4 KB
    if member == "ProjectionExpression":
        return {"syntax": expr + ",", "undefined-name": expr + ", #undefined", "reserved-word": expr + ", status",
                "long": ", ".join("a%d" % i for i in range(900)), "nested-key": "pk.x"}
    if member == "UpdateExpression":
        rest = expr[4:] if expr.startswith("SET ") else "REMOVE zz"
        return {"syntax": expr.replace("=", "==", 1) if "=" in expr else expr + " =",
                "undefined-name": "SET #undefined = %s, %s" % (first_value, rest),
                "undefined-value": "SET x = :undefined, " + rest,
                "reserved-word": "SET status = %s, %s" % (first_value, rest),
                "bad-function": "SET x = dog(%s), %s" % (first_value, rest),
                "two-sections": expr + " SET y = " + first_value,
                "key-attribute": "SET pk = " + first_value,
                "long": "REMOVE " + ", ".join("a%d" % i for i in range(900))}
    if member == "KeyConditionExpression":
        return {"syntax": "(" + expr,
                "undefined-name": re.sub(r"^\w+", "#undefined", expr),
                "undefined-value": expr.replace(first_value, ":undefined", 1),
                "reserved-word": re.sub(r"^\w+", "status", expr),
                "invalid-operator": "(%s) AND attribute_exists(v)" % expr,
                "or": expr.replace(" AND ", " OR ", 1) if " AND " in expr else expr + " OR pk = " + first_value,
                "hash-not-eq": re.sub(r"^(\w+) = ", r"\1 > ", expr),
                "long": long}
    # ConditionExpression, FilterExpression
    return {"syntax": "(" + expr,
            "undefined-name": "(%s) AND attribute_exists(#undefined)" % expr,
            "undefined-value": "(%s) AND s = :undefined" % expr,
            "reserved-word": "(%s) AND attribute_exists(status)" % expr,
            "bad-function": "(%s) AND dog(s)" % expr,
            "update-function": "(%s) AND if_not_exists(s, %s) = %s" % (expr, first_value, first_value),
            "long": long}


# ---- mutations --------------------------------------------------------------

class Mutation:
    """One change to a request: kind ("set", "drop", "rename") at path, with value."""

    __slots__ = ("name", "path", "kind", "value")

    def __init__(self, name, path, kind, value=None):
        self.name, self.path, self.kind, self.value = name, tuple(path), kind, value

    def apply(self, request):
        """Changes request (a deep copy the caller owns) in place."""
        parent = request
        for step in self.path[:-1]:
            parent = parent[step]
        last = self.path[-1]
        if self.kind == "drop":
            del parent[last]
        elif self.kind == "set":
            parent[last] = copy.deepcopy(self.value)
        elif self.kind == "rename":
            # Keeps the member's place, so the JSON order is the base's.
            items = [(self.value if k == last else k, v) for k, v in parent.items()]
            parent.clear()
            parent.update(items)

    def touches(self, other):
        """Whether the two change the same member, or one a member inside the other's."""
        n = min(len(self.path), len(other.path))
        return self.path[:n] == other.path[:n]


def path_text(path):
    out = ""
    for step in path:
        out += "[%d]" % step if isinstance(step, int) else ("." if out else "") + str(step)
    return out


def _wrong_types(value):
    """{type name: a value of another JSON type}."""
    if isinstance(value, bool):
        return {"string": "true", "number": 1}
    if isinstance(value, (int, float)):
        return {"string": str(value), "bool": True}
    if isinstance(value, str):
        return {"number": 7, "object": {"a": value}}
    if isinstance(value, list):
        return {"string": "x", "object": {}}
    return {"string": "x", "list": []}


def _empty(value):
    return {str: "", list: [], dict: {}}.get(type(value))


def _walk(node, path, children_are_values=False):
    """(path, value, is_attribute_value) for every member and list element under node."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for k, v in items:
        p = path + (k,)
        # AttributeValues: the members of Item, Key, ...; Expected's and AttributeUpdates' Value;
        # AttributeValueList's elements; the members of each of Keys' maps.
        is_av = children_are_values or k == "Value"
        yield p, v, is_av
        if is_av:
            yield from _walk_attribute_value(v, p)
        else:
            holds_values = (k in VALUE_MAPS or k == "AttributeValueList"
                            or (isinstance(k, int) and path[-1:] == ("Keys",)))
            yield from _walk(v, p, holds_values)


def _walk_attribute_value(av, path):
    """The type members of an AttributeValue, and the AttributeValues inside an M or L."""
    if not isinstance(av, dict):
        return
    for type_name, inner in av.items():
        yield path + (type_name,), inner, False
        if type_name in ("M", "L"):
            yield from _walk(inner, path + (type_name,), True)


def single_mutations(op, request):
    """Every one-problem mutation of request (op's base), in a fixed order."""
    out = []

    def add(name, path, kind, value=None):
        out.append(Mutation(name, path, kind, value))

    for path, value, is_av in _walk(request, ()):
        p = path_text(path)
        name = path[-1]
        is_member = isinstance(name, str)
        # Structure: absent, null, empty, the wrong JSON type.
        add("drop:" + p, path, "drop")
        if is_member and not is_av:
            # (A null AttributeValue inside Item/Key/... kills dynalite's process: not sent.)
            add("null:" + p, path, "set", None)
        if _empty(value) is not None and value != _empty(value):
            add("empty:" + p, path, "set", _empty(value))
        for tname, wrong in _wrong_types(value).items():
            add("type:%s=%s" % (p, tname), path, "set", wrong)
        if isinstance(value, bool):
            add("flip:" + p, path, "set", not value)
        # Values out of range, for the members that have a range.
        for rname, bad in RANGES.get(name, {}).items():
            add("range:%s=%s" % (p, rname), path, "set", bad)
        if is_av and len(path) >= 2 and (path[-2] in ("Key", "Item", "ExclusiveStartKey")
                                         or (isinstance(path[-2], int) and path[-3] == "Keys")):
            for rname, bad in KEY_VALUE_RANGES.get(name, {}).items():
                add("range:%s=%s" % (p, rname), path, "set", bad)
        if is_av and len(path) >= 2 and path[-2] == "Item" and name == "s":
            for rname, bad in ITEM_RANGES.items():
                add("range:%s=%s" % (p, rname), path, "set", bad)
        # Enum members: every other valid value (valid, but maybe not here), and invalid ones.
        if name in ENUMS and isinstance(value, str):
            for v in ENUMS[name]:
                if v != value:
                    add("enum:%s=%s" % (p, v), path, "set", v)
            add("enum:%s=BOGUS" % p, path, "set", "BOGUS")
            add("enum:%s=lowercase" % p, path, "set", value.lower())
        # AttributeValues: each bad kind.
        if is_av:
            for kname, bad in BAD_VALUES.items():
                add("value:%s=%s" % (p, kname), path, "set", bad)
        # Expressions: each way to break one.
        if isinstance(name, str) and name.endswith("Expression") and isinstance(value, str):
            for kname, broken in broken_expressions(name, value).items():
                add("expr:%s=%s" % (p, kname), path, "set", broken)
        # A RequestItems table: renamed to a bad or missing name.
        if len(path) == 2 and path[0] == "RequestItems":
            for rname, bad in RANGES["TableName"].items():
                add("rename:%s=%s" % (p, rname), path, "rename", bad)
        # BatchWriteItem: too many requests for a table.
        if len(path) == 2 and path[0] == "RequestItems" and isinstance(value, list) and value:
            add("range:%s=26" % p, path, "set", [copy.deepcopy(value[0]) for _ in range(26)])
    out += _additions(op, request)
    return out


def _additions(op, request):
    """add: mutations: unused names and values, and the legacy/expression mix."""
    out = []
    if op not in LEGACY_MEMBERS and op != "BatchGetItem":
        return out
    for container in _expression_containers(request):
        for member, key, value in (("ExpressionAttributeNames", "#unused", "u"),
                                   ("ExpressionAttributeValues", ":unused", S("u"))):
            if member in container[1]:
                path = container[0] + (member, key)
                out.append(Mutation("add:" + path_text(path), path, "set", value))
            else:
                path = container[0] + (member,)
                out.append(Mutation("add:" + path_text(path), path, "set", {key: value}))
    has_expressions = any(k.endswith("Expression") for k in request)
    mix = LEGACY_MEMBERS if has_expressions else EXPRESSION_MEMBERS
    for member, value in mix.get(op, {}).items():
        if member not in request:
            out.append(Mutation("add:" + member, (member,), "set", value))
    # BatchGetItem: the other style in one table's entry (each entry is checked on its own).
    for path, entry in _expression_containers(request)[1:]:
        member, value = (("AttributesToGet", ["pk"]) if "ProjectionExpression" in entry
                         else ("ProjectionExpression", "pk"))
        out.append(Mutation("add:" + path_text(path + (member,)), path + (member,), "set", value))
    return out


def _expression_containers(request):
    """(path, dict) of the request and of each BatchGetItem table entry: where expressions live."""
    out = [((), request)]
    for table, entry in (request.get("RequestItems") or {}).items():
        if isinstance(entry, dict):
            out.append((("RequestItems", table), entry))
    return out


class Variant:
    """One request to send: its stable id and body."""

    __slots__ = ("id", "op", "request")

    def __init__(self, id_, op, request):
        self.id, self.op, self.request = id_, op, request


def _build(op, base_name, mutations):
    request = copy.deepcopy(BASES[op][base_name])
    # Drops last, the later list elements first, so no drop shifts another mutation's index.
    drops = sorted((m for m in mutations if m.kind == "drop"), reverse=True,
                   key=lambda m: [(0, s) if isinstance(s, int) else (1, s) for s in m.path])
    for m in [m for m in mutations if m.kind != "drop"] + drops:
        m.apply(request)
    names = sorted(m.name for m in mutations)
    return Variant("%s:%s/%s" % (op, base_name, " & ".join(names)), op, request)


def variants(op, seed, count):
    """The first `count` variants of op's stream for this seed (see the module comment)."""
    rng = random.Random("%s/%s" % (seed, op))
    singles = [(b, m) for b, req in BASES[op].items() for m in single_mutations(op, req)]
    order = singles[:]
    rng.shuffle(order)
    out, seen, next_single = [], set(), 0
    tries = 0
    while len(out) < count:
        if (len(out) % 3 == 2 or next_single >= len(order)) and tries < 100000:
            # Two problems at once: two singles of the same base, on disjoint members.
            tries += 1
            (b1, m1), (b2, m2) = rng.choice(singles), rng.choice(singles)
            if b1 != b2 or m1.touches(m2):
                continue
            v = _build(op, b1, [m1, m2])
        elif next_single < len(order):
            b, m = order[next_single]
            next_single += 1
            v = _build(op, b, [m])
        else:
            break
        if v.id not in seen:
            seen.add(v.id)
            out.append(v)
    return out


def base_variants(op):
    """The unmutated bases: both servers must accept them (a check of the fixture)."""
    return [Variant("%s:%s/base" % (op, b), op, copy.deepcopy(req)) for b, req in BASES[op].items()]
