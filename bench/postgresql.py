#!/usr/bin/env python3
"""pogi on PostgreSQL beside pogi on SQLite, in the same run: PutItem,
GetItem, a 1,000-item Query and a two-item TransactWriteItems, each driven
by wrk at c=8 (throughput, CPU per call) and c=1 (latency). CPU per call is
counted for pogi's process and, separately, for every process of the
PostgreSQL server (the postmaster and its backends), from /proc.

    bench/postgresql.py [--pogi build/pogi] [--seconds 5] [--json out.json] [--no-scale]

Then the same PostgreSQL without pogi: pgbench (-M prepared -c 8 -j 2, -n,
--seconds each) runs scripts that do the least each pogi operation must do,
on a table shaped like pogi's `items` in a schema of its own:

- PutItem-shaped transaction: BEGIN ISOLATION LEVEL SERIALIZABLE, the SELECT
  of a random new key's item, an INSERT ... ON CONFLICT DO UPDATE of a
  100-byte item, COMMIT;
- the upsert alone (autocommit);
- GetItem-shaped point select: one of 10,000 rows (300-byte items), at
  random;
- two-row transaction: BEGIN ISOLATION LEVEL SERIALIZABLE, the upserts of
  two random new keys, COMMIT.

pgbench's transactions/s (committed ones: a transaction PostgreSQL cancels
for a serialization failure runs again, up to 100 times, as pogi's do; one
that never commits counts under `failed`) and the database's CPU per
transaction are printed, then
pogi's PostgreSQL rates as a fraction of their counterparts: PutItem of
the PutItem-shaped transaction, GetItem of the point select,
TransactWriteItems of the two-row transaction, and the 1,000-item Query of
pogi's own rate on SQLite (no pgbench counterpart). The JSON has them under
`pgbench` and `ratios`.

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
import shutil
import subprocess
import sys
import tempfile
import time

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

# The pgbench baseline: a schema of its own, an `items` table shaped like
# pogi's (storage/pg_schema.cc), keys made as pogi makes them: the partition
# key's hash, its 16-byte digest, an empty sort key (a table with a
# partition key only), the key's bytes.
PGBENCH_SCHEMA = "pgbench_baseline"
PGBENCH_CLIENTS, PGBENCH_THREADS = 8, 2
PGBENCH_ROWS = 10000  # what the point select reads from (table_id 2)
PGBENCH_GET_BYTES = 300  # about GetItem's item (GET_ITEM)
PGBENCH_PUT_BYTES = 100
PGBENCH_TABLE = f"""CREATE TABLE {PGBENCH_SCHEMA}.items(table_id BIGINT NOT NULL, hash BIGINT NOT NULL,
    pkd BYTEA NOT NULL, sk BYTEA NOT NULL, pk BYTEA NOT NULL, size BIGINT NOT NULL, item BYTEA NOT NULL,
    PRIMARY KEY(table_id, hash, pkd, sk))"""


def _pgbench_key(var):
    """hash, pkd, sk of pgbench variable `var`'s key, as SQL."""
    return f"hashint8(:{var}), substr(sha256(int8send(:{var})), 1, 16), '\\x'::bytea"


def _pgbench_select(table_id, var):
    # pogi's read of one item (storage/pg_txn.cc).
    return (f"SELECT item FROM {PGBENCH_SCHEMA}.items WHERE table_id = {table_id} AND hash = hashint8(:{var})\n"
            f"  AND pkd = substr(sha256(int8send(:{var})), 1, 16) AND sk = '\\x'::bytea;\n")


def _pgbench_upsert(var):
    # pogi's PutItem statement (storage/pg_txn.cc), on table_id 1.
    return (f"INSERT INTO {PGBENCH_SCHEMA}.items(table_id, hash, pkd, sk, pk, size, item)\n"
            f"  VALUES (1, {_pgbench_key(var)}, int8send(:{var}), {PGBENCH_PUT_BYTES}, "
            f"'\\x{'70' * PGBENCH_PUT_BYTES}')\n"
            f"  ON CONFLICT (table_id, hash, pkd, sk) DO UPDATE SET pk = EXCLUDED.pk, size = EXCLUDED.size, "
            f"item = EXCLUDED.item;\n")


NEW_KEY = "\\set k random(1, 1000000000)\n"
PGBENCH_SCRIPTS = {
    "PutItem-shaped transaction": (NEW_KEY + "BEGIN ISOLATION LEVEL SERIALIZABLE;\n" + _pgbench_select(1, "k")
                                   + _pgbench_upsert("k") + "COMMIT;\n"),
    "upsert alone": NEW_KEY + _pgbench_upsert("k"),
    "GetItem-shaped point select": f"\\set k random(1, {PGBENCH_ROWS})\n" + _pgbench_select(2, "k"),
    "two-row transaction": (NEW_KEY + "\\set k2 random(1, 1000000000)\n"
                            + "BEGIN ISOLATION LEVEL SERIALIZABLE;\n" + _pgbench_upsert("k")
                            + _pgbench_upsert("k2") + "COMMIT;\n"),
}
# pogi's operation on PostgreSQL -> what its rate is a fraction of:
# a pgbench script's, or ("sqlite", op) pogi's own on SQLite.
COUNTERPARTS = {
    "PutItem": ("pgbench", "PutItem-shaped transaction"),
    "GetItem": ("pgbench", "GetItem-shaped point select"),
    "TransactWriteItems": ("pgbench", "two-row transaction"),
    "Query 1,000 items": ("sqlite", "Query 1,000 items"),
}


def transact_fmt():
    def put(pk):
        return {"Put": {"TableName": TRANSACT_TABLE, "Item": {"pk": {"S": pk}, "v": {"N": "1"}}}}
    # Two new keys per call (the load generator fills in one counter), as
    # pgbench's two-row transaction writes: transactions that share no item.
    return json.dumps({"TransactItems": [put("a-%d"), put("b-%d")]}, separators=(",", ":"))


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
        baseline = measure_pgbench(pg, workdir, args.seconds, postmaster)
        scale = {} if args.no_scale else measure_scale(pogi, pg, workdir, args.seconds)
    finally:
        pg.stop()
        pg.cleanup()
    ratios = pogi_ratios(results, baseline)
    print_table(results)
    print_pgbench(baseline, ratios)
    if scale:
        print_scale(scale)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"operations": results, "pgbench": baseline, "ratios": ratios, "scale": scale}, f,
                      indent=1)


def pgbench_bin():
    own = os.path.join(pg_server.PG_BIN, "pgbench")
    return own if os.access(own, os.X_OK) else shutil.which("pgbench")


def measure_pgbench(pg, workdir, seconds, postmaster):
    """pgbench's transactions/s for each of PGBENCH_SCRIPTS against `pg`, in
    a fresh schema of its own: {script: {tps, transactions, failed,
    db_cpu_us, seconds}}, or {"error": why} when pgbench cannot run."""
    binary = pgbench_bin()
    if binary is None:
        log("pgbench: not installed (postgresql-client-15 ships it); no baseline")
        return {"error": "pgbench not installed"}
    try:
        pg.psql(f"DROP SCHEMA IF EXISTS {PGBENCH_SCHEMA} CASCADE; CREATE SCHEMA {PGBENCH_SCHEMA}; {PGBENCH_TABLE}; "
                f"INSERT INTO {PGBENCH_SCHEMA}.items SELECT 2, hashint8(k), substr(sha256(int8send(k)), 1, 16), "
                f"'\\x'::bytea, int8send(k), {PGBENCH_GET_BYTES}, decode(repeat('64', {PGBENCH_GET_BYTES}), 'hex') "
                f"FROM generate_series(1, {PGBENCH_ROWS}) k; ANALYZE {PGBENCH_SCHEMA}.items")
    except pg_server.PgError as e:
        log(f"pgbench: the schema could not be made: {e}")
        return {"error": f"the schema could not be made: {e}"}
    duration = max(1, int(round(seconds)))
    out = {}
    for i, (name, text) in enumerate(PGBENCH_SCRIPTS.items()):
        script = os.path.join(workdir, f"pgbench-{i}.sql")
        with open(script, "w") as f:
            f.write(text)
        try:
            out[name] = run_pgbench(binary, pg.conninfo(), script, duration, postmaster)
        except RuntimeError as e:
            log(f"pgbench: {name}: {e}")
            out[name] = {"error": str(e)}
            continue
        log(f"pgbench: {name} {out[name]['tps']:.0f} tps")
    return out


def run_pgbench(binary, conninfo, script, duration, postmaster):
    """One pgbench run of `script`; its tps and counts, and the database's
    CPU per transaction (the backends pgbench connects to end with it, and
    their CPU goes to the postmaster's waited-for children's)."""
    children = len(postgres_pids(postmaster))
    d0 = server_cpu_seconds(postgres_pids(postmaster))
    cmd = [binary, "-M", "prepared", "-c", str(PGBENCH_CLIENTS), "-j", str(PGBENCH_THREADS),
           "-T", str(duration), "--max-tries", "100", "-n", "-f", script, conninfo]
    cp = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + 120,
                        env=pg_server.clean_env(), stdin=subprocess.DEVNULL)
    # Until the backends are gone (and counted in the postmaster's CPU).
    deadline = time.monotonic() + 5
    while len(postgres_pids(postmaster)) > children and time.monotonic() < deadline:
        time.sleep(0.05)
    d1 = server_cpu_seconds(postgres_pids(postmaster))
    res = {"seconds": duration, "transactions": None, "failed": 0, "tps": None}
    for line in cp.stdout.splitlines():
        line = line.strip()
        if line.startswith("number of transactions actually processed:"):
            res["transactions"] = int(line.split(":")[1].split("/")[0])
        elif line.startswith("number of failed transactions:"):
            res["failed"] = int(line.split(":")[1].split()[0])
        elif line.startswith("tps = "):
            res["tps"] = float(line.split()[2])
    if cp.returncode != 0 or res["tps"] is None or not res["transactions"]:
        raise RuntimeError(f"pgbench exit {cp.returncode}: {(cp.stderr or cp.stdout).strip()[-2000:]}")
    res["db_cpu_us"] = (d1 - d0) * 1e6 / res["transactions"]
    return res


def pogi_ratios(results, baseline):
    """pogi's rate on PostgreSQL as a fraction of its counterpart's
    (COUNTERPARTS): {op: {"against", "rate", "counterpart_rate", "fraction"}}."""
    out = {}
    pg = results.get("postgresql", {})
    for op, (kind, name) in COUNTERPARTS.items():
        if op not in pg:
            continue
        if kind == "pgbench":
            other = (baseline.get(name) or {}).get("tps")
            against = f"pgbench {name}"
        else:
            other = results.get(kind, {}).get(name, {}).get("rate")
            against = f"pogi on SQLite, {name}"
        rate = pg[op]["rate"]
        out[op] = {"against": against, "rate": rate, "counterpart_rate": other,
                   "fraction": rate / other if other else None}
    return out


def print_pgbench(baseline, ratios):
    print()
    if "error" in baseline:
        print(f"pgbench: {baseline['error']}")
    else:
        seconds = next((r["seconds"] for r in baseline.values() if "seconds" in r), "-")
        print(f"{f'pgbench -M prepared -c {PGBENCH_CLIENTS} -j {PGBENCH_THREADS} -T {seconds}':<38}"
              f"{'tps':>10}{'DB CPU us':>11}{'failed':>8}")
        for name, r in baseline.items():
            if "error" in r:
                print(f"{name:<38}{'-':>10}{'-':>11}{'-':>8}  {r['error'].splitlines()[-1]}")
            else:
                print(f"{name:<38}{r['tps']:>10.0f}{r['db_cpu_us']:>11.0f}{r['failed']:>8}")
    if not ratios:
        return
    print()
    print(f"{'pogi on PostgreSQL':<22}{'calls/s':>10}  {'against':<40}{'its rate':>10}{'fraction':>10}")
    for op, r in ratios.items():
        other = "-" if r["counterpart_rate"] is None else f"{r['counterpart_rate']:.0f}"
        frac = "-" if r["fraction"] is None else f"{r['fraction']:.2f}"
        print(f"{op:<22}{r['rate']:>10.0f}  {r['against']:<40}{other:>10}{frac:>10}")


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
