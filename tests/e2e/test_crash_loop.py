"""Crash loop: a mixed write load killed with kill -9 at random moments.

Several threads write at once (PutItem, UpdateItem, conditional DeleteItem,
BatchWriteItem, TransactWriteItems with a condition check, conditional and
shared ADD counters) to a table with a GSI, an LSI and a stream and to a
counter table with a stream; pogi is killed with kill -9 at a random moment,
restarted on the same data, and checked (crash_check.py): every acknowledged
write is there, an unacknowledged transaction is all there or not at all,
counters equal the acknowledged increments (plus in-flight ones), index
entries, DescribeTable's counts and sizes and the stream records match a
recount from the items. Then the load starts again.

CI runs POGI_CRASH_ITERATIONS (default 30, ~20 s) kills; the figures in
docs/reliability.md come from the long run:
    POGI_CRASH_ITERATIONS=50 python3 -m unittest -v test_crash_loop
POGI_CRASH_SEED fixes the load's choices (kill moments still vary with timing).
"""

import os
import random
import sys
import threading
import time
import unittest

from crash_check import check_after_restart
from crash_model import ITEMS, Model, Worker, create_tables
from harness import Server
from test_streams import streams_client

WORKERS = int(os.environ.get("POGI_CRASH_WORKERS", "6"))


class CrashLoop(unittest.TestCase):

    def test_kill_9_under_mixed_load(self):
        iterations = int(os.environ.get("POGI_CRASH_ITERATIONS", "30"))
        seed = int(os.environ.get("POGI_CRASH_SEED", str(random.randrange(1 << 30))))
        rng = random.Random(seed)
        server = Server()
        self.addCleanup(server.cleanup)
        server.start()
        clients = [server.client() for _ in range(WORKERS)]
        checker, streams = server.client(), streams_client(server)
        create_tables(checker)
        model = Model(WORKERS)
        started = time.monotonic()
        for i in range(iterations):
            stop = threading.Event()
            workers = [Worker(model, w, clients[w], stop, rng.random()) for w in range(WORKERS)]
            acked_before = model.stats["ops_acked"]
            for t in workers:
                t.start()
            time.sleep(rng.uniform(0.05, 0.6))
            # At least one request acknowledged in each run before its kill,
            # however slow the machine (a wait, not a longer sleep).
            deadline = time.monotonic() + 60
            while model.stats["ops_acked"] == acked_before:
                self.assertLess(time.monotonic(), deadline, "no request acknowledged within 60 s")
                time.sleep(0.01)
            stop.set()
            server.kill()
            self.assertEqual(server.returncode, -9)
            for t in workers:
                t.join(30)
                self.assertFalse(t.is_alive(), "a writer hung after the kill")
                if t.error:
                    raise t.error
            # Every other run fsyncs each commit: a kill then often lands
            # after a commit reached the WAL and before its answer left, so
            # the in-flight outcomes are exercised both ways.
            server.extra_args = ["--fsync"] if i % 2 == 0 else []
            server.start()
            try:
                check_after_restart(model, checker, streams)
            except AssertionError as e:
                raise AssertionError("after kill %d of %d (seed %d): %s" % (i + 1, iterations, seed, e))
        # A clean stop keeps the counters in the catalog instead of recounting: same answers.
        server.restart()
        check_after_restart(model, checker, streams)
        s = model.stats
        self.assertEqual(s["losses"], 0)
        print("\ncrash loop: %d kills in %.0f s (seed %d), %d requests acknowledged (%d item writes, "
              "%d counter increments, %d expected condition failures), %d in flight at a kill (%d of "
              "them applied, %d transactions), %d key states, %d index entries, %d stream records checked, losses: %d"
              % (iterations, time.monotonic() - started, seed, s["ops_acked"], s["items_acked"],
                 s["counter_increments_acked"], s["conditional_failures_expected"], s["in_flight"],
                 s["in_flight_applied"], s["in_flight_tx_applied"], s["keys_checked"], s["index_entries_checked"],
                 s["stream_records_checked"], s["losses"]), file=sys.stderr)
        # The checks bite: an item removed behind the model's back is a loss.
        key = next(iter(model.items))
        checker.delete_item(TableName=ITEMS, Key={"pk": {"S": key[0]}, "sk": {"N": key[1]}})
        with self.assertRaisesRegex(AssertionError, "after the restart; acknowledged"):
            check_after_restart(model, checker, streams)
        self.assertGreaterEqual(s["ops_acked"], iterations)


if __name__ == "__main__":
    unittest.main()
