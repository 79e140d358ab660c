#!/usr/bin/env python3
"""pogi on PostgreSQL beside pogi on SQLite, in the same run: PutItem,
GetItem, a 1,000-item Query and a two-item TransactWriteItems, each driven
by wrk at c=8 (throughput, CPU per call) and c=1 (latency). CPU per call is
counted for pogi's process and, separately, for every process of the
PostgreSQL server (the postmaster and its backends), from /proc.

    bench/postgresql.py [--pogi build/pogi] [--seconds 5] [--json out.json] [--no-scale]

Then (unless --no-scale) 1, 2 and 3 pogi processes on one schema: PutItem
of new keys, and UpdateItem ADD on one hot item, sent to every process at
once (wrk c=4 each): the summed rate, and for the hot item how many calls
answered an error (TransactionConflictException once pogi's own retries of
the database's serialization failures run out).

PostgreSQL is a fresh server in a temporary folder (tests/pg_server.py:
Debian's PostgreSQL 15, fsync on, default synchronous_commit), on the same
2 cores as pogi and the load generator.
"""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import pg_server  # noqa: E402
import sigv4  # noqa: E402
from client import Client  # noqa: E402
from common import (GET_BODY, GET_ITEM, PUT_TABLE, QUERY_ITEMS, QUERY_PK,  # noqa: E402
                    QUERY_TABLE, log, put_body, query_body, query_item)
from loadgen import run_wrk, wrk_fixed_script, wrk_varying_script  # noqa: E402
from servers import CLK_TCK, Server, Spec, installed_copy  # noqa: E402
from tools import ensure_tools  # noqa: E402

TRANSACT_TABLE = "bencht"


def transact_fmt():
    def put(pk):
        return {"Put": {"TableName": TRANSACT_TABLE, "Item": {"pk": {"S": pk}, "v": {"N": "1"}}}}
    # One new key per call (the load generator fills in one counter) and one
    # key every call writes again.
    return json.dumps({"TransactItems": [put("a-%d"), put("b")]}, separators=(",", ":"))


def server_cpu_seconds(pids):
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                rest = f.read().rsplit(")", 1)[1].split()
            # utime, stime, and the waited-for children's (exited backends).
            total += sum(int(x) for x in rest[11:15]) / CLK_TCK
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def postgres_pids(postmaster_pid):
    """The postmaster and its children (backends, WAL writer, checkpointer)."""
    pids = [postmaster_pid]
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
        if ppid == postmaster_pid:
            pids.append(int(entry))
    return pids


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pogi", default=os.path.join(os.path.dirname(HERE), "build", "pogi"))
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--json")
    ap.add_argument("--no-scale", action="store_true", help="skip the 1/2/3-process stage")
    args = ap.parse_args()
    ensure_tools(set())
    workdir = tempfile.mkdtemp(prefix="pogi-bench-pg-")
    pogi = installed_copy(os.path.abspath(args.pogi), workdir)
    pg = pg_server.PgServer()
    pg.start()
    try:
        with open(os.path.join(pg.data_dir, "postmaster.pid")) as f:
            postmaster = int(f.readline())
        specs = [
            Spec("sqlite", lambda p, g, d: [pogi, "start", "--port", str(p), "--grpc-port", str(g),
                                            "--data-dir", d], True, binary=pogi),
            Spec("postgresql", lambda p, g, d: [pogi, "start", "--port", str(p), "--grpc-port", str(g),
                                                "--storage", pg.conninfo(),
                                                "--pg-schema", "bench_" + os.path.basename(d).replace("-", "_")],
                 True, binary=pogi),
        ]
        results = {}
        for spec in specs:
            results[spec.name] = measure(spec, workdir, args.seconds,
                                         postmaster if spec.name == "postgresql" else None)
        scale = {} if args.no_scale else measure_scale(pogi, pg, workdir, args.seconds)
    finally:
        pg.stop()
        pg.cleanup()
    print_table(results)
    if scale:
        print_scale(scale)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"operations": results, "scale": scale}, f, indent=1)


def measure_scale(pogi, pg, workdir, seconds):
    """1, 2, 3 processes on one fresh schema each time."""
    import concurrent.futures
    out = {}
    hot = json.dumps({"TableName": PUT_TABLE, "Key": {"pk": {"S": "hot"}}, "UpdateExpression": "ADD n :one",
                      "ExpressionAttributeValues": {":one": {"N": "1"}}}, separators=(",", ":"))
    for n in (1, 2, 3):
        schema = f"scale{n}_{os.getpid()}"
        spec = Spec(f"pg-x{n}", lambda p, g, d: [pogi, "start", "--port", str(p), "--grpc-port", str(g),
                                                 "--storage", pg.conninfo(), "--pg-schema", schema], True)
        servers = []
        try:
            for _ in range(n):
                servers.append(Server(spec, workdir))
            Client(servers[0].port).create_table(PUT_TABLE, [("pk", "S")])
            scripts = []
            for i, srv in enumerate(servers):
                hp = srv.hostport()
                put = os.path.join(workdir, f"scale{n}-{i}-put.lua")
                wrk_varying_script(put, sigv4.sign_request(hp, "PutItem", put_body("x").encode()),
                                   put_body(f"s{n}-{i}-%d"))
                upd = os.path.join(workdir, f"scale{n}-{i}-hot.lua")
                wrk_fixed_script(upd, sigv4.sign_request(hp, "UpdateItem", hot.encode()), hot)
                scripts.append((srv, put, upd))
            row = {}
            for name, pick in (("PutItem", 1), ("UpdateItem ADD, one hot item", 2)):
                with concurrent.futures.ThreadPoolExecutor(n) as ex:
                    runs = list(ex.map(lambda t: run_wrk(t[0].url(), t[pick], seconds, 4), scripts))
                calls = sum(r["requests"] for r in runs)
                row[name] = {"rate": sum(r["rate"] for r in runs), "calls": calls,
                             "errors": sum(r["failures"] for r in runs)}
                log(f"{n} process(es): {name} {row[name]['rate']:.0f}/s, {row[name]['errors']} errors")
            out[str(n)] = row
        finally:
            for srv in servers:
                srv.stop()
    return out


def print_scale(scale):
    print()
    print(f"{'processes':<11}{'operation':<32}{'calls/s':>10}{'calls':>9}{'errors':>8}")
    for n, row in scale.items():
        for op, r in row.items():
            print(f"{n:<11}{op:<32}{r['rate']:>10.0f}{r['calls']:>9}{r['errors']:>8}")


def measure(spec, workdir, seconds, postmaster):
    srv = Server(spec, workdir)
    try:
        client = Client(srv.port)
        client.create_table(PUT_TABLE, [("pk", "S")])
        client.create_table(QUERY_TABLE, [("pk", "S"), ("sk", "N")])
        client.create_table(TRANSACT_TABLE, [("pk", "S")])
        client.must("PutItem", {"TableName": PUT_TABLE, "Item": GET_ITEM})
        client.batch_put(QUERY_TABLE, [query_item(QUERY_PK, i) for i in range(QUERY_ITEMS)])
        hostport = srv.hostport()

        def sign(target, body):
            return sigv4.sign_request(hostport, target, body.encode())

        scripts = {}
        put_fmt = put_body("pgb-%d")
        scripts["PutItem"] = os.path.join(workdir, f"{spec.name}-put.lua")
        wrk_varying_script(scripts["PutItem"], sign("PutItem", put_body("x")), put_fmt)
        scripts["GetItem"] = os.path.join(workdir, f"{spec.name}-get.lua")
        wrk_fixed_script(scripts["GetItem"], sign("GetItem", GET_BODY), GET_BODY)
        scripts["Query 1,000 items"] = os.path.join(workdir, f"{spec.name}-query.lua")
        qb = query_body(QUERY_TABLE)
        wrk_fixed_script(scripts["Query 1,000 items"], sign("Query", qb), qb)
        scripts["TransactWriteItems"] = os.path.join(workdir, f"{spec.name}-transact.lua")
        wrk_varying_script(scripts["TransactWriteItems"], sign("TransactWriteItems", transact_fmt()),
                           transact_fmt())
        out = {}
        for op, script in scripts.items():
            pg_pids = postgres_pids(postmaster) if postmaster else []
            c0, d0 = srv.cpu(), server_cpu_seconds(pg_pids)
            wk = run_wrk(srv.url(), script, seconds, 8)
            c1, d1 = srv.cpu(), server_cpu_seconds(postgres_pids(postmaster) if postmaster else [])
            lat = run_wrk(srv.url(), script, seconds / 2, 1)
            calls = wk["requests"]
            out[op] = {
                "rate": wk["rate"], "calls": calls, "failures": wk["failures"] + lat["failures"],
                "pogi_cpu_us": (c1 - c0) * 1e6 / calls if calls else None,
                "db_cpu_us": (d1 - d0) * 1e6 / calls if calls and postmaster else None,
                "c1_mean_us": lat["seconds"] / lat["requests"] * 1e6 if lat["requests"] else None,
            }
            log(f"{spec.name}: {op} {wk['rate']:.0f}/s")
        return out
    finally:
        srv.stop()


def print_table(results):
    ops = list(next(iter(results.values())).keys())
    print(f"{'operation':<22}{'backend':<12}{'calls/s c=8':>12}{'pogi CPU us':>13}{'DB CPU us':>11}"
          f"{'c=1 mean us':>13}{'failures':>10}")
    for op in ops:
        for backend, res in results.items():
            r = res[op]
            db = "-" if r["db_cpu_us"] is None else f"{r['db_cpu_us']:.0f}"
            print(f"{op:<22}{backend:<12}{r['rate']:>12.0f}{r['pogi_cpu_us']:>13.0f}{db:>11}"
                  f"{r['c1_mean_us']:>13.0f}{r['failures']:>10}")


if __name__ == "__main__":
    main()
