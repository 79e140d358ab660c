"""The measurements on one server: start-ups and idle RSS (round-robin over
the servers), then on one long-lived instance the ab burst, c=1 means, wrk
PutItem / GetItem / Query, the growth run, and the binary's size."""

import json
import os
import subprocess
import time

import sigv4
from client import Client
from common import (AB_KEY, CEILING_MEANS, CEILING_RATES, GET_BODY, GET_ITEM,
                    GET_RESPONSE_BYTES, GROWTH_TABLE, PUT_TABLE, QUERY_ITEMS,
                    QUERY_PK, QUERY_RESPONSE_BYTES, QUERY_TABLE, log,
                    put_body, query_body, query_item)
from loadgen import run_ab, run_wrk, wrk_fixed_script, wrk_varying_script
from servers import Server


def measure_startups(specs, runs, workdir):
    """Round-robin over the servers so drift on a shared machine hits all
    alike; one discarded warm start each first."""
    starts = {s.name: [] for s in specs}
    rss = {s.name: [] for s in specs}
    failed = {}
    for i in range(runs + 1):
        for spec in specs:
            if spec.name in failed:
                continue
            try:
                srv = Server(spec, workdir)
            except Exception as e:  # noted, and the server sits out the rest
                if spec.is_null:
                    raise
                failed[spec.name] = f"start-up failed: {e}"
                log(f"{spec.name}: {failed[spec.name]}")
                continue
            try:
                time.sleep(0.5)
                r = srv.rss_mb()
            finally:
                srv.stop()
            if i:  # run 0 warms the page cache
                starts[spec.name].append(srv.startup_ms)
                rss[spec.name].append(r)
        log(f"start-up round {i}/{runs} done")
    return starts, rss, failed


class Workloads:
    """Writes the request files once per server (signatures carry the host)."""

    def __init__(self, tmp, hostport, tag):
        self.tmp = tmp
        self.hostport = hostport

        def sign(target, body):
            return sigv4.sign_request(hostport, target, body.encode())

        self.put_body = put_body(AB_KEY)
        self.put_headers = sign("PutItem", self.put_body)
        self.put_file = os.path.join(tmp, f"{tag}-put.json")
        with open(self.put_file, "w") as f:
            f.write(self.put_body)
        self.wrk_put_fixed = os.path.join(tmp, f"{tag}-put-fixed.lua")
        wrk_fixed_script(self.wrk_put_fixed, self.put_headers, self.put_body)
        self.wrk_put_varying = os.path.join(tmp, f"{tag}-put-varying.lua")
        wrk_varying_script(self.wrk_put_varying, self.put_headers,
                           put_body("wrk-%d"))
        self.wrk_get = os.path.join(tmp, f"{tag}-get.lua")
        wrk_fixed_script(self.wrk_get, sign("GetItem", GET_BODY), GET_BODY)
        self.wrk_query = os.path.join(tmp, f"{tag}-query.lua")
        qb = query_body(QUERY_TABLE)
        wrk_fixed_script(self.wrk_query, sign("Query", qb), qb)
        self.wrk_query_growth = os.path.join(tmp, f"{tag}-query-growth.lua")
        qg = query_body(GROWTH_TABLE)
        wrk_fixed_script(self.wrk_query_growth, sign("Query", qg), qg)
        gfmt = json.dumps({"TableName": GROWTH_TABLE, "Item": {
            "pk": {"S": "g%d"}, "sk": {"N": "0"},
            "v": {"S": "growth item payload"}}}, separators=(",", ":"))
        self.growth_headers = sign("PutItem", gfmt)
        self.growth_fmt = gfmt


def cpu_us(before, after, calls):
    return (after - before) * 1e6 / calls if calls else float("nan")


def ratio(rate, ceiling):
    if not rate or not ceiling:
        return {"fraction": None, "overhead_us": None}
    return {"fraction": rate / ceiling,
            "overhead_us": (1.0 / rate - 1.0 / ceiling) * 1e6}


def wrk_figure(srv, script, seconds, conns):
    c0 = srv.cpu()
    wk = run_wrk(srv.url(), script, seconds, conns)
    c1 = srv.cpu()
    return {"rate": wk["rate"], "calls": wk["requests"],
            "failures": wk["failures"],
            "cpu_us": cpu_us(c0, c1, wk["requests"])}


def measure_load(spec, cfg, workdir, ceiling, res):
    """Everything after start-up, on one fresh long-lived instance, into
    `res`. Each stage that fails is recorded in res["errors"] and the rest
    still run (a server in development may lack an operation)."""
    srv = Server(spec, workdir)
    w = Workloads(workdir, srv.hostport(), spec.name)
    client = None if spec.is_null else Client(srv.port)

    def stage(name, fn):
        try:
            fn()
        except Exception as e:
            res.setdefault("errors", {})[name] = str(e)[:300]
            log(f"{spec.name}: {name} failed: {e}")

    def sized_null(body_bytes, tag, script_attr, seconds, conns):
        # The null server answers reads with a body of the read's size.
        sized = Server(spec, workdir, [str(body_bytes)])
        try:
            sw = Workloads(workdir, sized.hostport(), f"{spec.name}-{tag}")
            return wrk_figure(sized, getattr(sw, script_attr), seconds, conns)
        finally:
            sized.stop()

    def tables():
        client.create_table(PUT_TABLE, [("pk", "S")])
        client.create_table(QUERY_TABLE, [("pk", "S"), ("sk", "N")])
        client.create_table(GROWTH_TABLE, [("pk", "S"), ("sk", "N")])

    def ab_burst():
        # The published recipe: ab -c 8, signed PutItem replayed, warm-up.
        warm = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_warmup, 8)
        c0 = srv.cpu()
        ab = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_calls, 8)
        c1 = srv.cpu()
        res["rss_after_burst_mb"] = srv.rss_mb()
        res["ab_put_c8"] = {
            "rate": ab["rate"], "calls": ab["complete"],
            "failures": ab["failures"] + warm["failures"],
            "cpu_us": cpu_us(c0, c1, ab["complete"])}
        for r in (warm, ab):
            if "error" in r:
                res["ab_put_c8"]["error"] = r["error"]
        log(f"{spec.name}: ab c=8 {ab['rate']:.0f}/s, "
            f"{res['ab_put_c8']['failures']} failures")

    def verify():
        status, out = client.call("GetItem", {
            "TableName": PUT_TABLE, "Key": {"pk": {"S": AB_KEY}}})
        item = out.get("Item", {})
        res["verified"] = (status == 200 and item.get("pk") == {"S": AB_KEY}
                           and item.get("n") == {"N": "42"})

    def c1():
        # c=1 mean: ab (HTTP/1.0, a connection per call), wrk (keep-alive).
        ab1 = run_ab(srv.url(), w.put_file, w.put_headers, cfg.ab_c1_calls, 1)
        res["ab_c1"] = {"mean_us": ab1["mean_ms"] * 1000.0,
                        "failures": ab1["failures"]}
        wk1 = run_wrk(srv.url(), w.wrk_put_fixed, cfg.wrk_c1_seconds, 1)
        res["wrk_c1"] = {"mean_us": wk1["seconds"] / wk1["requests"] * 1e6,
                         "failures": wk1["failures"]}

    def wrk_put():
        res["wrk_put_c8"] = wrk_figure(srv, w.wrk_put_varying,
                                       cfg.wrk_seconds, 8)
        log(f"{spec.name}: wrk put c=8 {res['wrk_put_c8']['rate']:.0f}/s")

    def get():
        if spec.is_null:
            res["wrk_get_c8"] = sized_null(GET_RESPONSE_BYTES, "get",
                                           "wrk_get", cfg.wrk_seconds, 8)
            return
        client.must("PutItem", {"TableName": PUT_TABLE, "Item": GET_ITEM})
        res["wrk_get_c8"] = wrk_figure(srv, w.wrk_get, cfg.wrk_seconds, 8)

    def query():
        if spec.is_null:
            res["wrk_query_c8"] = sized_null(QUERY_RESPONSE_BYTES, "query",
                                             "wrk_query", cfg.wrk_seconds, 8)
            return
        client.batch_put(QUERY_TABLE, [query_item(QUERY_PK, i)
                                       for i in range(QUERY_ITEMS)])
        out = client.must("Query", json.loads(query_body(QUERY_TABLE)))
        res["query_count_ok"] = (out.get("Count") == QUERY_ITEMS
                                 and "LastEvaluatedKey" not in out)
        if not res["query_count_ok"]:
            raise RuntimeError(f"Query returned Count {out.get('Count')}, "
                               f"LastEvaluatedKey {out.get('LastEvaluatedKey')}")
        res["wrk_query_c8"] = wrk_figure(srv, w.wrk_query, cfg.wrk_seconds, 8)
        log(f"{spec.name}: query {res['wrk_query_c8']['rate']:.0f}/s")

    def growth():
        res["growth"] = []
        measure_growth(spec, srv, client, w, cfg, res["growth"])

    try:
        if client:
            stage("create_table", tables)
        res["rss_ready_mb"] = srv.rss_mb()
        stage("ab_put_c8", ab_burst)
        if client:
            stage("verify", verify)
        stage("c1", c1)
        stage("wrk_put_c8", wrk_put)
        stage("wrk_get_c8", get)
        stage("wrk_query_c8", query)
        if client and cfg.growth_sizes:
            stage("growth", growth)
        res["rss_end_mb"] = srv.rss_mb()
    finally:
        if client:
            client.close()
        srv.stop()

    for key in CEILING_RATES:
        if key in res and ceiling.get(key):
            res[key].update(ratio(res[key]["rate"], ceiling[key]))
    for key in CEILING_MEANS:
        if key in res and ceiling.get(key):
            res[key]["over_ceiling_us"] = res[key]["mean_us"] - ceiling[key]
    for step in res.get("growth", []):
        if ceiling.get("wrk_put_c8") and "put_rate" in step:
            step["put_fraction"] = step["put_rate"] / ceiling["wrk_put_c8"]
    if spec.binary:
        res.update(binary_size(spec.binary, workdir))
    return res


def measure_growth(spec, srv, client, w, cfg, steps):
    """Grows benchg through cfg.growth_sizes distinct keys with wrk. At each
    size: the insert rate of the fill that got there (info), then, with the
    table size held still, PutItem c=8 over random existing keys (overwrites)
    and the 1,000-item Query, each with server CPU per call."""
    client.batch_put(GROWTH_TABLE, [query_item(QUERY_PK, i)
                                    for i in range(QUERY_ITEMS)])
    have = 0
    for size in cfg.growth_sizes:
        fill = os.path.join(w.tmp, f"{spec.name}-fill-{size}.lua")
        wrk_varying_script(fill, w.growth_headers, w.growth_fmt, start=have,
                           stop_at=size)
        t0 = time.perf_counter()
        c0 = srv.cpu()
        fr = run_wrk(srv.url(), fill, cfg.growth_step_budget, 8,
                     stop_marker=True)
        c1 = srv.cpu()
        elapsed = time.perf_counter() - t0
        written = have + fr["requests"]
        step = {"size": size, "keys_written": written,
                "fill_rate": fr["rate"],
                "fill_cpu_us": cpu_us(c0, c1, fr["requests"]),
                "fill_failures": fr["failures"]}
        if written < size * 0.98:
            step["incomplete"] = (f"reached {written} keys in the "
                                  f"{cfg.growth_step_budget:.0f} s budget")
            steps.append(step)
            log(f"{spec.name}: growth stopped at {written} keys")
            break
        have = max(written, size)
        probe = os.path.join(w.tmp, f"{spec.name}-probe-{size}.lua")
        wrk_varying_script(probe, w.growth_headers, w.growth_fmt,
                           random_below=size)
        c0 = srv.cpu()
        pr = run_wrk(srv.url(), probe, cfg.growth_probe_seconds, 8)
        c1 = srv.cpu()
        step.update({"put_rate": pr["rate"], "put_failures": pr["failures"],
                     "put_cpu_us": cpu_us(c0, c1, pr["requests"])})
        c0 = srv.cpu()
        qr = run_wrk(srv.url(), w.wrk_query_growth, cfg.growth_probe_seconds,
                     1)
        c1 = srv.cpu()
        step.update({"query_rate": qr["rate"],
                     "query_cpu_us": cpu_us(c0, c1, qr["requests"]),
                     "query_failures": qr["failures"],
                     "rss_mb": srv.rss_mb()})
        steps.append(step)
        log(f"{spec.name}: growth {size} keys (fill {elapsed:.1f} s): "
            f"put {pr['rate']:.0f}/s, query {step['query_cpu_us']:.0f} "
            f"us CPU, failures {fr['failures']}+{pr['failures']}+"
            f"{qr['failures']}")
    return steps



def binary_size(path, workdir):
    out = {"binary_bytes": os.path.getsize(path)}
    stripped = os.path.join(workdir, "pogi.stripped")
    r = subprocess.run(["strip", "-o", stripped, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode == 0:
        out["binary_bytes_stripped"] = os.path.getsize(stripped)
        os.unlink(stripped)
    return out


