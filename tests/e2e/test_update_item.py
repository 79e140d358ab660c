"""End-to-end tests of UpdateItem with UpdateExpression (issue 4).

Each clause (SET, REMOVE, ADD, DELETE) and function (if_not_exists,
list_append, + and -), document paths, upserts, ReturnValues, exact decimal
arithmetic, and the error paths with DynamoDB's exact messages. A few run
through the AWS CLI.

Run: cd tests/e2e && python3 -m unittest -v test_update_item
"""

import json
import re
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


KEY_MSG = ("One or more parameter values were invalid: Cannot update attribute pk. "
           "This attribute is part of the key")
NOT_IN_ITEM = "The provided expression refers to an attribute that does not exist in the item"
INVALID_PATH = "The document path provided in the update expression is invalid for update"
BAD_OPERAND = "An operand in the update expression has an incorrect data type"
OVERLAP = ("Invalid UpdateExpression: Two document paths overlap with each other; "
           "must remove or rewrite one of these paths; ")
CONFLICT = ("Invalid UpdateExpression: Two document paths conflict with each other; "
            "must remove or rewrite one of these paths; ")
OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"


class UpdateItemBase(ServerTestCase):
    SERVER_ARGS = {"in_memory": True}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.table = "upd-" + cls.__name__.lower()
        cls.ddb.create_table(
            TableName=cls.table,
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            BillingMode="PAY_PER_REQUEST")

    # ---- helpers ----------------------------------------------------------

    def key(self):
        return self.unique("k")

    def put(self, pk, **attrs):
        item = {"pk": S(pk)}
        item.update(attrs)
        self.ddb.put_item(TableName=self.table, Item=item)

    def get(self, pk):
        return self.ddb.get_item(TableName=self.table, Key={"pk": S(pk)},
                                 ConsistentRead=True).get("Item")

    def update(self, pk, expr, values=None, names=None, **kw):
        args = dict(TableName=self.table, Key={"pk": S(pk)}, UpdateExpression=expr)
        if values is not None:
            args["ExpressionAttributeValues"] = values
        if names is not None:
            args["ExpressionAttributeNames"] = names
        args.update(kw)
        r = self.ddb.update_item(**args)
        r.pop("ResponseMetadata", None)
        return r

    def assertUpdateError(self, pk, expr, message, values=None, names=None,
                          code="ValidationException", **kw):
        with self.assertRaises(ClientError) as cm:
            self.update(pk, expr, values, names, **kw)
        err = cm.exception.response["Error"]
        self.assertEqual(err.get("Code"), code, "error was %r" % (err,))
        self.assertEqual(err.get("Message"), message, "error was %r" % (err,))
        return cm.exception.response

    def assertUpdateErrorPrefix(self, pk, expr, prefix, values=None, names=None):
        with self.assertRaises(ClientError) as cm:
            self.update(pk, expr, values, names)
        err = cm.exception.response["Error"]
        self.assertEqual(err.get("Code"), "ValidationException", "error was %r" % (err,))
        self.assertTrue(err.get("Message", "").startswith(prefix), "error was %r" % (err,))
        return err["Message"]


class SetClause(UpdateItemBase):

    def test_set_creates_and_replaces(self):
        k = self.key()
        self.put(k, a=N(1))
        self.update(k, "SET a = :a, b = :b", {":a": S("x"), ":b": L(N(1), S("y"))})
        self.assertEqual(self.get(k), {"pk": S(k), "a": S("x"), "b": L(N(1), S("y"))})

    def test_set_every_type(self):
        k = self.key()
        values = {":s": S("s"), ":n": N("1.5"), ":b": {"B": b"\x00\x01"}, ":t": {"BOOL": False},
                  ":z": {"NULL": True}, ":ss": {"SS": ["a", "b"]}, ":ns": {"NS": ["1", "2"]},
                  ":bs": {"BS": [b"\x01"]}, ":l": L(S("x")), ":m": M(k=N(2))}
        self.update(k, "SET s = :s, n = :n, b = :b, t = :t, z = :z, ss = :ss, ns = :ns, "
                       "bs = :bs, l = :l, m = :m", values)
        item = self.get(k)
        self.assertEqual(item["s"], S("s"))
        self.assertEqual(item["n"], N("1.5"))
        self.assertEqual(item["b"], {"B": b"\x00\x01"})
        self.assertEqual(item["t"], {"BOOL": False})
        self.assertEqual(item["z"], {"NULL": True})
        self.assertEqual(sorted(item["ss"]["SS"]), ["a", "b"])
        self.assertEqual(sorted(item["ns"]["NS"]), ["1", "2"])
        self.assertEqual(item["bs"], {"BS": [b"\x01"]})
        self.assertEqual(item["l"], L(S("x")))
        self.assertEqual(item["m"], M(k=N(2)))

    def test_set_plus_and_minus(self):
        k = self.key()
        self.put(k, n=N(10), d=N(3))
        self.update(k, "SET a = n + :v, b = n - :v, c = :v - n, e = n - d, f = :v + :v",
                    {":v": N(4)})
        item = self.get(k)
        self.assertEqual(item["a"], N(14))
        self.assertEqual(item["b"], N(6))
        self.assertEqual(item["c"], N(-6))
        self.assertEqual(item["e"], N(7))
        self.assertEqual(item["f"], N(8))

    def test_set_increment_in_place(self):
        k = self.key()
        self.put(k, n=N(0))
        for _ in range(5):
            self.update(k, "SET n = n + :one", {":one": N(1)})
        self.assertEqual(self.get(k)["n"], N(5))

    def test_if_not_exists(self):
        k = self.key()
        self.put(k, a=N(1))
        self.update(k, "SET a = if_not_exists(a, :z), b = if_not_exists(b, :z)", {":z": N(0)})
        item = self.get(k)
        self.assertEqual(item["a"], N(1))
        self.assertEqual(item["b"], N(0))

    def test_if_not_exists_counter_upsert(self):
        k = self.key()
        for _ in range(3):
            self.update(k, "SET c = if_not_exists(c, :zero) + :one", {":zero": N(0), ":one": N(1)})
        self.assertEqual(self.get(k)["c"], N(3))

    def test_if_not_exists_nested(self):
        k = self.key()
        self.put(k, m=M(x=N(1)))
        self.update(k, "SET m.x = if_not_exists(m.x, :v), m.y = if_not_exists(m.y, :v)",
                    {":v": N(9)})
        self.assertEqual(self.get(k)["m"], M(x=N(1), y=N(9)))

    def test_list_append(self):
        k = self.key()
        self.put(k, l=L(N(1), N(2)))
        self.update(k, "SET l = list_append(l, :tail)", {":tail": L(N(3))})
        self.assertEqual(self.get(k)["l"], L(N(1), N(2), N(3)))
        self.update(k, "SET l = list_append(:head, l)", {":head": L(S("a"), S("b"))})
        self.assertEqual(self.get(k)["l"], L(S("a"), S("b"), N(1), N(2), N(3)))

    def test_list_append_with_if_not_exists(self):
        k = self.key()
        for i in range(2):
            self.update(k, "SET l = list_append(if_not_exists(l, :empty), :x)",
                        {":empty": L(), ":x": L(N(i))})
        self.assertEqual(self.get(k)["l"], L(N(0), N(1)))

    def test_nested_paths(self):
        k = self.key()
        self.put(k, a=M(b=L(N(0), N(1), M(c=S("old")))))
        self.update(k, "SET a.b[2].c = :v, a.b[0] = :w, a.d = :w", {":v": S("new"), ":w": N(7)})
        self.assertEqual(self.get(k)["a"], M(b=L(N(7), N(1), M(c=S("new"))), d=N(7)))

    def test_names_in_paths(self):
        k = self.key()
        self.put(k, m=M(**{"a.b": N(1)}))
        # '#n' stands for one attribute name, dots and all.
        self.update(k, "SET #m.#ab = :v, #top = :v", {":v": N(2)},
                    {"#m": "m", "#ab": "a.b", "#top": "x.y"})
        item = self.get(k)
        self.assertEqual(item["m"], M(**{"a.b": N(2)}))
        self.assertEqual(item["x.y"], N(2))

    def test_pre_image_semantics_swap(self):
        k = self.key()
        self.put(k, a=S("A"), b=S("B"))
        self.update(k, "SET a = b, b = a")
        item = self.get(k)
        self.assertEqual(item["a"], S("B"))
        self.assertEqual(item["b"], S("A"))

    def test_pre_image_semantics_arithmetic(self):
        k = self.key()
        self.put(k, a=N(1), b=N(10))
        self.update(k, "SET a = b + :one, b = a + :one", {":one": N(1)})
        item = self.get(k)
        self.assertEqual(item["a"], N(11))
        self.assertEqual(item["b"], N(2))

    def test_list_index_out_of_range_appends(self):
        k = self.key()
        self.put(k, l=L(N(0), N(1), N(2)))
        self.update(k, "SET l[10] = :v", {":v": S("x")})
        self.assertEqual(self.get(k)["l"], L(N(0), N(1), N(2), S("x")))

    def test_list_index_several_out_of_range_in_order(self):
        k = self.key()
        self.put(k, l=L(N(0)))
        self.update(k, "SET l[8] = :b, l[5] = :a", {":a": S("a"), ":b": S("b")})
        self.assertEqual(self.get(k)["l"], L(N(0), S("a"), S("b")))

    def test_clauses_in_any_order(self):
        k = self.key()
        self.put(k, a=N(1), r=N(1), ss={"SS": ["x", "y"]})
        self.update(k, "DELETE ss :d ADD n :one REMOVE r SET a = :two",
                    {":d": {"SS": ["x"]}, ":one": N(1), ":two": N(2)})
        self.assertEqual(self.get(k), {"pk": S(k), "a": N(2), "n": N(1), "ss": {"SS": ["y"]}})

    def test_keywords_case_insensitive(self):
        k = self.key()
        self.update(k, "set a = :v remove b add c :v", {":v": N(1)})
        self.assertEqual(self.get(k), {"pk": S(k), "a": N(1), "c": N(1)})


class Upsert(UpdateItemBase):

    def test_update_missing_key_creates_item(self):
        k = self.key()
        self.assertIsNone(self.get(k))
        self.update(k, "SET a = :v", {":v": S("x")})
        self.assertEqual(self.get(k), {"pk": S(k), "a": S("x")})

    def test_add_on_missing_item_creates_it(self):
        k = self.key()
        self.update(k, "ADD n :v, s :s", {":v": N(5), ":s": {"SS": ["a"]}})
        self.assertEqual(self.get(k), {"pk": S(k), "n": N(5), "s": {"SS": ["a"]}})

    def test_upsert_with_composite_key(self):
        t = self.unique("comp")
        self.ddb.create_table(
            TableName=t,
            AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "S"},
                                  {"AttributeName": "r", "AttributeType": "N"}],
            KeySchema=[{"AttributeName": "h", "KeyType": "HASH"},
                       {"AttributeName": "r", "KeyType": "RANGE"}],
            BillingMode="PAY_PER_REQUEST")
        self.ddb.update_item(TableName=t, Key={"h": S("x"), "r": N(1)},
                             UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": N(1)})
        item = self.ddb.get_item(TableName=t, Key={"h": S("x"), "r": N(1)})["Item"]
        self.assertEqual(item, {"h": S("x"), "r": N(1), "v": N(1)})
        with self.assertRaises(ClientError) as cm:
            self.ddb.update_item(TableName=t, Key={"h": S("x"), "r": N(1)},
                                 UpdateExpression="SET r = :v", ExpressionAttributeValues={":v": N(2)})
        self.assertEqual(cm.exception.response["Error"]["Message"],
                         "One or more parameter values were invalid: Cannot update attribute r. "
                         "This attribute is part of the key")


class RemoveClause(UpdateItemBase):

    def test_remove_top_level(self):
        k = self.key()
        self.put(k, a=N(1), b=N(2), c=N(3))
        self.update(k, "REMOVE a, c, notthere")
        self.assertEqual(self.get(k), {"pk": S(k), "b": N(2)})

    def test_remove_nested_map_attr(self):
        k = self.key()
        self.put(k, m=M(x=N(1), y=M(z=N(2), w=N(3))))
        self.update(k, "REMOVE m.x, m.y.z, m.nothere")
        self.assertEqual(self.get(k)["m"], M(y=M(w=N(3))))

    def test_remove_list_elements_uses_pre_image_indexes(self):
        k = self.key()
        self.put(k, l=L(N(0), N(1), N(2), N(3), N(4)))
        self.update(k, "REMOVE l[1], l[3]")
        self.assertEqual(self.get(k)["l"], L(N(0), N(2), N(4)))

    def test_remove_list_element_out_of_range_is_noop(self):
        k = self.key()
        self.put(k, l=L(N(0)))
        self.update(k, "REMOVE l[5]")
        self.assertEqual(self.get(k)["l"], L(N(0)))

    def test_remove_inside_list_element(self):
        k = self.key()
        self.put(k, l=L(M(a=N(1), b=N(2))))
        self.update(k, "REMOVE l[0].a")
        self.assertEqual(self.get(k)["l"], L(M(b=N(2))))

    def test_remove_through_missing_parent_is_invalid(self):
        k = self.key()
        self.put(k, m=M(x=N(1)))
        self.assertUpdateError(k, "REMOVE m.y.z", INVALID_PATH)
        self.assertUpdateError(k, "REMOVE nothere.y", INVALID_PATH)


class AddClause(UpdateItemBase):

    def test_add_number(self):
        k = self.key()
        self.put(k, n=N(5))
        self.update(k, "ADD n :v", {":v": N(-7)})
        self.assertEqual(self.get(k)["n"], N(-2))

    def test_add_number_creates_attribute(self):
        k = self.key()
        self.put(k)
        self.update(k, "ADD n :v", {":v": N("2.5")})
        self.assertEqual(self.get(k)["n"], N("2.5"))

    def test_add_to_sets(self):
        k = self.key()
        self.put(k, ss={"SS": ["a"]}, ns={"NS": ["1"]}, bs={"BS": [b"\x01"]})
        self.update(k, "ADD ss :ss, ns :ns, bs :bs",
                    {":ss": {"SS": ["a", "b"]}, ":ns": {"NS": ["2", "3"]}, ":bs": {"BS": [b"\x02"]}})
        item = self.get(k)
        self.assertEqual(sorted(item["ss"]["SS"]), ["a", "b"])
        self.assertEqual(sorted(item["ns"]["NS"]), ["1", "2", "3"])
        self.assertEqual(sorted(item["bs"]["BS"]), [b"\x01", b"\x02"])

    def test_add_set_creates_attribute(self):
        k = self.key()
        self.put(k)
        self.update(k, "ADD s :s", {":s": {"NS": ["7"]}})
        self.assertEqual(self.get(k)["s"], {"NS": ["7"]})

    def test_add_wrong_operand_type(self):
        k = self.key()
        self.assertUpdateError(k, "ADD n :v",
                               "Invalid UpdateExpression: Incorrect operand type for operator or "
                               "function; operator: ADD, operand type: STRING", {":v": S("1")})
        self.assertUpdateError(k, "ADD n :v",
                               "Invalid UpdateExpression: Incorrect operand type for operator or "
                               "function; operator: ADD, operand type: LIST", {":v": L(N(1))})

    def test_add_set_to_mismatched_attribute(self):
        k = self.key()
        self.put(k, ss={"SS": ["a"]}, s=S("str"))
        self.assertUpdateError(k, "ADD ss :v", BAD_OPERAND, {":v": {"NS": ["1"]}})
        self.assertUpdateError(k, "ADD s :v", BAD_OPERAND, {":v": N(1)})
        self.assertEqual(self.get(k)["ss"], {"SS": ["a"]})


class DeleteClause(UpdateItemBase):

    def test_delete_from_set(self):
        k = self.key()
        self.put(k, ss={"SS": ["a", "b", "c"]})
        self.update(k, "DELETE ss :d", {":d": {"SS": ["a", "c", "zz"]}})
        self.assertEqual(self.get(k)["ss"], {"SS": ["b"]})

    def test_delete_emptying_set_removes_attribute(self):
        k = self.key()
        self.put(k, ns={"NS": ["1", "2"]}, x=N(1))
        self.update(k, "DELETE ns :d", {":d": {"NS": ["1", "2"]}})
        self.assertEqual(self.get(k), {"pk": S(k), "x": N(1)})

    def test_delete_from_missing_attribute_is_noop(self):
        k = self.key()
        self.put(k, x=N(1))
        self.update(k, "DELETE nothere :d", {":d": {"SS": ["a"]}})
        self.assertEqual(self.get(k), {"pk": S(k), "x": N(1)})

    def test_delete_wrong_operand_type(self):
        k = self.key()
        self.put(k, ss={"SS": ["a"]})
        self.assertUpdateError(k, "DELETE ss :d",
                               "Invalid UpdateExpression: Incorrect operand type for operator or "
                               "function; operator: DELETE, operand type: NUMBER", {":d": N(1)})

    def test_delete_set_of_other_type(self):
        k = self.key()
        self.put(k, ss={"SS": ["a"]})
        self.assertUpdateError(k, "DELETE ss :d", BAD_OPERAND, {":d": {"NS": ["1"]}})


class Decimals(UpdateItemBase):

    def test_point_one_plus_point_two(self):
        k = self.key()
        self.put(k, a=N("0.1"))
        self.update(k, "SET a = a + :b", {":b": N("0.2")})
        self.assertEqual(self.get(k)["a"], N("0.3"))

    def test_add_decimal(self):
        k = self.key()
        self.put(k, a=N("0.1"))
        for _ in range(9):
            self.update(k, "ADD a :b", {":b": N("0.1")})
        self.assertEqual(self.get(k)["a"], N("1"))

    def test_canonical_results(self):
        k = self.key()
        self.update(k, "SET a = :x + :y, b = :x - :x, c = :big - :small",
                    {":x": N("1.25"), ":y": N("1.75"), ":big": N("10"), ":small": N("0.5")})
        item = self.get(k)
        self.assertEqual(item["a"], N("3"))
        self.assertEqual(item["b"], N("0"))
        self.assertEqual(item["c"], N("9.5"))

    def test_38_digits_exact(self):
        k = self.key()
        self.update(k, "SET a = :x + :one, b = :nines + :one, c = :neg - :one",
                    {":x": N("12345678901234567890123456789012345678"), ":one": N("1"),
                     ":nines": N("99999999999999999999999999999999999999"),
                     ":neg": N("-0.0000000000000000000000000000000000001")})
        item = self.get(k)
        self.assertEqual(item["a"], N("12345678901234567890123456789012345679"))
        self.assertEqual(item["b"], N("100000000000000000000000000000000000000"))
        self.assertEqual(item["c"], N("-1.0000000000000000000000000000000000001"))

    def test_result_beyond_38_digits_is_an_error(self):
        k = self.key()
        self.put(k, a=N("1E+50"))
        # DynamoDB answers an inexact sum with its overflow message.
        self.assertUpdateError(k, "SET a = a + :one", OVERFLOW, {":one": N("1")})
        self.assertUpdateError(k, "SET b = :x - :one", OVERFLOW,
                               {":x": N("1E+50"), ":one": N("1")})
        self.assertEqual(self.get(k)["a"], N("100000000000000000000000000000000000000000000000000"))

    def test_result_beyond_range_is_an_error(self):
        k = self.key()
        self.assertUpdateError(k, "SET a = :x + :x", OVERFLOW, {":x": N("9E+125")})
        self.assertUpdateError(k, "SET a = :x - :y", OVERFLOW, {":x": N("9E+125"), ":y": N("-9E+125")})

    def test_value_with_39_digits_is_rejected(self):
        k = self.key()
        self.assertUpdateError(
            k, "SET a = :a",
            "ExpressionAttributeValues contains invalid value: Attempting to store more than "
            "38 significant digits in a Number for key :a",
            {":a": N("1.00000000000000000000000000000000000001")})


class ReturnValues(UpdateItemBase):

    def setUp(self):
        self.k = self.key()
        self.put(self.k, a=N(1), b=S("keep"), m=M(x=N(1), y=N(2)), r=S("gone"))

    def run_update(self, mode):
        return self.update(self.k, "SET a = a + :one, m.x = :v, c = :v REMOVE r",
                           {":one": N(1), ":v": S("new")}, ReturnValues=mode)

    def test_none(self):
        self.assertEqual(self.run_update("NONE"), {})

    def test_default_is_none(self):
        r = self.update(self.k, "SET a = :v", {":v": N(9)})
        self.assertNotIn("Attributes", r)

    def test_all_old(self):
        r = self.run_update("ALL_OLD")
        self.assertEqual(r["Attributes"], {"pk": S(self.k), "a": N(1), "b": S("keep"),
                                           "m": M(x=N(1), y=N(2)), "r": S("gone")})

    def test_all_new(self):
        r = self.run_update("ALL_NEW")
        self.assertEqual(r["Attributes"], {"pk": S(self.k), "a": N(2), "b": S("keep"),
                                           "m": M(x=S("new"), y=N(2)), "c": S("new")})

    def test_updated_old(self):
        r = self.run_update("UPDATED_OLD")
        # Only what the update touched, as it was; c did not exist before.
        self.assertEqual(r["Attributes"], {"a": N(1), "m": M(x=N(1)), "r": S("gone")})

    def test_updated_new(self):
        r = self.run_update("UPDATED_NEW")
        # Only what the update touched, as it is now; r was removed.
        self.assertEqual(r["Attributes"], {"a": N(2), "m": M(x=S("new")), "c": S("new")})

    def test_old_modes_on_upsert_return_nothing(self):
        for mode in ("ALL_OLD", "UPDATED_OLD"):
            r = self.update(self.key(), "SET a = :v", {":v": N(1)}, ReturnValues=mode)
            self.assertNotIn("Attributes", r, mode)

    def test_new_modes_on_upsert(self):
        k = self.key()
        r = self.update(k, "SET a = :v", {":v": N(1)}, ReturnValues="ALL_NEW")
        self.assertEqual(r["Attributes"], {"pk": S(k), "a": N(1)})
        r = self.update(self.key(), "SET a = :v", {":v": N(1)}, ReturnValues="UPDATED_NEW")
        self.assertEqual(r["Attributes"], {"a": N(1)})

    def test_invalid_mode(self):
        self.assertUpdateError(
            self.k, "SET a = :v",
            "1 validation error detected: Value 'BOGUS' at 'returnValues' failed to satisfy "
            "constraint: Member must satisfy enum value set: "
            "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
            {":v": N(1)}, ReturnValues="BOGUS")

    def test_condition_failure_returns_item(self):
        with self.assertRaises(ClientError) as cm:
            self.update(self.k, "SET a = :v", {":v": N(5), ":no": N(100)},
                        ConditionExpression="a = :no",
                        ReturnValuesOnConditionCheckFailure="ALL_OLD")
        resp = cm.exception.response
        self.assertEqual(resp["Error"]["Code"], "ConditionalCheckFailedException")
        self.assertEqual(resp["Error"]["Message"], "The conditional request failed")
        self.assertEqual(resp["Item"], {"pk": S(self.k), "a": N(1), "b": S("keep"),
                                        "m": M(x=N(1), y=N(2)), "r": S("gone")})

    def test_condition_failure_without_return_has_no_item(self):
        with self.assertRaises(ClientError) as cm:
            self.update(self.k, "SET a = :v", {":v": N(5), ":no": N(100)},
                        ConditionExpression="a = :no")
        self.assertNotIn("Item", cm.exception.response)
        self.assertEqual(self.get(self.k)["a"], N(1))


class Errors(UpdateItemBase):

    def setUp(self):
        self.k = self.key()
        self.put(self.k, n=N(1), s=S("str"), l=L(N(1), N(2)), m=M(x=N(1)))

    def test_update_key_attribute(self):
        self.assertUpdateError(self.k, "SET pk = :v", KEY_MSG, {":v": S("other")})
        self.assertUpdateError(self.k, "REMOVE pk", KEY_MSG)
        self.assertUpdateError(self.k, "SET #k = :v", KEY_MSG, {":v": S("other")}, {"#k": "pk"})

    def test_same_path_twice(self):
        self.assertUpdateError(self.k, "SET a = :v, a = :v", OVERLAP + "path one: [a], path two: [a]",
                               {":v": N(1)})
        self.assertUpdateError(self.k, "SET a = :v REMOVE a", OVERLAP + "path one: [a], path two: [a]",
                               {":v": N(1)})

    def test_overlapping_paths(self):
        msg = self.assertUpdateErrorPrefix(self.k, "SET m.x = :v REMOVE m", OVERLAP, {":v": N(1)})
        self.assertIn("[m, x]", msg)
        self.assertIn("[m]", msg)
        msg = self.assertUpdateErrorPrefix(self.k, "SET a = :v, a.b = :v", OVERLAP, {":v": N(1)})
        self.assertIn("[a, b]", msg)

    def test_conflicting_paths(self):
        self.assertUpdateErrorPrefix(self.k, "SET m.x = :v, m[0] = :v", CONFLICT, {":v": N(1)})

    def test_sibling_paths_are_fine(self):
        self.update(self.k, "SET m.y = :v, m.z = :v, l[0] = :v, l[1] = :v", {":v": N(5)})
        self.assertEqual(self.get(self.k)["l"], L(N(5), N(5)))

    def test_attribute_not_in_item(self):
        self.assertUpdateError(self.k, "SET a = nothere + :v", NOT_IN_ITEM, {":v": N(1)})
        self.assertUpdateError(self.k, "SET a = nothere", NOT_IN_ITEM)
        self.assertUpdateError(self.k, "SET a = list_append(nothere, :v)", NOT_IN_ITEM, {":v": L()})
        self.assertUpdateError(self.key(), "SET a = a + :v", NOT_IN_ITEM, {":v": N(1)})

    def test_invalid_document_path_for_update(self):
        self.assertUpdateError(self.k, "SET nothere.x = :v", INVALID_PATH, {":v": N(1)})
        self.assertUpdateError(self.k, "SET m.y.z = :v", INVALID_PATH, {":v": N(1)})
        self.assertUpdateError(self.k, "SET m[0] = :v", INVALID_PATH, {":v": N(1)})
        self.assertUpdateError(self.k, "SET s.x = :v", INVALID_PATH, {":v": N(1)})
        self.assertUpdateError(self.k, "SET l.x = :v", INVALID_PATH, {":v": N(1)})
        self.assertEqual(self.get(self.k)["m"], M(x=N(1)))

    def test_incorrect_operand_type(self):
        self.assertUpdateError(self.k, "SET s = s + :v", BAD_OPERAND, {":v": N(1)})
        self.assertUpdateError(self.k, "SET a = n - s", BAD_OPERAND)
        self.assertUpdateError(self.k, "SET a = list_append(m, :v)", BAD_OPERAND, {":v": L()})
        self.assertUpdateError(self.k, "SET a = list_append(:v, n)", BAD_OPERAND, {":v": L()})

    def test_incorrect_operand_type_static(self):
        self.assertUpdateError(self.k, "SET a = :s + :n",
                               "Invalid UpdateExpression: Incorrect operand type for operator or "
                               "function; operator or function: +, operand type: S",
                               {":s": S("x"), ":n": N(1)})
        self.assertUpdateError(self.k, "SET a = list_append(:m, :l)",
                               "Invalid UpdateExpression: Incorrect operand type for operator or "
                               "function; operator or function: list_append, operand type: M",
                               {":m": M(), ":l": L()})

    def test_if_not_exists_needs_a_path(self):
        self.assertUpdateError(self.k, "SET a = if_not_exists(:v, :v)",
                               "Invalid UpdateExpression: Operator or function requires a document "
                               "path; operator or function: if_not_exists", {":v": N(1)})

    def test_unknown_function(self):
        self.assertUpdateError(self.k, "SET a = foo(:v)",
                               "Invalid UpdateExpression: Invalid function name; function: foo",
                               {":v": N(1)})

    def test_syntax_errors(self):
        cases = [
            ("ADD hits : incr", {":incr": N(1)}, ":", "hits : incr"),
            ("INVALID SYNTAX HERE", None, "INVALID", "INVALID SYNTAX"),
            ("SET a = :v +", {":v": N(1)}, "<EOF>", "+"),
            ("SET a = :v + :v + :v", {":v": N(1)}, "+", ":v + :v"),
            ("SET a :v", {":v": N(1)}, ":v", "a :v"),
            ("SET a = :v,", {":v": N(1)}, "<EOF>", ","),
            ("REMOVE", None, "<EOF>", "REMOVE"),
        ]
        for expr, values, token, near in cases:
            with self.subTest(expr=expr):
                self.assertUpdateError(
                    self.k, expr,
                    'Invalid UpdateExpression: Syntax error; token: "%s", near: "%s"' % (token, near),
                    values)

    def test_empty_expression(self):
        self.assertUpdateError(self.k, "", "Invalid UpdateExpression: The expression can not be empty;")

    def test_reserved_words(self):
        for word in ("name", "status", "data", "count", "timestamp", "size"):
            with self.subTest(word=word):
                self.assertUpdateError(
                    self.k, "SET %s = :v" % word,
                    "Invalid UpdateExpression: Attribute name is a reserved keyword; "
                    "reserved keyword: %s" % word, {":v": N(1)})
        self.assertUpdateError(
            self.k, "REMOVE m.value",
            "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: value")
        # With a #name it works.
        self.update(self.k, "SET #n = :v", {":v": S("ok")}, {"#n": "name"})
        self.assertEqual(self.get(self.k)["name"], S("ok"))

    def test_undefined_name(self):
        self.assertUpdateError(
            self.k, "SET #n = :v",
            "Invalid UpdateExpression: An expression attribute name used in the document path is "
            "not defined; attribute name: #n", {":v": N(1)})
        self.assertUpdateError(
            self.k, "SET #a = :v",
            "Invalid UpdateExpression: An expression attribute name used in the document path is "
            "not defined; attribute name: #a", {":v": N(1)}, {"#b": "b"})

    def test_undefined_value(self):
        self.assertUpdateError(
            self.k, "SET a = :w",
            "Invalid UpdateExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :w", {":v": N(1)})
        self.assertUpdateError(
            self.k, "SET a = :w",
            "Invalid UpdateExpression: An expression attribute value used in expression is not "
            "defined; attribute value: :w")

    def test_unused_value(self):
        self.assertUpdateError(
            self.k, "SET a = :v",
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}",
            {":v": N(1), ":x": N(2)})

    def test_unused_name(self):
        self.assertUpdateError(
            self.k, "SET a = :v",
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}",
            {":v": N(1)}, {"#x": "x"})

    def test_empty_substitution_maps(self):
        self.assertUpdateError(self.k, "REMOVE a", "ExpressionAttributeValues must not be empty", {})
        self.assertUpdateError(self.k, "REMOVE a", "ExpressionAttributeNames must not be empty", None, {})

    def test_malformed_substitution_keys(self):
        self.assertUpdateError(self.k, "SET n = :v",
                               'ExpressionAttributeValues contains invalid key: Syntax error; key: "v"',
                               {"v": N(1)})
        self.assertUpdateError(self.k, "SET #n = :v",
                               'ExpressionAttributeNames contains invalid key: Syntax error; key: "n"',
                               {":v": N(1)}, {"n": "x"})

    def test_same_clause_twice(self):
        for clause, expr in (("SET", "SET a = :v SET b = :v"),
                             ("REMOVE", "REMOVE a REMOVE b"),
                             ("ADD", "ADD a :v SET c = :v ADD b :v"),
                             ("DELETE", "DELETE a :s DELETE b :s")):
            values = {":s": {"SS": ["x"]}} if clause == "DELETE" else {":v": N(1)}
            with self.subTest(clause=clause):
                self.assertUpdateError(
                    self.k, expr,
                    'Invalid UpdateExpression: The "%s" section can only be used once in an '
                    'update expression;' % clause, values)

    def test_failed_update_changes_nothing(self):
        before = self.get(self.k)
        self.assertUpdateError(self.k, "SET a = :v, b = nothere", NOT_IN_ITEM, {":v": N(1)})
        self.assertEqual(self.get(self.k), before)

    def test_server_keeps_serving(self):
        self.assertServing()


class ThroughCli(UpdateItemBase):

    def assertCliError(self, stderr, code, message):
        # The CLI may add " (reached max retries: N)" after the operation name.
        pattern = (r"An error occurred \(%s\) when calling the UpdateItem operation"
                   r"( \(reached max retries: \d+\))?: " % code) + re.escape(message)
        self.assertRegex(stderr, pattern)

    def cli_update(self, pk, *args):
        return self.server.aws("dynamodb", "update-item", "--table-name", self.table,
                               "--key", json.dumps({"pk": S(pk)}), *args)

    def test_cli_update_all_new(self):
        k = self.key()
        rc, out, err = self.cli_update(
            k, "--update-expression", "SET n = if_not_exists(n, :z) + :one, #nm = :s",
            "--expression-attribute-names", json.dumps({"#nm": "name"}),
            "--expression-attribute-values", json.dumps({":z": N(0), ":one": N(1), ":s": S("x")}),
            "--return-values", "ALL_NEW")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Attributes"], {"pk": S(k), "n": N(1), "name": S("x")})
        rc, out, err = self.cli_update(
            k, "--update-expression", "ADD n :one", "--expression-attribute-values",
            json.dumps({":one": N(1)}), "--return-values", "UPDATED_NEW")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Attributes"], {"n": N(2)})

    def test_cli_reserved_word_error(self):
        k = self.key()
        rc, out, err = self.cli_update(k, "--update-expression", "SET name = :s",
                                       "--expression-attribute-values", json.dumps({":s": S("x")}))
        self.assertNotEqual(rc, 0)
        self.assertCliError(err, "ValidationException",
                            "Invalid UpdateExpression: Attribute name is a reserved keyword; "
                            "reserved keyword: name")

    def test_cli_key_update_error(self):
        k = self.key()
        rc, out, err = self.cli_update(k, "--update-expression", "SET pk = :s",
                                       "--expression-attribute-values", json.dumps({":s": S("x")}))
        self.assertNotEqual(rc, 0)
        self.assertCliError(err, "ValidationException", KEY_MSG)

    def test_cli_conditional_failure(self):
        k = self.key()
        self.put(k, n=N(1))
        rc, out, err = self.cli_update(k, "--update-expression", "SET n = :v",
                                       "--condition-expression", "n = :old",
                                       "--expression-attribute-values",
                                       json.dumps({":v": N(2), ":old": N(5)}))
        self.assertNotEqual(rc, 0)
        self.assertCliError(err, "ConditionalCheckFailedException", "The conditional request failed")
        self.assertEqual(self.get(k)["n"], N(1))


if __name__ == "__main__":
    unittest.main()
