"""Control-plane bench (issue 12): the CPU cost of a PutItem with point-in-time
recovery on against off, in the same run, and the time to back up and restore
a 100,000-item table. Usage: POGI_BIN=build/pogi python3 bench/control_plane.py [items]"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from harness import Server  # noqa: E402


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    n_big = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    with Server() as server:
        conn = server.connection()

        def call(op, payload):
            status, _, body = server.raw(payload, target=op, conn=conn)
            if status != 200:
                raise RuntimeError("%s: %s" % (op, body))
            return json.loads(body)

        def table(name):
            call("CreateTable", {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
                                 "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                                 "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})

        table("pitr-off")
        table("pitr-on")
        call("UpdateContinuousBackups", {"TableName": "pitr-on",
                                         "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True}})
        per_write = {}
        for rnd in range(2):
            for name in ("pitr-off", "pitr-on"):
                c0 = cpu_seconds(server.proc.pid)
                n = 4000
                for i in range(n):
                    call("PutItem", {"TableName": name, "Item": {"pk": {"S": "k%d" % (i % 1000)},
                                                                   "v": {"S": "x" * 100}}})
                per_write[name] = (cpu_seconds(server.proc.pid) - c0) / n * 1e6
        print("PutItem CPU: PITR off %.1f us, on %.1f us: x%.2f" %
              (per_write["pitr-off"], per_write["pitr-on"], per_write["pitr-on"] / per_write["pitr-off"]))

        table("big")
        for start in range(0, n_big, 25):
            call("BatchWriteItem", {"RequestItems": {"big": [
                {"PutRequest": {"Item": {"pk": {"S": "k%d" % i}, "v": {"S": "x" * 100}}}}
                for i in range(start, min(start + 25, n_big))]}})
        t0 = time.monotonic()
        arn = call("CreateBackup", {"TableName": "big", "BackupName": "bench"})["BackupDetails"]["BackupArn"]
        t1 = time.monotonic()
        call("RestoreTableFromBackup", {"TargetTableName": "big2", "BackupArn": arn})
        t2 = time.monotonic()
        count = call("DescribeTable", {"TableName": "big2"})["Table"]["ItemCount"]
        print("%d items: CreateBackup %.2f s, RestoreTableFromBackup %.2f s (restored %d)" %
              (n_big, t1 - t0, t2 - t1, count))
        conn.close()


if __name__ == "__main__":
    main()
