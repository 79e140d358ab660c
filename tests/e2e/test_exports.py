"""ExportTableToPointInTime, DescribeExport, ListExports: the operations'
answers and errors, and the files of an export, read back from the folder
(--s3-dir) and from a real S3-compatible server (s3rver, read with the AWS
CLI's s3 commands)."""

import base64
import gzip
import hashlib
import json
import os
import sys
import tempfile
import time
import unittest

from harness import LOCALHOST, Server, ServerTestCase

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import s3_server  # noqa: E402

EVERY_TYPE = {
    "pk": {"S": "all"}, "sk": {"N": "1"},
    "s": {"S": "héllo \"q\"\n"}, "n": {"N": "-12.50"}, "big": {"N": "12345678901234567890123456789012345678"},
    "b": {"B": base64.b64encode(b"\x00\xffbin").decode()}, "t": {"BOOL": True}, "z": {"NULL": True},
    "m": {"M": {"in": {"L": [{"N": "1"}, {"S": "x"}, {"M": {}}]}}}, "l": {"L": []},
    "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2.5"]}, "bs": {"BS": [base64.b64encode(b"x").decode()]},
    "odd name-1": {"S": "v"},
}


def canonical(item):
    """An item's JSON with its members in name order (map order is free)."""
    return json.dumps(item, sort_keys=True)


def wait_done(ddb, arn, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d = ddb.describe_export(ExportArn=arn)["ExportDescription"]
        if d["ExportStatus"] != "IN_PROGRESS":
            return d
        time.sleep(0.05)
    raise AssertionError("export %s still IN_PROGRESS after %d s" % (arn, timeout))


def export_base(d):
    prefix = d.get("S3Prefix", "")
    if prefix and not prefix.endswith("/"):
        prefix += "/"
    return prefix + "AWSDynamoDB/" + d["ExportArn"].rsplit("/", 1)[1] + "/"


class ExportsTestBase(ServerTestCase):
    """Helpers over the raw answers (DynamoDB JSON as pogi writes it)."""

    def pitr_table(self, **kw):
        name = self.create_table(hash_key=("pk", "S"), range_key=("sk", "N"), **kw)
        self.ddb.update_continuous_backups(
            TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        return name, self.ddb.describe_table(TableName=name)["Table"]["TableArn"]

    def put(self, table, item):
        status, body = self.server.call("PutItem", {"TableName": table, "Item": item})
        self.assertEqual(status, 200, body)

    def scan(self, table):
        status, body = self.server.call("Scan", {"TableName": table})
        self.assertEqual(status, 200, body)
        return body["Items"]

    def clock(self, *args):
        cp = self.server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)


class FolderExportsTest(ExportsTestBase):
    """Exports into --s3-dir: bucket B is the folder S3DIR/B."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-exports-")
        cls.s3dir = os.path.join(cls.tmp, "s3")
        os.makedirs(os.path.join(cls.s3dir, "bucket"))
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": ["--s3-dir", cls.s3dir]}
        super().setUpClass()

    def read(self, key, bucket="bucket"):
        with open(os.path.join(self.s3dir, bucket, key), "rb") as f:
            return f.read()

    def data_lines(self, d):
        base = export_base(d)
        files = [json.loads(line) for line in self.read(base + "manifest-files.json").decode().splitlines()]
        lines = []
        for f in files:
            raw = self.read(f["dataFileS3Key"])
            self.assertEqual(base64.b64decode(f["md5Checksum"]), hashlib.md5(raw).digest())
            text = gzip.decompress(raw).decode()
            got = [line for line in text.splitlines() if line]
            self.assertEqual(len(got), f["itemCount"])
            lines += got
        return files, lines

    def test_full_export_has_dynamodbs_files_and_every_item(self):
        table, arn = self.pitr_table()
        items = [dict(EVERY_TYPE)] + [{"pk": {"S": "p%d" % i}, "sk": {"N": str(i)}, "v": {"S": "x" * i}}
                                      for i in range(50)]
        for item in items:
            self.put(table, item)
        d = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", S3Prefix="exports/run1")[
            "ExportDescription"]
        self.assertEqual(d["ExportStatus"], "IN_PROGRESS")
        self.assertTrue(d["ExportArn"].startswith(arn + "/export/"))
        self.assertRegex(d["ExportArn"].rsplit("/", 1)[1], r"^\d{14}-[0-9a-f]{8}$")
        self.assertEqual(d["ExportFormat"], "DYNAMODB_JSON")
        self.assertEqual(d["ExportType"], "FULL_EXPORT")
        done = wait_done(self.ddb, d["ExportArn"])
        self.assertEqual(done["ExportStatus"], "COMPLETED", done)
        self.assertEqual(done["ItemCount"], len(items))
        base = export_base(done)
        self.assertEqual(done["ExportManifest"], base + "manifest-summary.json")
        self.assertEqual(self.read(base + "_started"), b"")
        summary = json.loads(self.read(base + "manifest-summary.json"))
        self.assertEqual(summary["version"], "2020-06-30")
        self.assertEqual(summary["exportArn"], d["ExportArn"])
        self.assertEqual(summary["itemCount"], len(items))
        self.assertEqual(summary["billedSizeBytes"], done["BilledSizeBytes"])
        self.assertGreater(summary["billedSizeBytes"], 0)
        self.assertEqual(summary["outputFormat"], "DYNAMODB_JSON")
        self.assertEqual(summary["exportType"], "FULL_EXPORT")
        self.assertEqual(summary["manifestFilesS3Key"], base + "manifest-files.json")
        self.assertEqual(self.read(base + "manifest-summary.checksum").decode(),
                         hashlib.md5(self.read(base + "manifest-summary.json")).hexdigest())
        files, lines = self.data_lines(done)
        self.assertTrue(all(f["dataFileS3Key"].startswith(base + "data/") for f in files))
        self.assertTrue(all(f["dataFileS3Key"].endswith(".json.gz") for f in files))
        exported = sorted((json.loads(line)["Item"] for line in lines), key=canonical)
        self.assertEqual(exported, sorted(self.scan(table), key=canonical))
        every = next(i for i in exported if i["pk"] == {"S": "all"})
        self.assertEqual(every["n"], {"N": "-12.5"})  # canonical, as reads answer
        self.assertEqual(every["big"], EVERY_TYPE["big"])

    def test_an_export_in_the_past_and_an_empty_table(self):
        table, arn = self.pitr_table()
        self.put(table, {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "old"}})
        self.clock("advance", "1m")
        past = self.ddb.describe_continuous_backups(TableName=table)[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]["LatestRestorableDateTime"]
        self.clock("advance", "1m")
        self.put(table, {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "new"}})
        self.put(table, {"pk": {"S": "b"}, "sk": {"N": "1"}})
        d = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ExportTime=past)[
            "ExportDescription"]
        done = wait_done(self.ddb, d["ExportArn"])
        self.assertEqual(done["ItemCount"], 1)
        _, lines = self.data_lines(done)
        self.assertEqual([json.loads(x)["Item"]["v"] for x in lines], [{"S": "old"}])
        empty, empty_arn = self.pitr_table()
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=empty_arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["ItemCount"], done["BilledSizeBytes"]), ("COMPLETED", 0, 0))
        files, lines = self.data_lines(done)
        self.assertEqual((len(files), lines), (1, []))  # one empty data file, as DynamoDB writes

    def test_ion_export(self):
        table, arn = self.pitr_table()
        self.put(table, EVERY_TYPE)
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", ExportFormat="ION")["ExportDescription"]["ExportArn"])
        self.assertEqual(done["ExportFormat"], "ION")
        files = [json.loads(x) for x in self.read(export_base(done) + "manifest-files.json").decode().splitlines()]
        self.assertTrue(files[0]["dataFileS3Key"].endswith(".ion.gz"))
        text = gzip.decompress(self.read(files[0]["dataFileS3Key"])).decode()
        self.assertTrue(text.startswith("$ion_1_0\n"), text)
        line = text.splitlines()[1]
        for piece in ['{Item:{', 'pk:"all"', "sk:1.", "n:-12.5", "t:true", "z:null", "'odd name-1':\"v\"",
                      '$dynamodb_SS::["a","b"]', "$dynamodb_NS::[1.,2.5]", "b:{{AP9iaW4=}}", "l:[]"]:
            self.assertIn(piece, line)

    def test_incremental_export_of_inserts_updates_and_deletes(self):
        table, arn = self.pitr_table()
        self.put(table, {"pk": {"S": "kept"}, "sk": {"N": "1"}})
        self.put(table, {"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "1"}})
        self.put(table, {"pk": {"S": "del"}, "sk": {"N": "1"}})
        self.clock("advance", "1m")
        start = self.ddb.describe_continuous_backups(TableName=table)[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]["LatestRestorableDateTime"]
        self.put(table, {"pk": {"S": "upd"}, "sk": {"N": "1"}, "v": {"N": "2"}})
        self.put(table, {"pk": {"S": "new"}, "sk": {"N": "1"}})
        self.ddb.delete_item(TableName=table, Key={"pk": {"S": "del"}, "sk": {"N": "1"}})
        # DynamoDB wants at least 15 minutes between the two times.
        self.assertClientError(self.ddb.export_table_to_point_in_time, "InvalidExportTimeException",
                               TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
                               IncrementalExportSpecification={"ExportFromTime": start})
        self.clock("advance", "16m")
        d = self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
            IncrementalExportSpecification={"ExportFromTime": start})["ExportDescription"]
        self.assertEqual(d["IncrementalExportSpecification"]["ExportViewType"], "NEW_AND_OLD_IMAGES")
        done = wait_done(self.ddb, d["ExportArn"])
        self.assertEqual(done["ExportStatus"], "COMPLETED", done)
        _, lines = self.data_lines(done)
        by_key = {json.loads(x)["Keys"]["pk"]["S"]: json.loads(x) for x in lines}
        self.assertEqual(set(by_key), {"upd", "new", "del"})
        self.assertEqual(by_key["upd"]["OldImage"]["v"], {"N": "1"})
        self.assertEqual(by_key["upd"]["NewImage"]["v"], {"N": "2"})
        self.assertNotIn("OldImage", by_key["new"])
        self.assertNotIn("NewImage", by_key["del"])
        self.assertEqual(by_key["del"]["Keys"], {"pk": {"S": "del"}, "sk": {"N": "1"}})
        self.assertIn("N", by_key["upd"]["Metadata"]["WriteTimestampMicros"])
        summary = json.loads(self.read(export_base(done) + "manifest-summary.json"))
        self.assertEqual(summary["exportType"], "INCREMENTAL_EXPORT")
        # NEW_IMAGE: no old images.
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", ExportType="INCREMENTAL_EXPORT",
            IncrementalExportSpecification={"ExportFromTime": start, "ExportViewType": "NEW_IMAGE"})[
            "ExportDescription"]["ExportArn"])
        _, lines = self.data_lines(done)
        self.assertTrue(all("OldImage" not in json.loads(x) for x in lines))
        self.assertEqual(len(lines), 3)

    def export(self, arn, **members):
        """ExportTableToPointInTime as raw JSON (botocore 1.43's model has
        no FilterSpecification); the finished export's description."""
        status, body = self.server.call("ExportTableToPointInTime", dict(TableArn=arn, S3Bucket="bucket", **members))
        self.assertEqual(status, 200, body)
        return wait_done(self.ddb, body["ExportDescription"]["ExportArn"])

    def test_filtered_exports_full_and_incremental(self):
        table, arn = self.pitr_table()
        for pk, sk, color in (("a", 1, "red"), ("a", 2, "blue"), ("a", 3, "red"), ("b", 1, "red")):
            self.put(table, {"pk": {"S": pk}, "sk": {"N": str(sk)}, "color": {"S": color}, "size": {"N": "7"}})
        spec = {"KeyConditionExpression": "pk = :p AND sk >= :n", "FilterExpression": "#c = :c",
                "ProjectionExpression": "pk, sk, #c", "ExpressionAttributeNames": {"#c": "color"},
                "ExpressionAttributeValues": {":p": {"S": "a"}, ":n": {"N": "2"}, ":c": {"S": "red"}}}
        done = self.export(arn, FilterSpecification=spec)
        self.assertEqual((done["ExportStatus"], done["ItemCount"]), ("COMPLETED", 1), done)
        status, raw = self.server.call("DescribeExport", {"ExportArn": done["ExportArn"]})
        self.assertEqual(raw["ExportDescription"]["FilterSpecification"], spec)  # boto3's model drops it
        _, lines = self.data_lines(done)
        self.assertEqual([json.loads(x) for x in lines],
                         [{"Item": {"pk": {"S": "a"}, "sk": {"N": "3"}, "color": {"S": "red"}}}])
        summary = json.loads(self.read(export_base(done) + "manifest-summary.json"))
        self.assertEqual(summary["itemCount"], 1)
        # A filter alone may name the keys; Ion writes the same selection.
        done = self.export(arn, ExportFormat="ION", FilterSpecification={
            "FilterExpression": "sk = :one", "ExpressionAttributeValues": {":one": {"N": "1"}}})
        self.assertEqual(done["ItemCount"], 2, done)

        # Incremental: the new image decides, a deletion's old image.
        self.clock("advance", "1m")
        start = self.ddb.describe_continuous_backups(TableName=table)[
            "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]["LatestRestorableDateTime"]
        self.put(table, {"pk": {"S": "a"}, "sk": {"N": "2"}, "color": {"S": "red"}})  # blue to red: in
        self.put(table, {"pk": {"S": "a"}, "sk": {"N": "3"}, "color": {"S": "blue"}})  # red to blue: out
        self.ddb.delete_item(TableName=table, Key={"pk": {"S": "b"}, "sk": {"N": "1"}})  # red, deleted: in
        self.clock("advance", "16m")
        done = self.export(arn, ExportType="INCREMENTAL_EXPORT",
                           IncrementalExportSpecification={"ExportFromTime": start.timestamp()},
                           FilterSpecification={"FilterExpression": "color = :c", "ProjectionExpression": "color",
                                                "ExpressionAttributeValues": {":c": {"S": "red"}}})
        self.assertEqual(done["ExportStatus"], "COMPLETED", done)
        _, lines = self.data_lines(done)
        by_key = {(json.loads(x)["Keys"]["pk"]["S"], json.loads(x)["Keys"]["sk"]["N"]): json.loads(x) for x in lines}
        self.assertEqual(set(by_key), {("a", "2"), ("b", "1")})
        self.assertEqual(by_key[("a", "2")]["NewImage"], {"color": {"S": "red"}})
        self.assertEqual(by_key[("a", "2")]["OldImage"], {"color": {"S": "blue"}})
        self.assertEqual(by_key[("b", "1")]["Keys"], {"pk": {"S": "b"}, "sk": {"N": "1"}})
        self.assertNotIn("NewImage", by_key[("b", "1")])

        # Refused at once, with Query's and every expression's words.
        for members, message in (
                ({"KeyConditionExpression": "sk = :n", "ExpressionAttributeValues": {":n": {"N": "1"}}},
                 "Query condition missed key schema element: pk"),
                ({"KeyConditionExpression": "pk = :p", "FilterExpression": "sk > :n",
                  "ExpressionAttributeValues": {":p": {"S": "a"}, ":n": {"N": "1"}}},
                 "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"),
                ({"FilterExpression": "color = :c", "ExpressionAttributeValues": {":c": {"S": "r"}, ":x": {"S": "x"}}},
                 "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"),
                ({"ProjectionExpression": "a,"}, None)):
            status, body = self.server.call("ExportTableToPointInTime", {
                "TableArn": arn, "S3Bucket": "bucket", "FilterSpecification": members})
            self.assertEqual((status, body["__type"].split("#")[-1]), (400, "ValidationException"), body)
            if message:
                self.assertEqual(body["message"], message)
        self.assertServing()

    def test_errors_as_dynamodb_answers_them(self):
        table, arn = self.pitr_table()
        missing = arn.rsplit("/", 1)[0] + "/nope"
        self.assertClientError(self.ddb.export_table_to_point_in_time, "TableNotFoundException",
                               "Table not found: " + missing, TableArn=missing, S3Bucket="bucket")
        plain = self.create_table()
        plain_arn = self.ddb.describe_table(TableName=plain)["Table"]["TableArn"]
        self.assertClientError(self.ddb.export_table_to_point_in_time, "PointInTimeRecoveryUnavailableException",
                               "Point in time recovery is not enabled for table '%s'" % plain,
                               TableArn=plain_arn, S3Bucket="bucket")
        self.assertClientError(self.ddb.describe_export, "ExportNotFoundException",
                               ExportArn=arn + "/export/01234567890123-abcdef01")
        # A bucket that does not exist: the export fails, as DynamoDB's does.
        d = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="no-such-bucket")["ExportDescription"]
        done = wait_done(self.ddb, d["ExportArn"])
        self.assertEqual(done["ExportStatus"], "FAILED")
        self.assertEqual(done["FailureCode"], "S3NoSuchBucket")
        self.assertIn("The specified bucket does not exist", done["FailureMessage"])
        self.assertIn("EndTime", done)
        self.assertFalse(os.path.exists(os.path.join(self.s3dir, "no-such-bucket")))
        self.assertServing()

    def test_client_token_and_list_exports(self):
        table, arn = self.pitr_table()
        first = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="tok-1")[
            "ExportDescription"]
        again = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="tok-1")[
            "ExportDescription"]
        self.assertEqual(first["ExportArn"], again["ExportArn"])
        self.assertEqual(again["ClientToken"], "tok-1")
        self.assertClientError(self.ddb.export_table_to_point_in_time, "ExportConflictException",
                               TableArn=arn, S3Bucket="bucket", S3Prefix="other", ClientToken="tok-1")
        second = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]
        wait_done(self.ddb, first["ExportArn"])
        wait_done(self.ddb, second["ExportArn"])
        listed = self.ddb.list_exports(TableArn=arn)["ExportSummaries"]
        self.assertEqual([e["ExportArn"] for e in listed], [first["ExportArn"], second["ExportArn"]])
        self.assertEqual(listed[0], {"ExportArn": first["ExportArn"], "ExportStatus": "COMPLETED",
                                     "ExportType": "FULL_EXPORT"})
        page = self.ddb.list_exports(TableArn=arn, MaxResults=1)
        self.assertEqual(len(page["ExportSummaries"]), 1)
        rest = self.ddb.list_exports(TableArn=arn, MaxResults=1, NextToken=page["NextToken"])
        self.assertEqual(rest["ExportSummaries"][0]["ExportArn"], second["ExportArn"])
        self.assertClientError(self.ddb.list_exports, "ValidationException", MaxResults=26)


@unittest.skipIf(s3_server.problem(), s3_server.problem() or "")
class S3ServerExportsTest(ExportsTestBase):
    """Exports to s3rver through --s3-endpoint, read back with `aws s3`."""
    TLS = False  # https:// with a certificate pogi trusts through SSL_CERT_FILE

    @classmethod
    def setUpClass(cls):
        cls.s3 = s3_server.S3Server(tls=cls.TLS).start()
        cls.s3.create_bucket("exports")
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": [
            "--s3-endpoint", cls.s3.endpoint, "--s3-access-key-id", "S3RVER", "--s3-secret-access-key", "S3RVER"]}
        if cls.TLS:
            cls.SERVER_ARGS["env"] = {"SSL_CERT_FILE": cls.s3.ca_file}
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.s3.cleanup()

    def test_export_to_an_s3_server_read_back_with_the_aws_cli(self):
        table, arn = self.pitr_table()
        for i in range(20):
            self.put(table, {"pk": {"S": "k%d" % i}, "sk": {"N": str(i)}})
        self.put(table, EVERY_TYPE)
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="exports", S3Prefix="p")["ExportDescription"]["ExportArn"])
        self.assertEqual(done["ExportStatus"], "COMPLETED", done)
        base = export_base(done)
        listing = self.s3.aws("s3", "ls", "--recursive", "s3://exports/" + base).stdout
        for name in ("_started", "manifest-summary.json", "manifest-files.json", ".json.gz"):
            self.assertIn(name, listing)
        out = tempfile.mkdtemp(prefix="pogi-s3-read-")
        self.s3.aws("s3", "cp", "--recursive", "s3://exports/" + base, out)
        summary = json.load(open(os.path.join(out, "manifest-summary.json")))
        self.assertEqual(summary["itemCount"], 21)
        lines = []
        for entry in open(os.path.join(out, "manifest-files.json")).read().splitlines():
            key = json.loads(entry)["dataFileS3Key"][len(base):]
            lines += gzip.decompress(open(os.path.join(out, key), "rb").read()).decode().splitlines()
        self.assertEqual(sorted((json.loads(x)["Item"] for x in lines), key=canonical),
                         sorted(self.scan(table), key=canonical))

    def test_a_missing_bucket_and_a_refused_key_fail_the_export(self):
        table, arn = self.pitr_table()
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="not-made")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["FailureCode"]), ("FAILED", "S3NoSuchBucket"))
        self.assertServing()


@unittest.skipIf(s3_server.problem(), s3_server.problem() or "")
class HttpsS3ServerExportsTest(S3ServerExportsTest):
    """--s3-endpoint https://: s3rver with a self-signed certificate that
    pogi trusts through SSL_CERT_FILE (every test of S3ServerExportsTest runs
    again over TLS); a second pogi that does not trust it fails its export
    with the reason, and serves on."""
    TLS = True

    def test_the_endpoint_is_https(self):
        self.assertTrue(self.s3.endpoint.startswith("https://"), self.s3.endpoint)

    def test_a_certificate_pogi_does_not_trust_fails_the_export(self):
        with tempfile.TemporaryDirectory() as empty:
            other, _ = s3_server.self_signed_certificate(empty)  # another CA: s3rver's does not verify
            server = Server(in_memory=True, env={"SSL_CERT_FILE": other},
                            extra_args=self.SERVER_ARGS["extra_args"]).start()
            try:
                ddb = server.client()
                name = "untrusted"
                ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
                ddb.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={
                    "PointInTimeRecoveryEnabled": True})
                arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
                done = wait_done(ddb, ddb.export_table_to_point_in_time(
                    TableArn=arn, S3Bucket="exports")["ExportDescription"]["ExportArn"])
                self.assertEqual((done["ExportStatus"], done["FailureCode"]), ("FAILED", "S3Unavailable"), done)
                self.assertIn("certificate does not verify", done["FailureMessage"])
                self.assertEqual(ddb.list_tables()["TableNames"], [name])
            finally:
                server.cleanup()


class ExportAcrossARestartTest(ExportsTestBase):
    """An export in progress when pogi dies runs again from the start at the
    next start (here against the folder the restarted pogi is given)."""

    @classmethod
    def setUpClass(cls):
        # An S3 endpoint that takes connections and never answers: the
        # export stays IN_PROGRESS.
        import socket
        cls.silent = socket.socket()
        cls.silent.bind((LOCALHOST, 0))
        cls.silent.listen(16)
        cls.tmp = tempfile.mkdtemp(prefix="pogi-exports-")
        cls.s3dir = os.path.join(cls.tmp, "s3")
        os.makedirs(os.path.join(cls.s3dir, "bucket"))
        cls.SERVER_ARGS = {"extra_args": ["--s3-endpoint", "http://%s:%d" % (LOCALHOST, cls.silent.getsockname()[1])]}
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.silent.close()

    def test_an_export_in_progress_runs_again_after_kill_9(self):
        table, arn = self.pitr_table()
        for i in range(5):
            self.put(table, {"pk": {"S": "k%d" % i}, "sk": {"N": str(i)}})
        d = self.ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket")["ExportDescription"]
        time.sleep(0.5)
        self.assertEqual(self.ddb.describe_export(ExportArn=d["ExportArn"])["ExportDescription"]["ExportStatus"],
                         "IN_PROGRESS")
        self.server.kill()
        self.server.extra_args = ["--s3-dir", self.s3dir]
        self.server.start()
        self.ddb = self.server.client()
        done = wait_done(self.ddb, d["ExportArn"])
        self.assertEqual(done["ExportStatus"], "COMPLETED", done)
        self.assertEqual(done["ItemCount"], 5)
        self.assertEqual(done["StartTime"], d["StartTime"])
        self.assertTrue(os.path.exists(os.path.join(self.s3dir, "bucket", done["ExportManifest"])))


class UnreachableS3ExportsTest(ExportsTestBase):
    """An endpoint nobody listens on: the export fails, pogi keeps serving."""

    @classmethod
    def setUpClass(cls):
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": ["--s3-endpoint", "http://127.0.0.1:1"]}
        super().setUpClass()

    def test_unreachable_endpoint(self):
        table, arn = self.pitr_table()
        done = wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="b")["ExportDescription"]["ExportArn"])
        self.assertEqual((done["ExportStatus"], done["FailureCode"]), ("FAILED", "S3Unavailable"))
        self.assertIn("127.0.0.1:1", done["FailureMessage"])
        self.assertServing()


if __name__ == "__main__":
    unittest.main()
