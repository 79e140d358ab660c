#!/usr/bin/env python3
"""Instructions per PutItem, counted by valgrind's callgrind: repeatable to a
fraction of a percent whatever else the machine is doing, so it can tell
whether a change moved the hot path when timings on a busy machine cannot.

  bench/instructions.py [--stream VIEW] [--op GetItem] [--vector D [--vector-index]]
                        BINARY [pogi start flags...]

Starts `BINARY start --in-memory` under callgrind twice, sends N1 and then N2
PutItem calls over one keep-alive connection, and prints the difference of
the two totals divided by N2 - N1: start-up and shutdown cancel out. Every
call changes its item (an unchanged item writes no stream record). With
--stream VIEW the table has a stream of that view type (NEW_AND_OLD_IMAGES...).
With --vector D every PutItem also carries a vector of D numbers (another one
each call), and with --vector-index the table has a COSINE vector index on it:
the two runs give what the index adds to the same writes.
With --op GetItem both runs first put the same 100 items, then send N1 and N2
GetItem calls over them (an eventually consistent read, as SDKs default to).
Only 127.0.0.1 is used. Needs valgrind (Debian's package).
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile

N1, N2 = 200, 1200
AUTH = ("AWS4-HMAC-SHA256 Credential=pogi/20260101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=00")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def vector_components(dims):
    """2 x dims numbers as JSON; the vector of call i is dims of them from i on."""
    return ['{"N":"%s"}' % repr(round(((j * 7919) % 2001 - 1000) / 1000.0, 3)) for j in range(2 * dims)]


def total_instructions(binary, calls, extra, stream_view, op="PutItem", vector=None):
    """vector: None, or (dims, with_index)."""
    port, grpc_port = free_port(), free_port()
    out = tempfile.mktemp(prefix="pogi-callgrind-")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary,
                             "start", "--in-memory", "--port", str(port), "--grpc-port",
                             str(grpc_port)] + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        if proc.stdout.readline() != b"Ready.\n":
            raise SystemExit("pogi did not start under valgrind")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

        def call(op, body):
            conn.request("POST", "/", body=body if isinstance(body, str) else json.dumps(body), headers={
                "X-Amz-Target": "DynamoDB_20120810." + op,
                "Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
                "X-Amz-Date": "20260101T000000Z"})
            resp = conn.getresponse()
            data = resp.read()
            if resp.status != 200:
                raise SystemExit("%s: %d %s" % (op, resp.status, data))

        create = {"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
                  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
        if stream_view:
            create["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream_view}
        if vector and vector[1]:
            create["VectorIndexes"] = [{"IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"},
                                        "Dimensions": vector[0], "DistanceFunction": "COSINE",
                                        "Projection": {"ProjectionType": "KEYS_ONLY"}}]
        call("CreateTable", create)
        components = vector_components(vector[0]) if vector else None
        if op == "GetItem":
            for i in range(100):
                call("PutItem", {"TableName": "bench", "Item": {
                    "pk": {"S": "k%d" % i}, "n": {"N": str(i)},
                    "s": {"S": "hello from the pogi bench"}}})
            for i in range(calls):
                call("GetItem", {"TableName": "bench", "Key": {"pk": {"S": "k%d" % (i % 100)}}})
        for i in range(calls if op == "PutItem" else 0):
            body = {"TableName": "bench", "Item": {
                "pk": {"S": "k%d" % (i % 100)}, "n": {"N": str(i)},
                "s": {"S": "hello from the pogi bench"}}}
            if components:
                start = i % vector[0]
                body = json.dumps(body)[:-2] + ', "emb": {"L": [%s]}}}' % ",".join(
                    components[start:start + vector[0]])
            call("PutItem", body)
        conn.close()
    finally:
        proc.terminate()
        proc.wait()
    total = 0
    with open(out) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    os.remove(out)
    return total


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    args = sys.argv[1:]
    stream_view, op, dims, with_index = None, "PutItem", 0, False
    while args and args[0] in ("--stream", "--op", "--vector", "--vector-index"):
        if args[0] == "--vector-index":
            with_index = True
            args = args[1:]
            continue
        if args[0] == "--stream":
            stream_view = args[1]
        elif args[0] == "--vector":
            dims = int(args[1])
        else:
            op = args[1]
        args = args[2:]
    if op not in ("PutItem", "GetItem") or not args or (with_index and not dims) or (dims and op != "PutItem"):
        raise SystemExit(__doc__)
    binary, extra = args[0], args[1:]
    vector = (dims, with_index) if dims else None
    a = total_instructions(binary, N1, extra, stream_view, op, vector)
    b = total_instructions(binary, N2, extra, stream_view, op, vector)
    what = (" stream " + stream_view if stream_view else "") + (
        " vector %d%s" % (dims, " indexed" if with_index else "") if dims else "")
    print("%s %s%s: %.0f instructions per %s" % (binary, " ".join(extra), what, (b - a) / (N2 - N1), op))


if __name__ == "__main__":
    main()
