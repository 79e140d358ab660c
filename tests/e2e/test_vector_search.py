"""SearchVectors (issue 27) end to end: the exact top K under each distance
function against a brute-force reference computed here in double precision
over the 32-bit floats the index keeps (equal scores in key order, pogi's
documented tie-break); partitions (HASH) and filters (INLINE_FILTER);
projections; writes, deletes and moves changing the answer at once;
backup and point-in-time restores searchable again; ConsumedCapacity; bad
input with DynamoDB's errors while the server keeps serving; the gRPC door;
the AWS SDK for JavaScript v3 (botocore 1.43 has no SearchVectors, so the
Python side signs its own requests: vector_fixture.signed_call); and, on
PostgreSQL, a search through one process seeing another process's writes."""

import random
import unittest

import grpc_client
from harness import POSTGRESQL, Server, ServerTestCase, run_pogi
from harness import run_js
from vector_fixture import (as_list, as_search_vector, f32, reference, signed_call, vector_index)

FUNCTIONS = ("COSINE", "EUCLIDEAN", "DOT_PRODUCT")
DIMS = 8


def make_vectors(seed, n):
    rng = random.Random(seed)
    vectors = {}
    for i in range(n):
        key = "k%03d" % i
        if i % 17 == 5:  # an exact copy and a doubled copy: equal scores
            vectors[key] = list(vectors["k%03d" % (i - 1)])
        elif i % 17 == 6:
            vectors[key] = [2 * x for x in vectors["k%03d" % (i - 2)]]
        else:
            vectors[key] = [rng.uniform(-1, 1) for _ in range(DIMS)]
    return vectors


class VectorSearchTest(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--clock-frozen"]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = cls.unique("docs")
        status, body = signed_call(cls.server, "CreateTable", {
            "TableName": cls.table, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "tenant", "AttributeType": "S"},
                                     {"AttributeName": "color", "AttributeType": "S"},
                                     {"AttributeName": "year", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [vector_index("by-" + f.lower(), "emb", DIMS, f) for f in FUNCTIONS] + [
                vector_index("by-tenant", "emb", DIMS, "EUCLIDEAN",
                             projection={"ProjectionType": "KEYS_ONLY"},
                             schema=[("tenant", "HASH"), ("color", "INLINE_FILTER"), ("year", "INLINE_FILTER")])]})
        assert status == 200, body
        cls.vectors = make_vectors(1, 120)
        requests = []
        for i, (key, vec) in enumerate(cls.vectors.items()):
            requests.append({"PutRequest": {"Item": cls.item(key, vec, i)}})
        for start in range(0, len(requests), 25):
            cls.ddb.batch_write_item(RequestItems={cls.table: requests[start:start + 25]})

    @staticmethod
    def item(key, vec, i):
        return {"pk": {"S": key}, "emb": as_list(vec), "title": {"S": "title " + key},
                "tenant": {"S": "t%d" % (i % 3)}, "color": {"S": ("red", "blue")[i % 2]},
                "year": {"N": str(2020 + i % 4)}}

    def search(self, index, query, top_k=10, status=200, table=None, **extra):
        payload = {"TableName": table or self.table, "IndexName": index, "SearchVector": as_search_vector(query),
                   "TopK": top_k}
        payload.update(extra)
        got, body = signed_call(self.server, "SearchVectors", payload)
        self.assertEqual(got, status, body)
        return body

    def assertRanking(self, hits, expected):
        self.assertEqual([h["Item"]["pk"]["S"] for h in hits], [k for k, _ in expected])
        for h, (_, score) in zip(hits, expected):
            self.assertAlmostEqual(h["Score"], score, delta=1e-9 * max(1.0, abs(score)))

    def refused(self, body, message, error="ValidationException"):
        self.assertEqual(body["__type"].split("#")[-1], error, body)
        self.assertEqual(body.get("message") or body.get("Message"), message)

    def test_each_distance_function_matches_the_reference(self):
        rng = random.Random(2)
        queries = [[rng.uniform(-1, 1) for _ in range(DIMS)] for _ in range(3)] + [self.vectors["k004"]]
        for f in FUNCTIONS:
            for q in queries:
                for k in (1, 10, 100):
                    body = self.search("by-" + f.lower(), q, top_k=k)
                    self.assertRanking(body["SearchResults"], reference(f, q, self.vectors, k))
        # A vector scores exactly 0 against itself under COSINE and EUCLIDEAN,
        # and its copies tie with it, in key order.
        hits = self.search("by-cosine", self.vectors["k004"], top_k=3)["SearchResults"]
        self.assertEqual([(h["Item"]["pk"]["S"], h["Score"]) for h in hits],
                         [("k004", 0.0), ("k005", 0.0), ("k006", 0.0)])

    def test_partitions_and_filters(self):
        q = [0.5] * DIMS
        t1 = {k: v for i, (k, v) in enumerate(self.vectors.items()) if i % 3 == 1}
        body = self.search("by-tenant", q, top_k=100, SearchConditionExpression="tenant = :t",
                           ExpressionAttributeValues={":t": {"S": "t1"}})
        self.assertRanking(body["SearchResults"], reference("EUCLIDEAN", q, t1, 100))
        red_2021 = {k: v for i, (k, v) in enumerate(self.vectors.items())
                    if i % 3 == 1 and i % 2 == 0 and 2020 + i % 4 == 2022}
        body = self.search("by-tenant", q, top_k=5,
                           SearchConditionExpression="#y = :y AND tenant = :t AND color = :c",
                           ExpressionAttributeNames={"#y": "year"},
                           ExpressionAttributeValues={":t": {"S": "t1"}, ":c": {"S": "red"}, ":y": {"N": "2022.0"}})
        self.assertRanking(body["SearchResults"], reference("EUCLIDEAN", q, red_2021, 5))
        # KEYS_ONLY: the table key and the search schema's attributes.
        self.assertEqual(sorted(body["SearchResults"][0]["Item"]), ["color", "pk", "tenant", "year"])
        self.assertEqual(self.search("by-tenant", q, SearchConditionExpression="tenant = :t",
                                     ExpressionAttributeValues={":t": {"S": "nobody"}})["SearchResults"], [])

    def test_projection(self):
        q = self.vectors["k010"]
        hit = self.search("by-euclidean", q, top_k=1)["SearchResults"][0]
        # ALL, but the vector is left out unless asked for.
        self.assertEqual(sorted(hit["Item"]), ["color", "pk", "tenant", "title", "year"])
        hit = self.search("by-euclidean", q, top_k=1, ProjectionExpression="pk, emb, nothing")["SearchResults"][0]
        self.assertEqual(sorted(hit["Item"]), ["emb", "pk"])
        # The vector as the index keeps it: each number the shortest text of its 32-bit float.
        self.assertEqual([f32(float(n["N"])) for n in hit["Item"]["emb"]["L"]], [f32(x) for x in q])
        self.assertLessEqual(max(len(n["N"]) for n in hit["Item"]["emb"]["L"]), 12)
        # An attribute the index does not project is silently left out.
        hit = self.search("by-tenant", q, top_k=1, ProjectionExpression="pk, title, emb",
                          SearchConditionExpression="tenant = :t",
                          ExpressionAttributeValues={":t": {"S": "t1"}})["SearchResults"][0]
        self.assertEqual(sorted(hit["Item"]), ["pk"])

    def test_writes_change_the_answer(self):
        name = self.unique()
        status, body = signed_call(self.server, "CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "tenant", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [vector_index("vix", "emb", 2, "DOT_PRODUCT", schema=[("tenant", "HASH")])]})
        self.assertEqual(status, 200, body)
        put = lambda key, tenant, vec: self.ddb.put_item(TableName=name, Item={
            "pk": {"S": key}, "tenant": {"S": tenant}, "emb": as_list(vec)})
        top = lambda tenant: [(h["Item"]["pk"]["S"], h["Score"]) for h in self.search(
            "vix", [1, 0], top_k=3, table=name, SearchConditionExpression="tenant = :t",
            ExpressionAttributeValues={":t": {"S": tenant}})["SearchResults"]]
        put("a", "x", [1, 0])
        put("b", "x", [2, 0])
        put("c", "x", [-1, 0])
        self.assertEqual(top("x"), [("b", 2.0), ("a", 1.0), ("c", -1.0)])
        self.ddb.update_item(TableName=name, Key={"pk": {"S": "c"}}, UpdateExpression="SET emb = :v",
                             ExpressionAttributeValues={":v": as_list([5, 0])})
        self.assertEqual(top("x"), [("c", 5.0), ("b", 2.0), ("a", 1.0)])
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "b"}})
        self.ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET tenant = :t",
                             ExpressionAttributeValues={":t": {"S": "y"}})
        self.assertEqual(top("x"), [("c", 5.0)])
        self.assertEqual(top("y"), [("a", 1.0)])
        self.ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="REMOVE tenant")
        self.assertEqual(top("y"), [])  # without its HASH value: in no partition
        self.ddb.execute_statement(Statement="UPDATE \"%s\" SET tenant = 'y' WHERE pk = 'a'" % name)
        self.assertEqual(top("y"), [("a", 1.0)])
        self.ddb.transact_write_items(TransactItems=[{"Delete": {"TableName": name, "Key": {"pk": {"S": "c"}}}}])
        self.assertEqual(top("x"), [])

    def test_restores_are_searchable(self):
        arn = self.ddb.create_backup(TableName=self.table, BackupName="vec")["BackupDetails"]["BackupArn"]
        target = self.unique()
        status, body = signed_call(self.server, "RestoreTableFromBackup", {"TargetTableName": target, "BackupArn": arn})
        self.assertEqual(status, 200, body)
        q = [0.25] * DIMS
        # Rebuilt from the items inside the restore: searchable at once.
        self.assertEqual(self.search("by-cosine", q, table=target)["SearchResults"],
                         self.search("by-cosine", q)["SearchResults"])
        self.ddb.update_continuous_backups(TableName=self.table, PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": True})
        self.server.admin("clock", "advance", "1s")
        pitr = self.unique()
        status, body = signed_call(self.server, "RestoreTableToPointInTime", {
            "SourceTableName": self.table, "TargetTableName": pitr, "UseLatestRestorableTime": True})
        self.assertEqual(status, 200, body)
        self.assertEqual(self.search("by-dot_product", q, table=pitr)["SearchResults"],
                         self.search("by-dot_product", q)["SearchResults"])

    def test_consumed_capacity(self):
        q = [0.1] * DIMS
        body = self.search("by-cosine", q, ReturnConsumedCapacity="TOTAL")
        # The bytes of every entry scanned: 120 entries of 32 bytes and more.
        self.assertGreater(body["ConsumedCapacity"]["VectorSearchRequestBytes"], 120 * 32)
        self.assertEqual(body["ConsumedCapacity"], self.search("by-cosine", q, ReturnConsumedCapacity="INDEXES")[
            "ConsumedCapacity"])
        self.assertNotIn("ConsumedCapacity", self.search("by-cosine", q, ReturnConsumedCapacity="NONE"))
        small = self.search("by-tenant", q, ReturnConsumedCapacity="TOTAL", SearchConditionExpression="tenant = :t",
                            ExpressionAttributeValues={":t": {"S": "nobody"}})
        self.assertEqual(small["ConsumedCapacity"], {"VectorSearchRequestBytes": 1024})

    def test_bad_input(self):
        q = [0.5] * DIMS
        for bad in ("NaN", "Infinity", "-Infinity", "1e39", "abc"):
            self.refused(self.search("by-cosine", [0.5] * (DIMS - 1), status=400,
                                     SearchVector=as_search_vector(q[:-1]) + [{"N": bad}]),
                         "Search vector contains invalid values. All values in the search vector must be a 32-bit "
                         "floating-point number attribute")
        self.refused(self.search("by-cosine", q, status=400, SearchVector=[{"L": as_search_vector(q)}]),
                     "Search vector contains invalid values. All values in the search vector must be a 32-bit "
                     "floating-point number attribute")
        self.refused(self.search("by-cosine", q + [1], status=400),
                     "Input search vector dimension 9 does not match vector index dimension 8")
        self.refused(self.search("by-cosine", q, top_k=101, status=400),
                     "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive")
        self.refused(self.search("by-cosine", q, top_k=0, status=400),
                     "1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: Member must "
                     "have value greater than or equal to 1")
        # Beyond an Integer: the codec's largest, then DynamoDB's range check.
        self.refused(self.search("by-cosine", q, top_k=10 ** 12, status=400),
                     "Provided TopK value '2147483647' is out of valid range. The value must be between 1 and 100 "
                     "inclusive")
        # A fraction is read as every integer member is (rounded down); DynamoDB's
        # search endpoint answers SerializationException (docs/operations.md).
        self.assertEqual(len(self.search("by-cosine", q, top_k=1.5)["SearchResults"]), 1)
        body = self.search("by-cosine", q, status=400, SearchVector={"L": as_search_vector(q)})
        self.assertEqual(body["__type"].split("#")[-1], "SerializationException", body)
        self.refused(self.search("by-tenant", q, status=400),
                     "SearchConditionExpression must be provided when SearchSchema has a HASH key")
        self.refused(self.search("by-tenant", q, status=400, SearchConditionExpression="tenant = ",
                                 ExpressionAttributeValues={":t": {"S": "t1"}}),
                     "Invalid SearchConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \"")
        self.refused(self.search("by-tenant", q, status=400, SearchConditionExpression="tenant > :t",
                                 ExpressionAttributeValues={":t": {"S": "t1"}}),
                     "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")
        for condition in ("tenant IN (:t)", "tenant BETWEEN :t AND :t", "tenant = :t OR tenant = :t"):
            self.refused(self.search("by-tenant", q, status=400, SearchConditionExpression=condition,
                                     ExpressionAttributeValues={":t": {"S": "t1"}}),
                         "Invalid SearchConditionExpression: Invalid operator used in SearchConditionExpression")
        self.refused(self.search("by-tenant", q, status=400, SearchConditionExpression="tenant = :t",
                                 ExpressionAttributeValues={":t": {"N": "1"}}),
                     "Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search "
                     "schema (S)")
        self.refused(self.search("by-tenant", q, status=400, SearchConditionExpression="tenant = :t AND title = :t",
                                 ExpressionAttributeValues={":t": {"S": "x"}}),
                     "SearchConditionExpression must not contain any attributes that is not in SearchSchema. "
                     "Invalid attribute: title")
        self.refused(self.search("by-nothing", q, status=400), "The table does not have the specified index: by-nothing")
        self.refused(self.search("by-cosine", q, status=400, table="no-such-table"), "Requested resource not found",
                     error="ResourceNotFoundException")
        self.refused(self.search("by-cosine", q, status=400, SearchConditionExpression="x" * 5000),
                     "Invalid SearchConditionExpression: Expression size has exceeded the maximum allowed size; "
                     "expression size: 5000")
        self.assertServing()
        self.assertEqual(len(self.search("by-cosine", q)["SearchResults"]), 10)

    def test_grpc_door(self):
        q = [0.3] * DIMS
        stub = grpc_client.dynamodb(grpc_client.channel(self.server.grpc_port))
        req = grpc_client.pb.SearchVectorsRequest(table_name=self.table, index_name="by-euclidean", top_k=5)
        for x in q:
            req.search_vector.values.add().n = repr(x)
        resp = stub.SearchVectors(req, timeout=30)
        self.assertEqual([(r.item["pk"].s, r.score) for r in resp.search_results],
                         [(h["Item"]["pk"]["S"], h["Score"]) for h in self.search("by-euclidean", q, top_k=5)[
                             "SearchResults"]])
        req.top_k = 500
        import grpc
        with self.assertRaises(grpc.RpcError) as cm:
            stub.SearchVectors(req, timeout=30)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)

    def test_javascript_sdk(self):
        vectors = make_vectors(3, 40)
        queries = [[0.2 * (i - 3) for i in range(DIMS)], vectors["k007"]]
        out = run_js(self, self.server, "vector_search.mjs", {
            "table": self.unique("js"), "dimensions": DIMS, "items": vectors, "queries": queries, "topK": 7})
        for f in FUNCTIONS:
            for q, got in zip(queries, out["searches"][f]):
                expected = reference(f, q, vectors, 7)
                self.assertEqual([h[0] for h in got["hits"]], [k for k, _ in expected])
                for h, (_, score) in zip(got["hits"], expected):
                    self.assertAlmostEqual(h[1], score, delta=1e-9 * max(1, abs(score)))
                    self.assertEqual(h[2], ["pk", "tenant", "title"])
                self.assertGreaterEqual(got["bytes"], 1024)
        tenant_a = {k: v for k, v in vectors.items() if k.endswith("0")}
        self.assertEqual([h[0] for h in out["filtered"]], [k for k, _ in reference("COSINE", queries[0], tenant_a, 7)])
        self.assertEqual(sorted(out["described"]), [["by-cosine", "ACTIVE", 40, DIMS], ["by-dot_product", "ACTIVE", 40, DIMS],
                                                    ["by-euclidean", "ACTIVE", 40, DIMS]])
        self.assertIn(["by-euclidean", "DELETING"], out["deleting"])
        self.assertEqual(out["errors"]["dimensions"],
                         ["ValidationException", "Input search vector dimension 1 does not match vector index dimension 8"])
        self.assertEqual(out["errors"]["topK"][0], "ValidationException")
        self.assertEqual(out["errors"]["nan"][0], "ValidationException")


class UncachedSearchTest(ServerTestCase):
    """--vector-cache 0: every search scans the stored vectors, with the same answers."""
    SERVER_ARGS = {"extra_args": ["--vector-cache", "0"]}

    def test_same_answers_from_storage(self):
        name = self.unique()
        status, body = signed_call(self.server, "CreateTable", {
            "TableName": name, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "VectorIndexes": [vector_index("vix", "emb", DIMS, "COSINE")]})
        self.assertEqual(status, 200, body)
        vectors = make_vectors(5, 60)
        for key, vec in vectors.items():
            self.ddb.put_item(TableName=name, Item={"pk": {"S": key}, "emb": as_list(vec)})
        q = [0.1 * i for i in range(DIMS)]
        for _ in range(2):
            status, body = signed_call(self.server, "SearchVectors", {
                "TableName": name, "IndexName": "vix", "SearchVector": as_search_vector(q), "TopK": 9})
            self.assertEqual(status, 200, body)
            expected = reference("COSINE", q, vectors, 9)
            self.assertEqual([h["Item"]["pk"]["S"] for h in body["SearchResults"]], [k for k, _ in expected])
            self.ddb.delete_item(TableName=name, Key={"pk": {"S": expected[0][0]}})
            del vectors[expected[0][0]]

    def test_a_bad_budget_is_refused(self):
        cp = run_pogi("start", "--vector-cache", "lots", "--port", "0", "--grpc-port", "0", "--in-memory")
        self.assertEqual(cp.returncode, 1)
        self.assertIn("invalid --vector-cache lots", cp.stderr)


@unittest.skipUnless(POSTGRESQL, "two processes on one database: PostgreSQL only")
class SharedDatabaseSearchTest(unittest.TestCase):
    """Each process keeps vectors in memory; a write through another process
    reaches its next search (the slots' generations)."""

    def test_search_sees_the_other_process_writes(self):
        a = Server().start()
        try:
            b = Server(data_dir=a.data_dir).start()  # the same schema
            try:
                status, body = signed_call(a, "CreateTable", {
                    "TableName": "shared", "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                    "VectorIndexes": [vector_index("vix", "emb", 2, "EUCLIDEAN")]})
                self.assertEqual(status, 200, body)
                da, db = a.client(), b.client()
                for i in range(50):
                    da.put_item(TableName="shared", Item={"pk": {"S": "k%d" % i}, "emb": as_list([i, 0])})

                def top(server):
                    status, body = signed_call(server, "SearchVectors", {
                        "TableName": "shared", "IndexName": "vix", "SearchVector": as_search_vector([100, 0]),
                        "TopK": 2})
                    self.assertEqual(status, 200, body)
                    return [h["Item"]["pk"]["S"] for h in body["SearchResults"]]

                self.assertEqual(top(a), ["k49", "k48"])
                self.assertEqual(top(b), ["k49", "k48"])
                db.put_item(TableName="shared", Item={"pk": {"S": "near"}, "emb": as_list([99, 0])})
                db.delete_item(TableName="shared", Key={"pk": {"S": "k49"}})
                self.assertEqual(top(a), ["near", "k48"])
            finally:
                b.stop()
                b.cleanup()
        finally:
            a.stop()
            a.cleanup()


if __name__ == "__main__":
    unittest.main()
