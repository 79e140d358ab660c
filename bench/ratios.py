"""pogi's figures as multiples of its peers' measured in the same run:
durable pogi against durable DynamoDB Local and dynalite, in-memory pogi
against their in-memory modes. Absolute CPU per call differs by about 2x
between two machines of the same kind; these ratios hold much better."""

# (pogi column, peer column): like against like.
PAIRS = (("pogi", "ddb-local"), ("pogi", "dynalite-path"),
         ("pogi-mem", "ddb-local-mem"), ("pogi-mem", "dynalite"))

# The figures that have a ratio, as paths into a server's results. Rates:
# above 1 means pogi serves more; times, CPU and memory: below 1 means pogi
# needs less.
FIGURES = (
    ("startup_ms",), ("idle_rss_mb",),
    ("ab_put_c8", "rate"), ("ab_put_c8", "cpu_us"), ("rss_after_burst_mb",),
    ("wrk_put_c8", "rate"), ("wrk_put_c8", "cpu_us"),
    ("wrk_get_c8", "rate"), ("wrk_get_c8", "cpu_us"),
    ("wrk_query_c8", "rate"), ("wrk_query_c8", "cpu_us"),
    ("ab_c1", "mean_us"), ("wrk_c1", "mean_us"), ("rss_end_mb",),
) + tuple(("query_scale", shape, size, fig)
          for shape in ("page", "between") for size in ("small", "big")
          for fig in ("cpu_us", "rate"))


def pair_name(pogi, peer):
    return f"{pogi}/{peer}"


def figure_key(path):
    return ".".join(path)


def lookup(res, path):
    cur = res
    for p in path:
        if not isinstance(cur, dict) or cur.get(p) is None:
            return None
        cur = cur[p]
    return cur if isinstance(cur, (int, float)) else None


def peer_ratios(results):
    """{"pogi/ddb-local": {"wrk_put_c8.rate": 3.2, ...}, ...} for every pair
    whose two columns ran; a figure is left out when either side lacks it
    or the peer's is zero."""
    out = {}
    for pogi, peer in PAIRS:
        if pogi not in results or peer not in results:
            continue
        figs = {}
        for path in FIGURES:
            a = lookup(results[pogi], path)
            b = lookup(results[peer], path)
            if a is not None and b:
                figs[figure_key(path)] = round(a / b, 4)
        if figs:
            out[pair_name(pogi, peer)] = figs
    return out
