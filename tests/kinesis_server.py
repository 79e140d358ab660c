#!/usr/bin/env python3
"""A throwaway Kinesis-compatible server for the tests: npm's kinesalite.

kinesalite (a Node.js implementation of Kinesis Data Streams' JSON API,
keeping streams in memory) is installed from the npm registry once per build
folder, into BUILD/npm-kinesalite, and started on a free port of 127.0.0.1.
Streams become ACTIVE at once (--createStreamMs 0). It accepts any
credentials and does not check signatures (pogi's signer is checked against
pogi's own verifier in the unit tests).

    k = KinesisServer().start()
    k.endpoint                   # 'http://127.0.0.1:N'
    arn = k.create_stream("s")   # through boto3's kinesis client; its ARN
    k.read_records("s")          # every record of every shard, decoded JSON
    k.client()                   # boto3's kinesis client pointed at it
    k.stop(); k.cleanup()
"""
import json
import time

import node_server
from node_server import NodeServer, problem  # noqa: F401  (problem: the tests' skip reason)

KINESALITE_VERSION = "3.3.3"


class KinesisServer(NodeServer):
    NAME = "kinesalite"

    def __init__(self, npm_dir=None):
        super().__init__(node_server.install("kinesalite", KINESALITE_VERSION, "cli.js", npm_dir))

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def command(self):
        return ["node", self.script, "--port", str(self.port), "--createStreamMs", "0", "--deleteStreamMs", "0",
                "--updateStreamMs", "0"]

    def client(self):
        import boto3
        return boto3.client("kinesis", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id="pogi", aws_secret_access_key="pogi")

    def create_stream(self, name, shards=1):
        """Creates stream `name` and waits for it to be ACTIVE; its ARN."""
        k = self.client()
        k.create_stream(StreamName=name, ShardCount=shards)
        deadline = time.time() + 30
        while True:
            d = k.describe_stream_summary(StreamName=name)["StreamDescriptionSummary"]
            if d["StreamStatus"] == "ACTIVE":
                return d["StreamARN"]
            if time.time() > deadline:
                raise AssertionError("stream %s not ACTIVE: %r" % (name, d))
            time.sleep(0.05)

    def raw_records(self, name):
        """Every record of stream `name`, shard by shard, oldest first (boto3's dicts)."""
        k = self.client()
        out = []
        for shard in k.list_shards(StreamName=name)["Shards"]:
            it = k.get_shard_iterator(StreamName=name, ShardId=shard["ShardId"],
                                      ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while it:
                r = k.get_records(ShardIterator=it, Limit=10000)
                out += r["Records"]
                if not r["Records"]:
                    break
                it = r.get("NextShardIterator")
        return out

    def read_records(self, name):
        """The Data of every record of stream `name`, parsed as JSON."""
        return [json.loads(r["Data"]) for r in self.raw_records(name)]
