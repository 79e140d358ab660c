"""Tags (TagResource, UntagResource, ListTagsOfResource, CreateTable Tags),
DescribeLimits and DescribeEndpoints, through boto3, the AWS CLI and raw HTTP."""

import unittest

from harness import ServerTestCase


class TagsTest(ServerTestCase):

    def arn(self, name):
        return self.ddb.describe_table(TableName=name)["Table"]["TableArn"]

    def all_tags(self, arn):
        tags, token = [], None
        while True:
            kw = {"NextToken": token} if token else {}
            page = self.ddb.list_tags_of_resource(ResourceArn=arn, **kw)
            tags += page["Tags"]
            token = page.get("NextToken")
            if not token:
                return tags

    def test_tag_untag_list(self):
        name = self.create_table()
        arn = self.arn(name)
        self.assertEqual(self.ddb.list_tags_of_resource(ResourceArn=arn)["Tags"], [])
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "test"},
                                                      {"Key": " ", "Value": ""}])
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "prod"}])
        self.assertEqual(sorted((t["Key"], t["Value"]) for t in self.all_tags(arn)),
                         [(" ", ""), ("env", "prod")])
        # Removing a key that is not there is no error.
        self.ddb.untag_resource(ResourceArn=arn, TagKeys=["env", "absent"])
        self.assertEqual(self.all_tags(arn), [{"Key": " ", "Value": ""}])
        # Both answer an empty body, not {}, as DynamoDB does.
        for target, request in (("TagResource", {"ResourceArn": arn, "Tags": [{"Key": "raw", "Value": "1"}]}),
                                ("UntagResource", {"ResourceArn": arn, "TagKeys": ["raw"]})):
            status, headers, body = self.server.raw(request, target=target)
            self.assertEqual((status, body, headers.get("content-length")), (200, b"", "0"), target)

    def test_create_table_tags_kept_and_gone_with_table(self):
        name = self.unique()
        self.create_table(name=name, Tags=[{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}])
        arn = self.arn(name)
        self.assertEqual(self.all_tags(arn), [{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}])
        self.ddb.delete_table(TableName=name)
        self.assertClientError(self.ddb.list_tags_of_resource, "ResourceNotFoundException",
                               "Requested resource not found: ResourcArn: %s not found" % arn,
                               ResourceArn=arn)
        self.create_table(name=name)
        self.assertEqual(self.all_tags(arn), [])

    def test_paging_and_limit(self):
        name = self.create_table()
        arn = self.arn(name)
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k%02d" % i, "Value": str(i)} for i in range(30)])
        # All of them in one answer, as today's DynamoDB gives them.
        page = self.ddb.list_tags_of_resource(ResourceArn=arn)
        self.assertEqual(len(page["Tags"]), 30)
        self.assertNotIn("NextToken", page)
        self.ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k%02d" % i, "Value": "x"} for i in range(20, 50)])
        self.assertEqual(len(self.all_tags(arn)), 50)
        self.assertClientError(self.ddb.tag_resource, "ValidationException",
                               ResourceArn=arn, Tags=[{"Key": "one-more", "Value": "x"}])
        self.assertEqual(len(self.all_tags(arn)), 50)

    def test_too_many_tags_at_creation_creates_nothing(self):
        name = self.unique()
        self.assertClientError(self.create_table, "ValidationException", name=name,
                               Tags=[{"Key": str(i), "Value": str(i)} for i in range(51)])
        self.assertClientError(self.ddb.describe_table, "ResourceNotFoundException", TableName=name)

    def test_errors(self):
        name = self.create_table()
        arn = self.arn(name)
        # Today's answer; about 2020 DynamoDB denied access instead.
        self.assertClientError(self.ddb.tag_resource, "ValidationException",
                               "One or more parameter values were invalid: ARNs must start with 'arn:': I_do_not_exist",
                               ResourceArn="I_do_not_exist", Tags=[{"Key": "k", "Value": "v"}])
        self.assertClientError(self.ddb.tag_resource, "ValidationException",
                               "Atleast one Tag needs to be provided as Input.", ResourceArn=arn, Tags=[])
        index_arn = arn + "/index/gsi"
        self.assertClientError(self.ddb.list_tags_of_resource, "ValidationException",
                               "Invalid TableArn: Invalid ResourceArn provided as input " + index_arn,
                               ResourceArn=index_arn)
        missing = arn + "-missing"
        self.assertClientError(self.ddb.untag_resource, "ResourceNotFoundException",
                               "Requested resource not found: ResourcArn: %s not found" % missing,
                               ResourceArn=missing, TagKeys=["k"])
        # Empty Tags and TagKeys are refused before the table is looked up.
        self.assertClientError(self.ddb.tag_resource, "ValidationException",
                               "Atleast one Tag needs to be provided as Input.", ResourceArn=missing, Tags=[])
        self.assertClientError(self.ddb.untag_resource, "ValidationException",
                               "Atleast one Tag Key needs to be provided as Input.", ResourceArn=missing,
                               TagKeys=[])
        self.assertClientError(self.ddb.tag_resource, "ValidationException",
                               message_contains="aws:", ResourceArn=arn, Tags=[{"Key": "aws:x", "Value": "v"}])
        self.assertClientError(
            self.ddb.tag_resource, "ValidationException",
            "1 validation error detected: Value '%s' at 'tags.1.member.key' failed to satisfy constraint: "
            "Member must have length less than or equal to 128" % ("k" * 129),
            ResourceArn=arn, Tags=[{"Key": "k" * 129, "Value": "v"}])
        self.assertClientError(
            self.ddb.tag_resource, "ValidationException",
            "1 validation error detected: Value '%s' at 'tags.1.member.value' failed to satisfy constraint: "
            "Member must have length less than or equal to 256" % ("v" * 257),
            ResourceArn=arn, Tags=[{"Key": "k", "Value": "v" * 257}])
        status, body = self.server.call("TagResource", {"Tags": [{"Key": "k", "Value": "v"}]})
        self.assertEqual((status, body["message"]), (400, "Invalid TableArn"))

    def test_another_accounts_table_is_denied(self):
        # behaviours.md 1.2: the caller may not act on another account's
        # table, whether it exists or not, before any lookup.
        name = self.create_table()
        parts = self.arn(name).split(":")
        self.assertEqual(parts[4], "000000000000")  # pogi's own account, DynamoDB Local's
        parts[4] = "123456789012"
        other = ":".join(parts)
        for call, kw in ((self.ddb.list_tags_of_resource, {}),
                         (self.ddb.tag_resource, {"Tags": [{"Key": "k", "Value": "v"}]}),
                         (self.ddb.untag_resource, {"TagKeys": ["k"]})):
            for arn in (other, other + "-missing"):
                self.assertClientError(call, "AccessDeniedException", message_contains="is not authorized to perform",
                                       ResourceArn=arn, **kw)
        self.assertEqual(self.ddb.list_tags_of_resource(ResourceArn=self.arn(name))["Tags"], [])

    def test_cli(self):
        name = self.create_table()
        arn = self.arn(name)
        rc, _, err = self.server.aws("dynamodb", "tag-resource", "--resource-arn", arn,
                                     "--tags", "Key=team,Value=core")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "list-tags-of-resource", "--resource-arn", arn)
        self.assertEqual((rc, out["Tags"]), (0, [{"Key": "team", "Value": "core"}]), err)
        rc, _, err = self.server.aws("dynamodb", "untag-resource", "--resource-arn", arn, "--tag-keys", "team")
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "list-tags-of-resource", "--resource-arn", arn + "x")
        self.assertNotEqual(rc, 0)
        self.assertIn("ResourceNotFoundException", err)

    def test_tags_survive_restart(self):
        name = self.unique()
        self.create_table(name=name, Tags=[{"Key": "a", "Value": "1"}])
        self.server.restart()
        self.ddb = self.server.client()
        self.assertEqual(self.all_tags(self.arn(name)), [{"Key": "a", "Value": "1"}])


class LimitsAndEndpointsTest(ServerTestCase):

    def test_describe_limits(self):
        r = self.ddb.describe_limits()
        self.assertEqual((r["AccountMaxReadCapacityUnits"], r["AccountMaxWriteCapacityUnits"],
                          r["TableMaxReadCapacityUnits"], r["TableMaxWriteCapacityUnits"]),
                         (80000, 80000, 40000, 40000))
        rc, out, err = self.server.aws("dynamodb", "describe-limits")
        self.assertEqual((rc, out["TableMaxReadCapacityUnits"]), (0, 40000), err)

    def test_describe_endpoints(self):
        r = self.ddb.describe_endpoints()
        self.assertEqual(r["Endpoints"], [{"Address": "127.0.0.1:%d" % self.server.port,
                                           "CachePeriodInMinutes": 1440}])
        status, _, body = self.server.raw("{}", target="DescribeEndpoints", headers={"Host": "db.local:1234"})
        self.assertEqual(status, 200)
        self.assertIn(b'"Address":"db.local:1234"', body)
        rc, out, err = self.server.aws("dynamodb", "describe-endpoints")
        self.assertEqual((rc, out["Endpoints"][0]["CachePeriodInMinutes"]), (0, 1440), err)


if __name__ == "__main__":
    unittest.main()
