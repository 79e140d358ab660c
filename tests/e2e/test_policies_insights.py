"""Resource policies (Put/Get/DeleteResourcePolicy with revision ids) and
Contributor Insights (Describe/Update/List) through boto3, the AWS CLI and gRPC."""

import json
import unittest

from harness import ServerTestCase

POLICY = json.dumps({"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::000000000000:root"},
    "Action": "dynamodb:GetItem", "Resource": "*"}]})


class ResourcePolicyTest(ServerTestCase):

    def arn(self, name):
        return self.ddb.describe_table(TableName=name)["Table"]["TableArn"]

    def test_put_get_delete_with_revisions(self):
        arn = self.arn(self.create_table())
        self.assertClientError(self.ddb.get_resource_policy, "PolicyNotFoundException", ResourceArn=arn)
        rev1 = self.ddb.put_resource_policy(ResourceArn=arn, Policy=POLICY)["RevisionId"]
        got = self.ddb.get_resource_policy(ResourceArn=arn)
        self.assertEqual((got["Policy"], got["RevisionId"]), (POLICY, rev1))
        # A stale expected revision is refused and changes nothing.
        self.assertClientError(self.ddb.put_resource_policy, "PolicyNotFoundException",
                               ResourceArn=arn, Policy=POLICY + " ", ExpectedRevisionId="1")
        rev2 = self.ddb.put_resource_policy(ResourceArn=arn, Policy=POLICY + " ",
                                            ExpectedRevisionId=rev1)["RevisionId"]
        self.assertNotEqual(rev1, rev2)
        self.assertEqual(self.ddb.get_resource_policy(ResourceArn=arn)["Policy"], POLICY + " ")
        self.assertClientError(self.ddb.delete_resource_policy, "PolicyNotFoundException",
                               ResourceArn=arn, ExpectedRevisionId=rev1)
        self.assertEqual(self.ddb.delete_resource_policy(ResourceArn=arn, ExpectedRevisionId=rev2)["RevisionId"],
                         rev2)
        self.assertClientError(self.ddb.delete_resource_policy, "PolicyNotFoundException", ResourceArn=arn)
        self.assertClientError(self.ddb.put_resource_policy, "PolicyNotFoundException",
                               ResourceArn=arn, Policy=POLICY, ExpectedRevisionId=rev2)

    def test_create_table_with_policy_and_errors(self):
        name = self.unique()
        self.create_table(name=name, ResourcePolicy=POLICY)
        arn = self.arn(name)
        self.assertEqual(self.ddb.get_resource_policy(ResourceArn=arn)["Policy"], POLICY)
        self.assertClientError(self.ddb.get_resource_policy, "ResourceNotFoundException",
                               ResourceArn=arn + "-missing")
        self.assertClientError(self.ddb.get_resource_policy, "ValidationException",
                               "One or more parameter values were invalid: ARNs must start with 'arn:': nope",
                               ResourceArn="nope")
        self.ddb.delete_table(TableName=name)
        self.create_table(name=name)
        self.assertClientError(self.ddb.get_resource_policy, "PolicyNotFoundException", ResourceArn=arn)

    def test_cli(self):
        arn = self.arn(self.create_table())
        rc, out, err = self.server.aws("dynamodb", "put-resource-policy", "--resource-arn", arn,
                                       "--policy", POLICY)
        self.assertEqual(rc, 0, err)
        rc, got, err = self.server.aws("dynamodb", "get-resource-policy", "--resource-arn", arn)
        self.assertEqual((rc, got["Policy"], got["RevisionId"]), (0, POLICY, out["RevisionId"]), err)
        rc, _, err = self.server.aws("dynamodb", "delete-resource-policy", "--resource-arn", arn)
        self.assertEqual(rc, 0, err)
        rc, _, err = self.server.aws("dynamodb", "get-resource-policy", "--resource-arn", arn)
        self.assertIn("PolicyNotFoundException", err)


class ContributorInsightsTest(ServerTestCase):

    def test_state_machine(self):
        name = self.create_table(
            range_key=("sk", "S"),
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}])
        d = self.ddb.describe_contributor_insights(TableName=name)
        self.assertEqual((d["TableName"], d["ContributorInsightsStatus"]), (name, "DISABLED"))
        u = self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="ENABLE")
        self.assertEqual(u["ContributorInsightsStatus"], "ENABLING")
        d = self.ddb.describe_contributor_insights(TableName=name)
        self.assertEqual(d["ContributorInsightsStatus"], "ENABLED")
        self.assertEqual(len(d["ContributorInsightsRuleList"]), 4)
        self.assertIn("LastUpdateDateTime", d)
        u = self.ddb.update_contributor_insights(TableName=name, IndexName="gsi", ContributorInsightsAction="ENABLE",
                                                 ContributorInsightsMode="THROTTLED_KEYS")
        self.assertEqual((u["IndexName"], u["ContributorInsightsStatus"]), ("gsi", "ENABLING"))
        listed = self.ddb.list_contributor_insights(TableName=name)["ContributorInsightsSummaries"]
        self.assertEqual([(s.get("IndexName"), s["ContributorInsightsStatus"]) for s in listed],
                         [(None, "ENABLED"), ("gsi", "ENABLED")])
        self.assertEqual(listed[1]["ContributorInsightsMode"], "THROTTLED_KEYS")
        u = self.ddb.update_contributor_insights(TableName=name, ContributorInsightsAction="DISABLE")
        self.assertEqual(u["ContributorInsightsStatus"], "DISABLING")
        self.assertEqual(self.ddb.describe_contributor_insights(TableName=name)["ContributorInsightsStatus"],
                         "DISABLED")
        # A table ARN in place of the name.
        arn = self.ddb.describe_table(TableName=name)["Table"]["TableArn"]
        self.assertEqual(self.ddb.describe_contributor_insights(TableName=arn, IndexName="gsi")
                         ["ContributorInsightsStatus"], "ENABLED")

    def test_errors_and_paging(self):
        self.assertClientError(self.ddb.describe_contributor_insights, "ResourceNotFoundException",
                               TableName="missing-table")
        name = self.create_table()
        self.assertClientError(self.ddb.describe_contributor_insights, "ResourceNotFoundException",
                               TableName=name, IndexName="nope")
        status, body = self.server.call("UpdateContributorInsights",
                                        {"TableName": name, "ContributorInsightsAction": "MAYBE"})
        self.assertEqual(status, 400)
        self.assertEqual(body["message"], "1 validation error detected: Value 'MAYBE' at 'contributorInsightsAction' "
                                          "failed to satisfy constraint: Member must satisfy enum value set: "
                                          "[ENABLE, DISABLE]")
        for _ in range(3):
            self.create_table()
        page = self.ddb.list_contributor_insights(MaxResults=2)
        self.assertEqual(len(page["ContributorInsightsSummaries"]), 2)
        self.assertIn("NextToken", page)
        rc, out, err = self.server.aws("dynamodb", "describe-contributor-insights", "--table-name", name)
        self.assertEqual((rc, out["ContributorInsightsStatus"]), (0, "DISABLED"), err)


if __name__ == "__main__":
    unittest.main()
