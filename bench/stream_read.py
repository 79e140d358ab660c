#!/usr/bin/env python3
"""Server CPU of a GetRecords of 1,000 stream records beside a Query of 1,000 items.

Issue 11: GetRecords of 1,000 records is measured beside a 1,000-item Query
in the same run. Starts pogi (--in-memory unless --durable), writes one
partition of 1,000 items (`pk` S, `sk` N 0-999, a 32-byte attribute: the
shape of bench/run's Query row) into a table whose stream shows
NEW_AND_OLD_IMAGES, so its shard holds 1,000 INSERT records with their new
images; then alternates blocks of the Query of that partition and of
GetRecords (Limit 1000) from a TRIM_HORIZON iterator, each over its own
keep-alive connection, reading the server's CPU time from /proc/<pid>/stat
around every block. Both answers are checked (1,000 items, 1,000 records)
first. Prints one JSON line: CPU per call of each and their ratio.

Run: python3 bench/stream_read.py [--pogi build/pogi] [--calls 2000] [--durable]
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))

import harness  # noqa: E402
from harness import Server  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
STREAMS = "DynamoDBStreams_20120810."


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def call(server, op, body, conn=None):
    status, _, data = server.raw(body, target=op, conn=conn)
    if status != 200:
        raise SystemExit("%s failed: %d %s" % (op, status, data[:300]))
    return data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pogi", default=os.path.join(os.path.dirname(__file__), "..", "build", "pogi"))
    ap.add_argument("--calls", type=int, default=2000, help="calls of each kind")
    ap.add_argument("--blocks", type=int, default=10)
    ap.add_argument("--durable", action="store_true", help="the default storage instead of --in-memory")
    args = ap.parse_args()
    # harness read $POGI_BIN when imported: --pogi is set on it.
    harness.POGI_BIN = os.path.abspath(args.pogi)
    with Server(in_memory=not args.durable) as server:
        call(server, "CreateTable", {
            "TableName": "benchr", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}})
        for start in range(0, 1000, 25):
            call(server, "BatchWriteItem", {"RequestItems": {"benchr": [
                {"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"N": str(i)},
                                         "v": {"S": "%032d" % i}}}}
                for i in range(start, start + 25)]}})
        arn = json.loads(call(server, "DescribeTable", {"TableName": "benchr"}))["Table"]["LatestStreamArn"]
        shards = json.loads(call(server, STREAMS + "DescribeStream", {"StreamArn": arn}))
        shard = shards["StreamDescription"]["Shards"][0]["ShardId"]
        iterator = json.loads(call(server, STREAMS + "GetShardIterator", {
            "StreamArn": arn, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON"}))["ShardIterator"]
        query = json.dumps({"TableName": "benchr", "KeyConditionExpression": "pk = :p",
                            "ExpressionAttributeValues": {":p": {"S": "p"}}})
        records = json.dumps({"ShardIterator": iterator, "Limit": 1000})
        bodies = {"query": ("Query", query), "records": (STREAMS + "GetRecords", records)}
        conns = {k: server.connection() for k in bodies}
        q = json.loads(call(server, "Query", query, conns["query"]))
        r = json.loads(call(server, STREAMS + "GetRecords", records, conns["records"]))
        if q["Count"] != 1000 or "LastEvaluatedKey" in q or len(r["Records"]) != 1000:
            raise SystemExit("unexpected answers: %d items, %d records" % (q["Count"], len(r["Records"])))
        sizes = {"query": len(call(server, "Query", query, conns["query"])),
                 "records": len(call(server, STREAMS + "GetRecords", records, conns["records"]))}
        cpu = {k: 0.0 for k in bodies}
        per_block = max(1, args.calls // args.blocks)
        for b in range(args.blocks):
            # Alternate which goes first, so drift hits both alike.
            for kind in (("query", "records") if b % 2 == 0 else ("records", "query")):
                op, body = bodies[kind]
                before = cpu_seconds(server.proc.pid)
                for _ in range(per_block):
                    call(server, op, body, conns[kind])
                cpu[kind] += cpu_seconds(server.proc.pid) - before
        calls = per_block * args.blocks
        print(json.dumps({
            "storage": "durable" if args.durable else "in-memory",
            "calls": calls,
            "query_1000_items_cpu_us": round(cpu["query"] / calls * 1e6, 1),
            "getrecords_1000_records_cpu_us": round(cpu["records"] / calls * 1e6, 1),
            "ratio_getrecords_to_query": round(cpu["records"] / cpu["query"], 3) if cpu["query"] else None,
            "response_bytes": sizes,
        }))


if __name__ == "__main__":
    main()
