"""The DynamoDB gRPC service driven directly from Python, every operation.

grpcio and protobuf are required (see grpc_client.py): the run fails, never
skips, without them. The last test checks that every rpc of
`service DynamoDB` in proto/ was called here through a real channel, so an
operation added to the proto needs a test in this file.
"""

import grpc_client  # noqa: F401  (first: it finds grpcio, see there)
import time
import unittest

import grpc

import grpc_client
from grpc_client import pb
from harness import ServerTestCase

CALLED = set()


class GrpcDynamoDB(ServerTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.channel = grpc_client.channel(cls.server.grpc_port)
        cls.stub = grpc_client.dynamodb(cls.channel)

    @classmethod
    def tearDownClass(cls):
        try:
            cls.channel.close()
        finally:
            super().tearDownClass()

    def call(self, op, request, response_type=None):
        CALLED.add(op)
        return getattr(self.stub, op)(request, timeout=10)

    def S(self, s):
        return pb.AttributeValue(s=s)

    def N(self, n):
        return pb.AttributeValue(n=n)

    def create(self, name, range_key=False):
        attrs = [pb.AttributeDefinition(attribute_name="pk", attribute_type="S")]
        keys = [pb.KeySchemaElement(attribute_name="pk", key_type="HASH")]
        if range_key:
            attrs.append(pb.AttributeDefinition(attribute_name="sk", attribute_type="N"))
            keys.append(pb.KeySchemaElement(attribute_name="sk", key_type="RANGE"))
        req = pb.CreateTableRequest(table_name=name, billing_mode="PAY_PER_REQUEST",
                                    attribute_definitions=attrs, key_schema=keys)
        return self.call("CreateTable", req)

    def put(self, table, **attrs):
        req = pb.PutItemRequest(table_name=table)
        for k, v in attrs.items():
            req.item.attributes[k].CopyFrom(v)
        return self.call("PutItem", req)

    def test_table_and_item_round_trip(self):
        self.create("grpc-items")
        desc = self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-items"))
        self.assertEqual(desc.table.table_status, "ACTIVE")
        self.put("grpc-items", pk=self.S("a"), n=self.N("1.50"))
        get = pb.GetItemRequest(table_name="grpc-items")
        get.key.attributes["pk"].CopyFrom(self.S("a"))
        resp = self.call("GetItem", get)
        self.assertTrue(resp.HasField("item"))
        self.assertEqual(resp.item.attributes["n"].n, "1.5")
        # The HTTP door sees the same engine.
        item = self.ddb.get_item(TableName="grpc-items", Key={"pk": {"S": "a"}})["Item"]
        self.assertEqual(item["n"], {"N": "1.5"})
        # A missing item: no item field at all.
        get.key.attributes["pk"].CopyFrom(self.S("nope"))
        self.assertFalse(self.call("GetItem", get).HasField("item"))

    def test_update_delete_and_table_changes(self):
        self.create("grpc-upd")
        self.put("grpc-upd", pk=self.S("u"), n=self.N("1"))
        upd = pb.UpdateItemRequest(table_name="grpc-upd", update_expression="ADD n :d",
                                   return_values="ALL_NEW")
        upd.key.attributes["pk"].CopyFrom(self.S("u"))
        upd.expression_attribute_values.attributes[":d"].CopyFrom(self.N("4"))
        self.assertEqual(self.call("UpdateItem", upd).attributes["n"].n, "5")
        dele = pb.DeleteItemRequest(table_name="grpc-upd", return_values="ALL_OLD")
        dele.key.attributes["pk"].CopyFrom(self.S("u"))
        self.assertEqual(self.call("DeleteItem", dele).attributes["n"].n, "5")
        ut = pb.UpdateTableRequest(
            table_name="grpc-upd",
            attribute_definitions=[pb.AttributeDefinition(attribute_name="g", attribute_type="S")])
        gsi = ut.global_secondary_index_updates.add().create
        gsi.index_name = "by-g"
        gsi.key_schema.add(attribute_name="g", key_type="HASH")
        gsi.projection.projection_type = "ALL"
        resp = self.call("UpdateTable", ut)
        self.assertEqual([g.index_name for g in resp.table_description.global_secondary_indexes],
                         ["by-g"])
        self.call("DeleteTable", pb.DeleteTableRequest(table_name="grpc-upd"))
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-upd"))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_query_and_scan(self):
        self.create("grpc-q", range_key=True)
        for i in range(5):
            self.put("grpc-q", pk=self.S("p"), sk=self.N(str(i)))
        self.put("grpc-q", pk=self.S("other"), sk=self.N("1"))
        q = pb.QueryRequest(table_name="grpc-q", key_condition_expression="pk = :p AND sk >= :lo",
                            scan_index_forward=False)
        q.expression_attribute_values.attributes[":p"].CopyFrom(self.S("p"))
        q.expression_attribute_values.attributes[":lo"].CopyFrom(self.N("2"))
        resp = self.call("Query", q)
        self.assertEqual([i.attributes["sk"].n for i in resp.items.items], ["4", "3", "2"])
        self.assertEqual(resp.count, 3)
        scan = self.call("Scan", pb.ScanRequest(table_name="grpc-q", limit=4))
        self.assertEqual(len(scan.items.items), 4)
        self.assertTrue(scan.last_evaluated_key)
        rest = pb.ScanRequest(table_name="grpc-q")
        for k, v in scan.last_evaluated_key.items():
            rest.exclusive_start_key[k].CopyFrom(v)
        self.assertEqual(len(self.call("Scan", rest).items.items), 2)

    def test_batches(self):
        self.create("grpc-batch")
        bw = pb.BatchWriteItemRequest()
        reqs = bw.request_items["grpc-batch"]
        for k in ("a", "b", "c"):
            w = reqs.requests.add()
            w.put_request.item["pk"].CopyFrom(self.S(k))
        self.assertFalse(self.call("BatchWriteItem", bw).unprocessed_items)
        bg = pb.BatchGetItemRequest()
        ka = bg.request_items["grpc-batch"]
        for k in ("a", "c", "zz"):
            ka.keys.add().attributes["pk"].CopyFrom(self.S(k))
        resp = self.call("BatchGetItem", bg)
        got = sorted(i.attributes["pk"].s for i in resp.responses["grpc-batch"].items)
        self.assertEqual(got, ["a", "c"])

    def test_transactions(self):
        self.create("grpc-tx")
        tw = pb.TransactWriteItemsRequest()
        p = tw.transact_items.add().put
        p.table_name = "grpc-tx"
        p.item["pk"].CopyFrom(self.S("t1"))
        u = tw.transact_items.add().update
        u.table_name = "grpc-tx"
        u.key["pk"].CopyFrom(self.S("t2"))
        u.update_expression = "SET v = :v"
        u.expression_attribute_values.attributes[":v"].CopyFrom(self.N("7"))
        self.call("TransactWriteItems", tw)
        tg = pb.TransactGetItemsRequest()
        for k in ("t1", "t2"):
            g = tg.transact_items.add().get
            g.table_name = "grpc-tx"
            g.key["pk"].CopyFrom(self.S(k))
        resp = self.call("TransactGetItems", tg)
        self.assertEqual(resp.responses[1].item.attributes["v"].n, "7")
        # A failed condition: TransactionCanceledException, ABORTED.
        c = pb.TransactWriteItemsRequest()
        cc = c.transact_items.add().condition_check
        cc.table_name = "grpc-tx"
        cc.key["pk"].CopyFrom(self.S("t1"))
        cc.condition_expression = "attribute_not_exists(pk)"
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("TransactWriteItems", c)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.ABORTED)
        self.assertIn("TransactionCanceledException", cm.exception.details())

    def test_errors_carry_dynamodb_type_and_message(self):
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-missing"))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)
        self.assertIn("ResourceNotFoundException", cm.exception.details())
        self.assertIn("Requested resource not found", cm.exception.details())

        self.create("grpc-val")
        with self.assertRaises(grpc.RpcError) as cm:
            self.put("grpc-val", pk=self.N("1"))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("Type mismatch for key pk expected: S actual: N", cm.exception.details())

        with self.assertRaises(grpc.RpcError) as cm:
            self.create("grpc-val")
        self.assertEqual(cm.exception.code(), grpc.StatusCode.ALREADY_EXISTS)

    def test_list_tables_paging(self):
        for i in range(3):
            self.create("grpc-list-%d" % i)
        resp = self.call("ListTables", pb.ListTablesRequest(limit=2))
        self.assertEqual(len(resp.table_names), 2)
        self.assertTrue(resp.last_evaluated_table_name)

    def test_unknown_method(self):
        fn = self.channel.unary_unary("/pogi.v1.DynamoDB/NoSuchOperation",
                                      request_serializer=lambda m: m.SerializeToString(),
                                      response_deserializer=pb.ListTablesResponse.FromString)
        with self.assertRaises(grpc.RpcError) as cm:
            fn(pb.ListTablesRequest(), timeout=10)
        self.assertEqual(cm.exception.code(), grpc.StatusCode.UNIMPLEMENTED)

    def test_ttl_over_grpc(self):
        self.create("grpc-ttl")
        spec = pb.TimeToLiveSpecification(enabled=True, attribute_name="expires")
        resp = self.call("UpdateTimeToLive", pb.UpdateTimeToLiveRequest(
            table_name="grpc-ttl", time_to_live_specification=spec))
        self.assertEqual(resp.time_to_live_specification.attribute_name, "expires")
        desc = self.call("DescribeTimeToLive", pb.DescribeTimeToLiveRequest(table_name="grpc-ttl"))
        self.assertEqual(desc.time_to_live_description.time_to_live_status, "ENABLED")

    def test_partiql_over_grpc(self):
        self.create("grpc-pq")
        self.call("ExecuteStatement", pb.ExecuteStatementRequest(
            statement="INSERT INTO \"grpc-pq\" VALUE {'pk': ?, 'n': 1}",
            parameters=pb.AttributeValueList(values=[self.S("a")])))
        # An empty Parameters list is refused, as over HTTP (DynamoDB's length constraint).
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("ExecuteStatement", pb.ExecuteStatementRequest(
                statement="SELECT * FROM \"grpc-pq\"", parameters=pb.AttributeValueList()))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        self.assertIn("Value '[]' at 'parameters' failed to satisfy constraint", cm.exception.details())
        sel = self.call("ExecuteStatement", pb.ExecuteStatementRequest(
            statement="SELECT * FROM \"grpc-pq\" WHERE pk = 'a'"))
        self.assertEqual(len(sel.items.items), 1)
        self.assertEqual(sel.items.items[0].attributes["n"].n, "1")
        batch = self.call("BatchExecuteStatement", pb.BatchExecuteStatementRequest(statements=[
            pb.BatchStatementRequest(statement="SELECT * FROM \"grpc-pq\" WHERE pk = ?",
                                     parameters=pb.AttributeValueList(values=[self.S("a")])),
            pb.BatchStatementRequest(statement="SELECT * FROM \"grpc-pq\" WHERE pk = 'zz'")]))
        self.assertEqual(len(batch.responses), 2)
        self.assertEqual(batch.responses[0].item["pk"].s, "a")
        self.call("ExecuteTransaction", pb.ExecuteTransactionRequest(transact_statements=[
            pb.ParameterizedStatement(statement="UPDATE \"grpc-pq\" SET n = ? WHERE pk = 'a'",
                                      parameters=pb.AttributeValueList(values=[pb.AttributeValue(n="2")]))]))
        get = self.call("GetItem", pb.GetItemRequest(table_name="grpc-pq",
                                                     key=pb.Item(attributes={"pk": self.S("a")})))
        self.assertEqual(get.item.attributes["n"].n, "2")

    def test_control_plane_over_grpc(self):
        arn = self.create("grpc-cp").table_description.table_arn
        self.call("TagResource", pb.TagResourceRequest(resource_arn=arn, tags=[pb.Tag(key="team", value="a")]))
        tags = self.call("ListTagsOfResource", pb.ListTagsOfResourceRequest(resource_arn=arn))
        self.assertEqual([(t.key, t.value) for t in tags.tags], [("team", "a")])
        self.call("UntagResource", pb.UntagResourceRequest(resource_arn=arn, tag_keys=["team"]))
        self.assertEqual(len(self.call("ListTagsOfResource",
                                       pb.ListTagsOfResourceRequest(resource_arn=arn)).tags), 0)
        limits = self.call("DescribeLimits", pb.DescribeLimitsRequest())
        self.assertEqual(limits.table_max_read_capacity_units, 40000)
        ends = self.call("DescribeEndpoints", pb.DescribeEndpointsRequest(pogi_host="localhost:1"))
        self.assertEqual(ends.endpoints[0].cache_period_in_minutes, 1440)
        policy = '{"Version":"2012-10-17","Statement":[]}'
        rev = self.call("PutResourcePolicy", pb.PutResourcePolicyRequest(resource_arn=arn, policy=policy))
        got = self.call("GetResourcePolicy", pb.GetResourcePolicyRequest(resource_arn=arn))
        self.assertEqual((got.policy, got.revision_id), (policy, rev.revision_id))
        self.call("DeleteResourcePolicy", pb.DeleteResourcePolicyRequest(resource_arn=arn))
        upd = self.call("UpdateContributorInsights", pb.UpdateContributorInsightsRequest(
            table_name="grpc-cp", contributor_insights_action="ENABLE"))
        self.assertEqual(upd.contributor_insights_status, "ENABLING")
        desc = self.call("DescribeContributorInsights",
                         pb.DescribeContributorInsightsRequest(table_name="grpc-cp"))
        self.assertEqual(desc.contributor_insights_status, "ENABLED")
        listed = self.call("ListContributorInsights", pb.ListContributorInsightsRequest(table_name="grpc-cp"))
        self.assertEqual(len(listed.contributor_insights_summaries), 1)

    def test_backups_and_pitr_over_grpc(self):
        self.create("grpc-bk")
        self.put("grpc-bk", pk=self.S("a"), n=self.N("1"))
        backup = self.call("CreateBackup", pb.CreateBackupRequest(table_name="grpc-bk", backup_name="backup-one"))
        backup_arn = backup.backup_details.backup_arn
        desc = self.call("DescribeBackup", pb.DescribeBackupRequest(backup_arn=backup_arn))
        self.assertEqual(desc.backup_description.backup_details.backup_name, "backup-one")
        listed = self.call("ListBackups", pb.ListBackupsRequest(table_name="grpc-bk"))
        self.assertEqual([b.backup_arn for b in listed.backup_summaries], [backup_arn])
        self.call("RestoreTableFromBackup", pb.RestoreTableFromBackupRequest(
            target_table_name="grpc-bk-restored", backup_arn=backup_arn))
        got = self.call("GetItem", pb.GetItemRequest(table_name="grpc-bk-restored",
                                                     key=pb.Item(attributes={"pk": self.S("a")})))
        self.assertEqual(got.item.attributes["n"].n, "1")
        self.call("DeleteBackup", pb.DeleteBackupRequest(backup_arn=backup_arn))
        spec = pb.PointInTimeRecoverySpecification(point_in_time_recovery_enabled=True)
        self.call("UpdateContinuousBackups", pb.UpdateContinuousBackupsRequest(
            table_name="grpc-bk", point_in_time_recovery_specification=spec))
        cont = self.call("DescribeContinuousBackups", pb.DescribeContinuousBackupsRequest(table_name="grpc-bk"))
        self.assertEqual(cont.continuous_backups_description.point_in_time_recovery_description
                         .point_in_time_recovery_status, "ENABLED")
        self.call("RestoreTableToPointInTime", pb.RestoreTableToPointInTimeRequest(
            source_table_name="grpc-bk", target_table_name="grpc-bk-pitr", use_latest_restorable_time=True))
        got = self.call("GetItem", pb.GetItemRequest(table_name="grpc-bk-pitr",
                                                     key=pb.Item(attributes={"pk": self.S("a")})))
        self.assertEqual(got.item.attributes["n"].n, "1")
        arn = self.call("DescribeTable", pb.DescribeTableRequest(table_name="grpc-bk")).table.table_arn
        export = self.call("ExportTableToPointInTime", pb.ExportTableToPointInTimeRequest(
            table_arn=arn, s3_bucket="grpc-bucket")).export_description
        self.assertEqual(export.export_status, "IN_PROGRESS")
        described = self.call("DescribeExport", pb.DescribeExportRequest(export_arn=export.export_arn))
        self.assertEqual(described.export_description.export_arn, export.export_arn)
        listed = self.call("ListExports", pb.ListExportsRequest(table_arn=arn))
        self.assertEqual([s.export_arn for s in listed.export_summaries], [export.export_arn])
        imported = self.call("ImportTable", pb.ImportTableRequest(
            s3_bucket_source=pb.S3BucketSource(s3_bucket="grpc-bucket"), input_format="CSV",
            table_creation_parameters=pb.TableCreationParameters(
                table_name="grpc-imported", billing_mode="PAY_PER_REQUEST",
                attribute_definitions=[pb.AttributeDefinition(attribute_name="pk", attribute_type="S")],
                key_schema=[pb.KeySchemaElement(attribute_name="pk", key_type="HASH")]))).import_table_description
        self.assertEqual(imported.import_status, "IN_PROGRESS")
        described = self.call("DescribeImport", pb.DescribeImportRequest(import_arn=imported.import_arn))
        self.assertEqual(described.import_table_description.table_arn, imported.table_arn)
        listed = self.call("ListImports", pb.ListImportsRequest(table_arn=imported.table_arn))
        self.assertEqual([s.import_arn for s in listed.import_summary_list], [imported.import_arn])

    def test_bulk_operations(self):
        self.create("grpc-bulk")
        started = self.call("StartBulkPutItems", pb.StartBulkPutItemsRequest(
            table_name="grpc-bulk",
            input_s3_configuration=pb.InputS3Configuration(s3_bucket="grpc-bulk-in", input_format="DYNAMODB_JSON"),
            output_s3_configuration=pb.OutputS3Configuration(s3_bucket="grpc-bulk-out", output_type=["ERROR"]),
            max_write_request_units=2048)).bulk_operation_description
        self.assertEqual(started.bulk_operation_status, "IN_PROGRESS")
        self.assertEqual(started.max_write_request_units, 2048)
        arn = started.bulk_operation_arn
        described = self.call("DescribeBulkOperation", pb.DescribeBulkOperationRequest(bulk_operation_arn=arn))
        self.assertEqual(described.bulk_operation_description.table_details[0].table_name, "grpc-bulk")
        listed = self.call("ListBulkOperations", pb.ListBulkOperationsRequest(max_results=25))
        self.assertIn(arn, [s.bulk_operation_arn for s in listed.bulk_operations_summary_list])
        # The buckets do not exist: it fails soon; a cancel of what has ended is refused.
        for _ in range(200):
            d = self.call("DescribeBulkOperation", pb.DescribeBulkOperationRequest(bulk_operation_arn=arn))
            if d.bulk_operation_description.bulk_operation_status not in ("IN_PROGRESS", "CANCELLING"):
                break
            time.sleep(0.05)
        self.assertEqual(d.bulk_operation_description.bulk_operation_status, "FAILED")
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("CancelBulkOperation", pb.CancelBulkOperationRequest(bulk_operation_arn=arn))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.INVALID_ARGUMENT)
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("StartBulkPutItems", pb.StartBulkPutItemsRequest(table_name="grpc-no-such-table"))
        self.assertIn("ValidationException", cm.exception.details())

    def test_vector_search(self):
        index = pb.VectorIndex(index_name="by-emb", dimensions=2, distance_function="EUCLIDEAN",
                               vector_attribute=pb.VectorAttributeDefinition(attribute_name="emb"),
                               projection=pb.Projection(projection_type="KEYS_ONLY"))
        req = pb.CreateTableRequest(
            table_name="grpc-vec", billing_mode="PAY_PER_REQUEST", vector_indexes=[index],
            attribute_definitions=[pb.AttributeDefinition(attribute_name="pk", attribute_type="S")],
            key_schema=[pb.KeySchemaElement(attribute_name="pk", key_type="HASH")])
        self.call("CreateTable", req)
        for key, x in (("near", "1"), ("far", "5")):
            emb = pb.AttributeValue(l=pb.ListValue(values=[self.N(x), self.N("0")]))
            self.put("grpc-vec", pk=self.S(key), emb=emb)
        search = pb.SearchVectorsRequest(table_name="grpc-vec", index_name="by-emb", top_k=2,
                                         search_vector=pb.AttributeValueList(values=[self.N("0"), self.N("0")]))
        got = self.call("SearchVectors", search)
        self.assertEqual([(r.item["pk"].s, r.score) for r in got.search_results], [("near", 1.0), ("far", 5.0)])

    def test_kinesis_streaming_destinations(self):
        self.create("grpc-kds")
        stream = "arn:aws:kinesis:us-east-1:000000000000:stream/grpc-kds"
        enabled = self.call("EnableKinesisStreamingDestination", pb.EnableKinesisStreamingDestinationRequest(
            table_name="grpc-kds", stream_arn=stream))
        self.assertEqual((enabled.destination_status, enabled.stream_arn), ("ENABLING", stream))
        # This pogi has no --kinesis-endpoint: the destination fails, as
        # DynamoDB's does for a stream it cannot use.
        for _ in range(200):
            described = self.call("DescribeKinesisStreamingDestination",
                                  pb.DescribeKinesisStreamingDestinationRequest(table_name="grpc-kds"))
            entry = described.kinesis_data_stream_destinations[0]
            if entry.destination_status != "ENABLING":
                break
            time.sleep(0.05)
        self.assertEqual(entry.destination_status, "ENABLE_FAILED")
        self.assertEqual(entry.destination_status_description, "User does not have a permission to use kinesis stream")
        config = pb.UpdateKinesisStreamingConfiguration(approximate_creation_date_time_precision="MICROSECOND")
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("UpdateKinesisStreamingDestination", pb.UpdateKinesisStreamingDestinationRequest(
                table_name="grpc-kds", stream_arn=stream, update_kinesis_streaming_configuration=config))
        self.assertIn("Kinesis streaming is not in ACTIVE state", cm.exception.details())
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DisableKinesisStreamingDestination", pb.DisableKinesisStreamingDestinationRequest(
                table_name="grpc-kds", stream_arn=stream))
        self.assertIn("KinesisStreamingDestination must be ACTIVE to perform DISABLE operation",
                      cm.exception.details())

    def test_replica_auto_scaling(self):
        req = pb.CreateTableRequest(
            table_name="grpc-as", attribute_definitions=[pb.AttributeDefinition(attribute_name="pk", attribute_type="S")],
            key_schema=[pb.KeySchemaElement(attribute_name="pk", key_type="HASH")],
            provisioned_throughput=pb.ProvisionedThroughput(read_capacity_units=5, write_capacity_units=5))
        self.call("CreateTable", req)
        policy = pb.AutoScalingPolicyUpdate(
            target_tracking_scaling_policy_configuration=pb.AutoScalingTargetTrackingScalingPolicyConfigurationUpdate(
                target_value=60))
        update = pb.AutoScalingSettingsUpdate(minimum_units=2, maximum_units=20, scaling_policy_update=policy)
        got = self.call("UpdateTableReplicaAutoScaling", pb.UpdateTableReplicaAutoScalingRequest(
            table_name="grpc-as", provisioned_write_capacity_auto_scaling_update=update))
        write = got.table_auto_scaling_description.replicas[0].replica_provisioned_write_capacity_auto_scaling_settings
        self.assertEqual((write.minimum_units, write.maximum_units), (2, 20))
        described = self.call("DescribeTableReplicaAutoScaling",
                              pb.DescribeTableReplicaAutoScalingRequest(table_name="grpc-as"))
        self.assertEqual(described.table_auto_scaling_description, got.table_auto_scaling_description)
        read = described.table_auto_scaling_description.replicas[0].replica_provisioned_read_capacity_auto_scaling_settings
        self.assertTrue(read.auto_scaling_disabled)
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DescribeTableReplicaAutoScaling", pb.DescribeTableReplicaAutoScalingRequest(table_name="grpc-nope"))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_legacy_global_tables(self):
        attrs = [pb.AttributeDefinition(attribute_name="pk", attribute_type="S")]
        keys = [pb.KeySchemaElement(attribute_name="pk", key_type="HASH")]
        self.call("CreateTable", pb.CreateTableRequest(
            table_name="grpc-legacy", billing_mode="PAY_PER_REQUEST", attribute_definitions=attrs, key_schema=keys,
            stream_specification=pb.StreamSpecification(stream_enabled=True, stream_view_type="NEW_AND_OLD_IMAGES")))
        made = self.call("CreateGlobalTable", pb.CreateGlobalTableRequest(
            global_table_name="grpc-legacy", replication_group=[pb.Replica(region_name="us-east-1")]))
        self.assertEqual(made.global_table_description.global_table_arn,
                         "arn:aws:dynamodb::000000000000:global-table/grpc-legacy")
        # The default region mode: us-west-2 gets a member of its own.
        updated = self.call("UpdateGlobalTable", pb.UpdateGlobalTableRequest(
            global_table_name="grpc-legacy",
            replica_updates=[pb.ReplicaUpdate(create=pb.CreateReplicaAction(region_name="us-west-2"))]))
        self.assertEqual(sorted(r.region_name for r in updated.global_table_description.replication_group),
                         ["us-east-1", "us-west-2"])
        described = self.call("DescribeGlobalTable", pb.DescribeGlobalTableRequest(global_table_name="grpc-legacy"))
        self.assertEqual(described.global_table_description.global_table_status, "ACTIVE")
        listed = self.call("ListGlobalTables", pb.ListGlobalTablesRequest(region_name="us-west-2"))
        self.assertIn("grpc-legacy", [g.global_table_name for g in listed.global_tables])
        settings = self.call("UpdateGlobalTableSettings", pb.UpdateGlobalTableSettingsRequest(
            global_table_name="grpc-legacy", replica_settings_update=[
                pb.ReplicaSettingsUpdate(region_name="us-west-2", replica_table_class="STANDARD_INFREQUENT_ACCESS")]))
        classes = {r.region_name: r.replica_table_class_summary.table_class for r in settings.replica_settings}
        self.assertEqual(classes["us-west-2"], "STANDARD_INFREQUENT_ACCESS")
        again = self.call("DescribeGlobalTableSettings",
                          pb.DescribeGlobalTableSettingsRequest(global_table_name="grpc-legacy"))
        self.assertEqual(again.replica_settings, settings.replica_settings)
        with self.assertRaises(grpc.RpcError) as cm:
            self.call("DescribeGlobalTable", pb.DescribeGlobalTableRequest(global_table_name="grpc-nope"))
        self.assertEqual(cm.exception.code(), grpc.StatusCode.NOT_FOUND)

    def test_zz_every_operation_was_called(self):
        every = {m[0] for m in grpc_client.service_methods(pb, "DynamoDB")}
        self.assertEqual(sorted(every - CALLED), [],
                         "operations of service DynamoDB no test here called over gRPC")


if __name__ == "__main__":
    unittest.main()
