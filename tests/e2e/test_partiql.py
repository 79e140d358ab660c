"""PartiQL (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction)
against the real binary, with boto3 and the AWS CLI.

Covers every statement form, parameters, DynamoDB's errors, paging, the
cross-check that a PartiQL SELECT and the equivalent Query or Scan return the
same items in the same order page for page, writes through the one write
path (indexes), transactions (all or nothing, reasons in statement order,
ClientRequestToken), and hostile statements answered at once.

Run: cd tests/e2e && python3 -m unittest -v test_partiql
"""

import json
import time
import unittest

from harness import ServerTestCase

MALFORMED = "Statement wasn't well formed, can't be processed: "
CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons [%s]"


def S(s):
    return {"S": s}


def N(n):
    return {"N": str(n)}


class PartiqlTest(ServerTestCase):
    SERVER_ARGS = {"in_memory": True}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        ddb = cls.ddb
        # hash-only table, and one with a numeric sort key and a GSI on "g".
        ddb.create_table(TableName="pqt", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        ddb.create_table(
            TableName="pqr", BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            GlobalSecondaryIndexes=[{"IndexName": "byg",
                                     "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        for p in ("a", "b", "c"):
            for i in range(30):
                ddb.put_item(TableName="pqr", Item={"pk": S(p), "sk": N(i), "g": S("g%d" % (i % 3)),
                                                    "v": N(i * 10), "filler": S("x" * 200)})

    def run_st(self, statement, params=None, **kw):
        args = dict(Statement=statement, **kw)
        if params is not None:
            args["Parameters"] = params
        return self.ddb.execute_statement(**args)

    def st_error(self, statement, code, message=None, params=None, **kw):
        args = dict(Statement=statement, **kw)
        if params is not None:
            args["Parameters"] = params
        return self.assertClientError(self.ddb.execute_statement, code, message, **args)

    # ---- single statements -----------------------------------------------------

    def test_insert_select_update_delete(self):
        r = self.run_st("INSERT INTO \"pqt\" VALUE {'pk': 'k1', 'n': 1.50, 'l': [1, 'a'], 'm': {'x': true}, "
                        "'ss': <<'a', 'b'>>}")
        self.assertEqual(r["Items"], [])
        item = self.ddb.get_item(TableName="pqt", Key={"pk": S("k1")})["Item"]
        self.assertEqual(item["n"], N("1.5"))
        self.assertEqual(item["m"], {"M": {"x": {"BOOL": True}}})
        self.assertEqual(sorted(item["ss"]["SS"]), ["a", "b"])
        self.st_error("INSERT INTO pqt VALUE {'pk': 'k1'}", "DuplicateItemException",
                      "Duplicate primary key exists in table")
        items = self.run_st("SELECT pk, n FROM pqt WHERE pk = 'k1'")["Items"]
        self.assertEqual(items, [{"pk": S("k1"), "n": N("1.5")}])
        # A nested path's value comes under its last element's name, as
        # today's DynamoDB answers (not nested as a ProjectionExpression's).
        items = self.run_st("SELECT m.x, l[1], pk FROM pqt WHERE pk = 'k1'")["Items"]
        self.assertEqual(items, [{"x": {"BOOL": True}, "l": S("a"), "pk": S("k1")}])
        r = self.ddb.batch_execute_statement(Statements=[{"Statement": "SELECT m.x FROM pqt WHERE pk = 'k1'"}])
        self.assertEqual(r["Responses"][0]["Item"], {"x": {"BOOL": True}})
        r = self.run_st("UPDATE pqt SET n = n + 1, z = ? REMOVE l SET ss = set_add(ss, <<'c'>>) "
                        "WHERE pk = 'k1' RETURNING ALL NEW *", [S("zed")])
        self.assertEqual(r["Items"][0]["n"], N("2.5"))
        self.assertEqual(r["Items"][0]["z"], S("zed"))
        self.assertNotIn("l", r["Items"][0])
        self.assertEqual(sorted(r["Items"][0]["ss"]["SS"]), ["a", "b", "c"])
        r = self.run_st("UPDATE pqt SET n = 7 WHERE pk = 'k1' RETURNING MODIFIED OLD *")
        self.assertEqual(r["Items"], [{"n": N("2.5")}])
        # A failed WHERE condition on a write, and an UPDATE of a missing item.
        self.st_error("UPDATE pqt SET n = 8 WHERE pk = 'k1' AND n > 100", "ConditionalCheckFailedException")
        self.st_error("UPDATE pqt SET n = 8 WHERE pk = 'nope'", "ConditionalCheckFailedException")
        self.assertIsNone(self.ddb.get_item(TableName="pqt", Key={"pk": S("nope")}).get("Item"))
        resp = self.st_error("DELETE FROM pqt WHERE pk = 'k1' AND n = 0", "ConditionalCheckFailedException",
                             ReturnValuesOnConditionCheckFailure="ALL_OLD")
        self.assertEqual(resp["Item"]["n"], N("7"))
        r = self.run_st("DELETE FROM pqt WHERE pk = 'k1' RETURNING ALL OLD *")
        self.assertEqual(r["Items"][0]["n"], N("7"))
        self.assertEqual(self.run_st("DELETE FROM pqt WHERE pk = 'k1'")["Items"], [])
        self.assertEqual(self.run_st("SELECT * FROM pqt WHERE pk = 'k1'")["Items"], [])

    def test_where_forms(self):
        def pks(statement, params=None):
            return [i["sk"]["N"] for i in self.run_st(statement, params)["Items"]]
        self.assertEqual(pks("SELECT * FROM pqr WHERE pk = 'a' AND sk BETWEEN 3 AND 5"), ["3", "4", "5"])
        self.assertEqual(pks("SELECT * FROM pqr WHERE pk = 'a' AND sk < 2 ORDER BY sk DESC"), ["1", "0"])
        self.assertEqual(pks("SELECT * FROM pqr WHERE pk = ? AND sk IN [1, 2] AND v >= ?", [S("b"), N(20)]), ["2"])
        self.assertEqual(pks("SELECT * FROM pqr WHERE pk = 'a' AND (sk = 1 OR sk = 29) AND NOT v = 10"), ["29"])
        self.assertEqual(pks("SELECT * FROM pqr WHERE pk = 'a' AND sk > 26 AND filler IS NOT MISSING "
                             "AND nothere IS MISSING AND begins_with(filler, 'xx') AND size(filler) = 200 "
                             "AND attribute_type(v, 'N')"), ["27", "28", "29"])
        self.assertEqual(len(self.run_st("SELECT * FROM pqr WHERE pk IN ['a', 'c'] AND sk = 4")["Items"]), 2)
        got = self.run_st("SELECT pk, sk FROM pqr WHERE pk IN ['c', 'a'] AND sk = 4 ORDER BY pk DESC")["Items"]
        self.assertEqual([i["pk"]["S"] for i in got], ["c", "a"])
        # Through an index.
        got = self.run_st("SELECT * FROM \"pqr\".\"byg\" WHERE g = 'g1' AND pk = 'b'")["Items"]
        self.assertEqual(sorted(int(i["sk"]["N"]) for i in got), list(range(1, 30, 3)))

    def test_cross_check_with_query_and_scan_page_for_page(self):
        # Query: a partition, 7 items evaluated per page.
        q_pages, p_pages = [], []
        kw = {}
        while True:
            r = self.ddb.query(TableName="pqr", KeyConditionExpression="pk = :p", Limit=7,
                               ExpressionAttributeValues={":p": S("b")}, **kw)
            q_pages.append(r["Items"])
            if "LastEvaluatedKey" not in r:
                break
            kw = {"ExclusiveStartKey": r["LastEvaluatedKey"]}
        kw = {}
        while True:
            r = self.run_st("SELECT * FROM pqr WHERE pk = 'b'", Limit=7, **kw)
            p_pages.append(r["Items"])
            if "NextToken" not in r:
                break
            kw = {"NextToken": r["NextToken"]}
        # The last Query page may be empty where PartiQL knows it is done.
        self.assertEqual([p for p in q_pages if p], [p for p in p_pages if p])
        # Scan with a filter: 1 MB pages and Limit both.
        for limit in (None, 11):
            s_pages, p_pages = [], []
            kw = {} if limit is None else {"Limit": limit}
            while True:
                r = self.ddb.scan(TableName="pqr", FilterExpression="v >= :v",
                                  ExpressionAttributeValues={":v": N(100)}, **kw)
                s_pages.append(r["Items"])
                if "LastEvaluatedKey" not in r:
                    break
                kw["ExclusiveStartKey"] = r["LastEvaluatedKey"]
            kw = {} if limit is None else {"Limit": limit}
            while True:
                r = self.run_st("SELECT * FROM pqr WHERE v >= 100", **kw)
                p_pages.append(r["Items"])
                if "NextToken" not in r:
                    break
                kw["NextToken"] = r["NextToken"]
            self.assertEqual(s_pages, p_pages)
        self.assertEqual(sum(len(p) for p in p_pages), 3 * 20)

    def test_one_megabyte_pages(self):
        t = self.create_table()
        big = "y" * 100000
        for i in range(25):
            self.ddb.put_item(TableName=t, Item={"pk": S("p%02d" % i), "big": S(big)})
        pages, kw = [], {}
        while True:
            r = self.run_st('SELECT pk FROM "%s"' % t, **kw)
            pages.append(len(r["Items"]))
            if "NextToken" not in r:
                break
            kw = {"NextToken": r["NextToken"]}
        self.assertGreater(len(pages), 2)
        self.assertEqual(sum(pages), 25)
        self.st_error('SELECT pk FROM "%s"' % t, "ValidationException", "NextToken does not match request",
                      NextToken=self.run_st('SELECT * FROM "%s"' % t)["NextToken"])

    def test_consumed_capacity_and_index_writes(self):
        r = self.run_st("INSERT INTO pqr VALUE {'pk': 'w', 'sk': 1, 'g': 'gw'}", ReturnConsumedCapacity="TOTAL")
        self.assertEqual(r["ConsumedCapacity"]["TableName"], "pqr")
        got = self.ddb.query(TableName="pqr", IndexName="byg", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": S("gw")})["Items"]
        self.assertEqual(len(got), 1)
        self.run_st("UPDATE pqr SET g = 'gx' WHERE pk = 'w' AND sk = 1")
        got = self.ddb.query(TableName="pqr", IndexName="byg", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": S("gx")})["Items"]
        self.assertEqual(len(got), 1)
        self.run_st("DELETE FROM pqr WHERE pk = 'w' AND sk = 1")
        got = self.ddb.query(TableName="pqr", IndexName="byg", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": S("gx")})["Items"]
        self.assertEqual(got, [])
        r = self.run_st("SELECT * FROM pqr WHERE pk = 'a' AND sk = 1", ReturnConsumedCapacity="TOTAL",
                        ConsistentRead=True)
        self.assertEqual(r["ConsumedCapacity"]["CapacityUnits"], 1.0)

    # ---- errors ----------------------------------------------------------------------

    def test_errors(self):
        self.st_error("SELECT * FROM pqt WHERE pk = 1 foo", "ValidationException",
                      MALFORMED + "Unexpected token after expression")
        self.st_error("GRANT ALL", "ValidationException", MALFORMED + "Expected data manipulation")
        self.st_error("SELECT * FROM \"pqt\" t WHERE pk = 'x'", "ValidationException", "Aliasing is not supported")
        self.st_error("SELECT * FROM pqt WHERE pk = ?", "ValidationException",
                      "Number of parameters in request and statement don't match.")
        self.st_error("SELECT * FROM nosuch", "ResourceNotFoundException")
        self.st_error("UPDATE pqt SET a = 1 WHERE a = 2", "ValidationException",
                      "Where clause does not contain a mandatory equality on all key attributes")
        self.st_error("SELECT * FROM pqr ORDER BY sk", "ValidationException",
                      "Must have WHERE clause in the statement when using ORDER BY clause.")
        self.st_error("SELECT * FROM pqr WHERE v = 1 ORDER BY sk", "ValidationException",
                      "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY "
                      "clause.")
        self.st_error("SELECT * FROM pqr WHERE pk = 'a' ORDER BY v", "ValidationException",
                      "Variable reference v in ORDER BY clause must be part of the primary key")
        self.st_error("EXISTS(SELECT * FROM pqt WHERE pk = 'a' AND v = 1)", "ValidationException",
                      "EXISTS can only be used in ExecuteTransaction write requests.")
        self.st_error("SELECT * FROM pqt WHERE pk = 1e126", "ValidationException",
                      "Number overflow. Attempting to store a number with magnitude larger than supported range "
                      "under root")
        self.st_error("SELECT * FROM pqt", "ValidationException", NextToken="garbage")
        status, body = self.server.call("ExecuteStatement", {"Statement": "x" * 8193})
        self.assertEqual(status, 400)
        self.assertIn("Member must have length less than or equal to 8192", body["message"])
        status, body = self.server.call("ExecuteStatement", {})
        self.assertIn("Value null at 'statement' failed to satisfy constraint", body["message"])

    def test_hostile_statements(self):
        hostile = [
            "SELECT * FROM pqt WHERE " + "(" * 4000 + "pk = 'a'" + ")" * 4000,
            "SELECT * FROM pqt WHERE " + "NOT " * 2000 + "pk = 'a'",
            "INSERT INTO pqt VALUE {'pk': 'h', 'l': " + "[" * 3000 + "]" * 3000 + "}",
            "SELECT * FROM pqt WHERE pk IN [" + ", ".join("'%d'" % i for i in range(1000)) + "]",
            "SELECT * FROM pqt WHERE pk = '" + "a" * 8000,
            "SELECT * FROM pqt WHERE pk = 'a' /* " + "b" * 8000,
            "INSERT INTO pqt VALUE {'pk': 'h', 'm': " + "{'a': " * 60 + "1" + "}" * 60 + "}",
        ]
        for st in hostile:
            start = time.monotonic()
            self.st_error(st, "ValidationException")
            # No exponential blow-up: a refusal takes milliseconds; 10 s is
            # over 100 times that on a busy machine, and far below what a
            # blow-up on thousands of nested levels would take.
            self.assertLess(time.monotonic() - start, 10.0)
            self.assertServing()

    # ---- batches -------------------------------------------------------------------

    def test_batch_execute_statement(self):
        r = self.ddb.batch_execute_statement(Statements=[
            {"Statement": "INSERT INTO pqt VALUE {'pk': 'b1', 'v': 1}"},
            {"Statement": "INSERT INTO pqt VALUE {'pk': 'b1', 'v': 2}"},
            {"Statement": "UPDATE pqt SET v = 5 WHERE pk = 'b2'"},
            {"Statement": "INSERT INTO pqt VALUE {'pk': ?}", "Parameters": [S("b3")]},
            {"Statement": "SELECT * FROM"},
        ])["Responses"]
        self.assertEqual(r[0], {"TableName": "pqt"})
        self.assertEqual(r[1]["Error"]["Code"], "DuplicateItem")
        self.assertEqual(r[1]["Error"]["Message"], "Duplicate primary key exists in table")
        self.assertEqual(r[2]["Error"]["Code"], "ConditionalCheckFailed")
        self.assertEqual(r[3], {"TableName": "pqt"})
        self.assertEqual(r[4]["Error"]["Code"], "ValidationError")
        r = self.ddb.batch_execute_statement(Statements=[
            {"Statement": "SELECT * FROM pqt WHERE pk = 'b1'"},
            {"Statement": "SELECT v FROM pqt WHERE pk = ?", "Parameters": [S("b1")]},
            {"Statement": "SELECT * FROM pqt WHERE pk = 'missing'"},
            {"Statement": "SELECT * FROM pqt WHERE v = 1"},
        ])["Responses"]
        self.assertEqual(r[0]["Item"], {"pk": S("b1"), "v": N(1)})
        self.assertEqual(r[1]["Item"], {"v": N(1)})
        self.assertEqual(r[2], {"TableName": "pqt"})
        self.assertEqual(r[3]["Error"]["Message"],
                         "Select statements within BatchExecuteStatement must specify the primary key in the "
                         "where clause.")
        self.assertClientError(self.ddb.batch_execute_statement, "ValidationException", Statements=[
            {"Statement": "SELECT * FROM pqt WHERE pk = 'b1'"},
            {"Statement": "DELETE FROM pqt WHERE pk = 'b1'"}])
        status, body = self.server.call("BatchExecuteStatement", {"Statements": [
            {"Statement": "SELECT * FROM pqt WHERE pk = 'x'"}] * 26})
        self.assertIn("Member must have length less than or equal to 25", body["message"])

    # ---- transactions -------------------------------------------------------------

    def test_execute_transaction(self):
        self.ddb.put_item(TableName="pqt", Item={"pk": S("t1"), "v": N(1)})
        self.ddb.put_item(TableName="pqt", Item={"pk": S("t0"), "v": N(1)})
        r = self.ddb.execute_transaction(TransactStatements=[
            {"Statement": "UPDATE pqt SET v = v + 1 WHERE pk = 't1'"},
            {"Statement": "INSERT INTO pqt VALUE {'pk': 't2', 'v': 10}"},
            {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 't0' AND v = 1)"},
        ], ReturnConsumedCapacity="TOTAL")
        self.assertEqual(r["Responses"], [])
        self.assertEqual(r["ConsumedCapacity"][0]["TableName"], "pqt")
        self.assertEqual(self.ddb.get_item(TableName="pqt", Key={"pk": S("t1")})["Item"]["v"], N(2))
        # All or nothing, reasons in statement order.
        resp = self.assertClientError(
            self.ddb.execute_transaction, "TransactionCanceledException",
            CANCELLED % "None, DuplicateItem, ConditionalCheckFailed",
            TransactStatements=[
                {"Statement": "UPDATE pqt SET v = 100 WHERE pk = 't1'"},
                {"Statement": "INSERT INTO pqt VALUE {'pk': 't2'}"},
                {"Statement": "DELETE FROM pqt WHERE pk = 't3' AND v = 1"},
            ])
        self.assertEqual([x["Code"] for x in resp["CancellationReasons"]],
                         ["None", "DuplicateItem", "ConditionalCheckFailed"])
        self.assertEqual(self.ddb.get_item(TableName="pqt", Key={"pk": S("t1")})["Item"]["v"], N(2))
        # Reads.
        r = self.ddb.execute_transaction(TransactStatements=[
            {"Statement": "SELECT v FROM pqt WHERE pk = 't1'"},
            {"Statement": "SELECT * FROM pqt WHERE pk = ?", "Parameters": [S("t2")]},
        ])
        self.assertEqual(r["Responses"][0]["Item"], {"v": N(2)})
        self.assertEqual(r["Responses"][1]["Item"]["v"], N(10))
        self.assertClientError(
            self.ddb.execute_transaction, "ValidationException",
            "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must "
            "specify the primary key in the where clause.",
            TransactStatements=[{"Statement": "SELECT * FROM pqt WHERE pk = 't1' AND attribute_exists(v)"}])
        # ClientRequestToken: a retry writes once.
        st = [{"Statement": "UPDATE pqt SET v = v + 1 WHERE pk = 't2'"}]
        self.ddb.execute_transaction(TransactStatements=st, ClientRequestToken="tok-1")
        self.ddb.execute_transaction(TransactStatements=st, ClientRequestToken="tok-1")
        self.assertEqual(self.ddb.get_item(TableName="pqt", Key={"pk": S("t2")})["Item"]["v"], N(11))
        self.assertClientError(self.ddb.execute_transaction, "IdempotentParameterMismatchException",
                               TransactStatements=[{"Statement": "UPDATE pqt SET v = 0 WHERE pk = 't2'"}],
                               ClientRequestToken="tok-1")

    def test_failure_items_and_parameter_paging(self):
        self.ddb.put_item(TableName="pqt", Item={"pk": S("f1"), "v": N(5)})
        resp = self.assertClientError(
            self.ddb.execute_transaction, "TransactionCanceledException", CANCELLED % "ConditionalCheckFailed",
            TransactStatements=[{"Statement": "UPDATE pqt SET v = 6 WHERE pk = 'f1' AND v = 0",
                                 "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}])
        self.assertEqual(resp["CancellationReasons"][0]["Item"], {"pk": S("f1"), "v": N(5)})
        r = self.ddb.batch_execute_statement(Statements=[
            {"Statement": "DELETE FROM pqt WHERE pk = 'f1' AND v = 0",
             "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}])["Responses"]
        self.assertEqual(r[0]["Error"]["Code"], "ConditionalCheckFailed")
        self.assertEqual(r[0]["Error"]["Item"], {"pk": S("f1"), "v": N(5)})
        # A NextToken resumes the same statement with the same map parameter.
        m = {"M": {"a": N(1), "b": N(2), "c": N(3)}}
        first = self.run_st("SELECT * FROM pqr WHERE pk = 'c' AND m <> ?", [m], Limit=5)
        nxt = self.run_st("SELECT * FROM pqr WHERE pk = 'c' AND m <> ?", [m], Limit=5,
                          NextToken=first["NextToken"])
        self.assertEqual(nxt["Items"][0]["sk"], N(5))
        self.st_error("SELECT * FROM pqr WHERE pk = 'c' AND m <> ?", "ValidationException",
                      "NextToken does not match request", params=[N(1)], NextToken=first["NextToken"])

    # ---- the AWS CLI ---------------------------------------------------------------

    def test_aws_cli(self):
        rc, out, err = self.server.aws("dynamodb", "execute-statement", "--statement",
                                       "INSERT INTO pqt VALUE {'pk': 'cli', 'v': 3}")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "execute-statement", "--statement",
                                       "SELECT * FROM pqt WHERE pk = ?", "--parameters", '[{"S": "cli"}]')
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Items"], [{"pk": S("cli"), "v": N(3)}])
        rc, out, err = self.server.aws("dynamodb", "batch-execute-statement", "--statements",
                                       json.dumps([{"Statement": "SELECT * FROM pqt WHERE pk = 'cli'"}]))
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Responses"][0]["Item"]["v"], N(3))
        rc, out, err = self.server.aws("dynamodb", "execute-transaction", "--transact-statements",
                                       json.dumps([{"Statement": "DELETE FROM pqt WHERE pk = 'cli'"}]))
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "execute-statement", "--statement", "SELECT * FROM pqt t")
        self.assertNotEqual(rc, 0)
        self.assertIn("Aliasing is not supported", err)


if __name__ == "__main__":
    unittest.main()
