"""Data across restarts and kill -9, --in-memory, and concurrent writers."""

import os
import threading
import unittest

from harness import Server


def make_table(client, name="dur"):
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                              {"AttributeName": "sk", "AttributeType": "N"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}])


class Durability(unittest.TestCase):

    def setUp(self):
        self.server = Server()
        self.addCleanup(self.server.cleanup)
        self.server.start()

    def test_data_kept_across_sigterm_restart(self):
        c = self.server.client()
        make_table(c)
        for i in range(20):
            c.put_item(TableName="dur", Item={"pk": {"S": "p"}, "sk": {"N": str(i)},
                                              "v": {"N": "%d.50" % i}})
        c.delete_item(TableName="dur", Key={"pk": {"S": "p"}, "sk": {"N": "3"}})
        self.server.restart()
        c = self.server.client()
        table = c.describe_table(TableName="dur")["Table"]
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["ItemCount"], 19)
        for i in range(20):
            item = c.get_item(TableName="dur", Key={"pk": {"S": "p"}, "sk": {"N": str(i)}}).get("Item")
            if i == 3:
                self.assertIsNone(item)
            else:
                self.assertEqual(item["v"], {"N": "%d.5" % i})
        # And the admin CLI sees it too.
        cp = self.server.admin("tables")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertIn("dur", cp.stdout)

    def test_acknowledged_writes_survive_kill_9(self):
        c = self.server.client()
        make_table(c)
        n = 300
        for i in range(n):
            c.put_item(TableName="dur", Item={"pk": {"S": "k"}, "sk": {"N": str(i)},
                                              "payload": {"S": "x" * 100}})
        # The last write was acknowledged: kill at once, no chance to flush.
        self.server.kill()
        self.assertEqual(self.server.returncode, -9)
        self.server.start()
        c = self.server.client()
        self.assertEqual(c.describe_table(TableName="dur")["Table"]["ItemCount"], n)
        for i in range(n):
            self.assertIn("Item", c.get_item(TableName="dur",
                                             Key={"pk": {"S": "k"}, "sk": {"N": str(i)}}),
                          "item %d lost after kill -9" % i)

    def test_deletes_and_tables_survive_kill_9(self):
        c = self.server.client()
        make_table(c, "dur-a")
        make_table(c, "dur-b")
        c.put_item(TableName="dur-a", Item={"pk": {"S": "x"}, "sk": {"N": "1"}})
        c.put_item(TableName="dur-a", Item={"pk": {"S": "y"}, "sk": {"N": "1"}})
        c.delete_item(TableName="dur-a", Key={"pk": {"S": "x"}, "sk": {"N": "1"}})
        c.delete_table(TableName="dur-b")
        self.server.kill()
        self.server.start()
        c = self.server.client()
        self.assertEqual(c.list_tables()["TableNames"], ["dur-a"])
        self.assertNotIn("Item", c.get_item(TableName="dur-a",
                                            Key={"pk": {"S": "x"}, "sk": {"N": "1"}}))
        self.assertIn("Item", c.get_item(TableName="dur-a",
                                         Key={"pk": {"S": "y"}, "sk": {"N": "1"}}))

    def test_concurrent_writers(self):
        c = self.server.client()
        make_table(c)
        threads, per_thread = 8, 200
        errors = []

        def writer(t):
            try:
                client = self.server.client(max_pool_connections=2)
                for i in range(per_thread):
                    client.put_item(TableName="dur", Item={"pk": {"S": "t%d" % t},
                                                           "sk": {"N": str(i)},
                                                           "w": {"N": str(t * 1000 + i)}})
            except Exception as e:  # reported below
                errors.append(e)

        ts = [threading.Thread(target=writer, args=(t,)) for t in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        self.assertFalse(any(t.is_alive() for t in ts), "writers hung")
        self.assertEqual(errors, [])
        self.assertEqual(c.describe_table(TableName="dur")["Table"]["ItemCount"],
                         threads * per_thread)
        for t in range(threads):
            for i in (0, per_thread // 2, per_thread - 1):
                item = c.get_item(TableName="dur",
                                  Key={"pk": {"S": "t%d" % t}, "sk": {"N": str(i)}})["Item"]
                self.assertEqual(item["w"], {"N": str(t * 1000 + i)})
        # Still all there after a restart.
        self.server.restart()
        self.assertEqual(self.server.client().describe_table(TableName="dur")["Table"]["ItemCount"],
                         threads * per_thread)


class InMemory(unittest.TestCase):

    def test_in_memory_keeps_nothing(self):
        server = Server(in_memory=True)
        self.addCleanup(server.cleanup)
        server.start()
        c = server.client()
        make_table(c, "mem")
        for i in range(10):
            c.put_item(TableName="mem", Item={"pk": {"S": "m"}, "sk": {"N": str(i)}})
        self.assertEqual(c.describe_table(TableName="mem")["Table"]["ItemCount"], 10)
        # Nothing on disk while running.
        if os.path.exists(server.data_dir):
            self.assertEqual(os.listdir(server.data_dir), [])
        self.assertEqual(server.stop(), 0, server.stderr_text())
        if os.path.exists(server.data_dir):
            self.assertEqual(os.listdir(server.data_dir), [])
        server.start()
        self.assertEqual(server.client().list_tables()["TableNames"], [])

    def test_in_memory_ignores_existing_data(self):
        server = Server()
        self.addCleanup(server.cleanup)
        server.start()
        make_table(server.client(), "on-disk")
        self.assertEqual(server.stop(), 0)
        before = sorted(os.listdir(server.data_dir))
        server.in_memory = True
        server.start()
        self.assertEqual(server.client().list_tables()["TableNames"], [])
        make_table(server.client(), "mem-only")
        self.assertEqual(server.stop(), 0)
        server.in_memory = False
        server.start()
        self.assertEqual(server.client().list_tables()["TableNames"], ["on-disk"])
        self.assertTrue(set(before) <= set(os.listdir(server.data_dir)) | set(before))


if __name__ == "__main__":
    unittest.main()
