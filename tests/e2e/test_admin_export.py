"""ExportTable / ImportTable and `pogi export` / `pogi import`: a dump of one
pogi loads into another and compares equal (100,000 items, with the memory
of the exporting pogi measured flat), resumable positions, per-item import
errors that do not stop the import, and refusals."""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import json
import os
import tempfile
import unittest

import grpc

import grpc_client
from grpc_client import apb
from harness import POSTGRESQL, Server, ServerTestCase, run_pogi

# On PostgreSQL half as many (the import's 4,000 batches are most of this
# file's time there): the export is still larger than the memory bound below.
N_ITEMS = int(os.environ.get("POGI_EXPORT_ITEMS", "50000" if POSTGRESQL else "100000"))
PAYLOAD = "x" * 300


def vm(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


class ExportImport(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.admin = grpc_client.admin(cls.channel)
        cls.tmp = tempfile.mkdtemp(prefix="pogi-e2e-dump-")

    @classmethod
    def tearDownClass(cls):
        cls.channel.close()
        super().tearDownClass()

    def make(self, name, sort=False):
        attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
        keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
        if sort:
            attrs.append({"AttributeName": "sk", "AttributeType": "N"})
            keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        self.ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=attrs,
                              KeySchema=keys)

    def pogi(self, server, *args, input=None, timeout=300):
        return run_pogi(*args, "--host", "127.0.0.1", "--grpc-port", server.grpc_port, input=input,
                        timeout=timeout)

    def test_round_trip_100k_with_flat_memory(self):
        dump = os.path.join(self.tmp, "seed.jsonl")
        with open(dump, "w") as f:
            f.write(json.dumps({"Table": {
                "TableName": "big", "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "N"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]}}) + "\n")
            for i in range(N_ITEMS):
                f.write(json.dumps({"TableName": "big", "Item": {
                    "pk": {"S": "p%d" % (i % 1000)}, "sk": {"N": str(i)}, "d": {"S": PAYLOAD},
                    "m": {"M": {"n": {"N": "1.5"}, "l": {"L": [{"BOOL": True}, {"NULL": True}]}}}}}) + "\n")
        src = Server().start()
        dst = Server(in_memory=True).start()
        try:
            import time
            t0 = time.monotonic()
            cp = self.pogi(src, "import", dump)
            print("import into durable: %.1f s" % (time.monotonic() - t0))
            self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertIn("imported %d items (0 failed), created 1 tables" % N_ITEMS, cp.stdout)
            self.assertEqual(cp.stderr, "")  # no progress when stderr is not a terminal
            src.restart()  # a clean baseline for the memory of the export
            before = vm(src.proc.pid, "VmRSS")
            out = os.path.join(self.tmp, "big.jsonl")
            with open(out, "w") as f:
                import subprocess
                from harness import pogi_bin
                subprocess.run([pogi_bin(), "export", "big", "--host", "127.0.0.1", "--grpc-port",
                                str(src.grpc_port)], stdout=f, check=True, timeout=300)
            growth = vm(src.proc.pid, "VmHWM") - before
            size = os.path.getsize(out)
            print("export of %d items (%d MB): exporting pogi's peak RSS grew %.1f MB"
                  % (N_ITEMS, size >> 20, growth / 1e6))
            self.assertGreater(size, N_ITEMS * 300)
            # Under ASan (./dev test --sanitize) freed memory sits in its
            # quarantine, so the peak says nothing of pogi's own.
            if not os.environ.get("POGI_SANITIZED"):
                self.assertLess(growth, 16 << 20)  # flat: 100,000 items are over 40 MB
            t0 = time.monotonic()
            cp = self.pogi(dst, "import", out)
            print("import into memory: %.1f s" % (time.monotonic() - t0))
            self.assertEqual(cp.returncode, 0, cp.stderr)
            again = os.path.join(self.tmp, "again.jsonl")
            with open(again, "w") as f:
                subprocess.run([pogi_bin(), "export", "--host", "127.0.0.1", "--grpc-port",
                                str(dst.grpc_port)], stdout=f, check=True, timeout=300)

            def items(path):  # parsed: attribute order inside an item is free
                with open(path) as f:
                    return [json.loads(line) for line in f if line.startswith('{"TableName"')]
            a, b = items(out), items(again)
            self.assertEqual(len(a), N_ITEMS)
            differ = sum(1 for x, y in zip(a, b) if x != y)
            self.assertEqual(differ, 0, "items that differ; first: %s / %s" % (a[0], b[0]))
        finally:
            src.cleanup()
            dst.cleanup()

    def test_resume_and_all_tables(self):
        self.make("ex-a", sort=True)
        self.make("ex-b")
        for i in range(30):
            self.ddb.put_item(TableName="ex-a", Item={"pk": {"S": "p"}, "sk": {"N": str(i)}})
        self.ddb.put_item(TableName="ex-b", Item={"pk": {"S": "only"}})
        records = list(self.admin.ExportTable(apb.ExportTableRequest(), timeout=30))
        kinds = [(r.table_name, r.WhichOneof("record")) for r in records]
        self.assertEqual(kinds[0], ("ex-a", "table"))
        self.assertEqual(kinds.count(("ex-a", "item")), 30)
        self.assertIn(("ex-b", "table"), kinds)
        a_items = [r.item.attributes["sk"].n for r in records if r.table_name == "ex-a" and r.HasField("item")]
        self.assertEqual(a_items, [str(i) for i in range(30)])  # key order
        for cut in (0, 10, 30):
            rest = list(self.admin.ExportTable(apb.ExportTableRequest(resume_after=records[cut].position),
                                               timeout=30))
            self.assertEqual(rest, records[cut + 1:])
        with self.assertRaises(grpc.RpcError) as cm:
            list(self.admin.ExportTable(apb.ExportTableRequest(table_name="nope"), timeout=10))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)
        with self.assertRaises(grpc.RpcError) as cm:
            list(self.admin.ExportTable(apb.ExportTableRequest(resume_after=b"garbage"), timeout=10))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)

    def test_import_errors_do_not_stop(self):
        self.make("imp-t")
        lines = [json.dumps({"TableName": "imp-t", "Item": {"pk": {"S": "a"}}}),
                 json.dumps({"TableName": "imp-t", "Item": {"nokey": {"S": "b"}}}),
                 json.dumps({"TableName": "imp-t", "Item": {"pk": {"N": "1"}}}),
                 json.dumps({"TableName": "imp-t", "Item": {"pk": {"S": "c"}}})]
        cp = self.pogi(self.server, "import", "-", input="\n".join(lines) + "\n")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("imported 2 items (2 failed)", cp.stdout)
        self.assertIn("record 2 (imp-t)", cp.stderr)
        self.assertIn("ValidationException", cp.stderr)
        got = {i["pk"]["S"] for i in self.ddb.scan(TableName="imp-t")["Items"]}
        self.assertEqual(got, {"a", "c"})
        # Into another table by name, created from the dump's definition.
        cp = self.pogi(self.server, "export", "imp-t")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        cp = self.pogi(self.server, "import", "imp-copy", "-", input=cp.stdout)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("created 1 tables", cp.stdout)
        self.assertEqual(self.ddb.scan(TableName="imp-copy")["Count"], 2)
        # A missing table without --create is an error per item.
        cp = self.pogi(self.server, "import", "--no-create", "-",
                       input=json.dumps({"TableName": "imp-none", "Item": {"pk": {"S": "a"}}}) + "\n")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("ResourceNotFoundException", cp.stderr)
        cp = self.pogi(self.server, "import", "/no/such/file")
        self.assertEqual(cp.returncode, 1)
        self.assertEqual(len(cp.stderr.strip().splitlines()), 1)
        cp = self.pogi(self.server, "export", "nope")
        self.assertEqual(cp.returncode, 1)
        self.assertEqual(cp.stdout, "")


if __name__ == "__main__":
    unittest.main()
