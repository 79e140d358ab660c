"""What every stage of pogi's bench shares: where things are, the fixed
request shapes and table names (every server gets the same requests), the
names of the figures measured against the ceiling, and the log line."""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HOST = "127.0.0.1"
PEERS_DIR = os.path.join(HERE, ".peers")
BUILD_DIR = os.path.join(HERE, "build")

# The request shapes. Kept small and fixed so every server gets the same.
PUT_TABLE = "bench"
QUERY_TABLE = "benchq"
GROWTH_TABLE = "benchg"
AB_KEY = "ab-put-key"
GET_KEY = "get-key"
QUERY_PK = "q"
QUERY_ITEMS = 1000
# Query scale (issue 5): the same Query page on a 10-item table and on a
# 10,000-item partition of a 1,000,000-item table.
QS_SMALL_TABLE = "benchs10"
QS_BIG_TABLE = "benchsbig"
QS_BIG_PART = 10000
QS_PAGE = 10
QS_CONNS = 4
QS_SERVERS = ("pogi", "pogi-mem", "dynalite")  # peers: in-memory dynalite only
QS_BAR = "Query page 10 vs 1 M"
CEILING_RATES = ("ab_put_c8", "wrk_put_c8", "wrk_get_c8", "wrk_query_c8")
CEILING_MEANS = ("ab_c1", "wrk_c1")


def put_body(pk):
    return json.dumps({"TableName": PUT_TABLE, "Item": {
        "pk": {"S": pk}, "n": {"N": "42"},
        "s": {"S": "hello from the pogi bench"}}}, separators=(",", ":"))


GET_ITEM = {"pk": {"S": GET_KEY}, "n": {"N": "7"}, "data": {"S": "d" * 256}}
GET_BODY = json.dumps({"TableName": PUT_TABLE, "Key": {"pk": {"S": GET_KEY}}},
                      separators=(",", ":"))


def query_item(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "v": {"S": "v" * 32}}


def query_body(table):
    return json.dumps({
        "TableName": table, "KeyConditionExpression": "pk = :p",
        "ExpressionAttributeValues": {":p": {"S": QUERY_PK}}},
        separators=(",", ":"))


def compact_len(obj):
    return len(json.dumps(obj, separators=(",", ":")).encode())


# What a DynamoDB-shaped answer weighs, for the null server's sized bodies.
GET_RESPONSE_BYTES = compact_len({"Item": GET_ITEM})
QUERY_RESPONSE_BYTES = compact_len({
    "Items": [query_item(QUERY_PK, i) for i in range(QUERY_ITEMS)],
    "Count": QUERY_ITEMS, "ScannedCount": QUERY_ITEMS})


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr,
          flush=True)

