"""The CLI's data commands (scan, query, get, put, delete with --output
json|jsonl|table and --simple), --help with an example on every command,
one-line errors, and shell completion."""

import json
import unittest

from harness import ServerTestCase, run_pogi

COMMANDS = ["start", "env", "status", "tables", "describe", "stop", "reset", "snapshot", "export",
            "import", "faults", "scan", "query", "get", "put", "delete", "tail", "top", "completion"]


class AdminCli(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ddb.create_table(TableName="cli-t", BillingMode="PAY_PER_REQUEST",
                             AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                   {"AttributeName": "sk", "AttributeType": "N"}],
                             KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                        {"AttributeName": "sk", "KeyType": "RANGE"}])

    def pogi(self, *args):
        return self.server.admin(*args)

    def test_put_get_query_scan_delete(self):
        cp = self.pogi("put", "cli-t", '{"pk": "u1", "sk": 1, "total": 12.5, "tags": ["a", true]}')
        self.assertEqual(cp.returncode, 0, cp.stderr)
        cp = self.pogi("put", "cli-t", '{"pk": {"S": "u1"}, "sk": {"N": "2"}}')
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.pogi("put", "cli-t", '{"pk": "u2", "sk": 1}')
        item = self.ddb.get_item(TableName="cli-t", Key={"pk": {"S": "u1"}, "sk": {"N": "1"}})["Item"]
        self.assertEqual(item["total"], {"N": "12.5"})
        self.assertEqual(item["tags"], {"L": [{"S": "a"}, {"BOOL": True}]})
        cp = self.pogi("get", "cli-t", '{"pk": "u1", "sk": 1}')
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(json.loads(cp.stdout)[0]["total"], {"N": "12.5"})
        cp = self.pogi("get", "cli-t", '{"pk": "u1", "sk": 1}', "--simple", "--output", "jsonl")
        self.assertEqual(json.loads(cp.stdout)["total"], 12.5)
        cp = self.pogi("get", "cli-t", '{"pk": "nope", "sk": 1}')
        self.assertEqual(cp.returncode, 1)
        cp = self.pogi("query", "cli-t", "--key", "pk = :v", "--values", '{":v": "u1"}', "--output", "jsonl",
                       "--simple", "--reverse")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual([json.loads(l)["sk"] for l in cp.stdout.splitlines()], [2, 1])
        cp = self.pogi("scan", "cli-t", "--output", "table")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        lines = cp.stdout.splitlines()
        self.assertEqual(len(lines), 4)
        self.assertIn("pk", lines[0])
        cp = self.pogi("scan", "cli-t", "--limit", "2", "--output", "jsonl")
        self.assertEqual(len(cp.stdout.splitlines()), 2)
        cp = self.pogi("delete", "cli-t", '{"pk": "u2", "sk": 1}', "--simple")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertEqual(json.loads(cp.stdout)[0]["pk"], "u2")
        self.assertNotIn("Item", self.ddb.get_item(TableName="cli-t", Key={"pk": {"S": "u2"}, "sk": {"N": "1"}}))

    def test_errors_are_one_line(self):
        for args, code in ((("scan", "nope"), 1), (("put", "cli-t", "not json"), 2),
                           (("put", "cli-t", '{"pk": 1, "sk": 1}'), 1), (("query", "cli-t"), 2),
                           (("scan", "cli-t", "--output", "xml"), 2), (("scan",), 2)):
            cp = self.pogi(*args)
            self.assertEqual(cp.returncode, code, (args, cp.stderr))
            self.assertEqual(len(cp.stderr.strip().splitlines()), 1, (args, cp.stderr))
            self.assertTrue(cp.stderr.startswith("pogi: "))
        cp = run_pogi("scan", "cli-t", "--grpc-port", "1")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("no pogi is running", cp.stderr)

    def test_help_everywhere(self):
        for cmd in COMMANDS:
            cp = run_pogi(cmd, "--help")
            self.assertEqual(cp.returncode, 0, cmd)
            self.assertIn("usage: pogi " + cmd, cp.stdout)
            if cmd not in ("start", "env", "status", "tables", "describe", "stop"):
                self.assertIn("example:", cp.stdout, cmd)
        top = run_pogi("--help").stdout
        for cmd in COMMANDS:
            self.assertIn(cmd, top)

    def test_completion(self):
        for shell in ("bash", "zsh", "fish"):
            cp = run_pogi("completion", shell)
            self.assertEqual(cp.returncode, 0)
            self.assertIn("snapshot", cp.stdout)
            self.assertIn("faults", cp.stdout)
        cp = run_pogi("completion", "tcsh")
        self.assertEqual(cp.returncode, 2)


if __name__ == "__main__":
    unittest.main()
