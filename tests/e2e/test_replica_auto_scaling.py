"""Replica auto scaling: DescribeTableReplicaAutoScaling and
UpdateTableReplicaAutoScaling keep and describe the auto scaling settings of
each replica of a global table (a regional table is a group of one) and of
each global secondary index, with DynamoDB's validation. The write capacity's
settings are the group's, the read capacity's each replica's. pogi never
changes capacity by itself: ProvisionedThroughput stays as it was."""

import unittest

from harness import ServerTestCase

KEY = [{"AttributeName": "pk", "KeyType": "HASH"}]
ATTRS = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}]
THROUGHPUT = {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
GSI = [{"IndexName": "by-g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}, "ProvisionedThroughput": THROUGHPUT}]
OFF = {"AutoScalingDisabled": True}


def settings(lo, hi, target, **policy):
    config = {"TargetValue": target}
    config.update(policy)
    return {"MinimumUnits": lo, "MaximumUnits": hi,
            "ScalingPolicyUpdate": {"TargetTrackingScalingPolicyConfiguration": config}}


class ReplicaAutoScaling(ServerTestCase):

    def setUp(self):
        self.east = self.ddb
        self.west = self.server.client("us-west-2")

    def provisioned(self, name, replica=None):
        self.east.create_table(TableName=name, KeySchema=KEY, AttributeDefinitions=ATTRS,
                               ProvisionedThroughput=THROUGHPUT, GlobalSecondaryIndexes=GSI)
        if replica:
            self.east.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": replica}}])
        return name

    def test_describe_without_settings(self):
        name = self.provisioned(self.unique("as"), replica="us-west-2")
        d = self.east.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
        self.assertEqual(d["TableName"], name)
        self.assertEqual(d["TableStatus"], "ACTIVE")
        self.assertEqual([r["RegionName"] for r in d["Replicas"]], ["us-east-1", "us-west-2"])
        for r in d["Replicas"]:
            self.assertEqual(r["ReplicaStatus"], "ACTIVE")
            self.assertEqual(r["ReplicaProvisionedReadCapacityAutoScalingSettings"], OFF)
            self.assertEqual(r["ReplicaProvisionedWriteCapacityAutoScalingSettings"], OFF)
            self.assertEqual(r["GlobalSecondaryIndexes"], [{
                "IndexName": "by-g", "IndexStatus": "ACTIVE",
                "ProvisionedReadCapacityAutoScalingSettings": OFF,
                "ProvisionedWriteCapacityAutoScalingSettings": OFF}])

    def test_regional_table_is_a_group_of_one(self):
        name = self.provisioned(self.unique("as"))
        d = self.east.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
        self.assertEqual([r["RegionName"] for r in d["Replicas"]], ["us-east-1"])
        d = self.east.update_table_replica_auto_scaling(
            TableName=name, ProvisionedWriteCapacityAutoScalingUpdate=settings(1, 10, 50))
        write = d["TableAutoScalingDescription"]["Replicas"][0]["ReplicaProvisionedWriteCapacityAutoScalingSettings"]
        self.assertEqual((write["MinimumUnits"], write["MaximumUnits"]), (1, 10))

    def test_update_round_trip(self):
        name = self.provisioned(self.unique("as"), replica="us-west-2")
        answer = self.east.update_table_replica_auto_scaling(
            TableName=name,
            ProvisionedWriteCapacityAutoScalingUpdate=settings(5, 50, 70, ScaleInCooldown=60, ScaleOutCooldown=30),
            GlobalSecondaryIndexUpdates=[{"IndexName": "by-g",
                                          "ProvisionedWriteCapacityAutoScalingUpdate": settings(2, 20, 60)}],
            ReplicaUpdates=[{"RegionName": "us-west-2",
                             "ReplicaProvisionedReadCapacityAutoScalingUpdate": settings(
                                 3, 30, 40, DisableScaleIn=True),
                             "ReplicaGlobalSecondaryIndexUpdates": [{
                                 "IndexName": "by-g",
                                 "ProvisionedReadCapacityAutoScalingUpdate": settings(4, 40, 80)}]}],
        )["TableAutoScalingDescription"]
        # The same from either region, afterwards.
        for ddb in (self.east, self.west):
            d = ddb.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
            self.assertEqual(d, answer)
        east, west = answer["Replicas"]
        role = ("arn:aws:iam::000000000000:role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com/"
                "AWSServiceRoleForApplicationAutoScaling_DynamoDBTable")
        write = {"MinimumUnits": 5, "MaximumUnits": 50, "AutoScalingDisabled": False, "AutoScalingRoleArn": role,
                 "ScalingPolicies": [{
                     "PolicyName": "DynamoDBWriteCapacityUtilization:table/" + name,
                     "TargetTrackingScalingPolicyConfiguration": {
                         "TargetValue": 70.0, "ScaleInCooldown": 60, "ScaleOutCooldown": 30}}]}
        # The write capacity's settings are the group's.
        self.assertEqual(east["ReplicaProvisionedWriteCapacityAutoScalingSettings"], write)
        self.assertEqual(west["ReplicaProvisionedWriteCapacityAutoScalingSettings"], write)
        for r in (east, west):
            g = r["GlobalSecondaryIndexes"][0]["ProvisionedWriteCapacityAutoScalingSettings"]
            self.assertEqual((g["MinimumUnits"], g["MaximumUnits"]), (2, 20))
            self.assertEqual(g["ScalingPolicies"][0]["PolicyName"],
                             "DynamoDBWriteCapacityUtilization:table/%s/index/by-g" % name)
        # The read capacity's are the replica's own.
        self.assertEqual(east["ReplicaProvisionedReadCapacityAutoScalingSettings"], OFF)
        read = west["ReplicaProvisionedReadCapacityAutoScalingSettings"]
        self.assertEqual((read["MinimumUnits"], read["MaximumUnits"]), (3, 30))
        self.assertEqual(read["ScalingPolicies"][0]["TargetTrackingScalingPolicyConfiguration"],
                         {"TargetValue": 40.0, "DisableScaleIn": True})
        self.assertEqual(east["GlobalSecondaryIndexes"][0]["ProvisionedReadCapacityAutoScalingSettings"], OFF)
        g = west["GlobalSecondaryIndexes"][0]["ProvisionedReadCapacityAutoScalingSettings"]
        self.assertEqual((g["MinimumUnits"], g["MaximumUnits"]), (4, 40))
        # pogi does not change capacity by itself.
        t = self.east.describe_table(TableName=name)["Table"]
        self.assertEqual((t["ProvisionedThroughput"]["ReadCapacityUnits"],
                          t["ProvisionedThroughput"]["WriteCapacityUnits"]), (5, 5))
        # A later update keeps what it does not name; disabling forgets.
        d = self.east.update_table_replica_auto_scaling(
            TableName=name, ProvisionedWriteCapacityAutoScalingUpdate={"MaximumUnits": 80})
        w = d["TableAutoScalingDescription"]["Replicas"][1]["ReplicaProvisionedWriteCapacityAutoScalingSettings"]
        self.assertEqual((w["MinimumUnits"], w["MaximumUnits"]), (5, 80))
        d = self.east.update_table_replica_auto_scaling(
            TableName=name, ProvisionedWriteCapacityAutoScalingUpdate={"AutoScalingDisabled": True})
        for r in d["TableAutoScalingDescription"]["Replicas"]:
            self.assertEqual(r["ReplicaProvisionedWriteCapacityAutoScalingSettings"], OFF)

    def test_errors(self):
        name = self.provisioned(self.unique("as"), replica="us-west-2")
        self.assertClientError(self.east.describe_table_replica_auto_scaling, "ResourceNotFoundException",
                               "Requested resource not found: Table: nope not found", TableName="nope")
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ResourceNotFoundException",
                               "Requested resource not found: Table: nope not found", TableName="nope",
                               ProvisionedWriteCapacityAutoScalingUpdate=settings(1, 2, 50))
        # boto3 checks the minimum itself: sent by hand.
        status, body = self.server.call("UpdateTableReplicaAutoScaling", {
            "TableName": name, "ProvisionedWriteCapacityAutoScalingUpdate": settings(0, 2, 50)})
        self.assertEqual(status, 400)
        self.assertEqual(body, {
            "__type": "com.amazon.coral.validate#ValidationException",
            "message": "1 validation error detected: Value '0' at "
                       "'provisionedWriteCapacityAutoScalingUpdate.minimumUnits' failed to satisfy constraint: "
                       "Member must have value greater than or equal to 1"})
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ValidationException",
                               "MinimumUnits (9) must be less than or equal to MaximumUnits (2)",
                               TableName=name, ProvisionedWriteCapacityAutoScalingUpdate=settings(9, 2, 50))
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ValidationException",
                               message_contains="TargetValue 95 is out of range",
                               TableName=name, ProvisionedWriteCapacityAutoScalingUpdate=settings(1, 2, 95))
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ValidationException",
                               "One or more parameter values were invalid: No replica exists in region eu-west-1",
                               TableName=name, ReplicaUpdates=[{
                                   "RegionName": "eu-west-1",
                                   "ReplicaProvisionedReadCapacityAutoScalingUpdate": settings(1, 2, 50)}])
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ResourceNotFoundException",
                               "Requested resource not found: Index: nope not found",
                               TableName=name, GlobalSecondaryIndexUpdates=[{
                                   "IndexName": "nope",
                                   "ProvisionedWriteCapacityAutoScalingUpdate": settings(1, 2, 50)}])
        # Nothing was kept of the refused updates.
        d = self.east.describe_table_replica_auto_scaling(TableName=name)["TableAutoScalingDescription"]
        self.assertEqual(d["Replicas"][0]["ReplicaProvisionedWriteCapacityAutoScalingSettings"], OFF)
        # An on-demand table has no capacity to scale.
        ondemand = self.unique("as")
        self.east.create_table(TableName=ondemand, KeySchema=KEY, AttributeDefinitions=ATTRS[:1],
                               BillingMode="PAY_PER_REQUEST")
        d = self.east.describe_table_replica_auto_scaling(TableName=ondemand)["TableAutoScalingDescription"]
        self.assertEqual(d["Replicas"], [{"RegionName": "us-east-1", "ReplicaStatus": "ACTIVE"}])
        self.assertClientError(self.east.update_table_replica_auto_scaling, "ValidationException",
                               message_contains="PAY_PER_REQUEST", TableName=ondemand,
                               ProvisionedWriteCapacityAutoScalingUpdate=settings(1, 2, 50))
        self.assertServing()

    def test_aws_cli(self):
        name = self.provisioned(self.unique("ascli"), replica="us-west-2")
        rc, out, err = self.server.aws(
            "dynamodb", "update-table-replica-auto-scaling", "--table-name", name,
            "--provisioned-write-capacity-auto-scaling-update",
            '{"MinimumUnits": 2, "MaximumUnits": 9, "ScalingPolicyUpdate": '
            '{"TargetTrackingScalingPolicyConfiguration": {"TargetValue": 55}}}')
        self.assertEqual(rc, 0, err)
        rc, out, err = self.server.aws("dynamodb", "describe-table-replica-auto-scaling", "--table-name", name,
                                       "--region", "us-west-2")
        self.assertEqual(rc, 0, err)
        w = out["TableAutoScalingDescription"]["Replicas"][1]["ReplicaProvisionedWriteCapacityAutoScalingSettings"]
        self.assertEqual((w["MinimumUnits"], w["MaximumUnits"]), (2, 9))


if __name__ == "__main__":
    unittest.main()
