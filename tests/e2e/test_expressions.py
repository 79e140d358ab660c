"""End-to-end tests of ConditionExpression, ProjectionExpression, expression
limits, hostile input and the legacy parameters (issue 4).

Run: cd tests/e2e && python3 -m unittest -v test_expressions
"""

import time
import unittest

from botocore.exceptions import ClientError

from harness import ServerTestCase


def N(x):
    return {"N": str(x)}


def S(x):
    return {"S": x}


def L(*xs):
    return {"L": list(xs)}


def M(**kw):
    return {"M": kw}


FAILED = "The conditional request failed"


def base_item(pk):
    return {"pk": S(pk), "n": N(5), "s": S("hello"), "b": {"B": b"\x01\x02"},
            "t": {"BOOL": True}, "z": {"NULL": True}, "ss": {"SS": ["a", "b"]},
            "ns": {"NS": ["1", "2"]}, "l": L(N(1), M(q=S("deep"))),
            "m": M(x=N(1), y=M(w=S("w")))}


class ExprBase(ServerTestCase):
    SERVER_ARGS = {"in_memory": True}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = "expr-" + cls.__name__.lower()
        cls.ddb.create_table(
            TableName=cls.table,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST")

    def key(self):
        return self.unique("k")

    def put(self, item, **kw):
        r = self.ddb.put_item(TableName=self.table, Item=item, **kw)
        r.pop("ResponseMetadata", None)
        return r

    def get(self, pk, **kw):
        return self.ddb.get_item(TableName=self.table, Key={"pk": S(pk)}, ConsistentRead=True,
                                 **kw).get("Item")

    def error(self, fn, **kw):
        with self.assertRaises(ClientError) as cm:
            fn(**kw)
        return cm.exception.response

    def assertError(self, fn, code, message, **kw):
        resp = self.error(fn, **kw)
        self.assertEqual(resp["Error"].get("Code"), code, "error was %r" % (resp["Error"],))
        self.assertEqual(resp["Error"].get("Message"), message, "error was %r" % (resp["Error"],))
        return resp


class ConditionOnWrites(ExprBase):
    """Each comparator and function, evaluated by a conditional PutItem."""

    def setUp(self):
        self.k = self.key()
        self.put(base_item(self.k))

    def check(self, cond, values=None, names=None):
        """True when a conditional put with cond succeeds, False when it fails the check."""
        kw = dict(TableName=self.table, Item=base_item(self.k), ConditionExpression=cond)
        if values:
            kw["ExpressionAttributeValues"] = values
        if names:
            kw["ExpressionAttributeNames"] = names
        try:
            self.ddb.put_item(**kw)
            return True
        except ClientError as e:
            err = e.response["Error"]
            self.assertEqual(err["Code"], "ConditionalCheckFailedException", err)
            self.assertEqual(err["Message"], FAILED)
            return False

    def test_comparators_numbers(self):
        v = {":v": N(5), ":lo": N(4), ":hi": N("5.5")}
        self.assertTrue(self.check("n = :v", {":v": N(5)}))
        self.assertTrue(self.check("n = :v", {":v": N("5.00")}))
        self.assertFalse(self.check("n <> :v", {":v": N(5)}))
        self.assertTrue(self.check("n <> :v", {":v": N(4)}))
        self.assertTrue(self.check("n > :v", {":v": N(4)}))
        self.assertFalse(self.check("n > :v", {":v": N(5)}))
        self.assertTrue(self.check("n >= :v", {":v": N(5)}))
        self.assertTrue(self.check("n < :v", {":v": N("5.5")}))
        self.assertFalse(self.check("n < :v", {":v": N(-10)}))
        self.assertTrue(self.check("n <= :v", {":v": N(5)}))
        self.assertTrue(self.check("n BETWEEN :lo AND :hi", {":lo": v[":lo"], ":hi": v[":hi"]}))
        self.assertTrue(self.check("n BETWEEN :v AND :v", {":v": N(5)}))
        self.assertFalse(self.check("n BETWEEN :lo AND :hi", {":lo": N(6), ":hi": N(9)}))

    def test_comparators_strings_and_binary(self):
        self.assertTrue(self.check("s = :v", {":v": S("hello")}))
        self.assertTrue(self.check("s > :v", {":v": S("Hello")}))  # bytes order: 'h' > 'H'
        self.assertTrue(self.check("s < :v", {":v": S("help")}))
        self.assertTrue(self.check("s BETWEEN :a AND :b", {":a": S("a"), ":b": S("i")}))
        self.assertTrue(self.check("b < :v", {":v": {"B": b"\x02"}}))
        self.assertTrue(self.check("b = :v", {":v": {"B": b"\x01\x02"}}))

    def test_equality_of_documents_and_sets(self):
        self.assertTrue(self.check("ss = :v", {":v": {"SS": ["b", "a"]}}))
        self.assertTrue(self.check("l = :v", {":v": L(N(1), M(q=S("deep")))}))
        self.assertTrue(self.check("m = :v", {":v": M(y=M(w=S("w")), x=N(1))}))
        self.assertTrue(self.check("t = :v", {":v": {"BOOL": True}}))
        self.assertTrue(self.check("z = :v", {":v": {"NULL": True}}))

    def test_different_types_compare_false(self):
        self.assertFalse(self.check("n = :v", {":v": S("5")}))
        self.assertTrue(self.check("n <> :v", {":v": S("5")}))
        self.assertFalse(self.check("n < :v", {":v": S("9")}))
        self.assertFalse(self.check("s >= :v", {":v": N(1)}))
        self.assertFalse(self.check("n BETWEEN :a AND :b", {":a": S("1"), ":b": S("9")}))
        # An ordering comparison with a constant it cannot order (BOOL, NULL,
        # lists, maps, sets) is a ValidationException at parse time, as in
        # DynamoDB (wire_cases/06_expressions.json); from the item it is false.
        self.assertFalse(self.check("t < :v", {":v": N(1)}))
        self.assertFalse(self.check("nothere = :v", {":v": N(1)}))
        self.assertTrue(self.check("nothere <> :v", {":v": N(1)}))

    def test_in(self):
        self.assertTrue(self.check("n IN (:a, :b)", {":a": N(1), ":b": N(5)}))
        self.assertFalse(self.check("n IN (:a, :b)", {":a": N(1), ":b": S("5")}))
        self.assertTrue(self.check("s IN (:a)", {":a": S("hello")}))

    def test_attribute_exists(self):
        self.assertTrue(self.check("attribute_exists(n)"))
        self.assertTrue(self.check("attribute_exists(m.y.w)"))
        self.assertTrue(self.check("attribute_exists(l[1].q)"))
        self.assertFalse(self.check("attribute_exists(l[7])"))
        self.assertFalse(self.check("attribute_exists(nothere)"))
        self.assertTrue(self.check("attribute_not_exists(nothere)"))
        self.assertFalse(self.check("attribute_not_exists(pk)"))
        self.assertTrue(self.check("attribute_exists(#n)", names={"#n": "n"}))

    def test_attribute_type(self):
        for attr, t in (("n", "N"), ("s", "S"), ("b", "B"), ("t", "BOOL"), ("z", "NULL"),
                        ("ss", "SS"), ("ns", "NS"), ("l", "L"), ("m", "M")):
            with self.subTest(attr=attr):
                self.assertTrue(self.check("attribute_type(%s, :t)" % attr, {":t": S(t)}))
        self.assertFalse(self.check("attribute_type(n, :t)", {":t": S("S")}))
        self.assertFalse(self.check("attribute_type(nothere, :t)", {":t": S("S")}))

    def test_begins_with(self):
        self.assertTrue(self.check("begins_with(s, :p)", {":p": S("he")}))
        self.assertFalse(self.check("begins_with(s, :p)", {":p": S("lo")}))
        self.assertTrue(self.check("begins_with(b, :p)", {":p": {"B": b"\x01"}}))
        self.assertFalse(self.check("begins_with(n, :p)", {":p": S("5")}))

    def test_contains(self):
        self.assertTrue(self.check("contains(s, :p)", {":p": S("ell")}))
        self.assertFalse(self.check("contains(s, :p)", {":p": S("xyz")}))
        self.assertTrue(self.check("contains(ss, :p)", {":p": S("a")}))
        self.assertFalse(self.check("contains(ss, :p)", {":p": S("c")}))
        self.assertTrue(self.check("contains(ns, :p)", {":p": N(2)}))
        self.assertTrue(self.check("contains(l, :p)", {":p": N(1)}))
        self.assertFalse(self.check("contains(n, :p)", {":p": N(5)}))

    def test_size(self):
        self.assertTrue(self.check("size(s) = :v", {":v": N(5)}))
        self.assertTrue(self.check("size(b) = :v", {":v": N(2)}))
        self.assertTrue(self.check("size(ss) = :v", {":v": N(2)}))
        self.assertTrue(self.check("size(l) > :v", {":v": N(1)}))
        self.assertTrue(self.check("size(m) = :v", {":v": N(2)}))
        self.assertTrue(self.check("size(m.y) BETWEEN :a AND :b", {":a": N(1), ":b": N(1)}))
        self.assertFalse(self.check("size(n) = :v", {":v": N(1)}))
        self.assertFalse(self.check("size(nothere) = :v", {":v": N(0)}))

    def check_used(self, cond, values):
        used = {k: v for k, v in values.items() if k in cond}
        return self.check(cond, used)

    def test_precedence(self):
        T = "n = :five"   # true
        F = "s = :zero"   # false
        v = {":five": N(5), ":zero": N(0)}
        # AND binds tighter than OR: T OR (T AND F) is true; (T OR T) AND F would be false.
        self.assertTrue(self.check_used("%s OR %s AND %s" % (T, T, F), v))
        self.assertFalse(self.check_used("(%s OR %s) AND %s" % (T, T, F), v))
        # NOT binds tighter than AND: (NOT F) AND T.
        self.assertTrue(self.check_used("NOT %s AND %s" % (F, T), v))
        self.assertFalse(self.check_used("NOT (%s AND %s) AND %s" % (T, T, T), v))
        self.assertTrue(self.check_used("NOT NOT %s" % T, v))
        # F AND F OR T = (F AND F) OR T = true
        self.assertTrue(self.check_used("%s AND %s OR %s" % (F, F, T), v))
        self.assertFalse(self.check_used("%s AND (%s OR %s)" % (F, F, T), v))

    def test_keywords_case_insensitive(self):
        self.assertTrue(self.check("n between :a and :b or not attribute_exists(n)",
                                   {":a": N(1), ":b": N(9)}))

    def test_condition_on_missing_item(self):
        k = self.key()
        self.put({"pk": S(k)}, ConditionExpression="attribute_not_exists(pk)")
        self.assertError(self.put, "ConditionalCheckFailedException", FAILED,
                         item={"pk": S(k)}, ConditionExpression="attribute_not_exists(pk)")
        # A comparison against a missing item is false.
        self.assertError(self.ddb.put_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Item={"pk": S(self.key())},
                         ConditionExpression="n = :v", ExpressionAttributeValues={":v": N(5)})

    def test_update_and_delete_conditions(self):
        self.ddb.update_item(TableName=self.table, Key={"pk": S(self.k)},
                             UpdateExpression="SET n = n + :one",
                             ConditionExpression="n = :five AND contains(ss, :a)",
                             ExpressionAttributeValues={":one": N(1), ":five": N(5), ":a": S("a")})
        self.assertEqual(self.get(self.k)["n"], N(6))
        self.assertError(self.ddb.update_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Key={"pk": S(self.k)},
                         UpdateExpression="SET n = :zero", ConditionExpression="n = :five",
                         ExpressionAttributeValues={":zero": N(0), ":five": N(5)})
        self.assertEqual(self.get(self.k)["n"], N(6))
        self.assertError(self.ddb.delete_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Key={"pk": S(self.k)},
                         ConditionExpression="size(s) > :v", ExpressionAttributeValues={":v": N(10)})
        self.assertIsNotNone(self.get(self.k))
        self.ddb.delete_item(TableName=self.table, Key={"pk": S(self.k)},
                             ConditionExpression="begins_with(s, :h)",
                             ExpressionAttributeValues={":h": S("h")})
        self.assertIsNone(self.get(self.k))

    def test_return_values_on_condition_check_failure(self):
        item = base_item(self.k)
        for op, kw in (("put_item", dict(Item={"pk": S(self.k)})),
                       ("update_item", dict(Key={"pk": S(self.k)}, UpdateExpression="REMOVE s")),
                       ("delete_item", dict(Key={"pk": S(self.k)}))):
            with self.subTest(op=op):
                resp = self.assertError(
                    getattr(self.ddb, op), "ConditionalCheckFailedException", FAILED,
                    TableName=self.table, ConditionExpression="n = :v",
                    ExpressionAttributeValues={":v": N(0)},
                    ReturnValuesOnConditionCheckFailure="ALL_OLD", **kw)
                self.assertEqual(resp["Item"], item)
                resp = self.assertError(
                    getattr(self.ddb, op), "ConditionalCheckFailedException", FAILED,
                    TableName=self.table, ConditionExpression="n = :v",
                    ExpressionAttributeValues={":v": N(0)},
                    ReturnValuesOnConditionCheckFailure="NONE", **kw)
                self.assertNotIn("Item", resp)
        self.assertEqual(self.get(self.k), item)

    def test_return_values_on_failure_missing_item(self):
        resp = self.assertError(
            self.ddb.put_item, "ConditionalCheckFailedException", FAILED,
            TableName=self.table, Item={"pk": S(self.key())}, ConditionExpression="attribute_exists(pk)",
            ReturnValuesOnConditionCheckFailure="ALL_OLD")
        self.assertNotIn("Item", resp)


class ConditionErrors(ExprBase):

    def setUp(self):
        self.k = self.key()
        self.put(base_item(self.k))

    def cond_error(self, cond, message, values=None, names=None):
        kw = dict(TableName=self.table, Item={"pk": S(self.k)}, ConditionExpression=cond)
        if values is not None:
            kw["ExpressionAttributeValues"] = values
        if names is not None:
            kw["ExpressionAttributeNames"] = names
        return self.assertError(self.ddb.put_item, "ValidationException", message, **kw)

    def test_syntax_errors(self):
        self.cond_error("a-b", 'Invalid ConditionExpression: Syntax error; token: "-", near: "a-b"')
        self.cond_error("n = :v AND", 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "AND"',
                        {":v": N(1)})
        self.cond_error("attribute_exists(n) AND NOT t",
                        'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "t"')
        self.cond_error("n IN ()", 'Invalid ConditionExpression: Syntax error; token: ")", near: "()"')

    def test_redundant_parentheses(self):
        self.cond_error("((n = :v))", "Invalid ConditionExpression: The expression has redundant parentheses;",
                        {":v": N(1)})

    def test_reserved_word(self):
        self.cond_error("status = :v",
                        "Invalid ConditionExpression: Attribute name is a reserved keyword; "
                        "reserved keyword: status", {":v": N(1)})

    def test_undefined_and_unused(self):
        self.cond_error("#x = :v",
                        "Invalid ConditionExpression: An expression attribute name used in the "
                        "document path is not defined; attribute name: #x", {":v": N(1)})
        self.cond_error("n = :w",
                        "Invalid ConditionExpression: An expression attribute value used in "
                        "expression is not defined; attribute value: :w", {":v": N(1)})
        self.cond_error("n = :v",
                        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}",
                        {":v": N(1), ":u": N(2)})
        self.cond_error("n = :v",
                        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}",
                        {":v": N(1)}, {"#u": "u"})

    def test_operand_errors(self):
        self.cond_error("n BETWEEN :a AND :b",
                        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be "
                        "greater than or equal to lower bound; lower bound operand: AttributeValue: "
                        "{N:9}, upper bound operand: AttributeValue: {N:1}", {":a": N(9), ":b": N(1)})
        self.cond_error("n BETWEEN :a AND :b",
                        "Invalid ConditionExpression: The BETWEEN operator requires same data type for "
                        "lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper "
                        "bound operand: AttributeValue: {S:1}", {":a": N(1), ":b": S("1")})
        self.cond_error("begins_with(s, :p)",
                        "Invalid ConditionExpression: Incorrect operand type for operator or function; "
                        "operator or function: begins_with, operand type: N", {":p": N(1)})
        self.cond_error("attribute_exists(:v)",
                        "Invalid ConditionExpression: Operator or function requires a document path; "
                        "operator or function: attribute_exists", {":v": N(1)})
        self.cond_error("size(s)",
                        "Invalid ConditionExpression: The function is not allowed to be used this way "
                        "in an expression; function: size")
        self.cond_error("n = n",
                        "Invalid ConditionExpression: The first operand must be distinct from the "
                        "remaining operands for this operator or function; operator: =, first "
                        "operand: [n]")
        self.cond_error("contains(s, s)",
                        "Invalid ConditionExpression: The first operand must be distinct from the "
                        "remaining operands for this operator or function; operator: contains, first "
                        "operand: [s]")
        self.cond_error("attribute_type(n, :t)",
                        "Invalid ConditionExpression: Invalid attribute type name found; type: X, "
                        "valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}", {":t": S("X")})

    def test_values_without_expression(self):
        # DynamoDB names the operation's expressions that were null.
        head = "ExpressionAttributeValues can only be specified when using expressions: "
        eav = {":v": N(1)}
        for fn, kw, null in (
                (self.ddb.put_item, dict(Item={"pk": S(self.k)}), "ConditionExpression is null"),
                (self.ddb.delete_item, dict(Key={"pk": S(self.k)}), "ConditionExpression is null"),
                (self.ddb.update_item, dict(Key={"pk": S(self.k)}),
                 "UpdateExpression and ConditionExpression are null"),
                (self.ddb.scan, {}, "FilterExpression is null"),
                (self.ddb.query, dict(KeyConditions={"pk": {"AttributeValueList": [S(self.k)],
                                                            "ComparisonOperator": "EQ"}}),
                 "FilterExpression and KeyConditionExpression are null")):
            self.assertError(fn, "ValidationException", head + null, TableName=self.table,
                             ExpressionAttributeValues=eav, **kw)

    def test_return_values_allowed_on_put_and_delete(self):
        for fn, kw in ((self.ddb.put_item, dict(Item={"pk": S(self.k)})),
                       (self.ddb.delete_item, dict(Key={"pk": S(self.k)}))):
            for mode in ("ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"):
                self.assertError(fn, "ValidationException", "ReturnValues can only be ALL_OLD or NONE",
                                 TableName=self.table, ReturnValues=mode, **kw)
        r = self.put({"pk": S(self.k)}, ReturnValues="ALL_OLD")
        self.assertEqual(r["Attributes"], base_item(self.k))


class Projection(ExprBase):

    def setUp(self):
        self.k = self.key()
        self.put(base_item(self.k))

    def proj(self, expr, names=None):
        kw = {"ProjectionExpression": expr}
        if names:
            kw["ExpressionAttributeNames"] = names
        return self.get(self.k, **kw)

    def test_top_level(self):
        self.assertEqual(self.proj("n, s"), {"n": N(5), "s": S("hello")})
        self.assertEqual(self.proj("pk"), {"pk": S(self.k)})

    def test_nested_paths_keep_shape(self):
        self.assertEqual(self.proj("m.y.w"), {"m": M(y=M(w=S("w")))})
        self.assertEqual(self.proj("m.x, m.y.w"), {"m": M(x=N(1), y=M(w=S("w")))})

    def test_list_elements(self):
        self.assertEqual(self.proj("l[1]"), {"l": L(M(q=S("deep")))})
        self.assertEqual(self.proj("l[1].q"), {"l": L(M(q=S("deep")))})
        self.assertEqual(self.proj("l[0], l[1]"), {"l": L(N(1), M(q=S("deep")))})

    def test_missing_paths_are_left_out(self):
        self.assertEqual(self.proj("n, nothere, l[7], m.nope, s.x"), {"n": N(5)})
        self.assertEqual(self.proj("nothere"), {})

    def test_names(self):
        self.assertEqual(self.proj("#s, #m.#x", {"#s": "s", "#m": "m", "#x": "x"}),
                         {"s": S("hello"), "m": M(x=N(1))})

    def test_reserved_and_undefined(self):
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: Attribute name is a reserved keyword; "
                         "reserved keyword: name",
                         TableName=self.table, Key={"pk": S(self.k)}, ProjectionExpression="name")
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: An expression attribute name used in the "
                         "document path is not defined; attribute name: #z",
                         TableName=self.table, Key={"pk": S(self.k)}, ProjectionExpression="#z")
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Value provided in ExpressionAttributeNames unused in expressions: keys: {#z}",
                         TableName=self.table, Key={"pk": S(self.k)}, ProjectionExpression="n",
                         ExpressionAttributeNames={"#z": "z"})

    def test_overlapping_paths(self):
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: Two document paths overlap with each other; "
                         "must remove or rewrite one of these paths; path one: [n], path two: [n]",
                         TableName=self.table, Key={"pk": S(self.k)}, ProjectionExpression="n, n")
        resp = self.error(self.ddb.get_item, TableName=self.table, Key={"pk": S(self.k)},
                          ProjectionExpression="m, m.x")
        self.assertTrue(resp["Error"]["Message"].startswith(
            "Invalid ProjectionExpression: Two document paths overlap with each other;"), resp["Error"])

    def test_syntax_error(self):
        self.assertError(self.ddb.get_item, "ValidationException",
                         'Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ","',
                         TableName=self.table, Key={"pk": S(self.k)}, ProjectionExpression="n,")


class Limits(ExprBase):

    def setUp(self):
        self.k = self.key()
        self.put({"pk": S(self.k), "n": N(1)})

    def upd(self, **kw):
        args = dict(TableName=self.table, Key={"pk": S(self.k)})
        args.update(kw)
        return self.ddb.update_item(**args)

    def test_expression_size(self):
        ok = "SET n = :v" + " " * (4096 - len("SET n = :v"))
        self.upd(UpdateExpression=ok, ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.upd, "ValidationException",
                         "Invalid UpdateExpression: Expression size has exceeded the maximum allowed "
                         "size; expression size: 4097",
                         UpdateExpression=ok + " ", ExpressionAttributeValues={":v": N(1)})
        cond = "n = :v" + " " * (4097 - len("n = :v"))
        self.assertError(self.upd, "ValidationException",
                         "Invalid ConditionExpression: Expression size has exceeded the maximum allowed "
                         "size; expression size: 4097",
                         UpdateExpression="SET n = :v", ConditionExpression=cond,
                         ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: Expression size has exceeded the maximum "
                         "allowed size; expression size: 5000",
                         TableName=self.table, Key={"pk": S(self.k)},
                         ProjectionExpression="n" + " " * 4999)

    def test_in_operands(self):
        values = {":v%d" % i: N(i) for i in range(101)}
        self.upd(UpdateExpression="SET n = :v0",
                 ConditionExpression="n IN (%s)" % ", ".join(":v%d" % i for i in range(1, 101)),
                 ExpressionAttributeValues=values)
        self.assertError(self.upd, "ValidationException",
                         "Invalid ConditionExpression: The IN operator is provided with too many "
                         "operands; number of operands: 101",
                         UpdateExpression="SET n = :v0",
                         ConditionExpression="n IN (%s)" % ", ".join(":v%d" % i for i in range(101)),
                         ExpressionAttributeValues=values)

    def test_operator_count(self):
        cond = " OR ".join(["n<:v"] * 400)
        self.assertError(self.upd, "ValidationException",
                         "Invalid ConditionExpression: The expression contains too many operators; "
                         "operator count: 301",
                         UpdateExpression="SET n = :v", ConditionExpression=cond,
                         ExpressionAttributeValues={":v": N(1)})

    def test_path_depth(self):
        p32 = ".".join(["a"] * 32)
        p33 = ".".join(["a"] * 33)
        self.upd(UpdateExpression="SET n = :v", ConditionExpression="attribute_not_exists(%s)" % p32,
                 ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.upd, "ValidationException",
                         "Invalid ConditionExpression: The document path has too many nesting levels; "
                         "nesting levels: 33",
                         UpdateExpression="SET n = :v", ConditionExpression="attribute_not_exists(%s)" % p33,
                         ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.upd, "ValidationException",
                         "Invalid UpdateExpression: The document path has too many nesting levels; "
                         "nesting levels: 33",
                         UpdateExpression="SET %s = :v" % p33, ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Invalid ProjectionExpression: The document path has too many nesting levels; "
                         "nesting levels: 33",
                         TableName=self.table, Key={"pk": S(self.k)},
                         ProjectionExpression="a" + "[0]" * 32)


class HostileInput(ExprBase):
    """Pathological expressions are refused quickly and pogi keeps serving."""

    # Seconds per request: no exponential blow-up. A refusal takes
    # milliseconds; 10 s is over 100 times that on a busy machine, and far
    # below what a blow-up on thousands of nested levels would take.
    BUDGET = 10.0

    def setUp(self):
        self.k = self.key()
        self.put({"pk": S(self.k), "n": N(1)})

    def refused(self, cond):
        t0 = time.monotonic()
        resp = self.error(self.ddb.update_item, TableName=self.table, Key={"pk": S(self.k)},
                          UpdateExpression="SET n = :v", ConditionExpression=cond,
                          ExpressionAttributeValues={":v": N(1)})
        elapsed = time.monotonic() - t0
        self.assertEqual(resp["Error"]["Code"], "ValidationException", resp["Error"])
        self.assertTrue(resp["Error"]["Message"].startswith("Invalid ConditionExpression: "),
                        resp["Error"])
        self.assertLess(elapsed, self.BUDGET)
        self.assertServing()
        return resp["Error"]["Message"]

    def test_100k_parentheses(self):
        msg = self.refused("(" * 100000 + "n = :v" + ")" * 100000)
        self.assertEqual(msg, "Invalid ConditionExpression: Expression size has exceeded the maximum "
                              "allowed size; expression size: 200006")

    def test_100k_open_parentheses_only(self):
        self.refused("(" * 100000)

    def test_deep_parentheses_within_size(self):
        self.refused("(" * 2000 + "n = :v" + ")" * 2000)

    def test_nesting_at_and_past_the_limit(self):
        # limits::kMaxExpressionNesting (200) counts the condition under the
        # NOTs: 199 NOTs parse (an odd count: the condition is false), 200 do not.
        with self.assertRaises(self.ddb.exceptions.ConditionalCheckFailedException):
            self.ddb.update_item(TableName=self.table, Key={"pk": S(self.k)}, UpdateExpression="SET n = :v",
                                 ConditionExpression="NOT " * 199 + "n = :v",
                                 ExpressionAttributeValues={":v": N(1)})
        self.assertTrue(self.refused("NOT " * 200 + "n = :v").startswith(
            "Invalid ConditionExpression: Syntax error; "))

    def test_deep_nots(self):
        self.refused("NOT " * 1000 + "n = :v")
        self.refused("NOT " * 100000 + "n = :v")

    def test_deep_function_nesting(self):
        self.refused("size(" * 1000 + "n" + ")" * 1000 + " = :v")

    def test_long_path(self):
        self.refused("attribute_exists(" + ".".join(["a"] * 1500) + ")")
        self.refused("attribute_exists(a" + "[0]" * 1000 + ")")

    def test_garbage(self):
        for cond in ("\x00\x01\x02", "n = :v ))))", "''''", "n = :v" + " AND" * 900, "#" * 3000):
            with self.subTest(cond=cond[:20]):
                self.refused(cond)

    def test_many_in_a_row_still_serving(self):
        for _ in range(20):
            self.refused("(" * 50000)
        self.put({"pk": S(self.k), "n": N(2)})
        self.assertEqual(self.get(self.k)["n"], N(2))


class LegacyParameters(ExprBase):
    """Expected, AttributeUpdates, AttributesToGet (being added; may fail until they land)."""

    def setUp(self):
        self.k = self.key()
        self.put({"pk": S(self.k), "n": N(5), "s": S("hello"), "ss": {"SS": ["a", "b"]}})

    def test_expected_exists_false(self):
        k = self.key()
        self.ddb.put_item(TableName=self.table, Item={"pk": S(k)}, Expected={"pk": {"Exists": False}})
        self.assertError(self.ddb.put_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Item={"pk": S(k)}, Expected={"pk": {"Exists": False}})

    def test_expected_value_implies_equality(self):
        self.ddb.put_item(TableName=self.table, Item={"pk": S(self.k), "n": N(6)},
                          Expected={"n": {"Value": N(5)}})
        self.assertError(self.ddb.put_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Item={"pk": S(self.k)},
                         Expected={"n": {"Value": N(5)}})
        self.ddb.put_item(TableName=self.table, Item={"pk": S(self.k), "n": N(7)},
                          Expected={"n": {"Exists": True, "Value": N(6)}})
        self.assertEqual(self.get(self.k)["n"], N(7))

    def test_expected_comparison_operators(self):
        ok = [("n", "GT", [N(4)]), ("n", "BETWEEN", [N(1), N(5)]), ("n", "IN", [N(1), N(5)]),
              ("s", "BEGINS_WITH", [S("he")]), ("ss", "CONTAINS", [S("a")]),
              ("ss", "NOT_CONTAINS", [S("z")]), ("n", "NOT_NULL", None), ("zz", "NULL", None),
              ("n", "NE", [N(4)]), ("n", "LE", [N(5)])]
        for attr, op, vals in ok:
            with self.subTest(op=op):
                cond = {"ComparisonOperator": op}
                if vals is not None:
                    cond["AttributeValueList"] = vals
                self.ddb.put_item(TableName=self.table,
                                  Item={"pk": S(self.k), "n": N(5), "s": S("hello"),
                                        "ss": {"SS": ["a", "b"]}},
                                  Expected={attr: cond})
        self.assertError(self.ddb.put_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Item={"pk": S(self.k)},
                         Expected={"n": {"ComparisonOperator": "LT", "AttributeValueList": [N(5)]}})

    def test_conditional_operator(self):
        exp = {"n": {"Value": N(0)}, "s": {"Value": S("hello")}}
        self.assertError(self.ddb.delete_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Key={"pk": S(self.k)}, Expected=exp)
        self.assertError(self.ddb.delete_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Key={"pk": S(self.k)}, Expected=exp,
                         ConditionalOperator="AND")
        self.ddb.delete_item(TableName=self.table, Key={"pk": S(self.k)}, Expected=exp,
                             ConditionalOperator="OR")
        self.assertIsNone(self.get(self.k))

    def test_attribute_updates(self):
        r = self.ddb.update_item(
            TableName=self.table, Key={"pk": S(self.k)},
            AttributeUpdates={"n": {"Action": "ADD", "Value": N(2)},
                              "ss": {"Action": "DELETE", "Value": {"SS": ["a"]}},
                              "s": {"Action": "DELETE"},
                              "p": {"Action": "PUT", "Value": S("put")},
                              "q": {"Value": S("implicit put")}},
            ReturnValues="ALL_NEW")
        self.assertEqual(r["Attributes"], {"pk": S(self.k), "n": N(7), "ss": {"SS": ["b"]},
                                           "p": S("put"), "q": S("implicit put")})

    def test_attribute_updates_upsert_and_add_creates(self):
        k = self.key()
        self.ddb.update_item(TableName=self.table, Key={"pk": S(k)},
                             AttributeUpdates={"c": {"Action": "ADD", "Value": N(3)},
                                               "t": {"Action": "ADD", "Value": {"SS": ["x"]}}})
        self.assertEqual(self.get(k), {"pk": S(k), "c": N(3), "t": {"SS": ["x"]}})

    def test_attribute_updates_with_expected(self):
        self.assertError(self.ddb.update_item, "ConditionalCheckFailedException", FAILED,
                         TableName=self.table, Key={"pk": S(self.k)},
                         AttributeUpdates={"n": {"Action": "PUT", "Value": N(0)}},
                         Expected={"n": {"Value": N(4)}})
        self.assertEqual(self.get(self.k)["n"], N(5))

    def test_attributes_to_get(self):
        item = self.ddb.get_item(TableName=self.table, Key={"pk": S(self.k)},
                                 AttributesToGet=["n", "s", "nothere"])["Item"]
        self.assertEqual(item, {"n": N(5), "s": S("hello")})

    def test_mixing_legacy_and_expression_parameters(self):
        self.assertError(self.ddb.update_item, "ValidationException",
                         "Can not use both expression and non-expression parameters in the same "
                         "request: Non-expression parameters: {AttributeUpdates} Expression "
                         "parameters: {UpdateExpression}",
                         TableName=self.table, Key={"pk": S(self.k)}, UpdateExpression="SET a = :v",
                         AttributeUpdates={"x": {"Action": "PUT", "Value": N(1)}},
                         ExpressionAttributeValues={":v": N(1)})
        self.assertError(self.ddb.put_item, "ValidationException",
                         "Can not use both expression and non-expression parameters in the same "
                         "request: Non-expression parameters: {Expected} Expression parameters: "
                         "{ConditionExpression}",
                         TableName=self.table, Item={"pk": S(self.k)},
                         ConditionExpression="attribute_exists(pk)", Expected={"pk": {"Exists": True,
                                                                                  "Value": S(self.k)}})
        self.assertError(self.ddb.get_item, "ValidationException",
                         "Can not use both expression and non-expression parameters in the same "
                         "request: Non-expression parameters: {AttributesToGet} Expression "
                         "parameters: {ProjectionExpression}",
                         TableName=self.table, Key={"pk": S(self.k)}, AttributesToGet=["n"],
                         ProjectionExpression="n")


if __name__ == "__main__":
    unittest.main()
