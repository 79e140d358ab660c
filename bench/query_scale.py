"""Query scale (issue 5): the same Query page on a 10-item table and on a
10,000-item partition of a 1,000,000-item table, filled with wrk and
BatchWriteItem."""

import json
import os
import time

import sigv4
from client import Client
from common import (QS_BIG_PART, QS_BIG_TABLE, QS_CONNS, QS_PAGE,
                    QS_SMALL_TABLE, log, query_item)
from loadgen import lua_headers, lua_str, run_wrk, wrk_fixed_script
from measure import cpu_us
from servers import Server

# A Query page must be a range read over the encoded sort key, so its cost
# must not depend on the size of the partition or of the table.


def qs_layout(total):
    """Item i of the big table, 0 <= i < total: the 10,000 items of the big
    partition are written in the middle of the fill, and its key sorts in
    the middle of the others' (p000000.. p0NNNNN, 10 items each), so neither
    insertion order nor key order puts it at an end of the table."""
    others = max(0, total - QS_BIG_PART)
    mid = others // 2
    big_pk = f"p{(mid // 10):06d}b"
    return mid, big_pk


def wrk_batch_fill_script(path, headers, table, total):
    """BatchWriteItem bodies of 25 items, item by item through the layout of
    qs_layout; prints the marker once every item was sent. Requests built
    after that (before wrk stops) re-put the last item (harmless)."""
    mid, big_pk = qs_layout(total)
    src = [f"local hdrs = {lua_headers(headers)}",
           f"local total = {int(total)}",
           f"local mid = {int(mid)}",
           f"local bigpart = {int(QS_BIG_PART)}",
           f"local bigpk = {lua_str(big_pk)}",
           f"local head = {lua_str(json.dumps(table))}",
           f"local pad = {lua_str('v' * 32)}",
           "local counter = 0",
           "local done = false",
           "local function item(i)",
           "  local pk, sk",
           "  if i >= mid and i < mid + bigpart then",
           "    pk, sk = bigpk, i - mid",
           "  else",
           "    local j = i",
           "    if i >= mid + bigpart then j = i - bigpart end",
           '    pk, sk = string.format("p%06d", math.floor(j / 10)), j % 10',
           "  end",
           "  return '{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"' .. pk ..",
           "    '\"},\"sk\":{\"N\":\"' .. sk .. '\"},\"v\":{\"S\":\"' .. pad ..",
           "    '\"}}}}'",
           "end",
           "request = function()",
           "  local parts = {}",
           "  while #parts < 25 and counter < total do",
           "    parts[#parts + 1] = item(counter)",
           "    counter = counter + 1",
           "  end",
           "  if #parts == 0 then parts[1] = item(total - 1) end",
           "  if counter >= total and not done then",
           "    done = true",
           '    io.stdout:write("POGI-BENCH-DONE\\n")',
           "    io.stdout:flush()",
           "    wrk.thread:stop()",
           "  end",
           "  local body = '{\"RequestItems\":{' .. head .. ':[' ..",
           "    table.concat(parts, ',') .. ']}}'",
           '  return wrk.format("POST", "/", hdrs, body)',
           "end"]
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")


def qs_queries(big_pk):
    """(shape, label, {table: request body}, expected Count)."""
    def body(table, extra_cond, values, limit=None):
        b = {"TableName": table,
             "KeyConditionExpression": "pk = :p" + extra_cond,
             "ExpressionAttributeValues": dict(
                 {":p": {"S": big_pk}}, **values)}
        if limit:
            b["Limit"] = limit
        return json.dumps(b, separators=(",", ":"))

    mid = QS_BIG_PART // 2 - QS_PAGE // 2
    rng = " AND sk BETWEEN :a AND :b"
    return [
        ("page", f"pk = :p, Limit {QS_PAGE}", {
            QS_SMALL_TABLE: body(QS_SMALL_TABLE, "", {}, QS_PAGE),
            QS_BIG_TABLE: body(QS_BIG_TABLE, "", {}, QS_PAGE)}),
        ("between", f"pk = :p AND sk BETWEEN ({QS_PAGE} items)", {
            QS_SMALL_TABLE: body(QS_SMALL_TABLE, rng, {
                ":a": {"N": "0"}, ":b": {"N": str(QS_PAGE - 1)}}),
            QS_BIG_TABLE: body(QS_BIG_TABLE, rng, {
                ":a": {"N": str(mid)},
                ":b": {"N": str(mid + QS_PAGE - 1)}})}),
    ]


def measure_query_scale(spec, cfg, workdir, res):
    """On one fresh instance: table A (10 items, one partition) and table B
    (cfg.qs_items items, one partition of 10,000), then the same Query
    shapes on both, wrk -t1 -c4, alternating A B B A over the rounds so
    drift hits both alike. Figures go to res["query_scale"]."""
    total = cfg.qs_items
    mid, big_pk = qs_layout(total)
    srv = Server(spec, workdir)
    client = Client(srv.port)
    out = res["query_scale"] = {"items": total, "big_partition": QS_BIG_PART,
                                "small_items": QS_PAGE, "conns": QS_CONNS,
                                "seconds_per_run": cfg.qs_seconds,
                                "rounds": cfg.qs_rounds}
    try:
        client.create_table(QS_SMALL_TABLE, [("pk", "S"), ("sk", "N")])
        client.create_table(QS_BIG_TABLE, [("pk", "S"), ("sk", "N")])
        client.batch_put(QS_SMALL_TABLE, [query_item(big_pk, i)
                                          for i in range(QS_PAGE)])
        # Fill B: wrk, BatchWriteItem of 25 over QS_CONNS keep-alive
        # connections (bodies carry a template signature: see
        # wrk_varying_script).
        hostport = srv.hostport()
        tmpl = json.dumps({"RequestItems": {QS_BIG_TABLE: [{"PutRequest": {
            "Item": query_item("x", 0)}}]}}, separators=(",", ":"))
        headers = sigv4.sign_request(hostport, "BatchWriteItem",
                                     tmpl.encode())
        fill = os.path.join(workdir, f"{spec.name}-qs-fill.lua")
        wrk_batch_fill_script(fill, headers, QS_BIG_TABLE, total)
        log(f"{spec.name}: query-scale fill of {total:,} items")
        t0 = time.perf_counter()
        c0 = srv.cpu()
        fr = run_wrk(srv.url(), fill, cfg.qs_budget, QS_CONNS,
                     stop_marker=True)
        c1 = srv.cpu()
        elapsed = time.perf_counter() - t0
        sent = fr["requests"] * 25
        out.update({"fill_seconds": round(elapsed, 2),
                    "fill_items_per_s": sent / fr["seconds"],
                    "fill_cpu_us_per_item": cpu_us(c0, c1, sent),
                    "fill_failures": fr["failures"]})
        if fr["failures"]:
            raise RuntimeError(f"fill: {fr['failures']} failed "
                               "BatchWriteItem calls")
        # wrk does not count the calls in flight when it is stopped (at
        # most one per connection): they are put again below.
        if sent < total - 25 * 2 * QS_CONNS:
            out["incomplete"] = (f"{sent:,} of {total:,} items sent in the "
                                 f"{cfg.qs_budget:.0f} s budget")
            raise RuntimeError(out["incomplete"])
        # wrk builds one request before it starts (to check the script) and
        # never sends it, and the last requests may have been in flight when
        # wrk was stopped: put the head and the tail again (overwrites).
        tail = list(range(0, 100)) + list(
            range(max(100, total - 25 * 8 * QS_CONNS), total))

        def item_at(i):
            if mid <= i < mid + QS_BIG_PART:
                return query_item(big_pk, i - mid)
            j = i - QS_BIG_PART if i >= mid + QS_BIG_PART else i
            return query_item(f"p{j // 10:06d}", j % 10)
        client.batch_put(QS_BIG_TABLE, [item_at(i) for i in tail])
        # Spot checks: both ends, both sides of the big partition, and a
        # few in between.
        for i in sorted({0, mid - 1, mid + QS_BIG_PART, total - 1,
                         total // 7, total // 3, total * 5 // 6}):
            it = item_at(i)
            got = client.must("GetItem", {"TableName": QS_BIG_TABLE, "Key": {
                "pk": it["pk"], "sk": it["sk"]}})
            if got.get("Item") != it:
                raise RuntimeError(f"item {i} of the fill is missing: {it}")
        log(f"{spec.name}: filled {total:,} items in {elapsed:.1f} s "
            f"({out['fill_items_per_s']:,.0f} items/s)")
        # The big partition is whole, and every shape returns its page.
        cnt = client.must("Query", {
            "TableName": QS_BIG_TABLE, "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": big_pk}},
            "Select": "COUNT"})
        if cnt.get("Count") != QS_BIG_PART:
            raise RuntimeError(f"big partition holds {cnt.get('Count')} "
                               f"items, not {QS_BIG_PART}")
        queries = qs_queries(big_pk)
        scripts, leks = {}, {}
        for shape, _, bodies in queries:
            for table, body in bodies.items():
                got = client.must("Query", json.loads(body))
                if got.get("Count") != QS_PAGE:
                    raise RuntimeError(f"{shape} on {table}: Count "
                                       f"{got.get('Count')}, not {QS_PAGE}")
                leks[(shape, table)] = "LastEvaluatedKey" in got
                path = os.path.join(workdir, f"{spec.name}-qs-{shape}-"
                                    f"{table}.lua")
                wrk_fixed_script(path, sigv4.sign_request(
                    hostport, "Query", body.encode()), body)
                scripts[(shape, table)] = path
        acc = {k: {"requests": 0, "seconds": 0.0, "cpu": 0.0, "failures": 0}
               for k in scripts}
        for rnd in range(cfg.qs_rounds):
            for shape, _, _ in queries:
                order = [QS_SMALL_TABLE, QS_BIG_TABLE]
                if rnd % 2:
                    order.reverse()
                for table in order:
                    c0 = srv.cpu()
                    wk = run_wrk(srv.url(), scripts[(shape, table)],
                                 cfg.qs_seconds, QS_CONNS)
                    c1 = srv.cpu()
                    a = acc[(shape, table)]
                    a["requests"] += wk["requests"]
                    a["seconds"] += wk["seconds"]
                    a["cpu"] += c1 - c0
                    a["failures"] += wk["failures"]
        out["rss_mb"] = srv.rss_mb()
        for shape, label, _ in queries:
            fig = {"query": label}
            for table, key in ((QS_SMALL_TABLE, "small"),
                               (QS_BIG_TABLE, "big")):
                a = acc[(shape, table)]
                fig[key] = {"rate": a["requests"] / a["seconds"],
                            "calls": a["requests"],
                            "cpu_us": cpu_us(0, a["cpu"], a["requests"]),
                            "failures": a["failures"],
                            "last_evaluated_key": leks[(shape, table)]}
            fig["cpu_ratio"] = fig["big"]["cpu_us"] / fig["small"]["cpu_us"]
            fig["rate_ratio"] = fig["big"]["rate"] / fig["small"]["rate"]
            out[shape] = fig
            log(f"{spec.name}: query-scale {shape}: "
                f"{fig['small']['cpu_us']:.1f} us vs "
                f"{fig['big']['cpu_us']:.1f} us CPU "
                f"(x{fig['cpu_ratio']:.3f}); {fig['small']['rate']:,.0f}/s "
                f"vs {fig['big']['rate']:,.0f}/s")
    finally:
        client.close()
        srv.stop()
    return out


