"""pogi's one clock: --clock/--clock-frozen, `pogi clock`, and what reads it."""

import datetime
import unittest

from harness import ServerTestCase

T0 = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)


class FrozenClock(ServerTestCase):
    SERVER_ARGS = {"in_memory": True, "extra_args": ["--clock", "2030-01-01T00:00:00Z", "--clock-frozen"]}

    def clock(self, *args):
        cp = self.server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return cp.stdout.strip()

    def test_show_set_advance_freeze_resume(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        self.assertEqual(self.clock(), "2030-01-01T00:00:00.000Z (frozen)")
        self.assertEqual(self.clock("advance", "25h"), "2030-01-02T01:00:00.000Z (frozen)")
        self.assertEqual(self.clock("advance", "1h30m"), "2030-01-02T02:30:00.000Z (frozen)")
        self.assertEqual(self.clock("set", "2031-06-01T12:00:00+02:00"), "2031-06-01T10:00:00.000Z (frozen)")
        resumed = self.clock("resume")
        self.assertTrue(resumed.startswith("2031-06-01T10:00:0"), resumed)
        self.assertNotIn("frozen", resumed)
        self.assertTrue(self.clock("freeze").endswith("(frozen)"))
        self.clock("set", "2030-01-01T00:00:00Z")

    def test_creation_date_reads_the_clock(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        name = self.create_table()
        created = self.ddb.describe_table(TableName=name)["Table"]["CreationDateTime"]
        self.assertEqual(created, T0)

    def test_bad_arguments_are_one_line_errors(self):
        for args in (["set", "yesterday"], ["advance", "5 parsecs"], ["rewind"], ["set"]):
            cp = self.server.admin("clock", *args)
            self.assertEqual(cp.returncode, 2, args)
            self.assertEqual(len(cp.stderr.strip().splitlines()), 1, cp.stderr)
            self.assertTrue(cp.stderr.startswith("pogi: "), cp.stderr)

    def test_transaction_tokens_expire_with_the_clock(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        name = self.create_table()

        def put(v):
            return self.ddb.transact_write_items(
                ClientRequestToken="tok-clock",
                TransactItems=[{"Put": {"TableName": name, "Item": {"pk": {"S": "a"}, "v": {"N": v}}}}])
        put("1")
        # Within 10 minutes the same token with another request is refused...
        self.assertClientError(lambda: put("2"), "IdempotentParameterMismatchException")
        # ...after 10 minutes of clock time it is a new transaction.
        self.clock("advance", "11m")
        put("2")
        item = self.ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item["v"], {"N": "2"})

    def test_help_has_an_example(self):
        cp = self.server.admin("clock", "--help")
        self.assertEqual(cp.returncode, 0)
        self.assertIn("pogi clock advance 25h", cp.stdout)


class RunningClock(ServerTestCase):
    SERVER_ARGS = {"in_memory": True, "extra_args": ["--clock", "2030-01-01T00:00:00Z"]}

    def test_runs_from_the_given_time(self):
        cp = self.server.admin("clock")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertTrue(cp.stdout.startswith("2030-01-01T00:0"), cp.stdout)
        self.assertNotIn("frozen", cp.stdout)


class BadFlags(unittest.TestCase):
    def test_invalid_clock_flag(self):
        from harness import run_pogi
        cp = run_pogi("start", "--in-memory", "--port", "0", "--grpc-port", "0", "--clock", "soon")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("invalid --clock soon", cp.stderr)


if __name__ == "__main__":
    unittest.main()
