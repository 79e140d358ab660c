"""The bars of issues 3 and 5, judged for pogi's columns."""

from common import QS_BAR


def judge_bars(name, res, null):
    bars = []

    def add(figure, bar, value, ok):
        bars.append({"figure": figure, "bar": bar, "value": value,
                     "pass": None if ok is None else bool(ok)})

    def get(*path):
        cur = res
        for p in path:
            if not isinstance(cur, dict) or cur.get(p) is None:
                return None
            cur = cur[p]
        return cur

    st, nst = res.get("startup_ms"), null.get("startup_ms")
    add("start-up to Ready.", "<= null + 2 ms",
        None if st is None else f"{st:.1f} ms (null {nst:.1f})",
        None if st is None else st <= nst + 2.0)
    v = res.get("idle_rss_mb")
    add("idle RSS", "<= 8 MB", None if v is None else f"{v:.1f} MB",
        None if v is None else v <= 8.0)
    f = get("ab_put_c8", "fraction")
    fails = get("ab_put_c8", "failures")
    add("PutItem ab c=8", ">= 0.85 of ceiling, 0 failures",
        None if f is None else f"{f:.2f}, {fails} failures",
        None if f is None else f >= 0.85 and fails == 0
        and res.get("verified") is not False)
    def fails(key):
        n = get(key, "failures") or 0
        return f", {n} FAILURES" if n else ""

    f, c = get("wrk_put_c8", "fraction"), get("wrk_put_c8", "cpu_us")
    add("PutItem wrk c=8", ">= 0.50 of ceiling; CPU <= 15 us/call",
        None if f is None else f"{f:.2f}, {c:.1f} us" + fails("wrk_put_c8"),
        None if f is None else f >= 0.50 and c <= 15.0
        and not fails("wrk_put_c8"))
    f = get("wrk_get_c8", "fraction")
    add("GetItem wrk c=8", ">= 0.60 of ceiling",
        None if f is None else f"{f:.2f}" + fails("wrk_get_c8"),
        None if f is None else f >= 0.60 and not fails("wrk_get_c8"))
    c = get("wrk_query_c8", "cpu_us")
    add("Query 1,000 items", "<= 250 us CPU/query",
        None if c is None else f"{c:.0f} us" + fails("wrk_query_c8"),
        None if c is None else c <= 250 and not fails("wrk_query_c8"))
    v = res.get("rss_after_burst_mb")
    add("RSS after ab burst", "<= 20 MB", None if v is None else f"{v:.1f} MB",
        None if v is None else v <= 20.0)
    o = get("wrk_c1", "over_ceiling_us")
    add("c=1 mean (wrk)", "<= ceiling + 30 us",
        None if o is None else f"+{o:.1f} us", None if o is None else o <= 30)
    # Growth: first vs. last size, each half judged on the steps whose calls
    # all succeeded (a server lacking Query still gets its put figure).
    steps = [s for s in res.get("growth", []) if "put_rate" in s]
    puts = [s for s in steps if not s["put_failures"] and s["put_rate"]]
    queries = [s for s in steps if not s["query_failures"]
               and s["query_cpu_us"]]
    parts, oks = [], []
    for label, ok_steps, figure in (("put rate", puts, "put_rate"),
                                    ("query CPU", queries, "query_cpu_us")):
        if len(ok_steps) >= 2:
            x = ok_steps[-1][figure] / ok_steps[0][figure]
            parts.append(f"{label} x{x:.2f} ({ok_steps[0]['size']:,} -> "
                         f"{ok_steps[-1]['size']:,})")
            oks.append(abs(x - 1) <= 0.2)
        else:
            parts.append(f"{label} n/a")
            oks.append(None)
    verdict = (False if False in oks else None if None in oks else True)
    add("growth", "put rate and Query cost within +-20 %",
        "; ".join(parts) if steps else None, verdict)
    # Query scale (issue 5): CPU per query, 10,000-item partition of the big
    # table over the 10-item table, each shape within +-20 %, no failures.
    qs = res.get("query_scale") or {}
    shapes = [qs[k] for k in ("page", "between") if k in qs]
    value = ok = None
    if shapes:
        nfail = sum(f[t]["failures"] for f in shapes for t in ("small", "big"))
        value = ", ".join(f"{k} x{qs[k]['cpu_ratio']:.2f}"
                          for k in ("page", "between") if k in qs)
        value += f" ({qs['items']:,} items)"
        if nfail:
            value += f", {nfail} FAILURES"
        ok = (len(shapes) == 2 and not nfail
              and all(abs(f["cpu_ratio"] - 1) <= 0.2 for f in shapes))
    add(QS_BAR, "CPU/query big/small within +-20 %", value, ok)
    return bars


