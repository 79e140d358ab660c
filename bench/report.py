"""The bench's printed report: the main table (one column per server, and
pogi's figures as multiples of its peers'), the growth and query-scale
tables, and the bars."""

import os

from common import QS_BIG_PART, QS_CONNS, QS_PAGE
from ratios import figure_key


def num_str(x):
    """Three significant figures for small numbers, grouped digits for big."""
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def ratio_str(x):
    """x20.0, x3.64, x0.07, x0.0012: two significant figures at least."""
    if x >= 10:
        return f"x{x:.1f}"
    return f"x{x:.2f}" if x >= 0.1 else f"x{x:.2g}"


def fmt_rate(r):
    return "-" if r is None else num_str(r) + "/s"


def query_scale_rows(row, num, val):
    row("Query page, 10-item table vs 10,000 of N (c=4)",
        lambda n: "")
    row("  items in the big table", num("{:,}", "query_scale", "items"))
    for shape, label in (("page", f"pk = :p, Limit {QS_PAGE}"),
                         ("between", f"+ sk BETWEEN, {QS_PAGE} items")):
        row(f"  {label}: CPU us, 10-item",
            num("{:.1f}", "query_scale", shape, "small", "cpu_us"))
        row(f"  {label}: CPU us, big",
            num("{:.1f}", "query_scale", shape, "big", "cpu_us"))
        row("    CPU ratio big/small",
            num("x{:.3f}", "query_scale", shape, "cpu_ratio"))
        row("    rate 10-item", lambda n, s=shape: fmt_rate(
            val(n, "query_scale", s, "small", "rate")),
            ("query_scale", shape, "small", "rate"))
        row("    rate big", lambda n, s=shape: fmt_rate(
            val(n, "query_scale", s, "big", "rate")),
            ("query_scale", shape, "big", "rate"))
        row("    rate ratio big/small",
            num("x{:.3f}", "query_scale", shape, "rate_ratio"))


def format_rows(rows, names):
    widths = [max(len(r[i]) for r in rows + [[""] + names])
              for i in range(len(names) + 1)]
    lines = ["  ".join(["".ljust(widths[0])]
                       + [n.rjust(widths[i + 1]) for i, n in enumerate(names)])]
    for r in rows:
        lines.append("  ".join([r[0].ljust(widths[0])]
                               + [c.rjust(widths[i + 1])
                                  for i, c in enumerate(r[1:])]))
    return "\n".join(lines)


def table(results, names, ratios=None, null_name="null",
          only_query_scale=False):
    """One column per server, then one per pair of `ratios` (see ratios.py):
    a figure row shows pogi's figure over the peer's as "x1.23"."""
    rows = []
    ratios = ratios or {}

    def val(name, *path):
        cur = results.get(name, {})
        for p in path:
            if not isinstance(cur, dict) or cur.get(p) is None:
                return None
            cur = cur[p]
        return cur

    def row(label, fn, path=None):
        path = path or getattr(fn, "path", None)
        cells = [fn(n) for n in names]
        for figs in ratios.values():
            x = figs.get(figure_key(path)) if path else None
            cells.append("" if x is None else ratio_str(x))
        rows.append([label] + cells)

    def num(fmt, *path):
        def cell(n):
            v = val(n, *path)
            return "-" if v is None else fmt.format(v)
        cell.path = path
        return cell

    def opt(fmt, *path):  # blank for the ceiling itself; no ratio
        return lambda n: "" if n == null_name else num(fmt, *path)(n)

    if only_query_scale:
        query_scale_rows(row, num, val)
        return format_rows(rows, names + list(ratios))
    row("start-up to ready, median (ms)", num("{:.1f}", "startup_ms"))
    row("  minus null server's (ms)", opt("{:+.1f}", "startup_over_null_ms"))
    row("idle RSS 0.5 s after ready (MB)", num("{:.1f}", "idle_rss_mb"))
    for key, label in (("ab_put_c8", "PutItem ab c=8 (signed, HTTP/1.0)"),
                       ("wrk_put_c8", "PutItem wrk -t1 -c8 (keep-alive)"),
                       ("wrk_get_c8", "GetItem wrk -t1 -c8"),
                       ("wrk_query_c8", "Query 1,000 items wrk -t1 -c8")):
        row(label, lambda n, k=key: fmt_rate(val(n, k, "rate")),
            (key, "rate"))
        row("  fraction of ceiling", opt("{:.3f}", key, "fraction"))
        row("  overhead per call (us)", opt("{:+.1f}", key, "overhead_us"))
        row("  server CPU per call (us)", num("{:.1f}", key, "cpu_us"))
        row("  failures", num("{:.0f}", key, "failures"))
        if key == "ab_put_c8":
            row("  item verified (GetItem)",
                lambda n: "" if n == null_name else {
                    True: "yes", False: "NO", None: "-"}[val(n, "verified")])
            row("RSS after ab burst (MB)", num("{:.1f}", "rss_after_burst_mb"))
    row("c=1 mean, ab (us)", num("{:.1f}", "ab_c1", "mean_us"))
    row("  over ceiling (us)", opt("{:+.1f}", "ab_c1", "over_ceiling_us"))
    row("c=1 mean, wrk duration/requests (us)",
        num("{:.1f}", "wrk_c1", "mean_us"))
    row("  over ceiling (us)", opt("{:+.1f}", "wrk_c1", "over_ceiling_us"))
    row("RSS at the end (MB)", num("{:.1f}", "rss_end_mb"))
    row("binary stripped (MB)",
        num("{:.2f}", "binary_mb_stripped"))
    query_scale_rows(row, num, val)
    return format_rows(rows, names + list(ratios))


def growth_table(results, names):
    lines = []
    for n in names:
        steps = results.get(n, {}).get("growth")
        if not steps:
            continue
        lines.append(f"{n}:")
        lines.append(f"  {'keys':>9}  {'fill/s':>9}  {'put/s':>9}  "
                     f"{'of ceil':>7}  {'put CPU us':>10}  {'query/s':>8}  "
                     f"{'query CPU us':>12}  {'RSS MB':>7}  failures")
        for s in steps:
            if "put_rate" not in s:
                lines.append(f"  {s['size']:>9,}  {s['fill_rate']:>9,.0f}  "
                             f"{s.get('incomplete', '')}")
                continue
            lines.append(
                f"  {s['size']:>9,}  {s['fill_rate']:>9,.0f}  "
                f"{num_str(s['put_rate']):>9}  "
                f"{s.get('put_fraction', 0):>7.3f}  "
                f"{s['put_cpu_us']:>10.1f}  {num_str(s['query_rate']):>8}  "
                f"{s['query_cpu_us']:>12.0f}  {s['rss_mb']:>7.1f}  "
                f"{s['fill_failures'] + s['put_failures']:>8}"
                + ("" if not s["query_failures"] else
                   f" (+{s['query_failures']} Query: figures invalid)"))
    return "\n".join(lines)


def query_scale_table(results, names):
    lines = []
    for n in names:
        qs = results.get(n, {}).get("query_scale")
        if not qs or "fill_seconds" not in qs:
            continue
        head = (f"{n}: {qs['items']:,} items filled in "
                f"{qs['fill_seconds']:.1f} s "
                f"({qs['fill_items_per_s']:,.0f} items/s, "
                f"{qs['fill_cpu_us_per_item']:.1f} us CPU/item, "
                f"BatchWriteItem of 25 over {qs['conns']} connections)")
        if "rss_mb" in qs:
            head += f", RSS {qs['rss_mb']:.0f} MB"
        lines.append(head)
        if "page" not in qs:
            continue
        lines.append(f"  {'query':<34} {'10-item CPU':>11} {'rate':>9}  "
                     f"{'big CPU':>9} {'rate':>9}  {'CPU ratio':>9} "
                     f"{'rate ratio':>10}  failures")
        for shape in ("page", "between"):
            f = qs.get(shape)
            if not f:
                continue
            lines.append(
                f"  {f['query']:<34} {f['small']['cpu_us']:>8.1f} us "
                f"{fmt_rate(f['small']['rate']):>9}  "
                f"{f['big']['cpu_us']:>6.1f} us {fmt_rate(f['big']['rate']):>9}"
                f"  {'x%.3f' % f['cpu_ratio']:>9} "
                f"{'x%.3f' % f['rate_ratio']:>10}  "
                f"{f['small']['failures'] + f['big']['failures']:>8}")
    return "\n".join(lines)


def bars_table(all_bars):
    lines = []
    for name, bars in all_bars.items():
        lines.append(f"{name}:")
        for b in bars:
            mark = {True: "pass", False: "MISS", None: "n/a"}[b["pass"]]
            lines.append(f"  {mark:<5} {b['figure']:<26} {b['bar']:<40} "
                         f"{b['value'] or '-'}")
    return "\n".join(lines)


def print_report(out, names, only, cfg):
    """The human-readable report of the JSON line `out`, to stdout."""
    results, all_bars, notes = out["servers"], out["bars"], out["notes"]
    load_before = out["machine"]["loadavg_before"]
    ratios = out.get("peer_ratios") or {}
    print()
    print(f"pogi bench  {out['when']}  {'(quick) ' if out['quick'] else ''}"
          f"{os.cpu_count()} CPUs, load {load_before[0]:.2f} -> "
          f"{out['machine']['loadavg_after'][0]:.2f}, "
          f"{out['seconds']:.0f} s")
    if not only:
        print("ceiling = the null column: the same generator and requests "
              "against a do-nothing server.")
    print()
    print(table(results, names, ratios, only_query_scale=only))
    if ratios:
        print("pogi/X: pogi's figure divided by X's, same run (rates: above "
              "1 = pogi serves more;")
        print("times, CPU and memory: below 1 = pogi needs less).")
    g = growth_table(results, names)
    if g:
        print()
        print("growth (PutItem c=8 over random existing keys and the "
              "1,000-item Query, at each table size):")
        print(g)
    q = query_scale_table(results, names)
    if q:
        print()
        print("query scale (issue 5): the same Query on a 10-item table and "
              f"on the {QS_BIG_PART:,}-item partition of the big table,")
        print(f"wrk -t1 -c{QS_CONNS}, {cfg.qs_rounds} rounds of "
              f"{cfg.qs_seconds} s per query and table, alternating; "
              "server CPU per query from /proc:")
        print(q)
    if all_bars:
        print()
        print("bars (issues 3 and 5):")
        print(bars_table(all_bars))
    if notes:
        print()
        for n in notes:
            print(f"note: {n}")
