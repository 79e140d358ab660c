#!/usr/bin/env python3
"""The differential test: the same requests to pogi and to dynalite, answers compared.

    python3 tests/differential/run.py [--seed N] [--variants N] [--ops PutItem,Query]
                                      [--dump FILE] [--write-baseline] [--show N]

--variants is per operation. Exit code: 0 when every difference is allow-listed
or known (known_differences.json), 1 when there is a new one, 77 when node
and npm are missing (CTest reports the test as skipped, not passed). See
README.md for how to read the report.
"""
import argparse
import http.client
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))

import compare  # noqa: E402
import dynalite_server  # noqa: E402
import fixture  # noqa: E402
import variants  # noqa: E402
import wire  # noqa: E402
from harness import Server  # noqa: E402

# What CI runs (CMakeLists.txt's `differential` test); the baseline is written for it.
DEFAULT_SEED = 1
DEFAULT_VARIANTS = 500
ALLOW_LIST = os.path.join(HERE, "allow_list.json")
BASELINE = os.path.join(HERE, "known_differences.json")
SKIP = 77


def shorten(value, limit=300):
    """The request or answer with long strings cut, for printing and dumps."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "...(%d chars)" % len(value)
    if isinstance(value, list):
        return [shorten(v, limit) for v in value[:30]] + (["...(%d more)" % (len(value) - 30)] if len(value) > 30 else [])
    if isinstance(value, dict):
        return {k: shorten(v, limit) for k, v in value.items()}
    return value


class Reference:
    """dynalite and a client of it; a request that kills dynalite's process
    (some malformed ones do) is answered as status 0, type "DynaliteCrashed",
    and dynalite is started again with the fixture."""

    def __init__(self):
        self.server = dynalite_server.DynaliteServer().start()
        self.client = wire.Client(self.server.port)
        fixture.setup(self.client)

    def send(self, op, body):
        try:
            return self.client.send(op, body)
        except (OSError, http.client.HTTPException):
            try:
                # The connection can drop before the exit is seen; 30 s only
                # says "it never exited" (a busy machine may take seconds).
                self.server.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                raise RuntimeError("dynalite dropped the connection but did not exit") from None
            stderr = self.server.proc.stderr.read().decode(errors="replace").strip().splitlines()
            why = next((line for line in stderr if "Error" in line), stderr[-1] if stderr else "")
            self.stop()
            self.__init__()
            return wire.Answer(0, "DynaliteCrashed", why.strip())

    def stop(self):
        self.client.close()
        self.server.stop()


def run_variants(ops, seed, count, pogi, dyn, log):
    """Sends every variant to both servers; returns [(variant, class, pogi answer, dynalite answer)]."""
    results = []
    for op in ops:
        started = time.monotonic()
        for v in variants.base_variants(op) + variants.variants(op, seed, count):
            body = json.dumps(v.request).encode()
            a_pogi, a_dyn = pogi.send(op, body), dyn.send(op, body)
            if op in fixture.WRITES:
                for client, answer in ((pogi, a_pogi), (dyn.client, a_dyn)):
                    if answer.status == 200:
                        fixture.restore(client, op, v.request)
            results.append((v, compare.classify(a_pogi, a_dyn), a_pogi, a_dyn))
        log("  %-15s %5.1f s" % (op, time.monotonic() - started))
    return results


def answers_vary(pogi, v, first, tries=20):
    """Whether pogi answers v's bytes differently when asked again (only for
    errors: resending a success could write twice). pogi checks the members
    of a map in no fixed order today, so with two bad members it names either."""
    if first.status == 200:
        return False
    body = json.dumps(v.request).encode()
    for _ in range(tries):
        again = pogi.send(v.op, body)
        if (again.status, again.type, again.message) != (first.status, first.type, first.message):
            return True
    return False


def judge(results, allow, known, pogi, recheck_all=False):
    """One row per difference (and per known variant that now agrees), with its verdict:
    allowed, known, unstable (pogi's own answer varies: reported, never failing), new;
    or prune (a known difference that now agrees, steadily)."""
    rows = []
    for v, cls, a_pogi, a_dyn in results:
        if cls == "agree":
            if v.id in known and not answers_vary(pogi, v, a_pogi):
                rows.append({"id": v.id, "op": v.op, "class": cls, "verdict": "prune"})
            continue
        entry = allow.match(v.id, cls, a_pogi, a_dyn)
        if entry:
            verdict = "allowed"
        elif v.id in known and not recheck_all:
            verdict = "known"
        elif answers_vary(pogi, v, a_pogi):
            verdict = "unstable"
        else:
            verdict = "known" if v.id in known else "new"
        rows.append({"id": v.id, "op": v.op, "class": cls, "verdict": verdict, "reason": entry and entry["reason"],
                     "pogi": a_pogi.as_list(), "dynalite": a_dyn.as_list(), "request": shorten(v.request)})
    return rows


def report(results, rows, known, show):
    """Prints the per-operation table and the differences; returns how many are new."""
    columns = ("variants", "agree", "allowed", "known", "unstable", "new")
    per_op = {}
    for v, cls, *_ in results:
        c = per_op.setdefault(v.op, dict.fromkeys(columns, 0))
        c["variants"] += 1
        c["agree"] += cls == "agree"
    for r in rows:
        if r["verdict"] != "prune":
            per_op[r["op"]][r["verdict"]] += 1
    per_op["total"] = {k: sum(c[k] for c in per_op.values()) for k in columns}
    print("\n%-15s" % "operation" + "".join("%9s" % k for k in columns))
    for op, c in per_op.items():
        print("%-15s" % op + "".join("%9d" % c[k] for k in columns))
    by_class = {}
    for r in rows:
        if r["verdict"] != "prune":
            by_class[r["class"]] = by_class.get(r["class"], 0) + 1
    print("differences by class: " + (", ".join("%s %d" % (c, by_class[c]) for c in compare.CLASSES
                                                 if c in by_class) or "none"))

    ran = {v.id for v, *_ in results}
    prunable = sorted(r["id"] for r in rows if r["verdict"] == "prune" or (r["verdict"] == "allowed" and r["id"] in known))
    if prunable:
        print("\n%d known differences now agree or are allow-listed (prune them: run.py --write-baseline):"
              % len(prunable))
        for i in prunable[:show]:
            print("  " + i)
    not_run = sum(1 for i in known if i not in ran)
    if not_run:
        print("(%d known differences belong to variants this run did not send)" % not_run)
    unstable = [r for r in rows if r["verdict"] == "unstable"]
    if unstable:
        print("\n%d differences where pogi answered the same bytes differently when asked again "
              "(pogi's bug: map members checked in no fixed order); not failing, e.g.:" % len(unstable))
        for r in unstable[:3]:
            print("  %s\n    pogi: %s\n    dynalite: %s" % (r["id"], r["pogi"], r["dynalite"]))

    new = [r for r in rows if r["verdict"] == "new"]
    if new:
        print("\n%d NEW differences (neither allow-listed nor in known_differences.json):" % len(new))
        for r in new[:show]:
            print("  %s  [%s]\n    pogi:     %s\n    dynalite: %s\n    request:  %s"
                  % (r["id"], r["class"], r["pogi"], r["dynalite"], json.dumps(r["request"])[:400]))
        if len(new) > show:
            print("  ... and %d more (--dump FILE lists them all)" % (len(new) - show))
    return len(new)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--variants", type=int, default=DEFAULT_VARIANTS, help="variants per operation")
    ap.add_argument("--ops", default=",".join(variants.OPERATIONS), help="comma-separated operations")
    ap.add_argument("--dump", metavar="FILE", help="write every difference (with requests) as JSON")
    ap.add_argument("--write-baseline", action="store_true",
                    help="record this run's unallowed differences in known_differences.json")
    ap.add_argument("--show", type=int, default=40, help="how many new differences to print")
    args = ap.parse_args(argv)
    ops = [o for o in args.ops.split(",") if o]
    unknown = [o for o in ops if o not in variants.BASES]
    if unknown:
        ap.error("unknown operations %s; known: %s" % (unknown, ", ".join(variants.OPERATIONS)))

    def log(msg):
        print(msg, flush=True)

    # The same policy as tests/s3_server.py: no node/npm here is a skip (said
    # so, and CTest shows it as skipped); a failed install (no network) fails.
    if dynalite_server.problem():
        print("differential: SKIPPED: " + dynalite_server.problem())
        return SKIP
    allow = compare.AllowList(ALLOW_LIST)
    known = compare.load_baseline(BASELINE)
    started = time.monotonic()
    try:
        dyn = Reference()
    except RuntimeError as e:
        print("differential: FAILED: cannot install or start dynalite, the reference: %s" % e)
        return 1
    pogi_server = Server(in_memory=True)
    try:
        pogi_server.start()
        pogi = wire.Client(pogi_server.port)
        fixture.setup(pogi)
        log("differential: seed %d, %d variants per operation, pogi on %d, dynalite on %d"
            % (args.seed, args.variants, pogi_server.port, dyn.server.port))
        results = run_variants(ops, args.seed, args.variants, pogi, dyn, log)
        rows = judge(results, allow, known, pogi, recheck_all=args.write_baseline)
        if not pogi_server.alive():
            print("differential: FAILED: pogi died; stderr: " + pogi_server.stderr_text()[-3000:])
            return 1
    finally:
        pogi_server.cleanup()
        dyn.stop()

    new = report(results, rows, known, args.show)
    rows = [r for r in rows if r["verdict"] != "prune"]
    crashes = [r for r in rows if r["pogi"][0] >= 500]
    if crashes:
        print("\npogi answered %d variants with a 5xx (a crash is never allowed):" % len(crashes))
        for r in crashes[:10]:
            print("  %s: %s" % (r["id"], r["pogi"]))
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(rows, f, indent=1, ensure_ascii=False)
        print("differences written to " + args.dump)
    if args.write_baseline:
        compare.write_baseline(BASELINE, known, {v.id for v, *_ in results},
                               [r for r in rows if r["verdict"] in ("known", "new")])
        print("baseline written to %s" % BASELINE)
        new = 0
    print("differential: %.1f s; %s" % (time.monotonic() - started,
                                        "FAILED: %d new differences" % new if new else "passed"))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
