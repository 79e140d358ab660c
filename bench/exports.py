"""Exports, imports and bulk puts bench (issue 26): ExportTableToPointInTime of a table
of N items (default 100,000) to the folder store: items per second, the
server's RSS while it runs (sampled every 20 ms) against before, and what a
GetItem costs (latency at concurrency 1) while the export runs against idle,
in the same run; then ImportTable of that export into a new table, and
StartBulkPutItems of it into the source table: items per second and RSS. Usage: POGI_BIN=build/pogi python3 bench/exports.py [items]"""

import json
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from harness import Server, run_pogi, LOCALHOST  # noqa: E402


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    tmp = tempfile.mkdtemp(prefix="pogi-bench-exports-")
    s3dir = os.path.join(tmp, "s3")
    os.makedirs(os.path.join(s3dir, "bench"))
    with Server(extra_args=["--s3-dir", s3dir]) as server:
        conn = server.connection()

        def call(op, payload):
            status, _, body = server.raw(payload, target=op, conn=conn)
            if status != 200:
                raise RuntimeError("%s: %s" % (op, body))
            return json.loads(body)

        call("CreateTable", {"TableName": "big", "BillingMode": "PAY_PER_REQUEST",
                             "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                             "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        call("UpdateContinuousBackups", {"TableName": "big",
                                         "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
        dump = os.path.join(tmp, "seed.jsonl")
        with open(dump, "w") as f:
            for i in range(n):
                f.write(json.dumps({"Item": {"pk": {"S": "k%07d" % i}, "n": {"N": str(i)},
                                             "v": {"S": "x" * 100}}}) + "\n")
        t0 = time.monotonic()
        cp = run_pogi("import", "big", dump, "--host", LOCALHOST, "--grpc-port", server.grpc_port, timeout=900)
        if cp.returncode != 0:
            raise RuntimeError(cp.stderr)
        print("filled %d items in %.1f s (pogi import)" % (n, time.monotonic() - t0))
        arn = call("DescribeTable", {"TableName": "big"})["Table"]["TableArn"]

        def get_latencies(count, stop=None):
            out = []
            for i in range(count):
                if stop and stop():
                    break
                t = time.perf_counter()
                call("GetItem", {"TableName": "big", "Key": {"pk": {"S": "k%07d" % (i * 7919 % n)}}})
                out.append((time.perf_counter() - t) * 1e6)
            return out

        idle = get_latencies(2000)
        rss_before = rss_mb(server.proc.pid)
        samples = []
        done = threading.Event()

        def sample():
            while not done.is_set():
                samples.append(rss_mb(server.proc.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        t0 = time.monotonic()
        export = call("ExportTableToPointInTime", {"TableArn": arn, "S3Bucket": "bench"})["ExportDescription"]
        sampler.start()
        status = {}
        status_conn = server.connection()

        def poll():
            while True:
                s, _, body = server.raw({"ExportArn": export["ExportArn"]}, target="DescribeExport",
                                        conn=status_conn)
                d = json.loads(body)["ExportDescription"]
                if d["ExportStatus"] != "IN_PROGRESS":
                    status.update(d)
                    status["elapsed"] = time.monotonic() - t0
                    return
                time.sleep(0.01)

        poller = threading.Thread(target=poll)
        poller.start()
        during = get_latencies(10 ** 9, stop=lambda: bool(status))
        poller.join()
        done.set()
        sampler.join()
        print("export of %d items: %s in %.2f s, %.0f items/s" %
              (status["ItemCount"], status["ExportStatus"], status["elapsed"], status["ItemCount"] / status["elapsed"]))
        print("server RSS: %.1f MB before, %.1f MB at most during the export (%d samples)" %
              (rss_before, max(samples), len(samples)))
        print("GetItem latency at concurrency 1: idle median %.0f us (p99 %.0f), during the export median %.0f us "
              "(p99 %.0f, %d calls)" % (statistics.median(idle), sorted(idle)[int(len(idle) * .99)],
                                        statistics.median(during), sorted(during)[int(len(during) * .99)],
                                        len(during)))

        # The export back into a new table, through the write path.
        rss_before = rss_mb(server.proc.pid)
        samples.clear()
        done.clear()
        sampler = threading.Thread(target=sample)
        base = status["ExportManifest"].rsplit("/", 1)[0] + "/"
        t0 = time.monotonic()
        imp = call("ImportTable", {
            "S3BucketSource": {"S3Bucket": "bench", "S3KeyPrefix": base}, "InputFormat": "DYNAMODB_JSON",
            "InputCompressionType": "GZIP",
            "TableCreationParameters": {
                "TableName": "copy", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}})["ImportTableDescription"]
        sampler.start()
        while True:
            d = call("DescribeImport", {"ImportArn": imp["ImportArn"]})["ImportTableDescription"]
            if d["ImportStatus"] not in ("IN_PROGRESS", "CANCELLING"):
                break
            time.sleep(0.01)
        elapsed = time.monotonic() - t0
        done.set()
        sampler.join()
        print("import of %d items: %s in %.2f s, %.0f items/s (%d errors)" %
              (d["ImportedItemCount"], d["ImportStatus"], elapsed, d["ImportedItemCount"] / elapsed,
               d["ErrorCount"]))
        print("server RSS: %.1f MB before, %.1f MB at most during the import (%d samples)" %
              (rss_before, max(samples), len(samples)))

        # The same export bulk-put into the existing (now full) table: every
        # item a PutItem through the write path (stream off, PITR on).
        rss_before = rss_mb(server.proc.pid)
        samples.clear()
        done.clear()
        sampler = threading.Thread(target=sample)
        t0 = time.monotonic()
        bulk = call("StartBulkPutItems", {
            "TableName": "big",
            "InputS3Configuration": {"S3Bucket": "bench", "S3KeyPrefix": base, "InputFormat": "DYNAMODB_JSON",
                                     "InputCompressionType": "GZIP"},
            "OutputS3Configuration": {"S3Bucket": "bench", "S3KeyPrefix": "bulk-report",
                                      "OutputType": ["ERROR"]}})["BulkOperationDescription"]
        sampler.start()
        while True:
            d = call("DescribeBulkOperation", {"BulkOperationArn": bulk["BulkOperationArn"]})["BulkOperationDescription"]
            if d["BulkOperationStatus"] not in ("IN_PROGRESS", "CANCELLING"):
                break
            time.sleep(0.01)
        elapsed = time.monotonic() - t0
        done.set()
        sampler.join()
        print("bulk put of %d items: %s in %.2f s, %.0f items/s (%d failed)" %
              (d["ProcessedItemCount"], d["BulkOperationStatus"], elapsed, d["ProcessedItemCount"] / elapsed,
               d["FailedItemCount"]))
        print("server RSS: %.1f MB before, %.1f MB at most during the bulk put (%d samples)" %
              (rss_before, max(samples), len(samples)))
        conn.close()


if __name__ == "__main__":
    main()
