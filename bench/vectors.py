"""Vector search bench (issue 27): for each shape N x D (default 10,000 x 1,024
and 100,000 x 1,024), fills a table with a COSINE vector index on an
attribute of D numbers (`pogi import`, through the one write path), then
sends SearchVectors TopK=10 at concurrency 1 over one keep-alive connection:
the first search (it loads the partition into the vector cache), then the
latency p50/p99 of the next ones, searches per second, the server's CPU per
search (from /proc, user + system) and its RSS before filling, after filling
and after searching. Every search is checked to return 10 results.

  POGI_BIN=build/pogi python3 bench/vectors.py [NxD ...] [--searches K] [--in-memory]

Only 127.0.0.1 is used. The write cost a vector index adds to PutItem is
counted by bench/instructions.py --vector D [--vector-index]."""

import json
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from harness import Server, run_pogi, LOCALHOST  # noqa: E402
from servers import cpu_seconds, rss_mb  # noqa: E402  (bench/servers.py: /proc readings)


def component_pool(rng, size=4096):
    """Numbers as an SDK writes them, precomputed: formatting 100 million
    floats would take the bench longer than the server's whole load."""
    return ['{"N":"%s"}' % repr(round(rng.uniform(-1, 1), 6)) for _ in range(size)]


def write_items(path, n, dims, rng):
    pool = component_pool(rng)
    with open(path, "w") as f:
        for i in range(n):
            vector = ",".join(rng.choices(pool, k=dims))
            f.write('{"Item":{"pk":{"S":"k%07d"},"emb":{"L":[%s]}}}\n' % (i, vector))


def run_shape(n, dims, searches, in_memory):
    rng = random.Random(n * 7919 + dims)
    tmp = tempfile.mkdtemp(prefix="pogi-bench-vectors-")
    with Server(in_memory=in_memory) as server:
        conn = server.connection(timeout=600)
        pid = server.http_pid

        def call(op, payload):
            status, _, body = server.raw(payload, target=op, conn=conn)
            if status != 200:
                raise RuntimeError("%s: %s" % (op, body[:300]))
            return json.loads(body)

        call("CreateTable", {
            "TableName": "vectors", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [{"IndexName": "by-emb", "VectorAttribute": {"AttributeName": "emb"},
                               "Dimensions": dims, "DistanceFunction": "COSINE",
                               "Projection": {"ProjectionType": "KEYS_ONLY"}}]})
        rss_idle = rss_mb(pid)
        seed = os.path.join(tmp, "items.jsonl")
        write_items(seed, n, dims, rng)
        t0 = time.monotonic()
        cp = run_pogi("import", "vectors", seed, "--host", LOCALHOST, "--grpc-port", server.grpc_port,
                      timeout=3600)
        if cp.returncode != 0:
            raise RuntimeError(cp.stderr)
        fill_s = time.monotonic() - t0
        os.remove(seed)
        rss_filled = rss_mb(pid)
        conn.close()  # idle through the fill: the server may have closed it
        conn = server.connection(timeout=600)

        def search():
            query = [{"N": repr(round(rng.uniform(-1, 1), 6))} for _ in range(dims)]
            t = time.monotonic()
            answer = call("SearchVectors", {"TableName": "vectors", "IndexName": "by-emb",
                                            "SearchVector": query, "TopK": 10})
            elapsed = time.monotonic() - t
            if len(answer.get("SearchResults", [])) != 10:
                raise RuntimeError("SearchVectors gave %d results" % len(answer.get("SearchResults", [])))
            return elapsed

        first = search()
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        latencies = sorted(search() for _ in range(searches))
        wall, cpu = time.monotonic() - t0, cpu_seconds(pid) - cpu0
        conn.close()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        return {
            "shape": "%d x %d" % (n, dims), "fill_items_per_s": n / fill_s,
            "first_ms": first * 1000, "p50_ms": statistics.median(latencies) * 1000, "p99_ms": p99 * 1000,
            "searches_per_s": searches / wall, "cpu_ms_per_search": cpu * 1000 / searches,
            "scan_gb_per_s": n * dims * 4 / (cpu / searches) / 1e9 if cpu else float("inf"),
            "rss_idle_mb": rss_idle, "rss_filled_mb": rss_filled, "rss_after_mb": rss_mb(pid),
        }


def main():
    args, shapes, searches, in_memory = sys.argv[1:], [], 200, False
    while args:
        a = args.pop(0)
        if a == "--searches":
            searches = int(args.pop(0))
        elif a == "--in-memory":
            in_memory = True
        elif "x" in a:
            n, d = a.split("x")
            shapes.append((int(n), int(d)))
        else:
            raise SystemExit(__doc__)
    shapes = shapes or [(10000, 1024), (100000, 1024)]
    print("| N x D | fill, items/s | first search, ms | p50, ms | p99, ms | searches/s (c=1) "
          "| server CPU per search, ms | scanned, GB/s of CPU | RSS idle / filled / after, MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, d in shapes:
        r = run_shape(n, d, searches, in_memory)
        print("| %s | %.0f | %.1f | %.2f | %.2f | %.0f | %.2f | %.1f | %.1f / %.1f / %.1f |" % (
            r["shape"], r["fill_items_per_s"], r["first_ms"], r["p50_ms"], r["p99_ms"], r["searches_per_s"],
            r["cpu_ms_per_search"], r["scan_gb_per_s"], r["rss_idle_mb"], r["rss_filled_mb"],
            r["rss_after_mb"]), flush=True)


if __name__ == "__main__":
    main()
