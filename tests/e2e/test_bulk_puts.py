"""StartBulkPutItems, DescribeBulkOperation, ListBulkOperations,
CancelBulkOperation (botocore has no shapes for them: pogi's own client
call, SigV4-signed requests, and the AWS SDK for JavaScript v3 from node):
items from the folder (--s3-dir) or a real S3-compatible server (s3rver)
put into an existing table through PutItem, per-item conditions, the report
of errors and condition failures written to S3, the counters, the rate, a
cancel, a kill -9 in the middle, bad input files and bad requests."""

import gzip
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

from harness import ServerTestCase
from harness import run_js
from vector_fixture import signed_call

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import s3_server  # noqa: E402


def line(item, **condition):
    return json.dumps(dict({"Item": item}, **condition)) + "\n"


def many_lines(n, tag):
    return "".join(line({"pk": {"S": "%s-%05d" % (tag, i)}, "g": {"S": "g%d" % (i % 4)}}) for i in range(n))


class BulkTestBase(ServerTestCase):
    def op(self, name, payload, status=200):
        got, body = self.server.call(name, payload)
        self.assertEqual(got, status, body)
        return body

    def error(self, name, payload, type_, status=400):
        body = self.op(name, payload, status)
        self.assertTrue(body["__type"].endswith("#" + type_), body)
        return body["message"] if "message" in body else body.get("Message", "")

    def start(self, table, prefix, out_prefix="report", fmt="DYNAMODB_JSON", compression=None, bucket="src",
              out_bucket="out", types=("ERROR", "CONDITION_CHECK_FAILURE"), **kw):
        inp = {"S3Bucket": bucket, "S3KeyPrefix": prefix, "InputFormat": fmt}
        if compression:
            inp["InputCompressionType"] = compression
        req = dict({"TableName": table, "InputS3Configuration": inp,
                    "OutputS3Configuration": {"S3Bucket": out_bucket, "S3KeyPrefix": out_prefix,
                                              "OutputType": list(types)}}, **kw)
        return self.op("StartBulkPutItems", req)["BulkOperationDescription"]

    def describe(self, arn):
        return self.op("DescribeBulkOperation", {"BulkOperationArn": arn})["BulkOperationDescription"]

    def wait(self, arn, timeout=60, until=None):
        deadline = time.time() + timeout
        while time.time() < deadline:
            d = self.describe(arn)
            if until(d) if until else d["BulkOperationStatus"] not in ("IN_PROGRESS", "CANCELLING"):
                return d
            time.sleep(0.05)
        raise AssertionError("bulk operation %s not done after %d s: %s" % (arn, timeout, d))

    def table_with_index(self):
        name = self.unique("bulk")
        self.op("CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "g", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                        "Projection": {"ProjectionType": "ALL"}}],
            "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}})
        return name

    def count(self, table):
        return self.op("Scan", {"TableName": table, "Select": "COUNT"})["Count"]


class FolderBulkPutsTest(BulkTestBase):
    """Bulk puts from --s3-dir: bucket B is the folder S3DIR/B."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-bulk-")
        cls.s3dir = os.path.join(cls.tmp, "s3")
        for b in ("src", "out"):
            os.makedirs(os.path.join(cls.s3dir, b))
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
        return os.path.getsize(path)

    def report(self, d):
        """The manifest and {OutputType: [lines]} of an operation's report."""
        prefix = d["OutputS3Configuration"]["S3KeyPrefix"]
        base = os.path.join(self.s3dir, "out", prefix, "AWSDynamoDB", "BulkOperations",
                            d["BulkOperationArn"].rsplit("/", 1)[1])
        manifest = json.load(open(os.path.join(base, "manifest.json")))
        lines = {}
        for f in manifest["outputFiles"]:
            text = open(os.path.join(self.s3dir, "out", f["s3Key"])).read()
            got = [json.loads(x) for x in text.splitlines()]
            self.assertEqual(len(got), f["itemCount"])
            lines.setdefault(f["outputType"], []).extend(got)
        return manifest, lines

    def test_puts_with_conditions_errors_and_the_report(self):
        t = self.table_with_index()
        self.op("PutItem", {"TableName": t, "Item": {"pk": {"S": "held"}, "v": {"N": "1"}}})
        data = (line({"pk": {"S": "a"}, "g": {"S": "x"}, "n": {"N": "1.50"}})
                + line({"pk": {"S": "b"}, "g": {"S": "x"}})
                + line({"pk": {"S": "held"}, "v": {"N": "2"}}, ConditionExpression="attribute_not_exists(pk)")
                + line({"pk": {"S": "c"}}, ConditionExpression="attribute_not_exists(#p)",
                       ExpressionAttributeNames={"#p": "pk"})
                + "{not json\n"
                + line({"nokey": {"S": "x"}})
                + line({"pk": {"S": "d"}}, ConditionExpression="v = :v",
                       ExpressionAttributeValues={":v": {"N": "7"}})
                + "\n"
                + line({"pk": {"S": "e"}, "g": {"N": "3"}}))
        size = self.write("mixed/part-1.json", data)
        d = self.start(t, "mixed/", out_prefix="rep/one")
        self.assertEqual(d["BulkOperationStatus"], "IN_PROGRESS")
        self.assertEqual(d["TableDetails"][0]["TableName"], t)
        self.assertEqual(d["PerformanceTier"], "STANDARD")
        self.assertEqual(d["InputS3Configuration"]["InputCompressionType"], "NONE")
        self.assertTrue(d["BulkOperationArn"].startswith(
            self.op("DescribeTable", {"TableName": t})["Table"]["TableArn"] + "/bulk-operation/"))
        done = self.wait(d["BulkOperationArn"])
        self.assertEqual(done["BulkOperationStatus"], "COMPLETED_WITH_ERRORS", done)
        # 8 records: a, b, c written; held and d refused by their conditions;
        # the bad JSON, the item without its key and the mistyped index key failed.
        self.assertEqual((done["ProcessedItemCount"], done["FailedItemCount"]), (8, 3), done)
        self.assertEqual((done["TotalInputBytes"], done["ProcessedInputBytes"]), (size, size))
        self.assertIn("EndTime", done)
        self.assertNotIn("FailureCode", done)
        usage = done["BulkOperationUsage"][0]
        self.assertEqual(usage["TableName"], t)
        self.assertGreater(usage["Table"]["BulkPutBytes"], 0)
        self.assertEqual(set(usage["GlobalSecondaryIndexes"]), {"by-g"})
        self.assertEqual(usage["BulkPutBytes"],
                         usage["Table"]["BulkPutBytes"] + usage["GlobalSecondaryIndexes"]["by-g"]["BulkPutBytes"])
        # Written through PutItem: the items, the index, the stream, the counters.
        got = {i["pk"]["S"]: i for i in self.op("Scan", {"TableName": t})["Items"]}
        self.assertEqual(sorted(got), ["a", "b", "c", "held"])
        self.assertEqual(got["held"]["v"], {"N": "1"})
        self.assertEqual(got["a"]["n"], {"N": "1.5"})
        q = self.op("Query", {"TableName": t, "IndexName": "by-g", "KeyConditionExpression": "g = :g",
                              "ExpressionAttributeValues": {":g": {"S": "x"}}})
        self.assertEqual(q["Count"], 2)
        # The report: three errors, two condition failures with the items.
        manifest, lines = self.report(done)
        self.assertEqual((manifest["bulkOperationStatus"], manifest["failedItemCount"],
                          manifest["conditionCheckFailureCount"]), ("COMPLETED_WITH_ERRORS", 3, 2))
        errors = sorted(lines["ERROR"], key=lambda e: e["itemS3Pointer"]["itemIndex"])
        self.assertEqual([e["itemS3Pointer"]["itemIndex"] for e in errors], [4, 5, 7])
        self.assertEqual(errors[0]["itemS3Pointer"], {"bucket": "src", "key": "mixed/part-1.json", "itemIndex": 4})
        self.assertIn("One or more parameter values were invalid", errors[1]["errorMessages"][0])
        self.assertEqual(errors[1]["Item"], {"nokey": {"S": "x"}})
        failures = sorted(lines["CONDITION_CHECK_FAILURE"], key=lambda e: e["itemS3Pointer"]["itemIndex"])
        self.assertEqual([f["Item"]["pk"]["S"] for f in failures], ["held", "d"])
        self.assertEqual(failures[0]["ExistingItem"], {"pk": {"S": "held"}, "v": {"N": "1"}})
        self.assertNotIn("ExistingItem", failures[1])
        # Listed, most recent first; pogi jobs shows it.
        listed = self.op("ListBulkOperations", {})["BulkOperationsSummaryList"]
        self.assertEqual(listed[0]["BulkOperationArn"], d["BulkOperationArn"])
        self.assertEqual(listed[0]["BulkOperationStatus"], "COMPLETED_WITH_ERRORS")
        cp = self.server.admin("jobs", "--kind", "bulk", "--json")
        self.assertEqual(cp.returncode, 0, cp.stderr)
        jobs = {j["Arn"]: j for j in map(json.loads, cp.stdout.splitlines())}
        self.assertEqual(jobs[d["BulkOperationArn"]]["Status"], "COMPLETED_WITH_ERRORS")
        self.assertEqual(self.error("CancelBulkOperation", {"BulkOperationArn": d["BulkOperationArn"]},
                                    "ValidationException"),
                         "Bulk operation %s is COMPLETED_WITH_ERRORS and cannot be cancelled" % d["BulkOperationArn"])

    def test_gzip_and_ion_complete_and_only_the_asked_report(self):
        t = self.table_with_index()
        self.write("gz/a.json.gz", gzip.compress(many_lines(50, "gz").encode()))
        done = self.wait(self.start(t, "gz/", compression="GZIP", types=("ERROR",))["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"], done["FailedItemCount"]),
                         ("COMPLETED", 50, 0), done)
        self.write("ion/a.ion", '{Item:{pk:"i1",g:"q"}}\n{Item:{pk:"gz-00001",g:"q"},'
                               'ConditionExpression:"attribute_not_exists(pk)"}\n')
        done = self.wait(self.start(t, "ion/", fmt="ION", types=("ERROR",))["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"], done["FailedItemCount"]),
                         ("COMPLETED", 2, 0), done)
        manifest, lines = self.report(done)
        self.assertEqual((manifest["conditionCheckFailureCount"], lines), (1, {}))
        self.assertEqual(self.count(t), 51)

    def test_bad_input_files(self):
        t = self.table_with_index()
        # Plain text given as GZIP: the object is one error, the rest skipped.
        self.write("notgz/a.json", many_lines(3, "p"))
        done = self.wait(self.start(t, "notgz/", compression="GZIP")["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["FailedItemCount"]), ("COMPLETED_WITH_ERRORS", 1), done)
        self.assertEqual(self.count(t), 0)
        # Ion that is not Ion.
        self.write("badion/a.ion", "{Item:{pk:\"x\"}")
        done = self.wait(self.start(t, "badion/", fmt="ION")["BulkOperationArn"])
        self.assertEqual(done["BulkOperationStatus"], "COMPLETED_WITH_ERRORS", done)
        # No input bucket, no output bucket: FAILED with the store's code.
        done = self.wait(self.start(t, "x/", bucket="no-such-bucket")["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["FailureCode"]), ("FAILED", "S3NoSuchBucket"), done)
        done = self.wait(self.start(t, "notgz/", out_bucket="no-such-out")["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["FailureCode"]), ("FAILED", "S3NoSuchBucket"), done)
        # An empty prefix: nothing to do.
        done = self.wait(self.start(t, "nothing-here/")["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"], done["TotalInputBytes"]),
                         ("COMPLETED", 0, 0), done)
        self.assertServing()

    def test_a_table_that_does_not_exist(self):
        self.error("StartBulkPutItems", {
            "TableName": "no-such-table", "InputS3Configuration": {"S3Bucket": "src", "InputFormat": "ION"},
            "OutputS3Configuration": {"S3Bucket": "out", "OutputType": ["ERROR"]}}, "ResourceNotFoundException")

    def test_answers_to_bad_requests(self):
        t = self.table_with_index()
        good = {"TableName": t, "InputS3Configuration": {"S3Bucket": "src", "InputFormat": "DYNAMODB_JSON"},
                "OutputS3Configuration": {"S3Bucket": "out", "OutputType": ["ERROR"]}}

        def with_(**changes):
            req = json.loads(json.dumps(good))
            for path, value in changes.items():
                at = req
                parts = path.split("__")
                for p in parts[:-1]:
                    at = at[p]
                if value is None:
                    del at[parts[-1]]
                else:
                    at[parts[-1]] = value
            return req

        cases = [
            (with_(InputS3Configuration=None),
             "1 validation error detected: Value null at 'inputS3Configuration' failed to satisfy constraint: "
             "Member must not be null"),
            (with_(InputS3Configuration__InputFormat="CSV"),
             "1 validation error detected: Value 'CSV' at 'inputS3Configuration.inputFormat' failed to satisfy "
             "constraint: Member must satisfy enum value set: [DYNAMODB_JSON, ION]"),
            (with_(MaxWriteRequestUnits=1000),
             "1 validation error detected: Value '1000' at 'maxWriteRequestUnits' failed to satisfy constraint: "
             "Member must have value greater than or equal to 1024"),
            (with_(OutputS3Configuration__OutputType=["EVERYTHING"]),
             "1 validation error detected: Value 'EVERYTHING' at 'outputS3Configuration.outputType' failed to "
             "satisfy constraint: Member must satisfy enum value set: [ERROR, CONDITION_CHECK_FAILURE]"),
            (with_(TableName=None, PerformanceTier="FAST"),
             "2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must "
             "not be null; Value 'FAST' at 'performanceTier' failed to satisfy constraint: Member must satisfy "
             "enum value set: [STANDARD, ACCELERATED]"),
        ]
        for req, message in cases:
            with self.subTest(message=message):
                self.assertEqual(self.error("StartBulkPutItems", req, "ValidationException"), message)
        # The same ClientToken: the same operation; with other parameters, refused.
        first = self.op("StartBulkPutItems", with_(ClientToken="tok-1"))["BulkOperationDescription"]
        again = self.op("StartBulkPutItems", with_(ClientToken="tok-1"))["BulkOperationDescription"]
        self.assertEqual(again["BulkOperationArn"], first["BulkOperationArn"])
        self.error("StartBulkPutItems", with_(ClientToken="tok-1", MaxWriteRequestUnits=2048),
                   "IdempotentParameterMismatchException")
        arn = first["BulkOperationArn"] + "0"
        self.error("DescribeBulkOperation", {"BulkOperationArn": arn}, "ResourceNotFoundException")
        self.error("CancelBulkOperation", {"BulkOperationArn": arn}, "ResourceNotFoundException")
        self.assertEqual(self.error("DescribeBulkOperation", {}, "ValidationException"),
                         "1 validation error detected: Value null at 'bulkOperationArn' failed to satisfy "
                         "constraint: Member must not be null")
        self.assertIn("Member must have value less than or equal to 25",
                      self.error("ListBulkOperations", {"MaxResults": 26}, "ValidationException"))
        self.assertIn("Member must have value greater than or equal to 1",
                      self.error("ListBulkOperations", {"MaxResults": 0}, "ValidationException"))
        self.assertIn("([0-9a-f]{16})+", self.error("ListBulkOperations", {"NextToken": "zz"}, "ValidationException"))
        # Pages of ListBulkOperations, newest first, through NextToken.
        for i in range(3):
            self.start(t, "nothing-%d/" % i)
        seen, token = [], None
        while True:
            page = self.op("ListBulkOperations", dict({"MaxResults": 2}, **({"NextToken": token} if token else {})))
            seen += page["BulkOperationsSummaryList"]
            token = page.get("NextToken")
            if not token:
                break
        starts = [s["StartTime"] for s in seen]
        self.assertEqual(starts, sorted(starts, reverse=True))
        self.assertEqual(len({s["BulkOperationArn"] for s in seen}), len(seen))
        self.assertGreaterEqual(len(seen), 4)
        self.assertServing()

    def test_the_rate_and_a_cancel_midway(self):
        t = self.table_with_index()
        self.write("slow/a.json", many_lines(5000, "s"))
        d = self.start(t, "slow/", MaxWriteRequestUnits=1024)
        self.assertEqual(d["MaxWriteRequestUnits"], 1024)
        first = self.wait(d["BulkOperationArn"], until=lambda x: x["ProcessedItemCount"] > 0)
        t0 = time.time()
        time.sleep(1.5)
        second = self.describe(d["BulkOperationArn"])
        rate = (second["ProcessedItemCount"] - first["ProcessedItemCount"]) / (time.time() - t0)
        # Each item is 1 unit to the table and 1 to its index: 512 items/s at
        # most (MaxWriteRequestUnits per second, docs/operations.md). The
        # bound is 2.4 times that (progress is stored every second, so the
        # window is wide); a busy machine only lowers the rate.
        self.assertLess(rate, 1024 * 1.2, (first, second))
        self.assertEqual(second["BulkOperationStatus"], "IN_PROGRESS")
        cancel = self.op("CancelBulkOperation", {"BulkOperationArn": d["BulkOperationArn"]})
        self.assertEqual(cancel, {"BulkOperationArn": d["BulkOperationArn"], "BulkOperationStatus": "CANCELLING"})
        done = self.wait(d["BulkOperationArn"])
        self.assertEqual(done["BulkOperationStatus"], "CANCELLED", done)
        self.assertIn("FailureCode", done)
        self.assertLess(done["ProcessedItemCount"], 5000)
        # What was written stays.
        self.assertEqual(self.count(t), done["ProcessedItemCount"])
        self.assertServing()

    def test_the_javascript_sdk_drives_all_four(self):
        t = self.table_with_index()
        self.write("js/a.json", many_lines(20, "js"))
        self.write("jsslow/a.json", many_lines(4000, "jss"))
        out = run_js(self, self.server, "bulk_puts.mjs", {"table": t, "prefix": "js/", "slow": "jsslow/"})
        self.assertEqual(out["started"]["status"], "IN_PROGRESS")
        self.assertEqual(out["done"]["status"], "COMPLETED")
        self.assertEqual(out["done"]["processed"], 20)
        self.assertTrue(out["done"]["startIsDate"] and out["done"]["endIsDate"])
        self.assertIn(out["done"]["arn"], out["listed"])
        self.assertEqual(out["cancel"], "CANCELLING")
        self.assertEqual(out["cancelled"], "CANCELLED")
        self.assertEqual(out["missing"], "ResourceNotFoundException")

    def test_signed_requests(self):
        t = self.table_with_index()
        self.write("signed/a.json", many_lines(3, "sig"))
        status, body = signed_call(self.server, "StartBulkPutItems", {
            "TableName": t, "InputS3Configuration": {"S3Bucket": "src", "S3KeyPrefix": "signed/",
                                                     "InputFormat": "DYNAMODB_JSON"},
            "OutputS3Configuration": {"S3Bucket": "out", "OutputType": ["ERROR"]}})
        self.assertEqual(status, 200, body)
        done = self.wait(body["BulkOperationDescription"]["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"]), ("COMPLETED", 3))


class BulkPutAcrossAKillTest(BulkTestBase):
    """A bulk put in progress when pogi is killed goes on from its stored
    progress at the next start, and ends with every record counted once."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pogi-bulk-kill-")
        cls.s3dir = os.path.join(cls.tmp, "s3")
        for b in ("src", "out"):
            os.makedirs(os.path.join(cls.s3dir, b))
        cls.SERVER_ARGS = {"extra_args": ["--s3-dir", cls.s3dir]}
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_resumes_after_kill_9(self):
        t = self.table_with_index()
        with open(os.path.join(self.s3dir, "src", "k.json"), "w") as f:
            f.write(many_lines(2500, "k"))
        d = self.start(t, "k.json", MaxWriteRequestUnits=1024)
        self.wait(d["BulkOperationArn"], until=lambda x: x["ProcessedItemCount"] >= 600)
        self.server.kill()
        self.server.start()
        self.ddb = self.server.client()
        done = self.wait(d["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"], done["FailedItemCount"]),
                         ("COMPLETED", 2500, 0), done)
        self.assertEqual(done["StartTime"], d["StartTime"])
        self.assertEqual(self.count(t), 2500)


class S3ServerBulkPutsTest(BulkTestBase):
    """Bulk puts from s3rver, the input uploaded and the report read back
    with the AWS CLI's s3 commands."""

    @classmethod
    def setUpClass(cls):
        cls.s3 = s3_server.S3Server().start()
        cls.s3.create_bucket("bulk-in")
        cls.s3.create_bucket("bulk-out")
        cls.SERVER_ARGS = {"in_memory": True, "extra_args": [
            "--s3-endpoint", cls.s3.endpoint, "--s3-access-key-id", "S3RVER", "--s3-secret-access-key", "S3RVER"]}
        cls.tmp = tempfile.mkdtemp(prefix="pogi-bulk-s3-")
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.s3.cleanup()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_condition_failures_reported_to_the_server(self):
        t = self.table_with_index()
        self.op("PutItem", {"TableName": t, "Item": {"pk": {"S": "taken"}}})
        path = os.path.join(self.tmp, "in.json.gz")
        with open(path, "wb") as f:
            f.write(gzip.compress((line({"pk": {"S": "new"}, "g": {"S": "a"}})
                                   + line({"pk": {"S": "taken"}, "x": {"S": "y"}},
                                          ConditionExpression="attribute_not_exists(pk)")
                                   + line({"g": {"S": "nokey"}})).encode()))
        self.s3.aws("s3", "cp", path, "s3://bulk-in/load/in.json.gz")
        done = self.wait(self.start(t, "load/", bucket="bulk-in", out_bucket="bulk-out", out_prefix="r",
                                    compression="GZIP")["BulkOperationArn"])
        self.assertEqual((done["BulkOperationStatus"], done["ProcessedItemCount"], done["FailedItemCount"]),
                         ("COMPLETED_WITH_ERRORS", 3, 1), done)
        self.assertEqual(done["TotalInputBytes"], os.path.getsize(path))
        out = os.path.join(self.tmp, "report")
        self.s3.aws("s3", "cp", "--recursive", "s3://bulk-out/r/", out)
        base = os.path.join(out, "AWSDynamoDB", "BulkOperations", done["BulkOperationArn"].rsplit("/", 1)[1])
        manifest = json.load(open(os.path.join(base, "manifest.json")))
        self.assertEqual(sorted(f["outputType"] for f in manifest["outputFiles"]),
                         ["CONDITION_CHECK_FAILURE", "ERROR"])
        failure = [f for f in manifest["outputFiles"] if f["outputType"] == "CONDITION_CHECK_FAILURE"][0]
        entry = json.loads(open(os.path.join(out, failure["s3Key"][len("r/"):])).read())
        self.assertEqual(entry["Item"], {"pk": {"S": "taken"}, "x": {"S": "y"}})
        self.assertEqual(entry["ExistingItem"], {"pk": {"S": "taken"}})
        self.assertEqual(self.count(t), 2)


if __name__ == "__main__":
    unittest.main()
