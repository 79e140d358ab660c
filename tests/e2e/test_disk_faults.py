"""Disk faults: a data folder that fills up or becomes read-only while pogi
runs, and database files that are damaged before it starts.

Full: the data folder is a small tmpfs (`mount -t tmpfs -o size=8m`, which
needs root; the test is skipped, saying so, where mount is refused) filled to
the last byte by a filler file. Read-only: the files are made immutable with
`chattr +i` (root, ext4 and the like): a read-only remount is refused by the
kernel while pogi holds its files open for writing ("mount point is busy"),
and the immutable flag fails writes on the open files the same way (EPERM).
Either way writes fail with InternalServerError (HTTP 500, DynamoDB's JSON
shape), reads keep working, and once the space (or the permission) is back
pogi carries on without a restart, losing no acknowledged write, also across
a kill -9 afterwards.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

from harness import Server, StartError, sqlite_only
from test_streams import read_all, streams_client

INTERNAL = "com.amazonaws.dynamodb.v20120810#InternalServerError"
TABLE = "faulty"


def make_table(server):
    status, body = server.call("CreateTable", {
        "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{"IndexName": "by-g",
                                    "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                    "Projection": {"ProjectionType": "ALL"}}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}})
    assert status == 200, body


def item(pk, size=500):
    return {"pk": {"S": pk}, "g": {"S": "g" + pk[-1]}, "v": {"S": "x" * size}}


class Faults(unittest.TestCase):
    """Shared checks: writes of every kind fail as InternalServerError, reads
    work, and after the repair every acknowledged write is there."""

    def setUp(self):
        self.acked = {}  # pk -> item

    def put(self, pk, size=500):
        it = item(pk, size)
        status, body = self.server.call("PutItem", {"TableName": TABLE, "Item": it})
        if status == 200:
            self.acked[pk] = it
        return status, body

    def assertInternal(self, status, body, cause):
        self.assertEqual(status, 500, body)
        self.assertEqual(body["__type"], INTERNAL, body)
        self.assertIn(cause, body["message"])

    def assertEveryKindOfWriteFails(self, cause):
        s = self.server
        for op, payload in [
                ("PutItem", {"TableName": TABLE, "Item": item("fail-put", 3000)}),
                ("UpdateItem", {"TableName": TABLE, "Key": {"pk": {"S": "fail-update"}},
                                "UpdateExpression": "SET v = :v",
                                "ExpressionAttributeValues": {":v": {"S": "y" * 3000}}}),
                ("DeleteItem", {"TableName": TABLE, "Key": {"pk": {"S": sorted(self.acked)[0]}}}),
                ("BatchWriteItem", {"RequestItems": {TABLE: [
                    {"PutRequest": {"Item": item("fail-batch-%d" % i, 3000)}} for i in range(5)]}}),
                ("TransactWriteItems", {"TransactItems": [
                    {"Put": {"TableName": TABLE, "Item": item("fail-tx-%d" % i, 3000)}} for i in range(3)]}),
                ("CreateTable", {"TableName": "fail-table", "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}],
                                 "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]})]:
            status, body = s.call(op, payload)
            self.assertInternal(status, body, cause)
        self.assertIn("storage failed: " + cause, s.stderr_text())

    def assertReadsWork(self):
        s = self.server
        for pk, it in list(self.acked.items())[:20]:
            status, body = s.call("GetItem", {"TableName": TABLE, "Key": {"pk": {"S": pk}},
                                              "ConsistentRead": True})
            self.assertEqual((status, body.get("Item")), (200, it))
        self.assertEqual(self.scan_keys(), set(self.acked))
        status, body = s.call("Query", {"TableName": TABLE, "IndexName": "by-g",
                                        "KeyConditionExpression": "g = :g",
                                        "ExpressionAttributeValues": {":g": {"S": "g1"}}})
        self.assertEqual(status, 200, body)
        self.assertEqual({i["pk"]["S"] for i in body["Items"]},
                         {pk for pk, it in self.acked.items() if it["g"]["S"] == "g1"})
        status, body = s.call("DescribeTable", {"TableName": TABLE})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["Table"]["ItemCount"], len(self.acked))
        self.assertFalse(any(k.startswith("fail-") for k in self.scan_keys()))
        self.assertNotIn("fail-table", s.call("ListTables", {})[1]["TableNames"])

    def scan_keys(self):
        keys, start = set(), None
        while True:
            payload = {"TableName": TABLE, "ConsistentRead": True}
            if start:
                payload["ExclusiveStartKey"] = start
            status, body = self.server.call("Scan", payload)
            self.assertEqual(status, 200, body)
            keys |= {i["pk"]["S"] for i in body["Items"]}
            start = body.get("LastEvaluatedKey")
            if not start:
                return keys

    def assertAllAckedAfterKill9(self):
        self.server.kill()
        self.server.start()
        self.assertReadsWork()
        self.assertEqual(self.server.restart().alive(), True)
        self.assertReadsWork()
        # Each acknowledged put (of a key of its own) has its stream record,
        # and no failed write left one.
        streams = streams_client(self.server)
        arn = self.server.call("DescribeTable", {"TableName": TABLE})[1]["Table"]["LatestStreamArn"]
        records = read_all(streams, arn)
        self.assertEqual(sorted(r["dynamodb"]["Keys"]["pk"]["S"] for r in records), sorted(self.acked))

    def concurrent_writers(self, prefix, threads=4, per_thread=60):
        """Writers at once (so that writes share commits); acked ones recorded."""
        lock = threading.Lock()
        statuses = []

        def run(t):
            for i in range(per_thread):
                pk = "%s-%d-%d" % (prefix, t, i)
                it = item(pk, 2000)
                status, body = self.server.call("PutItem", {"TableName": TABLE, "Item": it})
                with lock:
                    statuses.append(status)
                    if status == 200:
                        self.acked[pk] = it
                    elif status != 500 or body["__type"] != INTERNAL:
                        statuses.append(("unexpected", status, body))

        ts = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(60)
        self.assertFalse([s for s in statuses if isinstance(s, tuple)])
        return statuses


@sqlite_only("fills the file system under the data folder that holds pogi.db")
class FullDisk(Faults):

    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="pogi-full-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.mnt = os.path.join(self.tmp, "mnt")
        os.mkdir(self.mnt)
        cp = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", self.mnt],
                            capture_output=True, text=True)
        if cp.returncode != 0:
            self.skipTest("mount -t tmpfs is not permitted here (%s): the full-disk test needs root"
                          % cp.stderr.strip())
        self.addCleanup(subprocess.run, ["umount", "-l", self.mnt])
        self.server = Server(data_dir=os.path.join(self.mnt, "data"))
        self.addCleanup(self.server.kill)
        self.server.start()
        make_table(self.server)
        self.filler = os.path.join(self.mnt, "filler")

    def fill(self):
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError:
            pass
        try:
            while True:
                os.write(fd, b"\0")
        except OSError:
            pass
        finally:
            os.close(fd)

    def test_full_disk_fails_writes_keeps_reads_and_recovers(self):
        for i in range(50):
            self.assertEqual(self.put("before-%d" % i)[0], 200)
        self.fill()
        # The log may still have room for a few pages: writes go on until it
        # has none, and then each fails.
        for squeezed in range(500):
            status, body = self.put("filling-%d" % squeezed, 3000)
            if status != 200:
                break
        self.assertInternal(status, body, "the data folder is full")
        self.assertEveryKindOfWriteFails("the data folder is full")
        self.assertReadsWork()
        # Writers at once while full: all fail (some may squeeze in), none half.
        while_full = self.concurrent_writers("while-full", per_thread=20)
        self.assertReadsWork()
        # Space is back: no restart needed.
        os.unlink(self.filler)
        for i in range(30):
            self.assertEqual(self.put("after-%d" % i)[0], 200)
        statuses = self.concurrent_writers("after-concurrent", per_thread=20)
        self.assertEqual(set(statuses), {200})
        self.assertReadsWork()
        self.assertAllAckedAfterKill9()
        print("\nfull disk: %d puts fitted after the fill, then 500s; %d of %d concurrent puts "
              "answered 500 while full; %d writes acknowledged in all, all there after kill -9, "
              "losses: 0" % (squeezed, while_full.count(500), len(while_full), len(self.acked)),
              file=sys.stderr)

    def test_filling_up_under_concurrent_writers(self):
        """The disk fills in the middle of a load of concurrent writers: the
        writes that fail leave nothing, the acknowledged ones stay."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT)
        os.write(fd, b"\0" * (6 * 1024 * 1024))
        os.close(fd)
        statuses = self.concurrent_writers("load", threads=4, per_thread=150)
        self.assertIn(500, statuses)
        self.assertReadsWork()
        os.unlink(self.filler)
        self.assertEqual(self.put("after")[0], 200)
        self.assertReadsWork()
        self.assertAllAckedAfterKill9()
        print("\nfilling up under load: %d of %d concurrent puts acknowledged, %d answered 500, "
              "losses: 0" % (statuses.count(200), len(statuses), statuses.count(500)), file=sys.stderr)

    def test_start_on_a_full_disk_is_refused_in_one_line(self):
        """Regression: a start that could not write its first mark crashed
        (SIGSEGV) on the way out instead of saying why."""
        for i in range(20):
            self.assertEqual(self.put("before-%d" % i)[0], 200)
        self.assertEqual(self.server.stop(), 0)
        self.fill()
        with self.assertRaises(StartError) as cm:
            self.server.start()
        self.assertEqual(cm.exception.returncode, 1, cm.exception.stderr)
        lines = cm.exception.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn("is full", lines[0])
        os.unlink(self.filler)
        self.server.start()
        self.assertReadsWork()


@sqlite_only("makes pogi.db and its WAL immutable (chattr +i)")
class ReadOnlyFiles(Faults):

    def setUp(self):
        super().setUp()
        self.server = Server()
        self.addCleanup(self.server.cleanup)
        self.addCleanup(self.writable)
        self.server.start()
        make_table(self.server)

    def files(self):
        d = self.server.data_dir
        return [d] + [os.path.join(d, f) for f in os.listdir(d) if f.startswith("pogi.db")]

    def writable(self):
        subprocess.run(["chattr", "-i"] + self.files(), capture_output=True)

    def test_read_only_files_fail_writes_keep_reads_and_recover(self):
        for i in range(50):
            self.assertEqual(self.put("before-%d" % i)[0], 200)
        cp = subprocess.run(["chattr", "+i"] + self.files(), capture_output=True, text=True)
        if cp.returncode != 0:
            self.skipTest("chattr +i is not possible here (%s): the read-only test needs root on a "
                          "file system with the immutable flag" % cp.stderr.strip())
        cause = "the data folder cannot be read or written"
        status, body = self.put("refused", 3000)
        self.assertInternal(status, body, cause)
        self.assertEveryKindOfWriteFails(cause)
        self.assertReadsWork()
        statuses = self.concurrent_writers("while-read-only", per_thread=10)
        self.assertEqual(set(statuses), {500})
        self.writable()
        for i in range(30):
            self.assertEqual(self.put("after-%d" % i)[0], 200)
        self.assertReadsWork()
        self.assertAllAckedAfterKill9()
        print("\nread-only files: %d of %d writes answered 500 while immutable; %d acknowledged, "
              "losses: 0" % (statuses.count(500) + 7, len(statuses) + 7, len(self.acked)), file=sys.stderr)


@sqlite_only("damages pogi.db before a start")
class DamagedFiles(unittest.TestCase):

    def setUp(self):
        self.server = Server()
        self.addCleanup(self.server.cleanup)
        self.db = os.path.join(self.server.data_dir, "pogi.db")

    def assertRefused(self, text):
        with self.assertRaises(StartError) as cm:
            self.server.start()
        self.assertEqual(cm.exception.returncode, 1, cm.exception.stderr)
        lines = cm.exception.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertIn(self.db + " " + text, lines[0])

    def test_garbage_file_is_refused(self):
        os.makedirs(self.server.data_dir)
        with open(self.db, "wb") as f:
            f.write(os.urandom(64 * 1024))
        self.assertRefused("is damaged or not a pogi database (file is not a database)")

    def test_truncated_database_is_refused(self):
        self.server.start()
        make_table(self.server)
        for i in range(300):
            status, body = self.server.call("PutItem", {"TableName": TABLE, "Item": item("k%d" % i, 1000)})
            self.assertEqual(status, 200, body)
        self.assertEqual(self.server.stop(), 0)
        size = os.path.getsize(self.db)
        os.truncate(self.db, size // 2)
        self.assertRefused("is damaged: it is %d bytes long, its header says %d" % (size // 2, size))


if __name__ == "__main__":
    unittest.main()
