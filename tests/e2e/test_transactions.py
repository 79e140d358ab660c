"""TransactWriteItems and TransactGetItems against the real binary.

Validations and cancellation reasons with DynamoDB's messages, then the three
proofs of issue 6:

1. Bank transfer: 8 clients move random amounts between 10 accounts with
   TransactWriteItems (a condition on the source balance plus two updates);
   the total never changes, no balance goes negative, and TransactGetItems
   running alongside always sees the invariant total.
2. Idempotency: a retry with the same ClientRequestToken writes once and gets
   the same answer; a different request with that token is refused.
3. kill -9 in the middle of a stream of transactions: after restart every
   transaction is wholly present or wholly absent.

Run: cd tests/e2e && python3 -m unittest -v test_transactions
"""

import json
import random
import threading
import time
import unittest

from botocore.exceptions import ClientError

from harness import Server, ServerTestCase

CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]"


def S(s):
    return {"S": s}


def N(n):
    return {"N": str(n)}


def create(ddb, name, range_key=None):
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
    schema = [{"AttributeName": "pk", "KeyType": "HASH"}]
    if range_key:
        attrs.append({"AttributeName": range_key, "AttributeType": "N"})
        schema.append({"AttributeName": range_key, "KeyType": "RANGE"})
    ddb.create_table(TableName=name, AttributeDefinitions=attrs, KeySchema=schema, BillingMode="PAY_PER_REQUEST")


def put(table, item, **kw):
    return {"Put": dict(TableName=table, Item=item, **kw)}


class TransactionsTest(ServerTestCase):
    # Three HTTP threads: concurrent transactions arrive on different threads.
    SERVER_ARGS = {"in_memory": True, "extra_args": ["--threads", "3"]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.t = "tx-main"
        cls.t2 = "tx-range"
        create(cls.ddb, cls.t)
        create(cls.ddb, cls.t2, "sk")

    def cancelled(self, fn, codes, **kw):
        resp = self.assertClientError(fn, "TransactionCanceledException", CANCELLED % ", ".join(codes), **kw)
        self.assertEqual([r["Code"] for r in resp["CancellationReasons"]], codes)
        return resp["CancellationReasons"]

    def get(self, key, table=None):
        return self.ddb.get_item(TableName=table or self.t, Key={"pk": S(key)}).get("Item")

    # ---- validations --------------------------------------------------------------

    def test_member_constraints(self):
        status, body = self.server.call("TransactWriteItems", {"TransactItems": []})
        self.assertEqual(body["message"], "1 validation error detected: Value '[]' at 'transactItems' failed to "
                                          "satisfy constraint: Member must have length greater than or equal to 1")
        status, body = self.server.call("TransactGetItems", {"TransactItems": []})
        self.assertEqual(body["__type"], "com.amazon.coral.validate#ValidationException")
        items = [put(self.t, {"pk": S("x%d" % i)}) for i in range(101)]
        resp = self.assertClientError(self.ddb.transact_write_items, "ValidationException", TransactItems=items)
        self.assertRegex(resp["Error"]["Message"], r"^1 validation error detected: Value '\[.+\]' at 'transactItems' "
                                                   r"failed to satisfy constraint: Member must have length less than "
                                                   r"or equal to 100$")
        gets = [{"Get": {"TableName": self.t, "Key": {"pk": S("x%d" % i)}}} for i in range(101)]
        self.assertClientError(self.ddb.transact_get_items, "ValidationException", TransactItems=gets,
                               message_contains="Member must have length less than or equal to 100")
        token = "x" * 37
        status, body = self.server.call("TransactWriteItems", {
            "TransactItems": [put(self.t, {"pk": S("tok")})], "ClientRequestToken": token,
            "ReturnConsumedCapacity": "BOGUS"})
        self.assertEqual(body["message"], "2 validation errors detected: Value '%s' at 'clientRequestToken' failed to "
                                          "satisfy constraint: Member must have length less than or equal to 36; "
                                          "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: "
                                          "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]" % token)
        status, body = self.server.call("TransactWriteItems", {"TransactItems": [{}]})
        self.assertEqual(body["message"], "TransactItems can only contain one of Check, Put, Update or Delete")
        self.assertIsNone(self.get("tok"))

    def test_request_level_errors(self):
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               "Transaction request cannot include multiple operations on one item",
                               TransactItems=[put(self.t, {"pk": S("dup")}),
                                              {"Delete": {"TableName": self.t, "Key": {"pk": S("dup")}}}])
        self.assertClientError(self.ddb.transact_get_items, "ValidationException",
                               "Transaction request cannot include multiple operations on one item",
                               TransactItems=[{"Get": {"TableName": self.t, "Key": {"pk": S("dup")}}}] * 2)
        self.assertClientError(self.ddb.transact_write_items, "ResourceNotFoundException",
                               "Requested resource not found",
                               TransactItems=[put("no-such-table", {"pk": S("x")})])
        self.assertClientError(self.ddb.transact_get_items, "ResourceNotFoundException",
                               "Requested resource not found",
                               TransactItems=[{"Get": {"TableName": "no-such-table", "Key": {"pk": S("x")}}}])
        # A malformed condition on a later action comes before a missing table on an earlier one.
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("',
                               TransactItems=[put("no-such-table", {"pk": S("x")}),
                                              {"ConditionCheck": {"TableName": self.t, "Key": {"pk": S("c")},
                                                                  "ConditionExpression": "attribute_not_exists("}}])
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
                               TransactItems=[put("no-such-table", {"pk": S("x")}),
                                              {"ConditionCheck": {"TableName": self.t, "Key": {"pk": S("c")},
                                                                  "ConditionExpression": "attribute_not_exists(pk)",
                                                                  "ExpressionAttributeValues": {":v": S("x")}}}])
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               # A Key parameter's wording (behaviours.md V15).
                               "One or more parameter values were invalid: The AttributeValue for a key attribute "
                               "cannot contain an empty string value. Key: pk",
                               TransactItems=[{"Delete": {"TableName": self.t, "Key": {"pk": S("")}}}])
        self.assertClientError(self.ddb.transact_write_items, "ValidationException",
                               "Item size has exceeded the maximum allowed size",
                               TransactItems=[put(self.t, {"pk": S("big"), "b": S("x" * 409600)})])
        self.assertClientError(self.ddb.transact_get_items, "ValidationException",
                               'Invalid ProjectionExpression: Syntax error; token: "!", near: "!!"',
                               TransactItems=[{"Get": {"TableName": self.t, "Key": {"pk": S("a")},
                                                       "ProjectionExpression": "!!!"}}])

    def test_key_schema_mismatch_cancels(self):
        reasons = self.cancelled(self.ddb.transact_write_items, ["None", "ValidationError"],
                                 TransactItems=[put(self.t, {"pk": S("ok")}), put(self.t, {"pk": N(5)})])
        self.assertEqual(reasons[1]["Message"],
                         "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N")
        reasons = self.cancelled(self.ddb.transact_write_items, ["ValidationError"],
                                 TransactItems=[{"Update": {"TableName": self.t, "Key": {"pk": {"L": [S("x")]}},
                                                            "UpdateExpression": "SET a = :v",
                                                            "ExpressionAttributeValues": {":v": S("x")}}}])
        self.assertEqual(reasons[0]["Message"], "The provided key element does not match the schema")
        self.cancelled(self.ddb.transact_get_items, ["ValidationError"],
                       TransactItems=[{"Get": {"TableName": self.t, "Key": {}}}])
        self.assertIsNone(self.get("ok"))

    # ---- functionality --------------------------------------------------------------

    def test_all_actions_commit_together(self):
        self.ddb.put_item(TableName=self.t, Item={"pk": S("f-upd"), "n": N(1)})
        self.ddb.put_item(TableName=self.t, Item={"pk": S("f-del")})
        self.ddb.put_item(TableName=self.t, Item={"pk": S("f-chk"), "ok": {"BOOL": True}})
        resp = self.ddb.transact_write_items(TransactItems=[
            put(self.t, {"pk": S("f-new"), "v": N("2.50")}, ConditionExpression="attribute_not_exists(pk)"),
            {"Update": {"TableName": self.t, "Key": {"pk": S("f-upd")}, "UpdateExpression": "SET n = n + :d",
                        "ExpressionAttributeValues": {":d": N(41)}}},
            {"Delete": {"TableName": self.t, "Key": {"pk": S("f-del")}}},
            {"ConditionCheck": {"TableName": self.t, "Key": {"pk": S("f-chk")}, "ConditionExpression": "ok = :t",
                                "ExpressionAttributeValues": {":t": {"BOOL": True}}}},
            put(self.t2, {"pk": S("f"), "sk": N(1)}),
        ], ReturnConsumedCapacity="TOTAL")
        self.assertEqual(self.get("f-new"), {"pk": S("f-new"), "v": N("2.5")})
        self.assertEqual(self.get("f-upd")["n"], N(42))
        self.assertIsNone(self.get("f-del"))
        caps = {c["TableName"]: c["CapacityUnits"] for c in resp["ConsumedCapacity"]}
        self.assertEqual(caps, {self.t: 8.0, self.t2: 2.0})
        got = self.ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": self.t, "Key": {"pk": S("f-upd")}, "ProjectionExpression": "#n",
                     "ExpressionAttributeNames": {"#n": "n"}}},
            {"Get": {"TableName": self.t, "Key": {"pk": S("f-del")}}},
            {"Get": {"TableName": self.t2, "Key": {"pk": S("f"), "sk": N(1)}}},
        ], ReturnConsumedCapacity="TOTAL")
        self.assertEqual(got["Responses"], [{"Item": {"n": N(42)}}, {}, {"Item": {"pk": S("f"), "sk": N(1)}}])
        caps = {c["TableName"]: c["CapacityUnits"] for c in got["ConsumedCapacity"]}
        self.assertEqual(caps, {self.t: 4.0, self.t2: 2.0})

    def test_failed_condition_writes_nothing(self):
        self.ddb.put_item(TableName=self.t, Item={"pk": S("c-exists"), "a": S("old")})
        reasons = self.cancelled(self.ddb.transact_write_items, ["None", "ConditionalCheckFailed"], TransactItems=[
            put(self.t, {"pk": S("c-new")}, ConditionExpression="attribute_not_exists(pk)"),
            put(self.t, {"pk": S("c-exists"), "a": S("new")}, ConditionExpression="attribute_not_exists(pk)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD"),
        ])
        self.assertEqual(reasons[0], {"Code": "None"})
        self.assertEqual(reasons[1], {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
                                      "Item": {"pk": S("c-exists"), "a": S("old")}})
        self.assertIsNone(self.get("c-new"))
        self.assertEqual(self.get("c-exists")["a"], S("old"))
        # Every failing action is reported; an update error is a ValidationError.
        reasons = self.cancelled(self.ddb.transact_write_items, ["ConditionalCheckFailed", "ValidationError"],
                                 TransactItems=[
            {"ConditionCheck": {"TableName": self.t, "Key": {"pk": S("c-none")},
                                "ConditionExpression": "attribute_exists(pk)"}},
            {"Update": {"TableName": self.t, "Key": {"pk": S("c-exists")}, "UpdateExpression": "SET n = a + :one",
                        "ExpressionAttributeValues": {":one": N(1)}}},
        ])
        self.assertEqual(reasons[1]["Message"], "An operand in the update expression has an incorrect data type")

    def test_cli(self):
        items = [put(self.t, {"pk": S("cli-a"), "v": N(1)}), put(self.t, {"pk": S("cli-b"), "v": N(2)})]
        rc, out, err = self.server.aws("dynamodb", "transact-write-items", "--transact-items", json.dumps(items))
        self.assertEqual(rc, 0, err)
        gets = [{"Get": {"TableName": self.t, "Key": {"pk": S(k)}}} for k in ("cli-a", "cli-b")]
        rc, out, err = self.server.aws("dynamodb", "transact-get-items", "--transact-items", json.dumps(gets))
        self.assertEqual(rc, 0, err)
        self.assertEqual([r["Item"]["v"]["N"] for r in out["Responses"]], ["1", "2"])
        items[0]["Put"]["ConditionExpression"] = "attribute_not_exists(pk)"
        rc, out, err = self.server.aws("dynamodb", "transact-write-items", "--transact-items", json.dumps(items))
        self.assertNotEqual(rc, 0)
        self.assertIn("TransactionCanceledException", err)
        self.assertIn("[ConditionalCheckFailed, None]", err)

    # ---- proof 2: idempotency ----------------------------------------------------------

    def test_idempotent_retry_writes_once(self):
        self.ddb.put_item(TableName=self.t, Item={"pk": S("idem"), "n": N(0)})
        req = dict(TransactItems=[{"Update": {"TableName": self.t, "Key": {"pk": S("idem")},
                                              "UpdateExpression": "ADD n :one",
                                              "ExpressionAttributeValues": {":one": N(1)}}}],
                   ClientRequestToken="token-idem-1", ReturnConsumedCapacity="TOTAL")
        first = self.ddb.transact_write_items(**req)
        second = self.ddb.transact_write_items(**req)
        self.assertEqual(first["ConsumedCapacity"], second["ConsumedCapacity"])
        self.assertEqual(self.get("idem")["n"], N(1))
        # The same token with another request is refused and writes nothing.
        other = json.loads(json.dumps(req))
        other["TransactItems"][0]["Update"]["ExpressionAttributeValues"][":one"] = N(5)
        self.assertClientError(self.ddb.transact_write_items, "IdempotentParameterMismatchException", **other)
        self.assertEqual(self.get("idem")["n"], N(1))
        # Another token runs again.
        req["ClientRequestToken"] = "token-idem-2"
        self.ddb.transact_write_items(**req)
        self.assertEqual(self.get("idem")["n"], N(2))
        # A cancelled transaction leaves no token behind: its retry runs.
        cond = dict(TransactItems=[put(self.t, {"pk": S("idem-c")}, ConditionExpression="attribute_exists(pk)")],
                    ClientRequestToken="token-idem-3")
        self.assertClientError(self.ddb.transact_write_items, "TransactionCanceledException", **cond)
        self.ddb.put_item(TableName=self.t, Item={"pk": S("idem-c"), "x": S("1")})
        self.ddb.transact_write_items(**cond)
        self.assertEqual(self.get("idem-c"), {"pk": S("idem-c")})

    # ---- proof 1: bank transfer ---------------------------------------------------------

    def test_bank_transfer(self):
        table = "tx-bank"
        create(self.ddb, table)
        accounts, start = 10, 1000
        total = accounts * start
        self.ddb.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": S("acct%d" % i), "balance": N(start)}}} for i in range(accounts)]})
        clients, per_client = 8, 300
        stop = threading.Event()
        errors, committed, cancelled, snapshots = [], [0], [0], [0]
        lock = threading.Lock()
        keys = [{"Get": {"TableName": table, "Key": {"pk": S("acct%d" % i)}}} for i in range(accounts)]

        def transfer(seed):
            ddb = self.server.client()
            rnd = random.Random(seed)
            try:
                for _ in range(per_client):
                    a, b = rnd.sample(range(accounts), 2)
                    amount = rnd.randint(1, 300)
                    try:
                        ddb.transact_write_items(TransactItems=[
                            {"Update": {"TableName": table, "Key": {"pk": S("acct%d" % a)},
                                        "UpdateExpression": "SET balance = balance - :x",
                                        "ConditionExpression": "balance >= :x",
                                        "ExpressionAttributeValues": {":x": N(amount)}}},
                            {"Update": {"TableName": table, "Key": {"pk": S("acct%d" % b)},
                                        "UpdateExpression": "SET balance = balance + :x",
                                        "ExpressionAttributeValues": {":x": N(amount)}}},
                        ])
                        with lock:
                            committed[0] += 1
                    except ClientError as e:
                        if e.response["Error"]["Code"] != "TransactionCanceledException":
                            raise
                        with lock:
                            cancelled[0] += 1
            except BaseException as e:
                errors.append(e)

        def audit():
            ddb = self.server.client()
            try:
                while not stop.is_set():
                    got = ddb.transact_get_items(TransactItems=keys)["Responses"]
                    balances = [int(r["Item"]["balance"]["N"]) for r in got]
                    if sum(balances) != total or min(balances) < 0:
                        errors.append(AssertionError("snapshot saw %r" % balances))
                        return
                    snapshots[0] += 1
            except BaseException as e:
                errors.append(e)

        auditors = [threading.Thread(target=audit) for _ in range(2)]
        workers = [threading.Thread(target=transfer, args=(i,)) for i in range(clients)]
        for t in auditors + workers:
            t.start()
        for t in workers:
            t.join(timeout=120)
        stop.set()
        for t in auditors:
            t.join(timeout=30)
        print("\nbank: committed=%d cancelled=%d snapshots=%d" % (committed[0], cancelled[0], snapshots[0]))
        self.assertEqual(errors, [])
        self.assertEqual(committed[0] + cancelled[0], clients * per_client)
        self.assertGreater(committed[0], clients * per_client // 2)
        self.assertGreater(snapshots[0], 10)
        items = self.ddb.batch_get_item(RequestItems={table: {"Keys": [k["Get"]["Key"] for k in keys],
                                                               "ConsistentRead": True}})["Responses"][table]
        balances = [int(i["balance"]["N"]) for i in items]
        self.assertEqual(len(balances), accounts)
        self.assertEqual(sum(balances), total)
        self.assertGreaterEqual(min(balances), 0)


class KillDuringTransactionsTest(unittest.TestCase):
    """Proof 3: kill -9 while transactions stream in; each is all or nothing after restart."""

    def test_kill_9_mid_stream(self):
        server = Server()
        server.start()
        try:
            ddb = server.client()
            create(ddb, "tx-kill")
            create(ddb, "tx-kill2", "sk")
            stop = threading.Event()
            acked = set()
            lock = threading.Lock()

            def writer(w):
                c = server.client()
                n = 0
                while not stop.is_set():
                    txid = "w%d-%d" % (w, n)
                    try:
                        c.transact_write_items(TransactItems=[
                            put("tx-kill", {"pk": S(txid + "-a"), "tx": S(txid)}),
                            put("tx-kill", {"pk": S(txid + "-b"), "tx": S(txid)}),
                            put("tx-kill2", {"pk": S(txid), "sk": N(1), "tx": S(txid)}),
                            {"Update": {"TableName": "tx-kill2", "Key": {"pk": S("counter"), "sk": N(w)},
                                        "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": N(1)}}},
                        ])
                        with lock:
                            acked.add(txid)
                    except Exception:
                        return  # the server is gone
                    n += 1

            threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
            for t in threads:
                t.start()
            time.sleep(1.5)
            # More than 10 acknowledged before the kill, however slow the machine.
            deadline = time.monotonic() + 60
            while len(acked) <= 10:
                self.assertLess(time.monotonic(), deadline, "10 transactions not acknowledged within 60 s")
                time.sleep(0.01)
            server.kill()
            stop.set()
            for t in threads:
                t.join(timeout=30)
            server.start()
            ddb = server.client()

            def scan(table):
                items, start = [], None
                while True:
                    kw = {"TableName": table, "ConsistentRead": True}
                    if start:
                        kw["ExclusiveStartKey"] = start
                    r = ddb.scan(**kw)
                    items += r["Items"]
                    start = r.get("LastEvaluatedKey")
                    if not start:
                        return items

            try:
                a_items, b_items = scan("tx-kill"), scan("tx-kill2")
            except ClientError:  # Scan not there yet: read what was acknowledged, plus one more per writer
                a_items = b_items = None
            if a_items is not None:
                parts = {}
                for it in a_items:
                    parts.setdefault(it["tx"]["S"], set()).add(it["pk"]["S"][-1])
                for it in b_items:
                    if "tx" in it:
                        parts.setdefault(it["tx"]["S"], set()).add("c")
                for txid, got in parts.items():
                    self.assertEqual(got, {"a", "b", "c"}, "transaction %s half present" % txid)
                counters = {int(it["sk"]["N"]): int(it["n"]["N"]) for it in b_items if it["pk"]["S"] == "counter"}
                for w, n in counters.items():
                    present = sum(1 for t in parts if t.startswith("w%d-" % w))
                    self.assertEqual(n, present, "writer %d: counter and items disagree" % w)
                self.assertTrue(acked <= set(parts), "acknowledged transactions lost")
            else:
                for txid in sorted(acked) + ["w%d-%d" % (w, n) for w in range(4) for n in range(0, 2000, 97)]:
                    got = ddb.transact_get_items(TransactItems=[
                        {"Get": {"TableName": "tx-kill", "Key": {"pk": S(txid + "-a")}}},
                        {"Get": {"TableName": "tx-kill", "Key": {"pk": S(txid + "-b")}}},
                        {"Get": {"TableName": "tx-kill2", "Key": {"pk": S(txid), "sk": N(1)}}},
                    ])["Responses"]
                    present = ["Item" in r for r in got]
                    self.assertIn(present, ([True] * 3, [False] * 3), "transaction %s half present" % txid)
                    if txid in acked:
                        self.assertEqual(present, [True] * 3, "acknowledged %s lost" % txid)
            print("\nkill: acked=%d scan=%s" % (len(acked), a_items is not None))
            self.assertGreater(len(acked), 10)
        finally:
            server.cleanup()


if __name__ == "__main__":
    unittest.main()
