"""ImportTable, DescribeImport, ListImports: a new table from files in the
folder (--s3-dir) or on a real S3-compatible server (s3rver), in DynamoDB
JSON, Ion (text and binary) and CSV, gzip, zstd or plain; pogi's own exports
imported back item for item; bad lines counted and reported; S3 failing, a
cancel, kill -9 in the middle of an import, and the answers to bad requests."""

import base64
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from harness import Server, ServerTestCase

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import relay  # noqa: E402
import s3_server  # noqa: E402
import test_exports as exports  # noqa: E402  (its helpers; its tests are not collected here)

SLOW_ITEMS = 40000  # test_import_in_progress_then_cancelled's object
ITEM_VALIDATION = ("Some of the items failed validation checks and were not imported. "
                   "Please check CloudWatch error logs for more details.")


def canonical(item):
    return json.dumps(item, sort_keys=True)


def wait_import(ddb, arn, timeout=30, until=None):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d = ddb.describe_import(ImportArn=arn)["ImportTableDescription"]
        if (until(d) if until else d["ImportStatus"] not in ("IN_PROGRESS", "CANCELLING")):
            return d
        time.sleep(0.05)
    raise AssertionError("import %s not done after %d s: %s" % (arn, timeout, d))


def params(name, keys=(("pk", "S"),), gsi=None):
    p = {"TableName": name, "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [{"AttributeName": k, "AttributeType": t} for k, t in keys],
         "KeySchema": [{"AttributeName": keys[0][0], "KeyType": "HASH"}]
         + ([{"AttributeName": keys[1][0], "KeyType": "RANGE"}] if len(keys) > 1 else [])}
    if gsi:
        p["AttributeDefinitions"].append({"AttributeName": gsi, "AttributeType": "S"})
        p["GlobalSecondaryIndexes"] = [{"IndexName": "by-" + gsi, "KeySchema": [
            {"AttributeName": gsi, "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]
    return p


def line(item):
    return json.dumps({"Item": item}) + "\n"


def zstd(data):
    if not shutil.which("zstd"):
        raise AssertionError("the zstd command is missing (./dev test installs it)")
    return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True, check=True).stdout


def ion_value(type_code, body):
    """One Ion binary value: its type descriptor (with the length) and body."""
    if len(body) < 14:
        return bytes([type_code << 4 | len(body)]) + body
    assert len(body) < 128
    return bytes([type_code << 4 | 14, 0x80 | len(body)]) + body


def ion_string(text):
    return ion_value(8, text.encode())


# $ion_symbol_table::{symbols:["Item","Id","Title"]} (symbols 10, 11, 12),
# then {Item:{Id:104, Title:"B"}}, in Ion binary.
ION_BINARY = (b"\xE0\x01\x00\xEA"
              + ion_value(14, b"\x81\x83" + ion_value(13, b"\x87" + ion_value(
                  11, ion_string("Item") + ion_string("Id") + ion_string("Title"))))
              + ion_value(13, b"\x8A" + ion_value(13, b"\x8B" + ion_value(2, b"\x68") + b"\x8C" + ion_string("B"))))


class ImportsTestBase(ServerTestCase):
    def scan(self, table):
        status, body = self.server.call("Scan", {"TableName": table})
        self.assertEqual(status, 200, body)
        return sorted(body["Items"], key=canonical)

    def start(self, bucket, prefix, table_params, fmt="DYNAMODB_JSON", compression=None, **kw):
        args = dict(S3BucketSource={"S3Bucket": bucket, "S3KeyPrefix": prefix}, InputFormat=fmt,
                    TableCreationParameters=table_params, **kw)
        if compression:
            args["InputCompressionType"] = compression
        return self.ddb.import_table(**args)["ImportTableDescription"]

    def jobs(self):
        cp = self.server.admin("jobs", "--kind", "import", "--json")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        return {j["Arn"]: j for j in map(json.loads, cp.stdout.splitlines())}


class FolderImportsTest(ImportsTestBase):
    """Imports from --s3-dir: bucket B is the folder S3DIR/B."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-imports-")
        cls.s3dir = os.path.join(cls.tmp, "s3")
        os.makedirs(os.path.join(cls.s3dir, "src"))
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": ["--s3-dir", cls.s3dir]}
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def write(self, key, data, bucket="src"):
        path = os.path.join(self.s3dir, bucket, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)

    def test_pogis_exports_import_back_item_for_item(self):
        source = self.create_table(hash_key=("pk", "S"), range_key=("sk", "N"))
        self.ddb.update_continuous_backups(
            TableName=source, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        items = [dict(exports.EVERY_TYPE)]
        items += [{"pk": {"S": "p%d" % i}, "sk": {"N": str(i)}, "g": {"S": "g%d" % (i % 3)},
                   "exact": {"N": "0.%s1" % ("0" * 36)}} for i in range(40)]
        items.append({"pk": {"S": "big"}, "sk": {"N": "-99999999999999999999999999999999999999"}})
        for item in items:
            status, body = self.server.call("PutItem", {"TableName": source, "Item": item})
            self.assertEqual(status, 200, body)
        arn = self.ddb.describe_table(TableName=source)["Table"]["TableArn"]
        expected = self.scan(source)
        for fmt in ("DYNAMODB_JSON", "ION"):
            with self.subTest(fmt=fmt):
                done = exports.wait_done(self.ddb, self.ddb.export_table_to_point_in_time(
                    TableArn=arn, S3Bucket="src", S3Prefix="exp", ExportFormat=fmt)["ExportDescription"]["ExportArn"])
                self.assertEqual(done["ExportStatus"], "COMPLETED", done)
                target = self.unique("copy")
                # The export's folder: pogi reads the data files its manifest lists.
                d = self.start("src", exports.export_base(done), params(target, (("pk", "S"), ("sk", "N")), gsi="g"),
                               fmt=fmt, compression="GZIP")
                self.assertEqual(d["ImportStatus"], "IN_PROGRESS")
                self.assertEqual(d["TableArn"], arn.rsplit("/", 1)[0] + "/" + target)
                self.assertRegex(d["ImportArn"], r"/import/\d{14}-[0-9a-f]{8}$")
                done_import = wait_import(self.ddb, d["ImportArn"])
                self.assertEqual(done_import["ImportStatus"], "COMPLETED", done_import)
                self.assertEqual((done_import["ImportedItemCount"], done_import["ProcessedItemCount"],
                                  done_import["ErrorCount"]), (len(items), len(items), 0))
                self.assertGreater(done_import["ProcessedSizeBytes"], 0)
                self.assertIn("EndTime", done_import)
                self.assertEqual(self.scan(target), expected)  # numbers exact: the same text
                table = self.ddb.describe_table(TableName=target)["Table"]
                self.assertEqual((table["TableStatus"], table["ItemCount"]), ("ACTIVE", len(items)))
                self.assertEqual(table["TableId"], d["TableId"])
                gsi = table["GlobalSecondaryIndexes"][0]
                self.assertEqual(gsi["ItemCount"], 40)
                q = self.ddb.query(TableName=target, IndexName="by-g", KeyConditionExpression="g = :g",
                                   ExpressionAttributeValues={":g": {"S": "g1"}})
                self.assertEqual(q["Count"], 13)  # i % 3 == 1 for 13 of 0..39
        # No stream records of imported items: a stream turned on afterwards is empty.
        self.ddb.update_table(TableName=target, StreamSpecification={"StreamEnabled": True,
                                                                     "StreamViewType": "NEW_IMAGE"})
        streams = self.server.client(service="dynamodbstreams")
        stream_arn = self.ddb.describe_table(TableName=target)["Table"]["LatestStreamArn"]
        shard = streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"][0]["ShardId"]
        it = streams.get_shard_iterator(StreamArn=stream_arn, ShardId=shard,
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        self.assertEqual(streams.get_records(ShardIterator=it)["Records"], [])

    def test_csv_with_its_header_zstd_and_with_options(self):
        self.write("csv/people.csv.zst", zstd(b"pk,n,name\n1,12,\"Ann, B\"\n2,007,Bo\n"))
        t1 = self.unique("csv")
        done = wait_import(self.ddb, self.start("src", "csv/", params(t1, (("pk", "N"),)), fmt="CSV",
                                                compression="ZSTD")["ImportArn"])
        self.assertEqual(done["ImportStatus"], "COMPLETED", done)
        self.assertEqual(self.scan(t1), sorted([
            {"pk": {"N": "1"}, "n": {"S": "12"}, "name": {"S": "Ann, B"}},  # not a key: a string
            {"pk": {"N": "2"}, "n": {"S": "007"}, "name": {"S": "Bo"}}], key=canonical))
        self.write("csv2/data", "a|x\nb|y\n")
        t2 = self.unique("csv")
        d = self.start("src", "csv2/", params(t2), fmt="CSV",
                       InputFormatOptions={"Csv": {"Delimiter": "|", "HeaderList": ["pk", "v"]}})
        self.assertEqual(d["InputFormatOptions"], {"Csv": {"Delimiter": "|", "HeaderList": ["pk", "v"]}})
        self.assertEqual(d["InputCompressionType"], "NONE")
        self.assertEqual(wait_import(self.ddb, d["ImportArn"])["ImportedItemCount"], 2)
        self.assertEqual(self.scan(t2), sorted([{"pk": {"S": "a"}, "v": {"S": "x"}},
                                                {"pk": {"S": "b"}, "v": {"S": "y"}}], key=canonical))

    def test_ion_text_and_binary(self):
        # The line of DynamoDB's documentation, and a binary Ion object.
        self.write("ion/a.ion", "$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],"
                                "Dimensions:\"8.5 x 11.0 x 1.5\",Id:103.,InPublication:false,PageCount:6d2,"
                                "Price:2d3,Title:\"Book 103 Title\"}}\n")
        self.write("ion/b.10n", ION_BINARY)
        t = self.unique("ion")
        done = wait_import(self.ddb, self.start("src", "ion/", params(t, (("Id", "N"),)), fmt="ION")["ImportArn"])
        self.assertEqual(done["ImportStatus"], "COMPLETED", done)
        got = {i["Id"]["N"]: i for i in self.scan(t)}
        self.assertEqual(got["103"]["PageCount"], {"N": "600"})
        self.assertEqual(got["103"]["Price"], {"N": "2000"})
        self.assertEqual(sorted(got["103"]["Authors"]["SS"]), ["Author1", "Author2"])
        self.assertEqual(got["104"], {"Id": {"N": "104"}, "Title": {"S": "B"}})

    def test_bad_lines_are_counted_and_reported(self):
        lines = [line({"pk": {"S": "a"}, "v": {"N": "1"}}),
                 "{not json\n",
                 line({"other": {"S": "no key"}}),
                 line({"pk": {"N": "5"}}),
                 line({"pk": {"S": "huge"}, "v": {"S": "x" * (400 * 1024)}}),
                 line({"pk": {"S": "a"}, "v": {"N": "2"}}),  # the same key again: replaces, no error
                 line({"pk": {"S": "b"}})]
        self.write("bad/lines.json.gz", gzip.compress("".join(lines).encode()))
        t = self.unique("bad")
        d = self.start("src", "bad/", params(t), compression="GZIP")
        done = wait_import(self.ddb, d["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["FailureCode"], done["FailureMessage"]),
                         ("FAILED", "ItemValidationError", ITEM_VALIDATION))
        self.assertEqual((done["ErrorCount"], done["ProcessedItemCount"], done["ImportedItemCount"]), (4, 7, 3))
        self.assertIn("/aws-dynamodb/imports", done["CloudWatchLogGroupArn"])
        # DynamoDB keeps the table with what passed.
        self.assertEqual(self.scan(t), [{"pk": {"S": "a"}, "v": {"N": "2"}}, {"pk": {"S": "b"}}])
        self.assertEqual(self.ddb.describe_table(TableName=t)["Table"]["TableStatus"], "ACTIVE")
        # The errors as DynamoDB logs them to CloudWatch, kept with the import.
        entries = [json.loads(e) for e in self.jobs()[d["ImportArn"]]["RecentErrors"]]
        self.assertEqual([e["itemS3Pointer"]["itemIndex"] for e in entries], [1, 2, 3, 4])
        self.assertEqual({e["itemS3Pointer"]["key"] for e in entries}, {"bad/lines.json.gz"})
        self.assertEqual({e["importArn"] for e in entries}, {d["ImportArn"]})
        messages = [e["errorMessages"][0] for e in entries]
        self.assertEqual(messages[1], "One or more parameter values were invalid: Missing the key pk in the item")
        self.assertIn("Type mismatch for key", messages[2])
        self.assertEqual(messages[3], "Item size has exceeded the maximum allowed size")
        self.assertServing()

    def test_s3_failures_leave_no_table(self):
        for case, bucket, prefix in (("no bucket", "no-such-bucket", ""), ("missing file", "src", "m/")):
            with self.subTest(case=case):
                if case == "missing file":
                    base = "m/AWSDynamoDB/01234567890123-abcdef01/"
                    self.write(base + "data/here.json.gz", gzip.compress(line({"pk": {"S": "a"}}).encode()))
                    self.write(base + "manifest-files.json", "".join(
                        json.dumps({"itemCount": 1, "dataFileS3Key": base + "data/" + n}) + "\n"
                        for n in ("here.json.gz", "gone.json.gz")))
                t = self.unique("fail")
                done = wait_import(self.ddb, self.start(bucket, prefix, params(t), compression="GZIP")["ImportArn"])
                self.assertEqual(done["ImportStatus"], "FAILED", done)
                if case == "no bucket":
                    self.assertEqual(done["FailureCode"], "S3NoSuchBucket")
                    self.assertIn("The specified bucket does not exist", done["FailureMessage"])
                else:
                    self.assertEqual(done["FailureCode"], "S3NoSuchKey")
                    self.assertIn("gone.json.gz", done["FailureMessage"])
                self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException", TableName=t)
        # Declared GZIP, written plain: a data error; the (empty) table stays.
        self.write("plain/x.json", line({"pk": {"S": "a"}}))
        t = self.unique("plain")
        done = wait_import(self.ddb, self.start("src", "plain/", params(t), compression="GZIP")["ImportArn"])
        self.assertEqual((done["ImportStatus"], done["FailureCode"], done["ErrorCount"]),
                         ("FAILED", "ItemValidationError", 1))
        self.assertEqual(self.scan(t), [])
        self.assertServing()

    def test_answers_to_bad_requests(self):
        existing = self.create_table()
        self.assertClientError(self.ddb.import_table, "ResourceInUseException", "Table already exists: " + existing,
                               S3BucketSource={"S3Bucket": "src"}, InputFormat="CSV",
                               TableCreationParameters=params(existing))
        status, body = self.server.call("ImportTable", {"S3BucketSource": {"S3Bucket": "src"},
                                                        "TableCreationParameters": params(self.unique())})
        self.assertEqual((status, body["message"]), (400, "1 validation error detected: Value null at 'inputFormat' "
                                                          "failed to satisfy constraint: Member must not be null"))
        status, body = self.server.call("ImportTable", {
            "S3BucketSource": {"S3Bucket": "-bad-"}, "InputFormat": "XML",
            "InputFormatOptions": {"Csv": {"Delimiter": "#"}},
            "TableCreationParameters": dict(params("ab"), BillingMode="FREE")})
        self.assertEqual(status, 400)
        self.assertEqual(body["message"], (
            "5 validation errors detected: "
            "Value '-bad-' at 's3BucketSource.s3Bucket' failed to satisfy constraint: Member must satisfy regular "
            "expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$; "
            "Value 'XML' at 'inputFormat' failed to satisfy constraint: Member must satisfy enum value set: "
            "[DYNAMODB_JSON, ION, CSV]; "
            "Value '#' at 'inputFormatOptions.csv.delimiter' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [,;:|\\t ]; "
            "Value 'ab' at 'tableCreationParameters.tableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3; "
            "Value 'FREE' at 'tableCreationParameters.billingMode' failed to satisfy constraint: Member must "
            "satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]"))
        self.assertClientError(self.ddb.describe_import, "ImportNotFoundException",
                               ImportArn="arn:aws:dynamodb:us-east-1:000000000000:table/x/import/01234567890123-abcdef01")
        # ClientToken: the same request answers the same import; another conflicts.
        self.write("tok/x.json", line({"pk": {"S": "a"}}))
        t = self.unique("tok")
        first = self.start("src", "tok/", params(t), ClientToken="tok-1")
        again = self.start("src", "tok/", params(t), ClientToken="tok-1")
        self.assertEqual(first["ImportArn"], again["ImportArn"])
        self.assertClientError(self.ddb.import_table, "ImportConflictException", ClientToken="tok-1",
                               S3BucketSource={"S3Bucket": "src", "S3KeyPrefix": "other/"},
                               InputFormat="DYNAMODB_JSON", TableCreationParameters=params(t))
        second = self.start("src", "tok/", params(self.unique("tok")))
        wait_import(self.ddb, first["ImportArn"])
        wait_import(self.ddb, second["ImportArn"])
        # ListImports: by table, and a page at a time with DynamoDB's token form.
        table_arn = first["TableArn"]
        listed = self.ddb.list_imports(TableArn=table_arn)["ImportSummaryList"]
        self.assertEqual([s["ImportArn"] for s in listed], [first["ImportArn"]])
        self.assertEqual(set(listed[0]), {"ImportArn", "ImportStatus", "TableArn", "S3BucketSource",
                                          "CloudWatchLogGroupArn", "InputFormat", "StartTime", "EndTime"})
        page = self.ddb.list_imports(PageSize=1)
        self.assertRegex(page["NextToken"], r"^([0-9a-f]{16}){7,}$")
        rest = self.ddb.list_imports(PageSize=25, NextToken=page["NextToken"])["ImportSummaryList"]
        self.assertNotIn(page["ImportSummaryList"][0]["ImportArn"], [s["ImportArn"] for s in rest])
        self.assertClientError(self.ddb.list_imports, "ValidationException", PageSize=26)
        status, body = self.server.call("ListImports", {"NextToken": "abc"})  # boto3 checks the length itself
        self.assertEqual((status, body["__type"].split("#")[-1]), (400, "ValidationException"), body)
        self.assertServing()


@unittest.skipIf(s3_server.problem(), s3_server.problem() or "")
class S3ServerImportsTest(ImportsTestBase):
    """Imports from s3rver, once through a slow network (a relay that passes
    2 KB every 10 ms): progress while it runs, a cancel, a bucket removed."""

    @classmethod
    def setUpClass(cls):
        cls.s3 = s3_server.S3Server().start()
        cls.relay = relay.Relay("127.0.0.1", cls.s3.port, delay=0.01, chunk=2048).start()
        cls.s3.create_bucket("imports-in")
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": [
            "--s3-endpoint", cls.relay.endpoint, "--s3-access-key-id", "S3RVER", "--s3-secret-access-key", "S3RVER"]}
        cls.tmp = tempfile.mkdtemp(prefix="pogi-imports-s3-")
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.relay.stop()
        cls.s3.cleanup()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def upload(self, bucket, key, data):
        path = os.path.join(self.tmp, "upload")
        with open(path, "wb") as f:
            f.write(data)
        self.s3.aws("s3", "cp", path, "s3://%s/%s" % (bucket, key))

    def many_lines(self, n, tag):
        return "".join(line({"pk": {"S": "%s-%06d" % (tag, i)}, "pad": {"S": "x" * 100}}) for i in range(n)).encode()

    def test_import_in_progress_then_cancelled(self):
        # ~4.6 MB: over 20 s through the relay (2 KB per 10 ms at most), so
        # the checks and the cancel below, a second or two on a busy
        # machine, land while it runs.
        self.upload("imports-in", "slow/a.json", self.many_lines(SLOW_ITEMS, "a"))
        t = self.unique("slow")
        d = self.start("imports-in", "slow/", params(t))
        running = wait_import(self.ddb, d["ImportArn"], until=lambda x: x.get("ProcessedItemCount", 0) > 0)
        self.assertEqual(running["ImportStatus"], "IN_PROGRESS", running)
        # Meanwhile the table is being created: no item, no delete.
        self.assertEqual(self.ddb.describe_table(TableName=t)["Table"]["TableStatus"], "CREATING")
        self.assertClientError(self.ddb.put_item, "ResourceNotFoundException", TableName=t, Item={"pk": {"S": "x"}})
        self.assertClientError(self.ddb.delete_table, "ResourceInUseException", TableName=t)
        self.assertEqual(self.jobs()[d["ImportArn"]]["Status"], "IN_PROGRESS")
        status = self.server.admin("status")
        self.assertIn("jobs      1 in progress", status.stdout)
        cp = self.server.admin("jobs", "cancel", d["ImportArn"])
        self.assertEqual((cp.returncode, cp.stdout.split()), (0, [d["ImportArn"], "CANCELLING"]), cp.stderr)
        done = wait_import(self.ddb, d["ImportArn"])
        self.assertEqual(done["ImportStatus"], "CANCELLED", done)
        self.assertLess(done["ProcessedItemCount"], SLOW_ITEMS)
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException", TableName=t)
        cp = self.server.admin("jobs", "cancel", d["ImportArn"])
        self.assertNotEqual(cp.returncode, 0)
        self.assertServing()

    def test_a_bucket_removed_midway_fails_the_import(self):
        self.s3.create_bucket("going")
        self.upload("going", "p/1.json", self.many_lines(6000, "one"))
        self.upload("going", "p/2.json", self.many_lines(10, "two"))
        t = self.unique("gone")
        d = self.start("going", "p/", params(t))
        wait_import(self.ddb, d["ImportArn"], until=lambda x: x.get("ProcessedItemCount", 0) > 0)
        self.s3.aws("s3", "rb", "--force", "s3://going")
        done = wait_import(self.ddb, d["ImportArn"])
        self.assertEqual(done["ImportStatus"], "FAILED", done)
        self.assertIn(done["FailureCode"], ("S3NoSuchBucket", "S3NoSuchKey"))
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException", TableName=t)
        self.assertServing()

    def test_import_from_the_server_written_with_the_aws_cli(self):
        items = [dict(exports.EVERY_TYPE), {"pk": {"S": "b"}, "sk": {"N": "2"}}]
        self.upload("imports-in", "fast/x.json.gz", gzip.compress("".join(line(i) for i in items).encode()))
        t = self.unique("s3")
        done = wait_import(self.ddb, self.start("imports-in", "fast/", params(t, (("pk", "S"), ("sk", "N"))),
                                                compression="GZIP")["ImportArn"])
        self.assertEqual(done["ImportStatus"], "COMPLETED", done)
        got = self.scan(t)
        self.assertEqual(len(got), 2)
        every = next(i for i in got if i["pk"] == {"S": "all"})
        self.assertEqual(every["n"], {"N": "-12.5"})
        self.assertEqual(every["b"], exports.EVERY_TYPE["b"])

    def test_kill_9_mid_import_then_the_import_runs_again_whole(self):
        # Durable storage of its own (the class's server keeps nothing): the
        # stored import runs again from an empty table after the restart.
        self.upload("imports-in", "killed/a.json", self.many_lines(8000, "k"))
        with Server(extra_args=self.SERVER_ARGS["extra_args"]) as server:
            ddb = server.client()
            t = self.unique("killed")
            d = ddb.import_table(S3BucketSource={"S3Bucket": "imports-in", "S3KeyPrefix": "killed/"},
                                 InputFormat="DYNAMODB_JSON", TableCreationParameters=params(t))["ImportTableDescription"]
            running = wait_import(ddb, d["ImportArn"], until=lambda x: x.get("ProcessedItemCount", 0) > 0)
            self.assertEqual(running["ImportStatus"], "IN_PROGRESS", running)
            server.kill()
            server.start()
            ddb = server.client()
            done = wait_import(ddb, d["ImportArn"], timeout=120)
            self.assertEqual((done["ImportStatus"], done["ImportedItemCount"], done["ErrorCount"]),
                             ("COMPLETED", 8000, 0), done)
            self.assertEqual(done["StartTime"], d["StartTime"])
            self.assertEqual(ddb.describe_table(TableName=t)["Table"]["TableStatus"], "ACTIVE")
            count = ddb.scan(TableName=t, Select="COUNT")
            total = count["Count"]
            while "LastEvaluatedKey" in count:
                count = ddb.scan(TableName=t, Select="COUNT", ExclusiveStartKey=count["LastEvaluatedKey"])
                total += count["Count"]
            self.assertEqual(total, 8000)
            self.assertEqual(ddb.describe_table(TableName=t)["Table"]["ItemCount"], 8000)


if __name__ == "__main__":
    unittest.main()
