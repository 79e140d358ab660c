"""TLS to the database, as a managed PostgreSQL service requires it: pogi
started with `--storage` on a PostgreSQL 15 of this file's own that takes TCP
connections over TLS only (tests/pg_server.py, PgServer(tls=True): its own
certificate authority, a certificate for localhost and 127.0.0.1).

- sslmode=verify-full with the authority as sslrootcert: pogi serves, and
  PostgreSQL's pg_stat_ssl shows pogi's connections encrypted;
- sslmode=disable: the server refuses, pogi exits 1 in one line naming why;
- verify-full against another authority, or a host name the certificate does
  not carry: pogi refuses the server, exit 1 in one line.

This runs on the binary CI tests and releases, whose libpq and OpenSSL are
linked in statically (CMakeLists.txt): nothing on the machine is used.
Skipped, saying so, where PostgreSQL 15 is not installed."""

import os
import shutil
import sys
import tempfile
import unittest

from harness import HERE, LOCALHOST, Server, StartError
from shared_db import needs_postgresql

sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..")))
import pg_server  # noqa: E402

PG = None  # this file's PostgreSQL (setUpModule)


def setUpModule():
    global PG
    if pg_server.available():
        PG = pg_server.PgServer(tls=True).start()


def tearDownModule():
    if PG is not None:
        PG.cleanup()


def conninfo(sslmode, root=None, host=LOCALHOST):
    """A key=value string over TCP. host: the name libpq checks against the
    certificate; the connection itself always goes to 127.0.0.1 (hostaddr)."""
    parts = ["host=%s" % host, "hostaddr=%s" % LOCALHOST, "port=%d" % PG.port, "dbname=postgres",
             "user=%s" % pg_server.SUPERUSER, "sslmode=%s" % sslmode, "connect_timeout=5"]
    if root:
        parts.append("sslrootcert=%s" % root)
    return " ".join(parts)


@needs_postgresql
class TlsToTheDatabase(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pogi-e2e-pg-tls-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def server(self, storage, schema):
        # HOME without ~/.postgresql: libpq reads nothing of the machine's.
        s = Server(storage=storage, pg_schema=schema, env={"HOME": self.tmp})
        self.addCleanup(s.cleanup)
        return s

    def assertRefused(self, storage, schema, *texts):
        s = self.server(storage, schema)
        with self.assertRaises(StartError) as cm:
            s.start()
        self.assertEqual(cm.exception.returncode, 1, cm.exception.stderr)
        lines = [line for line in cm.exception.stderr.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, cm.exception.stderr)
        for bad in ("terminate called", "Aborted", "Sanitizer"):
            self.assertNotIn(bad, cm.exception.stderr)
        for text in texts:
            self.assertIn(text, lines[0])
        self.assertEqual(PG.psql("select count(*) from information_schema.schemata where schema_name = '%s'"
                                 % schema), "0")

    def test_verify_full_serves_over_tls(self):
        root = os.path.join(PG.tls_dir, "ca.crt")
        s = self.server(conninfo("verify-full", root), "tls_ok")
        s.start()
        client = s.client()
        client.create_table(TableName="over-tls", BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        client.put_item(TableName="over-tls", Item={"pk": {"S": "a"}, "v": {"N": "1"}})
        got = client.get_item(TableName="over-tls", Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]
        self.assertEqual(got["v"], {"N": "1"})
        # Every TCP connection is pogi's (psql comes through the socket), and
        # each is encrypted: the server saw TLS, not just pogi's word for it.
        rows = PG.psql("select s.ssl, s.version from pg_stat_ssl s join pg_stat_activity a using (pid) "
                       "where a.client_addr is not null")
        self.assertTrue(rows, "no TCP connection from pogi")
        for row in rows.splitlines():
            ssl, version = row.split("|")
            self.assertEqual(ssl, "t", rows)
            self.assertIn(version, ("TLSv1.2", "TLSv1.3"), rows)
        self.assertEqual(s.stop(), 0, s.stderr_text())

    def test_without_tls_the_server_refuses(self):
        self.assertRefused(conninfo("disable"), "tls_plain", "no encryption")

    def test_another_authority_is_refused(self):
        pg_server.make_certificate_authority(self.tmp, "other")
        self.assertRefused(conninfo("verify-full", os.path.join(self.tmp, "other.crt")), "tls_other_ca",
                           "certificate verify failed")

    def test_a_name_the_certificate_lacks_is_refused(self):
        root = os.path.join(PG.tls_dir, "ca.crt")
        self.assertRefused(conninfo("verify-full", root, host="db.pogi-test.invalid"), "tls_wrong_name",
                           "does not match host name")


if __name__ == "__main__":
    unittest.main()
