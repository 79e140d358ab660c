"""DynamoDB over raw HTTP with signed requests, for the bench's set-up and
checks (the load itself comes from ab and wrk, see loadgen.py)."""

import http.client
import json
import time

import sigv4
from common import HOST


class Client:
    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)

    def call(self, target, payload):
        body = json.dumps(payload, separators=(",", ":")).encode()
        headers = sigv4.sign_request(f"{HOST}:{self.port}", target, body)
        for attempt in range(2):
            try:
                self.conn.request("POST", "/", body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                if attempt:
                    raise
        try:
            parsed = json.loads(data) if data else {}
        except ValueError:
            parsed = {"raw": data[:200].decode(errors="replace")}
        return resp.status, parsed

    def must(self, target, payload):
        status, out = self.call(target, payload)
        if status != 200:
            raise RuntimeError(f"{target} -> {status} {out}")
        return out

    def create_table(self, name, keys):
        attrs = [{"AttributeName": k, "AttributeType": t} for k, t in keys]
        schema = [{"AttributeName": k, "KeyType": kt}
                  for (k, _), kt in zip(keys, ["HASH", "RANGE"])]
        self.must("CreateTable", {
            "TableName": name, "AttributeDefinitions": attrs,
            "KeySchema": schema, "BillingMode": "PAY_PER_REQUEST"})
        deadline = time.time() + 30
        while time.time() < deadline:
            out = self.must("DescribeTable", {"TableName": name})
            if out.get("Table", {}).get("TableStatus") == "ACTIVE":
                return
            time.sleep(0.02)
        raise RuntimeError(f"table {name} never became ACTIVE")

    def batch_put(self, table, items):
        """BatchWriteItem, 25 at a time; one PutItem per item on a server
        that lacks BatchWriteItem."""
        status, out = self.call("BatchWriteItem", {"RequestItems": {table: [
            {"PutRequest": {"Item": it}} for it in items[:25]]}})
        if status != 200:
            for it in items:
                self.must("PutItem", {"TableName": table, "Item": it})
            return
        for u in (out.get("UnprocessedItems") or {}).get(table, []):
            self.must("PutItem", {"TableName": table,
                                  "Item": u["PutRequest"]["Item"]})
        for i in range(25, len(items), 25):
            req = {table: [{"PutRequest": {"Item": it}}
                           for it in items[i:i + 25]]}
            for _ in range(50):
                out = self.must("BatchWriteItem", {"RequestItems": req})
                req = out.get("UnprocessedItems") or {}
                if not req:
                    break

    def close(self):
        self.conn.close()


