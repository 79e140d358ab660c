#!/usr/bin/env python3
"""pogi's bench: the published recipe, measured against the load generators'
ceiling and against the peers, in one run. See bench/README.md.

Entry point is bench/run, which calls this file: the flags, the order of the
stages and the JSON line. The stages live beside it (peers.py, servers.py,
measure.py, query_scale.py, bars.py, ratios.py, report.py). Python 3 standard
library only; ab, wrk and g++ come from Debian's packages, dynalite and
DynamoDB Local from npm (DynamoDB Local runs on Debian's Java 17), moto from
pip when present. All traffic goes to 127.0.0.1.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time

from bars import judge_bars
from common import (CEILING_MEANS, CEILING_RATES, GET_RESPONSE_BYTES,
                    QS_BAR, QS_BIG_PART, QS_SERVERS, QUERY_RESPONSE_BYTES,
                    ROOT, log)
from measure import measure_load, measure_startups
from peers import ALL_SERVERS, server_specs, wanted_servers
from query_scale import measure_query_scale
from ratios import peer_ratios
from report import print_report
from tools import ensure_tools

class Config:
    def __init__(self, args):
        q = args.quick
        self.startup_runs = args.startup_runs or (3 if q else 10)
        self.ab_warmup = 200 if q else 2000
        self.ab_calls = 2000 if q else 20000
        self.ab_c1_calls = 500 if q else 5000
        self.wrk_seconds = 1 if q else 5
        self.wrk_c1_seconds = 1 if q else 3
        self.growth_probe_seconds = 1 if q else 2
        self.growth_step_budget = args.growth_budget
        top = args.growth_max if args.growth_max is not None else (
            5000 if q else 100000)
        sizes = []
        s = 1000
        while s < top:
            sizes.append(s)
            s *= 10
        if top >= 1000:
            sizes.append(top)
        self.growth_sizes = sizes
        self.qs_items = (args.query_scale_items
                         if args.query_scale_items is not None
                         else 100000 if q else 1000000)
        self.qs_seconds = 1 if q else 3
        self.qs_rounds = 2
        self.qs_budget = args.query_scale_budget


def ceiling_of(r):
    c = {k: r[k]["rate"] for k in CEILING_RATES if k in r}
    c.update({k: r[k]["mean_us"] for k in CEILING_MEANS if k in r})
    return c


def median_results(runs):
    """Per-figure median over several results of the null server."""
    if len(runs) == 1:
        return runs[0]
    out = {}
    for key, v in runs[0].items():
        if isinstance(v, dict):
            out[key] = {k: statistics.median(r[key][k] for r in runs)
                        if isinstance(x, (int, float)) else x
                        for k, x in v.items()}
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[key] = statistics.median(r[key] for r in runs)
        else:
            out[key] = v
    return out


def main():
    ap = argparse.ArgumentParser(
        prog="bench/run", description="pogi's bench: ceilings, pogi, peers.")
    ap.add_argument("--pogi", default=os.path.join(ROOT, "build", "pogi"),
                    help="pogi binary (default: build/pogi)")
    ap.add_argument("--no-peers", action="store_true",
                    help="skip the peers (dynalite, DynamoDB Local, moto)")
    ap.add_argument("--quick", action="store_true",
                    help="short smoke run (fewer calls, shorter runs)")
    ap.add_argument("--json", metavar="PATH",
                    help="also write the JSON line to PATH")
    ap.add_argument("--growth-max", type=int, metavar="N",
                    help="largest table of the growth run (default 100000; "
                    "5000 with --quick; 1000000 for the full bar; 0 skips)")
    ap.add_argument("--growth-budget", type=float, default=180.0,
                    metavar="SECONDS",
                    help="longest a single fill step may take (default 180)")
    ap.add_argument("--startup-runs", type=int, metavar="N",
                    help="start-ups per server (default 10; 3 with --quick)")
    ap.add_argument("--workdir", metavar="DIR",
                    help="where the fresh data folders go (default: the "
                    "system's temporary directory; put it on the disk you "
                    "want the durable figures for)")
    ap.add_argument("--only", choices=["query-scale"],
                    help="run only this stage: query-scale (issue 5: a "
                    "Query page on a 10-item table vs a 10,000-item "
                    "partition of a 1 M table)")
    ap.add_argument("--query-scale-items", type=int, metavar="N",
                    help="items in the big table of the query-scale stage "
                    "(default 1000000; 100000 with --quick; 0 skips)")
    ap.add_argument("--query-scale-budget", type=float, default=300.0,
                    metavar="SECONDS",
                    help="longest the query-scale fill may take "
                    "(default 300)")
    ap.add_argument("--servers", metavar="A,B",
                    help="only these servers (null always runs): "
                    + ", ".join(ALL_SERVERS[1:]))
    args = ap.parse_args()
    if args.query_scale_items and args.query_scale_items < 2 * QS_BIG_PART:
        ap.error(f"--query-scale-items: at least {2 * QS_BIG_PART} (or 0)")
    cfg = Config(args)

    started = time.time()
    notes = []
    ensure_tools(wanted_servers(args))
    workdir = tempfile.mkdtemp(prefix="pogi-bench-", dir=args.workdir)
    specs = server_specs(args, notes, workdir)
    for n in notes:
        log(n)
    names = [s.name for s in specs]
    load_before = os.getloadavg()
    results = {s.name: {"note": s.note} for s in specs}
    qs_specs = [s for s in specs if s.name in QS_SERVERS] \
        if cfg.qs_items else []
    if args.only == "query-scale":
        if not cfg.qs_items:
            sys.exit("bench: --only query-scale with --query-scale-items 0")
        names = [s.name for s in qs_specs]
    ceiling = {}
    try:
        if not args.only:
            log(f"servers: {', '.join(names)}; start-up x{cfg.startup_runs}")
            starts, rss, failed = measure_startups(specs, cfg.startup_runs,
                                                   workdir)
            for name, why in failed.items():
                results[name]["error"] = why
                notes.append(f"{name}: {why}")
            specs = [s for s in specs if s.name not in failed]
            for s in specs:
                r = results[s.name]
                r["startup_ms"] = statistics.median(starts[s.name])
                r["startup_runs_ms"] = [round(x, 2) for x in starts[s.name]]
                r["idle_rss_mb"] = statistics.median(rss[s.name])
            # The ceiling is measured again right before each server, so a
            # server is compared with the generator's ceiling of the same
            # minutes (another job on the machine moves both alike). The null
            # column shows the median of those measurements.
            null_spec = specs[0]
            ceilings = []
            ceiling = {}
            for s in specs[1:] or [None]:
                log("null: load runs (ceiling)")
                r = measure_load(null_spec, cfg, workdir, {}, {})
                ceilings.append(r)
                ceiling = ceiling_of(r)
                if s is None:
                    break
                log(f"{s.name}: load runs")
                try:
                    results[s.name]["ceiling_used"] = ceiling
                    measure_load(s, cfg, workdir, ceiling, results[s.name])
                except Exception as e:  # one broken server: the run goes on
                    results[s.name]["error"] = str(e)
                    notes.append(f"{s.name}: {e}")
                    log(f"{s.name} failed: {e}")
            results["null"].update(median_results(ceilings))
            results["null"]["ceiling_runs"] = [ceiling_of(r)
                                               for r in ceilings]
            ceiling = ceiling_of(results["null"])
        # Query scale (issue 5): its own fresh instance per server.
        failed_now = set(results) - {s.name for s in specs}
        for s in qs_specs:
            if s.name in failed_now:
                continue
            log(f"{s.name}: query-scale ({cfg.qs_items:,} items)")
            try:
                measure_query_scale(s, cfg, workdir, results[s.name])
            except Exception as e:
                results[s.name].setdefault("errors", {})["query_scale"] = \
                    str(e)[:300]
                log(f"{s.name}: query-scale failed: {e}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    for name, r in results.items():
        for stage, why in r.get("errors", {}).items():
            notes.append(f"{name}: {stage}: {why}")
    null = results.get("null", {})
    for s in specs:
        r = results[s.name]
        if not s.is_null and "startup_ms" in r and "startup_ms" in null:
            r["startup_over_null_ms"] = r["startup_ms"] - null["startup_ms"]
        if "binary_bytes_stripped" in r:
            r["binary_mb_stripped"] = r["binary_bytes_stripped"] / 2**20
    all_bars = {s.name: judge_bars(s.name, results[s.name], null)
                for s in specs if s.binary}
    if args.only:  # only the bar this stage measures
        all_bars = {n: [b for b in bars if b["figure"].startswith(QS_BAR)]
                    for n, bars in all_bars.items()}

    out = {
        "bench": "pogi", "version": 1,
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "quick": args.quick, "seconds": round(time.time() - started, 1),
        "machine": {"cpus": os.cpu_count(), "kernel": platform.release(),
                    "loadavg_before": load_before,
                    "loadavg_after": os.getloadavg()},
        "config": {k: v for k, v in vars(cfg).items()},
        "sizes": {"get_response_bytes": GET_RESPONSE_BYTES,
                  "query_response_bytes": QUERY_RESPONSE_BYTES},
        "ceiling": ceiling, "servers": results,
        "peer_ratios": peer_ratios(results), "bars": all_bars,
        "notes": notes,
    }
    print_report(out, names, bool(args.only), cfg)
    line = json.dumps(out, separators=(",", ":"), default=str)
    print()
    print(line)
    if args.json:
        with open(args.json, "w") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
