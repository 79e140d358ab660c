"""DynamoDB Streams end to end: StreamSpecification on CreateTable/UpdateTable,
the Streams API with boto3's dynamodbstreams client and `aws dynamodbstreams`,
records from every write path and view type, shard lineage across roll-overs,
iterator expiry and retention driven by the clock, kill -9 consistency, and
`pogi watch` over gRPC."""

import json
import subprocess
import threading
import time
import unittest

from harness import Server, ServerTestCase, pogi_bin

T0 = 1893456000  # 2030-01-01T00:00:00Z


def streams_client(server):
    import boto3
    from botocore.config import Config
    return boto3.client("dynamodbstreams", endpoint_url=server.endpoint, region_name="us-east-1",
                        aws_access_key_id="pogi-test", aws_secret_access_key="pogi-test",
                        config=Config(retries={"max_attempts": 1}))


def read_all(streams, arn):
    """Every record of the stream, following shard lineage (parents first)."""
    shards = []
    start = None
    while True:
        kw = {"StreamArn": arn}
        if start:
            kw["ExclusiveStartShardId"] = start
        d = streams.describe_stream(**kw)["StreamDescription"]
        shards += d["Shards"]
        start = d.get("LastEvaluatedShardId")
        if not start:
            break
    done, records = set(), []
    while len(done) < len(shards):
        for s in shards:
            if s["ShardId"] in done:
                continue
            parent = s.get("ParentShardId")
            if parent and parent not in done and any(p["ShardId"] == parent for p in shards):
                continue
            it = streams.get_shard_iterator(StreamArn=arn, ShardId=s["ShardId"],
                                            ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while it:
                r = streams.get_records(ShardIterator=it, Limit=1000)
                records += r["Records"]
                if not r["Records"] and "EndingSequenceNumber" not in s["SequenceNumberRange"]:
                    break  # an open shard: caught up
                it = r.get("NextShardIterator")
            done.add(s["ShardId"])
    return records


class Streams(ServerTestCase):
    SERVER_ARGS = {"in_memory": True,
                   "extra_args": ["--clock", "2030-01-01T00:00:00Z", "--clock-frozen", "--ttl-interval", "1h"]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.streams = streams_client(cls.server)

    def clock(self, *args):
        cp = self.server.admin("clock", *args)
        self.assertEqual(cp.returncode, 0, cp.stderr)

    def stream_table(self, view="NEW_AND_OLD_IMAGES", **kw):
        name = self.create_table(range_key=("sk", "N"),
                                 StreamSpecification={"StreamEnabled": True, "StreamViewType": view}, **kw)
        d = self.ddb.describe_table(TableName=name)["Table"]
        return name, d["LatestStreamArn"]

    def test_describe_table_shows_the_stream(self):
        name, arn = self.stream_table("KEYS_ONLY")
        d = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(d["StreamSpecification"], {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        self.assertEqual(arn, d["TableArn"] + "/stream/" + d["LatestStreamLabel"])
        desc = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        self.assertEqual(desc["StreamStatus"], "ENABLED")
        self.assertEqual(desc["StreamViewType"], "KEYS_ONLY")
        self.assertEqual(desc["TableName"], name)
        self.assertEqual([k["AttributeName"] for k in desc["KeySchema"]], ["pk", "sk"])
        self.assertEqual(len(desc["Shards"]), 1)
        self.assertGreaterEqual(len(desc["Shards"][0]["SequenceNumberRange"]["StartingSequenceNumber"]), 21)
        listed = self.streams.list_streams(TableName=name)["Streams"]
        self.assertEqual(listed, [{"StreamArn": arn, "TableName": name, "StreamLabel": d["LatestStreamLabel"]}])

    def test_every_write_path_and_view_type(self):
        for view in ("KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"):
            with self.subTest(view=view):
                self.clock("set", "2030-01-01T00:00:00Z")
                name, arn = self.stream_table(view)
                self.ddb.update_time_to_live(TableName=name,
                                             TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
                k = lambda i: {"pk": {"S": "p"}, "sk": {"N": str(i)}}
                self.ddb.put_item(TableName=name, Item={**k(1), "v": {"S": "a"}})
                self.ddb.put_item(TableName=name, Item={**k(1), "v": {"S": "a"}})  # unchanged: no record
                self.ddb.update_item(TableName=name, Key=k(1), UpdateExpression="SET v = :v",
                                     ExpressionAttributeValues={":v": {"S": "b"}})
                self.ddb.delete_item(TableName=name, Key=k(1))
                self.ddb.delete_item(TableName=name, Key=k(1))  # nothing there: no record
                self.ddb.batch_write_item(RequestItems={name: [
                    {"PutRequest": {"Item": {**k(2), "v": {"S": "c"}}}},
                    {"PutRequest": {"Item": {**k(3), "exp": {"N": str(T0 + 60)}}}}]})
                self.ddb.transact_write_items(TransactItems=[
                    {"Update": {"TableName": name, "Key": k(2), "UpdateExpression": "SET v = :v",
                                "ExpressionAttributeValues": {":v": {"S": "d"}}}},
                    {"Put": {"TableName": name, "Item": {**k(4)}}}])
                self.clock("advance", "2m")  # TTL deletes item 3
                records = read_all(self.streams, arn)
                got = [(r["eventName"], r["dynamodb"]["Keys"]["sk"]["N"]) for r in records]
                self.assertEqual(got, [("INSERT", "1"), ("MODIFY", "1"), ("REMOVE", "1"), ("INSERT", "2"),
                                       ("INSERT", "3"), ("MODIFY", "2"), ("INSERT", "4"), ("REMOVE", "3")])
                seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
                self.assertEqual(seqs, sorted(seqs))
                self.assertEqual(len(set(r["eventID"] for r in records)), len(records))
                for r in records:
                    self.assertEqual(r["eventSource"], "aws:dynamodb")
                    self.assertEqual(r["eventVersion"], "1.1")
                    self.assertEqual(r["awsRegion"], "us-east-1")
                    self.assertEqual(r["dynamodb"]["StreamViewType"], view)
                    self.assertGreater(r["dynamodb"]["SizeBytes"], 0)
                    has_new = "NewImage" in r["dynamodb"]
                    has_old = "OldImage" in r["dynamodb"]
                    self.assertEqual(has_new, view in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES") and
                                     r["eventName"] != "REMOVE", r)
                    self.assertEqual(has_old, view in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES") and
                                     r["eventName"] != "INSERT", r)
                ttl = records[-1]
                self.assertEqual(ttl["userIdentity"], {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"})
                self.assertNotIn("userIdentity", records[2])
                if view == "NEW_AND_OLD_IMAGES":
                    self.assertEqual(records[1]["dynamodb"]["OldImage"]["v"], {"S": "a"})
                    self.assertEqual(records[1]["dynamodb"]["NewImage"]["v"], {"S": "b"})
                self.assertEqual(records[0]["dynamodb"]["ApproximateCreationDateTime"].timestamp(), T0)

    def test_record_json_member_names(self):
        self.clock("set", "2030-01-01T00:00:00Z")
        name, arn = self.stream_table("NEW_IMAGE")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "j"}, "sk": {"N": "1"}})
        d = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]
        s, body = self.server.call("DynamoDBStreams_20120810.GetShardIterator",
                                   {"StreamArn": arn, "ShardId": d["Shards"][0]["ShardId"],
                                    "ShardIteratorType": "TRIM_HORIZON"})
        self.assertEqual(s, 200, body)
        s, body = self.server.call("DynamoDBStreams_20120810.GetRecords", {"ShardIterator": body["ShardIterator"]})
        self.assertEqual(s, 200, body)
        rec = body["Records"][0]
        self.assertEqual(sorted(rec), ["awsRegion", "dynamodb", "eventID", "eventName", "eventSource",
                                       "eventVersion"])
        self.assertEqual(sorted(rec["dynamodb"]), ["ApproximateCreationDateTime", "Keys", "NewImage",
                                                   "SequenceNumber", "SizeBytes", "StreamViewType"])
        self.assertEqual(rec["dynamodb"]["ApproximateCreationDateTime"], T0)

    def test_operations_answer_only_under_their_own_prefix(self):
        s, body = self.server.call("DynamoDB_20120810.ListStreams", {})
        self.assertEqual(body["__type"], "com.amazon.coral.service#UnknownOperationException")
        s, body = self.server.call("DynamoDBStreams_20120810.ListTables", {})
        self.assertEqual(body["__type"], "com.amazon.coral.service#UnknownOperationException")
        s, body = self.server.call("DynamoDBStreams_20120810.ListStreams", {})
        self.assertEqual(s, 200, body)
        self.assertIn("Streams", body)

    def test_stream_specification_rules(self):
        name = self.create_table()
        on = {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
        self.assertClientError(self.ddb.update_table, "ValidationException",
                               "Table has no stream to disable: TableName: " + name,
                               TableName=name, StreamSpecification={"StreamEnabled": False})
        self.assertClientError(self.ddb.update_table, "ValidationException",
                               "One or more parameter values were invalid: If stream is being enabled then "
                               "UpdateViewType is required",
                               TableName=name, StreamSpecification={"StreamEnabled": True})
        first = self.ddb.update_table(TableName=name, StreamSpecification=on)["TableDescription"]
        arn1 = first["LatestStreamArn"]
        self.assertClientError(self.ddb.update_table, "ValidationException",
                               "Table already has an enabled stream: TableName: " + name,
                               TableName=name, StreamSpecification=on)
        self.assertClientError(self.ddb.update_table, "ValidationException",
                               "Table already has an enabled stream: TableName: " + name,
                               TableName=name, StreamSpecification={"StreamEnabled": True,
                                                                    "StreamViewType": "KEYS_ONLY"})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "x"}})
        self.ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
        d = self.ddb.describe_table(TableName=name)["Table"]
        self.assertNotIn("StreamSpecification", d)
        self.assertEqual(d["LatestStreamArn"], arn1)
        self.assertEqual(self.streams.describe_stream(StreamArn=arn1)["StreamDescription"]["StreamStatus"],
                         "DISABLED")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "y"}})  # no stream: no record
        self.assertEqual(len(read_all(self.streams, arn1)), 1)
        second = self.ddb.update_table(TableName=name, StreamSpecification=on)["TableDescription"]
        self.assertNotEqual(second["LatestStreamArn"], arn1)
        self.assertEqual(len(self.streams.list_streams(TableName=name)["Streams"]), 2)

    def test_errors(self):
        name, arn = self.stream_table()
        bad_arn = arn[:-3] + "999"
        self.assertClientError(self.streams.describe_stream, "ResourceNotFoundException", StreamArn=bad_arn)
        shard = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
        self.assertClientError(self.streams.get_shard_iterator, "ResourceNotFoundException", StreamArn=arn,
                               ShardId="shardId-00000000000000000000-00000000", ShardIteratorType="LATEST")
        self.assertClientError(self.streams.get_records, "ValidationException",
                               ShardIterator="x", Limit=1001)
        # The argument checks (ST1-ST3) come before the stream is looked up,
        # so they answer alike for this stream and a missing one; the table
        # wire_cases/11_streams.json has their texts.
        table_arn = arn.split("/stream/")[0]
        self.assertClientError(self.streams.describe_stream, "ValidationException", StreamArn=table_arn)
        self.assertClientError(self.streams.get_shard_iterator, "ValidationException", StreamArn=table_arn,
                               ShardId=shard, ShardIteratorType="LATEST")
        for stream in (arn, bad_arn):
            self.assertClientError(self.streams.get_shard_iterator, "ValidationException", StreamArn=stream,
                                   ShardId=shard, ShardIteratorType="AT_SEQUENCE_NUMBER")
            self.assertClientError(self.streams.get_shard_iterator, "ValidationException", StreamArn=stream,
                                   ShardId=shard, ShardIteratorType="TRIM_HORIZON",
                                   SequenceNumber="0" * 21)
            self.assertClientError(self.streams.get_shard_iterator, "ValidationException", StreamArn=stream,
                                   ShardId=shard, ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                                   SequenceNumber="1" * 20 + "x")
            self.assertClientError(self.streams.describe_stream, "ValidationException", StreamArn=stream,
                                   ShardFilter={"ShardId": shard})
            self.assertClientError(self.streams.describe_stream, "ValidationException", StreamArn=stream,
                                   ShardFilter={"Type": "CHILD_SHARDS"})
        self.assertClientError(self.streams.describe_stream, "ValidationException", StreamArn=arn,
                               ShardFilter={"Type": "CHILD_SHARDS", "ShardId": shard + "x" * 60})
        children = self.streams.describe_stream(StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS",
                                                                            "ShardId": shard})
        self.assertEqual(children["StreamDescription"]["Shards"], [])
        self.assertClientError(self.streams.get_shard_iterator, "ResourceNotFoundException", StreamArn=bad_arn,
                               ShardId=shard, ShardIteratorType="LATEST")
        self.assertClientError(self.streams.list_streams, "ValidationException", Limit=101)
        self.assertClientError(self.streams.list_streams, "ValidationException", ExclusiveStartStreamArn=table_arn)
        self.clock("set", "2030-01-01T00:00:00Z")
        it = self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                             ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        self.clock("advance", "16m")
        self.assertClientError(self.streams.get_records, "ExpiredIteratorException", ShardIterator=it)
        # Records past the 24-hour retention are trimmed.
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "old"}, "sk": {"N": "1"}})
        old = self.streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                              ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        seq = self.streams.get_records(ShardIterator=old)["Records"][0]["dynamodb"]["SequenceNumber"]
        self.clock("advance", "14m")
        self.clock("advance", "24h")
        kw = dict(StreamArn=arn, ShardIteratorType="AT_SEQUENCE_NUMBER", SequenceNumber=seq)
        shards = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        kw["ShardId"] = shards[0]["ShardId"]
        if kw["ShardId"] == shard:
            self.assertClientError(self.streams.get_shard_iterator, "TrimmedDataAccessException", **kw)
        self.assertEqual([r for r in read_all(self.streams, arn) if r["dynamodb"]["Keys"]["pk"]["S"] == "old"], [])

    def test_poller_follows_lineage_across_roll_overs(self):
        name, arn = self.stream_table("KEYS_ONLY")
        seen = []
        stop = threading.Event()
        errors = []

        def poll():
            # A consumer in the style of the KCL: read each shard to its end,
            # then its children.
            streams = streams_client(self.server)
            last = None
            try:
                shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
                it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                                ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                while True:
                    try:
                        r = streams.get_records(ShardIterator=it)
                    except streams.exceptions.ExpiredIteratorException:
                        # The clock jumped 4 hours: go on from the last record read.
                        kw = ({"ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": last}
                              if last else {"ShardIteratorType": "TRIM_HORIZON"})
                        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                                        **kw)["ShardIterator"]
                        continue
                    seen.extend(int(x["dynamodb"]["Keys"]["sk"]["N"]) for x in r["Records"])
                    if r["Records"]:
                        last = r["Records"][-1]["dynamodb"]["SequenceNumber"]
                    it = r.get("NextShardIterator")
                    if it is None:
                        children = [s for s in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
                                    if s.get("ParentShardId") == shard["ShardId"]]
                        if not children:
                            errors.append("a closed shard has no child")
                            return
                        shard = children[0]
                        last = None
                        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                    elif not r["Records"]:
                        if stop.is_set():
                            return
                        time.sleep(0.01)
            except Exception as e:  # noqa: BLE001 -- reported below
                errors.append(repr(e))

        t = threading.Thread(target=poll)
        t.start()
        n = 0
        for round_ in range(5):
            for _ in range(40):
                n += 1
                self.ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": str(n)}})
            cp = self.server.admin("close-shard", name)
            self.assertEqual(cp.returncode, 0, cp.stderr)
        self.clock("advance", "4h")  # a roll-over by clock time too
        for _ in range(10):
            n += 1
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": str(n)}})
        deadline = time.time() + 30
        while len(seen) < n and time.time() < deadline and not errors:
            time.sleep(0.05)
        stop.set()
        t.join(30)
        self.assertEqual(errors, [])
        self.assertEqual(seen, list(range(1, n + 1)))
        shards = self.streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        self.assertEqual(len(shards), 7)
        for parent, child in zip(shards, shards[1:]):
            self.assertEqual(child["ParentShardId"], parent["ShardId"])
            self.assertLess(int(parent["SequenceNumberRange"]["EndingSequenceNumber"]),
                            int(child["SequenceNumberRange"]["StartingSequenceNumber"]))

    def test_list_streams_pages_and_deleted_tables(self):
        name, arn = self.stream_table("KEYS_ONLY")
        self.ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
        arn2 = self.ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True,
                                                                          "StreamViewType": "NEW_IMAGE"})[
            "TableDescription"]["LatestStreamArn"]
        first = self.streams.list_streams(TableName=name, Limit=1)
        self.assertEqual([s["StreamArn"] for s in first["Streams"]], [arn])
        self.assertEqual(first["LastEvaluatedStreamArn"], arn)
        rest = self.streams.list_streams(TableName=name, Limit=1, ExclusiveStartStreamArn=arn)
        self.assertEqual([s["StreamArn"] for s in rest["Streams"]], [arn2])
        self.assertNotIn("LastEvaluatedStreamArn", rest)
        # A deleted table's stream stays readable, disabled, for its retention.
        self.ddb.delete_table(TableName=name)
        self.assertEqual(len(self.streams.list_streams(TableName=name)["Streams"]), 2)
        self.assertEqual(self.streams.describe_stream(StreamArn=arn2)["StreamDescription"]["StreamStatus"],
                         "DISABLED")
        self.assertClientError(self.streams.list_streams, "ResourceNotFoundException", TableName="never-was")
        s, body = self.server.call("DynamoDBStreams_20120810.ListStreams", {"Limit": 0})
        self.assertEqual(s, 400)
        self.assertEqual(body["message"], "1 validation error detected: Value '0' at 'limit' failed to satisfy "
                                          "constraint: Member must have value greater than or equal to 1")
        # 100, the upper limit, is taken; 101 is refused (wire_cases/11_streams.json).
        self.assertEqual(len(self.streams.list_streams(TableName=name, Limit=100)["Streams"]), 2)

    def test_aws_cli(self):
        name, arn = self.stream_table("NEW_IMAGE")
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "cli"}, "sk": {"N": "1"}})
        rc, out, err = self.server.aws("dynamodbstreams", "list-streams", "--table-name", name)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Streams"][0]["StreamArn"], arn)
        rc, out, err = self.server.aws("dynamodbstreams", "describe-stream", "--stream-arn", arn)
        self.assertEqual(rc, 0, err)
        shard = out["StreamDescription"]["Shards"][0]["ShardId"]
        rc, out, err = self.server.aws("dynamodbstreams", "get-shard-iterator", "--stream-arn", arn,
                                       "--shard-id", shard, "--shard-iterator-type", "TRIM_HORIZON")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodbstreams", "get-records", "--shard-iterator", out["ShardIterator"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Records"][0]["dynamodb"]["NewImage"]["pk"], {"S": "cli"})

    def test_watch_changes(self):
        name = self.create_table()  # no stream: the feed sees every table
        args = [pogi_bin(), "watch", name, "--host", "127.0.0.1", "--grpc-port", str(self.server.grpc_port)]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stderr.readline()
            self.assertIn("watching " + name, line)
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "w"}, "n": {"N": "1"}})
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "w"}, "n": {"N": "1"}})  # unchanged
            self.ddb.update_item(TableName=name, Key={"pk": {"S": "w"}}, UpdateExpression="SET n = :n",
                                 ExpressionAttributeValues={":n": {"N": "2"}})
            other = self.create_table()
            self.ddb.put_item(TableName=other, Item={"pk": {"S": "elsewhere"}})
            self.ddb.delete_item(TableName=name, Key={"pk": {"S": "w"}})
            events = [json.loads(proc.stdout.readline()) for _ in range(3)]
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
            proc.stderr.close()
        self.assertEqual([e["eventName"] for e in events], ["INSERT", "MODIFY", "REMOVE"])
        self.assertEqual(events[0]["newItem"], {"pk": {"S": "w"}, "n": {"N": "1"}})
        self.assertEqual(events[1]["oldItem"]["n"], {"N": "1"})
        self.assertEqual(events[2]["keys"], {"pk": {"S": "w"}})
        self.assertTrue(all(e["table"] == name for e in events))


class WatchAcrossStop(unittest.TestCase):
    def test_stop_ends_open_watches(self):
        server = Server(in_memory=True)
        self.addCleanup(server.cleanup)
        server.start()
        args = [pogi_bin(), "watch", "--host", "127.0.0.1", "--grpc-port", str(server.grpc_port)]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            self.assertIn("watching every table", proc.stderr.readline())
            # A watch in progress does not hold the server up (gRPC would
            # otherwise wait out its 5-second grace): the bound has to be
            # under that grace, and a stop takes milliseconds.
            self.assertEqual(server.stop(timeout=4), 0)
            self.assertEqual(proc.wait(timeout=10), 0)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stderr.close()


class StreamsAcrossKill9(unittest.TestCase):
    """Records are written in their change's transaction: after kill -9 in a
    write load, every item has its records and every record its item."""

    def test_kill_9_during_writes(self):
        server = Server()
        self.addCleanup(server.cleanup)
        server.start()
        c = server.client()
        c.create_table(TableName="killed", BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                       StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        arn = c.describe_table(TableName="killed")["Table"]["LatestStreamArn"]
        acked = set()
        lock = threading.Lock()

        def writer(w):
            wc = server.client()
            i = 0
            while True:
                i += 1
                key = "w%d-%d" % (w, i)
                try:
                    wc.put_item(TableName="killed", Item={"pk": {"S": key}, "n": {"N": str(i)}})
                except Exception:  # noqa: BLE001 -- the server was killed
                    return
                with lock:
                    acked.add(key)

        threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        # More than 10 acknowledged before the kill, however slow the machine.
        deadline = time.monotonic() + 60
        while len(acked) <= 10:
            self.assertLess(time.monotonic(), deadline, "10 writes not acknowledged within 60 s")
            time.sleep(0.01)
        server.kill()
        for t in threads:
            t.join(30)
        server.start()
        c = server.client()
        items = set()
        kw = {"TableName": "killed"}
        while True:
            page = c.scan(**kw)
            items |= {i["pk"]["S"] for i in page["Items"]}
            if "LastEvaluatedKey" not in page:
                break
            kw["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        records = read_all(streams_client(server), arn)
        recorded = [r["dynamodb"]["Keys"]["pk"]["S"] for r in records]
        self.assertGreater(len(acked), 10)
        self.assertTrue(acked <= items, "acknowledged writes lost")
        self.assertEqual(sorted(recorded), sorted(items))  # one INSERT per item, none without its item
        seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
        self.assertEqual(seqs, sorted(seqs))
        # New writes after the restart continue the sequence.
        c.put_item(TableName="killed", Item={"pk": {"S": "after"}})
        last = read_all(streams_client(server), arn)[-1]
        self.assertEqual(last["dynamodb"]["Keys"]["pk"]["S"], "after")
        self.assertGreater(int(last["dynamodb"]["SequenceNumber"]), seqs[-1])


if __name__ == "__main__":
    unittest.main()
