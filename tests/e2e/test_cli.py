"""The pogi command line: help, version, env, start errors, admin commands."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest

from harness import (HERE, LOCALHOST, POGI_BIN, Server, ServerTestCase, free_port,
                     parse_sh_exports, pogi_bin, run_pogi, sqlite_only, storage_args)

ENV_NAMES = ["AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_DYNAMODB_STREAMS", "AWS_REGION",
             "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]


def assert_one_line_error(tc, cp, what):
    """Non-zero exit, nothing on stdout, exactly one non-empty stderr line, no trace."""
    tc.assertNotEqual(cp.returncode, 0, "%s: exit code 0; stderr %r" % (what, cp.stderr))
    tc.assertNotIn("Ready.", cp.stdout, what)
    lines = [l for l in cp.stderr.splitlines() if l.strip()]
    tc.assertEqual(len(lines), 1, "%s: stderr should be one line, got %r" % (what, cp.stderr))
    for bad in ("Traceback", "terminate called", "Aborted", "what():", "core dumped"):
        tc.assertNotIn(bad, cp.stderr, what)
    return lines[0]


class HelpAndVersion(unittest.TestCase):

    def test_version(self):
        cp = run_pogi("--version")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        self.assertRegex(cp.stdout.strip(), r"^pogi \d+\.\d+\.\d+ \(commit \S+, built \S+\)$")
        self.assertEqual(len(cp.stdout.strip().splitlines()), 1)

    def test_help_lists_commands(self):
        cp = run_pogi("--help")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        for cmd in ("start", "env", "status", "tables", "describe", "stop", "help"):
            self.assertRegex(cp.stdout, r"(?m)^\s+%s\b" % cmd, "--help does not list %s" % cmd)
        self.assertIn("--version", cp.stdout)

    def test_help_start_lists_flags(self):
        cp = run_pogi("help", "start")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        for flag in ("--host", "--port", "--grpc-port", "--data-dir", "--in-memory",
                     "--log-level", "--fsync", "--threads"):
            self.assertIn(flag, cp.stdout, "help start does not mention %s" % flag)
        self.assertIn("Ready.", cp.stdout)

    def test_flags_page_lists_every_start_flag(self):
        # Every flag of `pogi help start`'s usage has its row in the flags
        # table of docs/flags.md (the README links it).
        usage = run_pogi("help", "start").stdout.split("\n\n")[0]
        flags = set(re.findall(r"--[a-z-]+", usage))
        self.assertIn("--region", flags)
        with open(os.path.join(HERE, "..", "..", "docs", "flags.md")) as f:
            page = f.read()
        table = page[page.index("\n## Flags\n"):]
        table = table[:table.index("\n\n", table.index("| flag"))]
        for flag in sorted(flags):
            self.assertRegex(table, r"(?m)^\| `%s\b" % re.escape(flag) + r"|, `%s\b" % re.escape(flag),
                             "docs/flags.md's pogi start table has no row for %s" % flag)

    def test_unknown_command_fails_with_one_line(self):
        cp = run_pogi("no-such-command")
        line = assert_one_line_error(self, cp, "unknown command")
        self.assertIn("no-such-command", line)

    def test_unknown_flag_fails_with_one_line(self):
        cp = run_pogi("start", "--no-such-flag")
        line = assert_one_line_error(self, cp, "unknown flag")
        self.assertIn("--no-such-flag", line)

    def test_invalid_thread_counts_fail_with_one_line(self):
        for bad in ("0", "-1", "two", "1000"):
            cp = run_pogi("start", "--in-memory", "--port", "0", "--grpc-port", "0",
                          "--threads", bad)
            line = assert_one_line_error(self, cp, "--threads " + bad)
            self.assertIn("--threads", line)


class Env(unittest.TestCase):

    def test_sh(self):
        cp = run_pogi("env", "--port", "12345", "--shell", "sh")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        env = parse_sh_exports(cp.stdout)
        self.assertEqual(sorted(env), sorted(ENV_NAMES))
        self.assertEqual(env["AWS_ENDPOINT_URL_DYNAMODB"], "http://127.0.0.1:12345")
        self.assertEqual(env["AWS_ENDPOINT_URL_DYNAMODB_STREAMS"], "http://127.0.0.1:12345")
        self.assertEqual(env["AWS_REGION"], env["AWS_DEFAULT_REGION"])
        self.assertTrue(env["AWS_ACCESS_KEY_ID"] and env["AWS_SECRET_ACCESS_KEY"])
        # Only the DynamoDB endpoints: other AWS services must not be redirected.
        self.assertNotIn("AWS_ENDPOINT_URL", env)

    def test_sh_output_is_evaluable_by_sh(self):
        cp = run_pogi("env", "--port", "12346", "--shell", "sh")
        out = subprocess.run(["sh", "-c", cp.stdout + "\nenv"], capture_output=True, text=True,
                             env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:12346", out.stdout.splitlines())

    def test_default_port(self):
        cp = run_pogi("env")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        env = parse_sh_exports(cp.stdout)
        self.assertEqual(env["AWS_ENDPOINT_URL_DYNAMODB"], "http://127.0.0.1:7644")

    def test_fish(self):
        cp = run_pogi("env", "--port", "12345", "--shell", "fish")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        got = {}
        for line in cp.stdout.splitlines():
            if not line.strip():
                continue
            m = re.match(r"^set -gx ([A-Z_]+) (\S+?);?$", line.strip())
            self.assertIsNotNone(m, "not a fish set line: %r" % line)
            got[m.group(1)] = m.group(2).strip("'\"")
        self.assertEqual(sorted(got), sorted(ENV_NAMES))
        self.assertEqual(got["AWS_ENDPOINT_URL_DYNAMODB"], "http://127.0.0.1:12345")

    def test_powershell(self):
        cp = run_pogi("env", "--port", "12345", "--shell", "powershell")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        got = {}
        for line in cp.stdout.splitlines():
            if not line.strip():
                continue
            m = re.match(r'^\$Env:([A-Z_]+)\s*=\s*"([^"]*)";?$', line.strip())
            self.assertIsNotNone(m, "not a PowerShell assignment: %r" % line)
            got[m.group(1)] = m.group(2)
        self.assertEqual(sorted(got), sorted(ENV_NAMES))
        self.assertEqual(got["AWS_ENDPOINT_URL_DYNAMODB"], "http://127.0.0.1:12345")

    def test_same_values_in_every_shell(self):
        sh = parse_sh_exports(run_pogi("env", "--port", "2222", "--shell", "sh").stdout)
        fish = run_pogi("env", "--port", "2222", "--shell", "fish").stdout
        ps = run_pogi("env", "--port", "2222", "--shell", "powershell").stdout
        for name, value in sh.items():
            self.assertIn(value, fish, name)
            self.assertIn(value, ps, name)

    def test_unknown_shell(self):
        cp = run_pogi("env", "--shell", "tcsh")
        line = assert_one_line_error(self, cp, "unknown shell")
        self.assertIn("tcsh", line)


class StartErrors(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pogi-e2e-cli-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start_args(self, data_dir, port=0, grpc_port=0):
        # data_dir's storage: the folder, or its schema under POGI_TEST_STORAGE=postgresql.
        return ("start", "--host", LOCALHOST, "--port", port, "--grpc-port", grpc_port,
                *storage_args(data_dir))

    def test_http_port_in_use(self):
        with socket.socket() as busy:
            busy.bind((LOCALHOST, 0))
            busy.listen(1)
            port = busy.getsockname()[1]
            cp = run_pogi(*self.start_args(os.path.join(self.tmp, "d"), port=port), timeout=15)
        line = assert_one_line_error(self, cp, "HTTP port in use")
        self.assertIn(str(port), line)

    def test_grpc_port_in_use(self):
        with socket.socket() as busy:
            busy.bind((LOCALHOST, 0))
            busy.listen(1)
            port = busy.getsockname()[1]
            cp = run_pogi(*self.start_args(os.path.join(self.tmp, "d"), grpc_port=port), timeout=15)
        line = assert_one_line_error(self, cp, "gRPC port in use")
        self.assertIn(str(port), line)

    def test_port_in_use_by_another_pogi(self):
        with Server() as first:
            cp = run_pogi(*self.start_args(os.path.join(self.tmp, "d"), port=first.port),
                          timeout=15)
            assert_one_line_error(self, cp, "port of a running pogi")
            self.assertTrue(first.alive())
            first.client().list_tables()

    @sqlite_only("the lock on the data folder's pogi.db; several pogi share a PostgreSQL schema")
    def test_data_dir_in_use_by_another_pogi(self):
        data = os.path.join(self.tmp, "shared")
        with Server(data_dir=data) as first:
            first.client().create_table(
                TableName="kept", BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            cp = run_pogi(*self.start_args(data), timeout=15)
            line = assert_one_line_error(self, cp, "data dir in use")
            self.assertIn("in use by another process", line)
            self.assertTrue(first.alive())
            self.assertEqual(first.client().list_tables()["TableNames"], ["kept"])

    @sqlite_only("the data folder holds pogi.db; with --storage it holds no data")
    def test_data_dir_under_a_regular_file(self):
        afile = os.path.join(self.tmp, "plain-file")
        with open(afile, "w") as f:
            f.write("not a directory\n")
        cp = run_pogi(*self.start_args(os.path.join(afile, "data")), timeout=15)
        line = assert_one_line_error(self, cp, "data dir under a file")
        self.assertIn(afile, line)

    @sqlite_only("the data folder holds pogi.db; with --storage it holds no data")
    def test_data_dir_is_a_regular_file(self):
        afile = os.path.join(self.tmp, "plain-file")
        with open(afile, "w") as f:
            f.write("not a directory\n")
        cp = run_pogi(*self.start_args(afile), timeout=15)
        assert_one_line_error(self, cp, "data dir is a file")

    @sqlite_only("a damaged pogi.db")
    def test_corrupt_database_file(self):
        data = os.path.join(self.tmp, "data")
        os.makedirs(data)
        with open(os.path.join(data, "pogi.db"), "wb") as f:
            f.write(b"this is not a database, just garbage\x00\xff" * 500)
        cp = run_pogi(*self.start_args(data), timeout=15)
        line = assert_one_line_error(self, cp, "corrupt db")
        self.assertIn("pogi.db", line)

    def test_port_zero_picks_free_ports_and_says_which(self):
        data = os.path.join(self.tmp, "data")
        proc = subprocess.Popen([pogi_bin()] + [str(a) for a in self.start_args(data)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(proc.stdout.readline(), "Ready.\n")
            # The address line comes on stderr; read until it shows up.
            pattern = re.compile(r"DynamoDB API on http://([0-9.]+):(\d+), gRPC on ([0-9.]+):(\d+)")
            deadline = time.monotonic() + 10
            m = None
            while m is None and time.monotonic() < deadline:
                line = proc.stderr.readline()
                if not line:
                    break
                m = pattern.search(line)
            self.assertIsNotNone(m, "no 'DynamoDB API on ...' line on stderr")
            http_port, grpc_port = int(m.group(2)), int(m.group(4))
            self.assertNotEqual(http_port, 0)
            self.assertNotEqual(grpc_port, 0)
            self.assertNotEqual(http_port, grpc_port)
            # Both really serve.
            srv = Server(port=http_port, grpc_port=grpc_port, data_dir=data)
            self.assertEqual(srv.client().list_tables()["TableNames"], [])
            cp = srv.admin("status")
            self.assertEqual(cp.returncode, 0, cp.stderr)
            proc.send_signal(signal.SIGINT)
            self.assertEqual(proc.wait(timeout=10), 0)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()

    def test_nothing_on_stdout_after_ready(self):
        srv = Server()
        try:
            srv.start()
            c = srv.client()
            c.create_table(TableName="quiet", BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                           KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])
            c.put_item(TableName="quiet", Item={"k": {"S": "v"}})
            self.assertEqual(srv.stop(), 0)
            self.assertEqual(srv.stdout_rest, b"")
        finally:
            srv.cleanup()

    def test_sigint_exits_zero(self):
        srv = Server()
        try:
            srv.start()
            srv.client().list_tables()
            self.assertEqual(srv.stop(sig=signal.SIGINT), 0, srv.stderr_text())
        finally:
            srv.cleanup()


class DynamoDBLocalCommandLine(unittest.TestCase):
    """DynamoDB Local's flags, as it spells them (docs/admin.md)."""

    def start(self, *args):
        proc = subprocess.Popen([pogi_bin()] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, stdin=subprocess.DEVNULL)
        lines = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line or line == "Ready.\n":
                break
            lines.append(line.rstrip("\n"))
        self.addCleanup(self.stop, proc)
        return proc, lines

    def stop(self, proc):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)

    def client(self, port, region="us-east-1", key="k"):
        import boto3
        return boto3.client("dynamodb", endpoint_url="http://%s:%d" % (LOCALHOST, port), region_name=region,
                            aws_access_key_id=key, aws_secret_access_key="s")

    def list_tables(self, port, region="us-east-1", key="k"):
        return self.client(port, region, key).list_tables()["TableNames"]

    def test_regions_apart_without_shared_db(self):
        # DynamoDB Local without -sharedDb: a database per access key and
        # region; pogi: per region only. With -sharedDb: one for all.
        for shared in (False, True):
            port = free_port()
            self.start(*(["-inMemory", "-port", str(port), "--grpc-port", "0"] + (["-sharedDb"] if shared else [])))
            self.client(port, "eu-west-1").create_table(
                TableName="apart", BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            self.assertEqual(self.list_tables(port, "eu-west-1"), ["apart"])
            self.assertEqual(self.list_tables(port, "eu-west-1", key="other"), ["apart"])
            self.assertEqual(self.list_tables(port, "us-east-1"), ["apart"] if shared else [], shared)

    def test_its_flags_start_pogi_with_its_banner(self):
        port = free_port()
        proc, banner = self.start("-port", str(port), "-inMemory", "-sharedDb", "-disableTelemetry",
                                  "-optimizeDbBeforeStartup", "--grpc-port", "0")
        self.assertEqual(banner[:3], ["Initializing DynamoDB Local with the following configuration:",
                                      "Port:\t%d" % port, "InMemory:\ttrue"])
        self.assertIn("SharedDb:\ttrue", banner)
        self.assertIn("DbPath:\tnull", banner)
        self.assertEqual(self.list_tables(port), [])
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        self.assertEqual(proc.returncode, 0, err)
        self.assertIn("in memory", err)

    @sqlite_only("-dbPath is DynamoDB Local's data folder: pogi.db goes there")
    def test_its_image_command_and_db_path(self):
        port = free_port()
        data = tempfile.mkdtemp(prefix="pogi-ddblocal-")
        self.addCleanup(shutil.rmtree, data, True)
        proc, banner = self.start("-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar",
                                  "-sharedDb", "-dbPath", data, "-port", str(port), "--grpc-port", "0",
                                  "-delayTransientStatuses", "-cors", "http://a.example")
        self.assertIn("DbPath:\t" + data, banner)
        self.assertIn("shouldDelayTransientStatuses:\ttrue", banner)
        self.assertIn("CorsParams:\thttp://a.example", banner)
        self.assertEqual(self.list_tables(port), [])
        self.assertTrue(os.path.exists(os.path.join(data, "pogi.db")))
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        # What pogi does not do is said, not dropped; -delayTransientStatuses
        # it does (test_transient_statuses).
        self.assertNotIn("-delayTransientStatuses", err)
        self.assertIn("-cors http://a.example accepted", err)

    def test_default_port_is_8000(self):
        # The banner is printed before binding: a port already in use still
        # shows that 8000 was chosen, then fails in one line.
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((LOCALHOST, 8000))
                s.listen(1)
            except OSError:
                pass  # something else holds 8000: pogi fails on it all the same
            cp = subprocess.run([pogi_bin(), "-inMemory", "--grpc-port", "0"], capture_output=True, text=True,
                                timeout=30, stdin=subprocess.DEVNULL)
        self.assertIn("Port:\t8000", cp.stdout)
        self.assertNotEqual(cp.returncode, 0)
        self.assertIn("8000", cp.stderr)

    def test_help_version_and_a_missing_value(self):
        cp = run_pogi("-help")
        self.assertEqual(cp.returncode, 0)
        for flag in ("-port", "-inMemory", "-dbPath", "-sharedDb", "-cors", "-delayTransientStatuses",
                     "-optimizeDbBeforeStartup", "-disableTelemetry", "-version"):
            self.assertIn(flag, cp.stdout)
        cp = run_pogi("-version")
        self.assertEqual(cp.returncode, 0)
        self.assertTrue(cp.stdout.startswith("pogi "))
        cp = run_pogi("-port")
        self.assertEqual(cp.returncode, 2)
        self.assertIn("-port needs a value", cp.stderr)


class AdminCommands(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        ddb = cls.ddb
        ddb.create_table(TableName="admin-one", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        ddb.create_table(TableName="admin-two",
                         ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 4},
                         AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "N"},
                                               {"AttributeName": "r", "AttributeType": "B"}],
                         KeySchema=[{"AttributeName": "h", "KeyType": "HASH"},
                                    {"AttributeName": "r", "KeyType": "RANGE"}])
        for i in range(3):
            ddb.put_item(TableName="admin-one", Item={"pk": {"S": "k%d" % i}})

    def test_status(self):
        cp = self.server.admin("status")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        out = cp.stdout
        self.assertRegex(out, r"(?m)^version\s+\d+\.\d+\.\d+")
        self.assertRegex(out, r"(?m)^uptime\s+\S+")
        self.assertRegex(out, r"(?m)^tables\s+2$")
        self.assertRegex(out, r"(?m)^items\s+3$")

    def test_tables(self):
        cp = self.server.admin("tables")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        rows = {l.split()[0]: l.split() for l in cp.stdout.splitlines()[1:] if l.strip()}
        self.assertIn("admin-one", rows)
        self.assertIn("admin-two", rows)
        self.assertIn("3", rows["admin-one"])
        self.assertIn("ACTIVE", rows["admin-one"])

    def test_tables_sees_table_created_by_the_cli(self):
        rc, _, err = self.server.aws("dynamodb", "create-table", "--table-name", "admin-from-cli",
                                     "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                                     "--key-schema", "AttributeName=pk,KeyType=HASH",
                                     "--billing-mode", "PAY_PER_REQUEST")
        self.assertEqual(rc, 0, err)
        try:
            cp = self.server.admin("tables")
            self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertIn("admin-from-cli", cp.stdout)
        finally:
            self.ddb.delete_table(TableName="admin-from-cli")

    def test_describe(self):
        cp = self.server.admin("describe", "admin-two")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        desc = json.loads(cp.stdout)
        table = desc.get("Table", desc)
        self.assertEqual(table["TableName"], "admin-two")
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["KeySchema"], [{"AttributeName": "h", "KeyType": "HASH"},
                                              {"AttributeName": "r", "KeyType": "RANGE"}])
        self.assertEqual(table["ProvisionedThroughput"]["ReadCapacityUnits"], 3)
        self.assertEqual(table["ProvisionedThroughput"]["WriteCapacityUnits"], 4)
        self.assertEqual(table["ItemCount"], 0)

    def test_describe_missing_table(self):
        cp = self.server.admin("describe", "no-such-table")
        line = assert_one_line_error(self, cp, "describe missing table")
        self.assertIn("no-such-table", line)


class AdminAgainstNothing(unittest.TestCase):

    def test_each_command_reports_not_running(self):
        port = free_port()
        for args in (["status"], ["tables"], ["describe", "x-table"], ["stop"]):
            with self.subTest(args=args):
                cp = run_pogi(*args, "--host", LOCALHOST, "--grpc-port", port, timeout=30)
                line = assert_one_line_error(self, cp, " ".join(args))
                self.assertIn(str(port), line)


class AdminStop(unittest.TestCase):

    def test_pogi_stop_stops_the_server_cleanly_and_keeps_data(self):
        srv = Server()
        try:
            srv.start()
            c = srv.client()
            c.create_table(TableName="stop-kept", BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                           KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            c.put_item(TableName="stop-kept", Item={"pk": {"S": "x"}, "v": {"N": "7"}})
            cp = srv.admin("stop")
            self.assertEqual(cp.returncode, 0, cp.stderr)
            self.assertEqual(srv.wait_exit(), 0, srv.stderr_text())
            # Nothing listens any more.
            cp = srv.admin("status")
            self.assertNotEqual(cp.returncode, 0)
            srv.start()
            item = srv.client().get_item(TableName="stop-kept", Key={"pk": {"S": "x"}})["Item"]
            self.assertEqual(item["v"], {"N": "7"})
        finally:
            srv.cleanup()


if __name__ == "__main__":
    unittest.main()
