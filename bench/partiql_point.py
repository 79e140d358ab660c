#!/usr/bin/env python3
"""Server CPU of a PartiQL point SELECT against the equivalent GetItem.

Issue 13's bar: a PartiQL point SELECT costs at most 1.5x the CPU of the
GetItem for the same item, measured in the same run. Starts pogi
(--in-memory), then alternates blocks of GetItem and ExecuteStatement over
one keep-alive connection each, and reads the server's CPU time from
/proc/<pid>/stat around every block. Prints one JSON line.

Run: python3 bench/partiql_point.py [--pogi build/pogi] [--calls 20000]
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))

import harness  # noqa: E402
from harness import Server  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pogi", default=os.path.join(os.path.dirname(__file__), "..", "build", "pogi"))
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--blocks", type=int, default=10)
    args = ap.parse_args()
    # harness read $POGI_BIN when imported: --pogi is set on it.
    harness.POGI_BIN = os.path.abspath(args.pogi)
    with Server(in_memory=True) as server:
        ddb = server.client()
        ddb.create_table(TableName="bench", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        ddb.put_item(TableName="bench", Item={"pk": {"S": "k"}, "v": {"S": "x" * 100}})
        get = json.dumps({"TableName": "bench", "Key": {"pk": {"S": "k"}}})
        sel = json.dumps({"Statement": "SELECT * FROM \"bench\" WHERE pk = 'k'"})
        conns = {"get": server.connection(), "sel": server.connection()}
        bodies = {"get": ("GetItem", get), "sel": ("ExecuteStatement", sel)}
        cpu = {"get": 0.0, "sel": 0.0}
        per_block = max(1, args.calls // args.blocks)
        for _ in range(args.blocks):
            for kind in ("get", "sel"):
                op, body = bodies[kind]
                before = cpu_seconds(server.proc.pid)
                for _ in range(per_block):
                    status, _, data = server.raw(body, target=op, conn=conns[kind])
                    if status != 200:
                        raise SystemExit("%s failed: %s" % (op, data))
                cpu[kind] += cpu_seconds(server.proc.pid) - before
        calls = per_block * args.blocks
        result = {
            "calls": calls,
            "getitem_cpu_us": round(cpu["get"] / calls * 1e6, 2),
            "select_cpu_us": round(cpu["sel"] / calls * 1e6, 2),
            "ratio": round(cpu["sel"] / cpu["get"], 3) if cpu["get"] else None,
            "bar": 1.5,
        }
        print(json.dumps(result))


if __name__ == "__main__":
    main()
