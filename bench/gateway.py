#!/usr/bin/env python3
"""The cost of `pogi gateway`'s extra hop, in the same run: PutItem, GetItem
and a 1,000-item Query sent by wrk to pogi's own HTTP door, and to a
`pogi gateway` that forwards them over gRPC to a second pogi engine. For
each: throughput at c=8, CPU per call of the engine process and of the
gateway process (from /proc), and the mean latency at c=1.

    bench/gateway.py [--pogi build/pogi] [--seconds 5] [--json out.json]

Everything runs on the same 2 cores: the load generator, the gateway and
the engine.
"""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sigv4  # noqa: E402
from client import Client  # noqa: E402
from common import (GET_BODY, GET_ITEM, PUT_TABLE, QUERY_ITEMS, QUERY_PK,  # noqa: E402
                    QUERY_TABLE, log, put_body, query_body, query_item)
from loadgen import run_wrk, wrk_fixed_script, wrk_varying_script  # noqa: E402
from servers import Server, Spec, free_port, installed_copy  # noqa: E402
from tools import ensure_tools  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pogi", default=os.path.join(os.path.dirname(HERE), "build", "pogi"))
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--json")
    args = ap.parse_args()
    ensure_tools(set())
    workdir = tempfile.mkdtemp(prefix="pogi-bench-gw-")
    pogi = installed_copy(os.path.abspath(args.pogi), workdir)
    results = {"in-process door": measure(pogi, workdir, args.seconds, gateway=False),
               "pogi gateway": measure(pogi, workdir, args.seconds, gateway=True)}
    print_table(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


def measure(pogi, workdir, seconds, gateway):
    grpc_port = free_port()
    engine = Server(Spec("engine", lambda p, g, d: [pogi, "start", "--port", str(p), "--grpc-port", str(grpc_port),
                                                    "--data-dir", d], True), workdir)
    door = None
    try:
        if gateway:
            door = Server(Spec("gateway", lambda p, g, d: [pogi, "gateway", "--port", str(p), "--engine",
                                                           f"127.0.0.1:{grpc_port}"], True), workdir)
        front = door or engine
        client = Client(front.port)
        client.create_table(PUT_TABLE, [("pk", "S")])
        client.create_table(QUERY_TABLE, [("pk", "S"), ("sk", "N")])
        client.must("PutItem", {"TableName": PUT_TABLE, "Item": GET_ITEM})
        client.batch_put(QUERY_TABLE, [query_item(QUERY_PK, i) for i in range(QUERY_ITEMS)])
        hostport = front.hostport()
        name = "gw" if gateway else "direct"
        scripts = {}
        scripts["PutItem"] = os.path.join(workdir, f"{name}-put.lua")
        wrk_varying_script(scripts["PutItem"], sigv4.sign_request(hostport, "PutItem", put_body("x").encode()),
                           put_body("gwb-%d"))
        scripts["GetItem"] = os.path.join(workdir, f"{name}-get.lua")
        wrk_fixed_script(scripts["GetItem"], sigv4.sign_request(hostport, "GetItem", GET_BODY.encode()), GET_BODY)
        scripts["Query 1,000 items"] = os.path.join(workdir, f"{name}-query.lua")
        qb = query_body(QUERY_TABLE)
        wrk_fixed_script(scripts["Query 1,000 items"], sigv4.sign_request(hostport, "Query", qb.encode()), qb)
        out = {}
        for op, script in scripts.items():
            e0, g0 = engine.cpu(), door.cpu() if door else 0.0
            wk = run_wrk(front.url(), script, seconds, 8)
            e1, g1 = engine.cpu(), door.cpu() if door else 0.0
            lat = run_wrk(front.url(), script, seconds / 2, 1)
            calls = wk["requests"]
            out[op] = {
                "rate": wk["rate"], "calls": calls, "failures": wk["failures"] + lat["failures"],
                "engine_cpu_us": (e1 - e0) * 1e6 / calls if calls else None,
                "gateway_cpu_us": (g1 - g0) * 1e6 / calls if calls and door else None,
                "c1_mean_us": lat["seconds"] / lat["requests"] * 1e6 if lat["requests"] else None,
            }
            log(f"{name}: {op} {wk['rate']:.0f}/s")
        return out
    finally:
        if door:
            door.stop()
        engine.stop()


def print_table(results):
    ops = list(next(iter(results.values())).keys())
    print(f"{'operation':<20}{'door':<17}{'calls/s c=8':>12}{'engine CPU us':>15}{'gateway CPU us':>16}"
          f"{'c=1 mean us':>13}{'failures':>10}")
    for op in ops:
        for door, res in results.items():
            r = res[op]
            gw = "-" if r["gateway_cpu_us"] is None else f"{r['gateway_cpu_us']:.0f}"
            print(f"{op:<20}{door:<17}{r['rate']:>12.0f}{r['engine_cpu_us']:>15.0f}{gw:>16}"
                  f"{r['c1_mean_us']:>13.0f}{r['failures']:>10}")


if __name__ == "__main__":
    main()
