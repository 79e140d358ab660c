"""CreateTable, DescribeTable, ListTables, DeleteTable through boto3, raw HTTP and the AWS CLI."""

import datetime
import re
import time
import unittest

from harness import ServerTestCase

VALIDATION = "ValidationException"
ATTR_PK_S = [{"AttributeName": "pk", "AttributeType": "S"}]
KEY_PK = [{"AttributeName": "pk", "KeyType": "HASH"}]


class CreateAndDescribe(ServerTestCase):

    def test_hash_key_pay_per_request(self):
        resp = self.ddb.create_table(TableName="hash-ppr", AttributeDefinitions=ATTR_PK_S,
                                     KeySchema=KEY_PK, BillingMode="PAY_PER_REQUEST")
        desc = resp["TableDescription"]
        self.assertEqual(desc["TableName"], "hash-ppr")
        self.assertIn(desc["TableStatus"], ("CREATING", "ACTIVE"))
        self.assertEqual(desc["KeySchema"], KEY_PK)
        self.assertEqual(desc["AttributeDefinitions"], ATTR_PK_S)
        self.assertEqual(desc["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        self.assertEqual(desc["ItemCount"], 0)
        self.assertEqual(desc["TableSizeBytes"], 0)

        table = self.ddb.describe_table(TableName="hash-ppr")["Table"]
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["TableName"], "hash-ppr")
        self.assertRegex(table["TableArn"],
                         r"^arn:aws:dynamodb:us-east-1:\d{12}:table/hash-ppr$")
        self.assertIsInstance(table["CreationDateTime"], datetime.datetime)
        now = datetime.datetime.now(datetime.timezone.utc)
        self.assertLess(abs((now - table["CreationDateTime"]).total_seconds()), 120)
        self.assertEqual(table["KeySchema"], KEY_PK)
        self.assertEqual(table["AttributeDefinitions"], ATTR_PK_S)
        self.assertEqual(table["ItemCount"], 0)
        self.assertEqual(table["TableSizeBytes"], 0)
        self.assertEqual(table["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST")
        pt = table["ProvisionedThroughput"]
        self.assertEqual(pt["ReadCapacityUnits"], 0)
        self.assertEqual(pt["WriteCapacityUnits"], 0)
        self.assertEqual(pt["NumberOfDecreasesToday"], 0)
        self.assertRegex(table.get("TableId", ""), r"^[0-9a-f-]{36}$")

    def test_hash_and_range_provisioned(self):
        attrs = [{"AttributeName": "h", "AttributeType": "N"},
                 {"AttributeName": "r", "AttributeType": "B"}]
        keys = [{"AttributeName": "h", "KeyType": "HASH"},
                {"AttributeName": "r", "KeyType": "RANGE"}]
        self.ddb.create_table(TableName="hr-prov", AttributeDefinitions=attrs, KeySchema=keys,
                              BillingMode="PROVISIONED",
                              ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                     "WriteCapacityUnits": 7})
        table = self.ddb.describe_table(TableName="hr-prov")["Table"]
        self.assertEqual(table["TableStatus"], "ACTIVE")
        self.assertEqual(table["KeySchema"], keys)
        self.assertEqual(sorted(table["AttributeDefinitions"], key=lambda a: a["AttributeName"]),
                         attrs)
        pt = table["ProvisionedThroughput"]
        self.assertEqual((pt["ReadCapacityUnits"], pt["WriteCapacityUnits"]), (5, 7))
        self.assertEqual(pt["NumberOfDecreasesToday"], 0)
        # A provisioned table either has no BillingModeSummary or says PROVISIONED.
        bms = table.get("BillingModeSummary")
        if bms is not None:
            self.assertEqual(bms["BillingMode"], "PROVISIONED")

    def test_provisioned_is_the_default_billing_mode(self):
        self.ddb.create_table(TableName="prov-default", AttributeDefinitions=ATTR_PK_S,
                              KeySchema=KEY_PK,
                              ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                     "WriteCapacityUnits": 1})
        table = self.ddb.describe_table(TableName="prov-default")["Table"]
        self.assertEqual(table["ProvisionedThroughput"]["ReadCapacityUnits"], 1)
        bms = table.get("BillingModeSummary")
        if bms is not None:
            self.assertEqual(bms["BillingMode"], "PROVISIONED")

    def test_table_name_characters_and_lengths(self):
        for name in ("a.b", "A_-.9", "x" * 255):
            with self.subTest(name=name[:20]):
                self.create_table(name)
                self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["TableName"],
                                 name)

    def test_duplicate_table_is_resource_in_use(self):
        self.create_table("dup-table")
        self.assertClientError(self.ddb.create_table, "ResourceInUseException",
                               message="Table already exists: dup-table",
                               TableName="dup-table", AttributeDefinitions=ATTR_PK_S,
                               KeySchema=KEY_PK, BillingMode="PAY_PER_REQUEST")

    def test_item_count_and_size_follow_writes(self):
        name = self.create_table()
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "abc"}, "n": {"N": "1"}})
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "def"}})
        table = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(table["ItemCount"], 2)
        # DynamoDB's item size: name bytes + value bytes. "pk"+"abc"=5, "n"+1 = 1+2,
        # "pk"+"def"=5 -> 13.
        self.assertEqual(table["TableSizeBytes"], 13)
        self.ddb.delete_item(TableName=name, Key={"pk": {"S": "abc"}})
        table = self.ddb.describe_table(TableName=name)["Table"]
        self.assertEqual(table["ItemCount"], 1)
        self.assertEqual(table["TableSizeBytes"], 5)

    def test_waiters(self):
        name = self.create_table()
        self.ddb.get_waiter("table_exists").wait(TableName=name,
                                                 WaiterConfig={"Delay": 1, "MaxAttempts": 10})
        self.ddb.delete_table(TableName=name)
        self.ddb.get_waiter("table_not_exists").wait(TableName=name,
                                                     WaiterConfig={"Delay": 1, "MaxAttempts": 10})


class CreateTableValidation(ServerTestCase):
    """Each request gets DynamoDB's error type and message, and nothing is created."""

    def check(self, message, code=VALIDATION, **kw):
        args = dict(TableName=self.unique("val"), AttributeDefinitions=ATTR_PK_S, KeySchema=KEY_PK,
                    BillingMode="PAY_PER_REQUEST")
        args.update(kw)
        args = {k: v for k, v in args.items() if v is not None}
        status, body = self.server.call("CreateTable", args)
        self.assertEqual(status, 400, body)
        self.assertEqual(body["__type"].split("#")[-1], code, body)
        if code == VALIDATION:
            self.assertEqual(body["__type"], "com.amazon.coral.validate#ValidationException")
        if message is None:
            pass
        elif isinstance(message, re.Pattern):
            self.assertRegex(body.get("message", ""), message)
        else:
            self.assertEqual(body.get("message"), message)
        self.assertNotIn(args.get("TableName") if isinstance(args.get("TableName"), str) else "",
                         self.ddb.list_tables()["TableNames"])

    def test_table_name_too_short(self):
        self.check("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
                   "constraint: Member must have length greater than or equal to 3",
                   TableName="ab")

    def test_table_name_too_long(self):
        name = "n" * 256
        self.check("1 validation error detected: Value '%s' at 'tableName' failed to satisfy "
                   "constraint: Member must have length less than or equal to 255" % name,
                   TableName=name)

    def test_table_name_bad_characters(self):
        self.check("1 validation error detected: Value 'bad name!' at 'tableName' failed to "
                   "satisfy constraint: Member must satisfy regular expression pattern: "
                   "[a-zA-Z0-9_.-]+", TableName="bad name!")

    def test_missing_everything(self):
        # A missing TableName wins, in the control plane's own form.
        status, body = self.server.call("CreateTable", {})
        self.assertEqual(status, 400)
        self.assertEqual(body["__type"], "com.amazon.coral.validate#ValidationException")
        self.assertEqual(body["message"],
                         "The parameter 'TableName' is required but was not present in the request")
        status, body = self.server.call("CreateTable", {"TableName": "no-members"})
        self.assertEqual(status, 400)
        msg = body["message"]
        self.assertTrue(msg.startswith("2 validation errors detected: "), msg)
        self.assertIn("Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be "
                      "null", msg)
        # Absent is null; KeySchema=[] is too short (test_empty_key_schema).
        self.assertIn("Value null at 'keySchema' failed to satisfy constraint: Member must not be null",
                      msg)

    def test_empty_key_schema(self):
        # An empty list is not null: DynamoDB reports its length.
        self.check("1 validation error detected: Value '[]' at 'keySchema' failed to satisfy "
                   "constraint: Member must have length greater than or equal to 1",
                   KeySchema=[])

    def test_three_key_schema_elements(self):
        attrs = [{"AttributeName": n, "AttributeType": "S"} for n in ("a", "b", "c")]
        keys = [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"},
                {"AttributeName": "c", "KeyType": "RANGE"}]
        # DynamoDB prints the list's value (the Java rendering of the elements), not a name.
        self.check(re.compile(r"^1 validation error detected: Value '\[.+\]' at 'keySchema' "
                              r"failed to satisfy constraint: Member must have length less than "
                              r"or equal to 2$"),
                   AttributeDefinitions=attrs, KeySchema=keys)

    def test_bad_key_type(self):
        self.check("1 validation error detected: Value 'PRIMARY' at 'keySchema.1.member.keyType' "
                   "failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
                   KeySchema=[{"AttributeName": "pk", "KeyType": "PRIMARY"}])

    def test_bad_attribute_type(self):
        self.check("1 validation error detected: Value 'SS' at "
                   "'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: "
                   "Member must satisfy enum value set: [B, N, S]",
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "SS"}])

    def test_first_key_not_hash(self):
        self.check("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                   KeySchema=[{"AttributeName": "pk", "KeyType": "RANGE"}])

    def test_second_key_not_range(self):
        self.check("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
                   AttributeDefinitions=ATTR_PK_S + [{"AttributeName": "sk", "AttributeType": "S"}],
                   KeySchema=KEY_PK + [{"AttributeName": "sk", "KeyType": "HASH"}])

    def test_hash_and_range_same_name(self):
        # More keys than definitions is checked first [now] (behaviours.md O8).
        self.check("Invalid KeySchema: Some index key attribute have no definition",
                   KeySchema=KEY_PK + [{"AttributeName": "pk", "KeyType": "RANGE"}])
        self.check("Both the Hash Key and the Range Key element in the KeySchema have the same name",
                   AttributeDefinitions=ATTR_PK_S + [{"AttributeName": "sk", "AttributeType": "S"}],
                   KeySchema=KEY_PK + [{"AttributeName": "pk", "KeyType": "RANGE"}])

    def test_key_attribute_not_defined(self):
        self.check("One or more parameter values were invalid: Some index key attributes are not "
                   "defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]",
                   AttributeDefinitions=[{"AttributeName": "other", "AttributeType": "S"}])

    def test_extra_attribute_definition(self):
        self.check("One or more parameter values were invalid: Number of attributes in KeySchema "
                   "does not exactly match number of attributes defined in AttributeDefinitions",
                   AttributeDefinitions=ATTR_PK_S + [{"AttributeName": "x", "AttributeType": "N"}])

    def test_bad_billing_mode(self):
        self.check("1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy "
                   "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
                   BillingMode="FREE")

    def test_pay_per_request_with_throughput(self):
        self.check("One or more parameter values were invalid: Neither ReadCapacityUnits nor "
                   "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
                   ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})

    def test_provisioned_without_throughput(self):
        self.check("One or more parameter values were invalid: ReadCapacityUnits and "
                   "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
                   BillingMode="PROVISIONED")

    def test_no_billing_mode_and_no_throughput(self):
        # PROVISIONED is the default (2020 record); "No provisioned throughput
        # specified for the table" is DynamoDB Local's text, not DynamoDB's.
        self.check("One or more parameter values were invalid: ReadCapacityUnits and "
                   "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED",
                   BillingMode=None)

    def test_zero_capacity(self):
        self.check("1 validation error detected: Value '0' at "
                   "'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
                   "Member must have value greater than or equal to 1",
                   BillingMode="PROVISIONED",
                   ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 0})

    def test_capacity_out_of_bounds(self):
        self.check("Given value 1000000000001 for ReadCapacityUnits is out of bounds",
                   BillingMode="PROVISIONED",
                   ProvisionedThroughput={"ReadCapacityUnits": 1000000000001,
                                          "WriteCapacityUnits": 1})

    def test_capacity_of_wrong_json_type(self):
        self.check(None, code="SerializationException",
                   BillingMode="PROVISIONED",
                   ProvisionedThroughput={"ReadCapacityUnits": [5], "WriteCapacityUnits": 1})

    def test_server_keeps_serving(self):
        self.check("Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
                   KeySchema=[{"AttributeName": "pk", "KeyType": "RANGE"}])
        self.assertServing()

    def test_boto3_sees_validation_exception(self):
        self.assertClientError(self.ddb.create_table, VALIDATION,
                               message="Both the Hash Key and the Range Key element in the "
                                       "KeySchema have the same name",
                               TableName="boto-val",
                               AttributeDefinitions=ATTR_PK_S + [{"AttributeName": "sk", "AttributeType": "S"}],
                               KeySchema=KEY_PK + [{"AttributeName": "pk", "KeyType": "RANGE"}],
                               BillingMode="PAY_PER_REQUEST")


class ListTables(ServerTestCase):

    NAMES = ["lt-%02d" % i for i in range(12)]

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # Created out of order; listed in order.
        for name in reversed(cls.NAMES):
            cls.ddb.create_table(TableName=name, AttributeDefinitions=ATTR_PK_S, KeySchema=KEY_PK,
                                 BillingMode="PAY_PER_REQUEST")

    def test_all_sorted(self):
        resp = self.ddb.list_tables()
        self.assertEqual(resp["TableNames"], self.NAMES)
        self.assertNotIn("LastEvaluatedTableName", resp)

    def test_paging_with_limit(self):
        seen, start, pages = [], None, 0
        while True:
            args = {"Limit": 5}
            if start:
                args["ExclusiveStartTableName"] = start
            resp = self.ddb.list_tables(**args)
            pages += 1
            self.assertLessEqual(len(resp["TableNames"]), 5)
            seen += resp["TableNames"]
            start = resp.get("LastEvaluatedTableName")
            if not start:
                break
            self.assertEqual(start, resp["TableNames"][-1])
            self.assertLess(pages, 10)
        self.assertEqual(seen, self.NAMES)
        self.assertEqual(pages, 3)

    def test_limit_equal_to_count(self):
        resp = self.ddb.list_tables(Limit=12)
        self.assertEqual(resp["TableNames"], self.NAMES)
        # A full last page may or may not say LastEvaluatedTableName; when it does,
        # it names the last table and the next page is empty.
        self.assertIn(resp.get("LastEvaluatedTableName"), (None, "lt-11"))
        resp = self.ddb.list_tables(ExclusiveStartTableName="lt-11")
        self.assertEqual(resp["TableNames"], [])
        self.assertNotIn("LastEvaluatedTableName", resp)

    def test_exclusive_start_not_a_table(self):
        resp = self.ddb.list_tables(ExclusiveStartTableName="lt-05x")
        self.assertEqual(resp["TableNames"], self.NAMES[6:])

    def test_paginator(self):
        pages = list(self.ddb.get_paginator("list_tables").paginate(PaginationConfig={"PageSize": 4}))
        self.assertEqual(len(pages), 3)
        self.assertEqual([n for p in pages for n in p["TableNames"]], self.NAMES)

    def test_limit_bounds(self):
        # boto3 checks the minimum itself, so send these raw.
        for limit, msg in ((0, "1 validation error detected: Value '0' at 'limit' failed to "
                               "satisfy constraint: Member must have value greater than or "
                               "equal to 1"),
                           (101, "1 validation error detected: Value '101' at 'limit' failed to "
                                 "satisfy constraint: Member must have value less than or "
                                 "equal to 100")):
            status, body = self.server.call("ListTables", {"Limit": limit})
            self.assertEqual(status, 400)
            self.assertEqual(body, {"__type": "com.amazon.coral.validate#ValidationException",
                                    "message": msg})
        status, body = self.server.call("ListTables", {"ExclusiveStartTableName": "ab"})
        self.assertEqual(status, 400)
        self.assertEqual(body["message"], "1 validation error detected: Value 'ab' at "
                                          "'exclusiveStartTableName' failed to satisfy constraint: "
                                          "Member must have length greater than or equal to 3")
        self.assertEqual(len(self.ddb.list_tables(Limit=100)["TableNames"]), 12)

    def test_cli_list_tables(self):
        rc, out, err = self.server.aws("dynamodb", "list-tables")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["TableNames"], self.NAMES)


class DeleteTable(ServerTestCase):

    def test_delete_then_not_found(self):
        name = self.create_table()
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "x"}})
        resp = self.ddb.delete_table(TableName=name)
        desc = resp["TableDescription"]
        self.assertEqual(desc["TableName"], name)
        self.assertIn(desc["TableStatus"], ("DELETING", "ACTIVE"))
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException",
                               message="Requested resource not found: Table: %s not found" % name,
                               TableName=name)
        self.assertClientError(self.ddb.get_item, "ResourceNotFoundException",
                               message="Requested resource not found",
                               TableName=name, Key={"pk": {"S": "x"}})
        self.assertNotIn(name, self.ddb.list_tables()["TableNames"])

    def test_delete_missing(self):
        self.assertClientError(self.ddb.delete_table, "ResourceNotFoundException",
                               message="Requested resource not found: Table: never-was not found",
                               TableName="never-was")

    def test_describe_missing(self):
        resp = self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException",
                                      message="Requested resource not found: Table: "
                                              "never-was not found",
                                      TableName="never-was")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 400)

    def test_recreate_after_delete_is_empty(self):
        name = self.create_table()
        self.ddb.put_item(TableName=name, Item={"pk": {"S": "old"}})
        self.ddb.delete_table(TableName=name)
        self.create_table(name)
        self.assertNotIn("Item", self.ddb.get_item(TableName=name, Key={"pk": {"S": "old"}}))
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["ItemCount"], 0)


class TablesThroughTheCli(ServerTestCase):

    def test_create_describe_delete(self):
        rc, out, err = self.server.aws(
            "dynamodb", "create-table", "--table-name", "cli-table",
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "AttributeName=sk,AttributeType=N",
            "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
            "--billing-mode", "PAY_PER_REQUEST")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["TableDescription"]["TableName"], "cli-table")
        rc, out, err = self.server.aws("dynamodb", "wait", "table-exists",
                                       "--table-name", "cli-table")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "describe-table", "--table-name", "cli-table")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out["Table"]["TableStatus"], "ACTIVE")
        self.assertEqual(len(out["Table"]["KeySchema"]), 2)
        rc, out, err = self.server.aws("dynamodb", "delete-table", "--table-name", "cli-table")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "describe-table", "--table-name", "cli-table")
        self.assertNotEqual(rc, 0)
        self.assertIn("ResourceNotFoundException", err)

    def test_cli_error_is_reported(self):
        rc, out, err = self.server.aws(
            "dynamodb", "create-table", "--table-name", "cli-bad",
            "--attribute-definitions", "AttributeName=pk,AttributeType=S",
            "--key-schema", "AttributeName=pk,KeyType=HASH")
        self.assertNotEqual(rc, 0)
        self.assertIn("ValidationException", err)
        self.assertIn("ReadCapacityUnits and WriteCapacityUnits must both be specified", err)


class UnimplementedOperations(ServerTestCase):
    """An operation DynamoDB does not have answers UnknownOperationException (400)."""

    OPS = ["NoSuchOperation", "DescribeGlobalTables"]

    def test_unknown_operation(self):
        name = self.create_table()
        for op in self.OPS:
            with self.subTest(op=op):
                status, body = self.server.call(op, {"TableName": name})
                self.assertEqual(status, 400)
                self.assertEqual(body, {"__type":
                                        "com.amazon.coral.service#UnknownOperationException"})
        self.assertServing()


if __name__ == "__main__":
    unittest.main()
