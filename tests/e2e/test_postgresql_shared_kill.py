"""kill -9 of one of three pogi processes sharing a PostgreSQL schema, under
load on all three: the other two keep serving, nothing any process
acknowledged (the killed one included) is lost, and the lease of the
background work passes from the killed process to a survivor within seconds,
so TTL deletions go on.

Runs against a PostgreSQL 15 of this file's own (shared_db.py); skipped
where PostgreSQL 15 is not installed."""

import threading
import time
import unittest

from shared_db import SharedDatabaseTest, needs_postgresql, start_postgresql, stop_postgresql


def setUpModule():
    start_postgresql()


def tearDownModule():
    stop_postgresql()


@needs_postgresql
class KillOne(SharedDatabaseTest):

    def lease_holder(self):
        """The index in self.servers of the maintenance lease's holder, or None."""
        holder = self.sql("SELECT holder FROM leases WHERE name='maintenance' AND "
                          "expires_us > (extract(epoch from clock_timestamp()) * 1e6)::bigint")
        if not holder:
            return None
        pid = int(holder.split(":")[1])  # host:pid:random
        for i, s in enumerate(self.servers):
            if s.proc.pid == pid:
                return i
        return None

    def wait_for(self, what, fn, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = fn()
            if value is not None:
                return value
            time.sleep(0.1)
        self.fail("no %s within %d s" % (what, seconds))

    def test_kill_9_of_the_lease_holder_under_load(self):
        ca = self.clients[0]
        self.create(ca, "load")
        self.create(ca, "ttl")
        ca.update_time_to_live(TableName="ttl", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
        # The first timer run (every --ttl-interval, 1 s by default) takes
        # the lease: 10 s is ten times that.
        victim = self.wait_for("lease holder", self.lease_holder, 10)
        survivors = [i for i in range(3) if i != victim]

        acknowledged = []  # (key, time acknowledged)
        lock = threading.Lock()
        killed = threading.Event()
        stop = threading.Event()
        errors = []

        def write(w):
            server = w % 3
            client = self.servers[server].client()
            n = 0
            while not stop.is_set():
                key = "w%d-%d" % (w, n)
                n += 1
                try:
                    client.put_item(TableName="load", Item={"pk": {"S": key}, "n": {"N": str(n)}})
                except Exception as e:  # noqa: BLE001
                    if server == victim and killed.is_set():
                        return  # its process is gone; that write may or may not have landed
                    errors.append("%s through process %d: %r" % (key, server, e))
                    return
                with lock:
                    acknowledged.append((key, time.time()))

        threads = [threading.Thread(target=write, args=(w,)) for w in range(6)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        killed.set()
        self.servers[victim].kill()
        killed_at = time.time()
        time.sleep(2)
        # The survivors go on serving: a write acknowledged after the kill,
        # waited for rather than assumed within the 2 s.
        self.wait_for("write acknowledged after the kill",
                      lambda: True if any(at > killed_at for _, at in list(acknowledged)) else None, 60)
        stop.set()
        for t in threads:
            t.join(60)
        self.assertEqual(errors, [])
        after = sum(1 for _, at in acknowledged if at > killed_at)
        self.assertGreater(after, 0, "the survivors went on serving")

        # Every acknowledged write is there, read through a survivor.
        client = self.clients[survivors[0]]
        stored = set()
        for page in client.get_paginator("scan").paginate(TableName="load", ConsistentRead=True):
            stored.update(i["pk"]["S"] for i in page["Items"])
        missing = [k for k, _ in acknowledged if k not in stored]
        print("\nkill -9 of process %d (the lease holder) under 6 writers: %d writes acknowledged, %d of "
              "them after the kill; %d missing" % (victim, len(acknowledged), after, len(missing)))
        self.assertEqual(missing, [])

        # The lease passes to a survivor, and TTL deletions go on.
        self.clients[survivors[1]].put_item(TableName="ttl", Item={"pk": {"S": "gone"},
                                                                   "exp": {"N": str(int(time.time()) - 5)}})
        def survivor_holding():
            # The killed process's lease lapses 3 s after its last renewal
            # (docs/postgresql.md: "another takes over within 3 s"), taken at
            # a survivor's next run (every 1 s): 15 s is three times that.
            holder = self.lease_holder()
            return holder if holder in survivors else None

        holder = self.wait_for("survivor holding the lease", survivor_holding, 15)
        print("the lease passed to process %d %.1f s after the kill" % (holder, time.time() - killed_at))

        def deleted():
            r = client.get_item(TableName="ttl", Key={"pk": {"S": "gone"}}, ConsistentRead=True)
            return True if "Item" not in r else None

        self.wait_for("TTL deletion", deleted, 15)  # at the holder's next run (every 1 s)


if __name__ == "__main__":
    unittest.main()
