"""The tables and items both servers hold before the variants run, and how a
server is put back into that state after a variant changed it.

Every variant is sent to both servers in the same order, so their states stay
alike as long as they answer alike; when a write succeeds on either one, the
state it touched is restored on both before the next variant, so a difference
never leaks into the answers of the variants after it.
"""
import time

HASH = "diff_hash"        # pk S, on demand: the item operations' table
RANGE = "diff_range"      # pk S + sk N, LSI `lsi` (pk, lsk), GSI `gsi` (gk): queries and scans
UPDATED = "diff_upd"      # provisioned 5/5: UpdateTable's target
DOOMED = "diff_doomed"    # DeleteTable's target
NEW = "diff_new"          # CreateTable's base request creates it
MISSING = "diff_missing"  # never exists


def _attrs(*pairs):
    return [{"AttributeName": n, "AttributeType": t} for n, t in pairs]


def _keys(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


TABLES = [
    {"TableName": HASH, "AttributeDefinitions": _attrs(("pk", "S")), "KeySchema": _keys(("pk", "HASH")),
     "BillingMode": "PAY_PER_REQUEST"},
    {"TableName": RANGE, "AttributeDefinitions": _attrs(("pk", "S"), ("sk", "N"), ("lsk", "S"), ("gk", "S")),
     "KeySchema": _keys(("pk", "HASH"), ("sk", "RANGE")),
     "LocalSecondaryIndexes": [{"IndexName": "lsi", "KeySchema": _keys(("pk", "HASH"), ("lsk", "RANGE")),
                                "Projection": {"ProjectionType": "ALL"}}],
     "GlobalSecondaryIndexes": [{"IndexName": "gsi", "KeySchema": _keys(("gk", "HASH")),
                                 "Projection": {"ProjectionType": "ALL"}}],
     "BillingMode": "PAY_PER_REQUEST"},
    {"TableName": UPDATED, "AttributeDefinitions": _attrs(("pk", "S")), "KeySchema": _keys(("pk", "HASH")),
     "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
    {"TableName": DOOMED, "AttributeDefinitions": _attrs(("pk", "S")), "KeySchema": _keys(("pk", "HASH")),
     "BillingMode": "PAY_PER_REQUEST"},
]
TABLE_BY_NAME = {t["TableName"]: t for t in TABLES}

ITEMS = [
    (HASH, {"pk": {"S": "a"}, "n": {"N": "1"}, "s": {"S": "x"}, "b": {"B": "YWJj"}, "ss": {"SS": ["a", "b"]},
            "ns": {"NS": ["1", "2"]}, "l": {"L": [{"S": "x"}, {"N": "2"}]}, "m": {"M": {"k": {"S": "v"}}},
            "t": {"BOOL": True}, "z": {"NULL": True}}),
    (HASH, {"pk": {"S": "b"}, "s": {"S": "x"}}),
    (RANGE, {"pk": {"S": "a"}, "sk": {"N": "1"}, "lsk": {"S": "l1"}, "gk": {"S": "g1"}, "v": {"S": "x"}}),
    (RANGE, {"pk": {"S": "a"}, "sk": {"N": "2"}, "lsk": {"S": "l2"}, "gk": {"S": "g1"}, "v": {"S": "y"}}),
]

# The operations whose success changes what a server holds.
WRITES = {"CreateTable", "DeleteTable", "UpdateTable", "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"}


def _must(answer, what):
    if answer.status != 200:
        raise RuntimeError("fixture: %s failed: %r" % (what, answer))


def _wait(client, name, gone, timeout=10):
    """Until DescribeTable says the table is gone (or ACTIVE)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, doc = client.call_json("DescribeTable", {"TableName": name})
        if gone and status == 400 and "ResourceNotFoundException" in str(doc.get("__type")):
            return
        if not gone and status == 200 and doc["Table"]["TableStatus"] == "ACTIVE":
            return
        time.sleep(0.02)
    raise RuntimeError("fixture: table %s did not become %s" % (name, "gone" if gone else "ACTIVE"))


def create_table(client, request):
    _must(client.call("CreateTable", request), "CreateTable " + request["TableName"])
    _wait(client, request["TableName"], gone=False)


def _settle(client, name, timeout=10):
    """Until the table is no longer CREATING (it may be ACTIVE, DELETING or gone)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, doc = client.call_json("DescribeTable", {"TableName": name})
        if status != 200 or doc["Table"]["TableStatus"] != "CREATING":
            return
        time.sleep(0.02)
    raise RuntimeError("fixture: table %s stayed CREATING" % name)


def delete_table(client, name):
    # A table still CREATING cannot be deleted yet (dynalite answers
    # ResourceInUseException); one a variant already deleted may still be
    # DELETING, or gone.
    _settle(client, name)
    client.call("DeleteTable", {"TableName": name})
    _wait(client, name, gone=True)


def put_items(client):
    for table, item in ITEMS:
        _must(client.call("PutItem", {"TableName": table, "Item": item}), "PutItem into " + table)


def setup(client):
    """The fixture's tables and items, on a fresh server."""
    for t in TABLES:
        create_table(client, t)
    put_items(client)


def restore(client, op, request):
    """After `request` (op) succeeded on this server: the fixture's state again."""
    if op == "CreateTable":
        name = request.get("TableName")
        if isinstance(name, str) and name not in TABLE_BY_NAME:
            delete_table(client, name)
    elif op in ("DeleteTable", "UpdateTable"):
        # The target is gone or changed: made again from scratch.
        for name in (DOOMED, UPDATED):
            a = client.call("DescribeTable", {"TableName": name})
            if a.status == 200:
                delete_table(client, name)
            create_table(client, TABLE_BY_NAME[name])
    else:
        put_items(client)
