"""Item collections of tables with local secondary indexes: DynamoDB's size
limit (lowered with --item-collection-limit so a test reaches it with a few
KB) and ReturnItemCollectionMetrics."""

import unittest

from harness import ServerTestCase

LIMIT = 20000  # bytes
BLOB = "x" * 4000


class ItemCollections(ServerTestCase):
    SERVER_ARGS = {"extra_args": ["--item-collection-limit", str(LIMIT)]}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.lsi_table = "coll_lsi"
        cls.ddb.create_table(
            TableName=cls.lsi_table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "N"},
                                  {"AttributeName": "l", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
            LocalSecondaryIndexes=[{"IndexName": "by_l",
                                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                                  {"AttributeName": "l", "KeyType": "RANGE"}],
                                    "Projection": {"ProjectionType": "ALL"}}])

    def put(self, pk, sk, **kw):
        return self.ddb.put_item(TableName=self.lsi_table,
                                 Item={"pk": {"S": pk}, "sk": {"N": str(sk)}, "l": {"S": "l%d" % sk},
                                       "blob": {"S": BLOB}}, **kw)

    def test_collection_limit_is_enforced_per_partition(self):
        # Each item counts twice (the item and its ALL-projected LSI entry):
        # about 8 KB, so the third item of a partition passes 20,000 bytes.
        self.put("full", 1)
        self.put("full", 2)
        self.assertClientError(lambda: self.put("full", 3), "ItemCollectionSizeLimitExceededException",
                               message="Item collection size limit exceeded")
        # The refused write wrote nothing; other partitions are not affected.
        keys = {"pk": {"S": "full"}, "sk": {"N": "3"}}
        self.assertNotIn("Item", self.ddb.get_item(TableName=self.lsi_table, Key=keys))
        self.put("other", 1)
        # Deleting makes room again.
        self.ddb.delete_item(TableName=self.lsi_table, Key={"pk": {"S": "full"}, "sk": {"N": "1"}})
        self.put("full", 3)
        # Overwriting an item with one of the same size does not grow the collection.
        self.put("full", 3)

    def test_table_without_local_index_has_no_limit(self):
        name = self.create_table(range_key=("sk", "N"))
        for sk in range(8):
            self.ddb.put_item(TableName=name, Item={"pk": {"S": "p"}, "sk": {"N": str(sk)}, "blob": {"S": BLOB}})
        self.assertEqual(self.ddb.describe_table(TableName=name)["Table"]["ItemCount"], 8)

    def test_return_item_collection_metrics(self):
        r = self.put("metrics", 1, ReturnItemCollectionMetrics="SIZE")
        m = r["ItemCollectionMetrics"]
        self.assertEqual(m["ItemCollectionKey"], {"pk": {"S": "metrics"}})
        self.assertEqual(len(m["SizeEstimateRangeGB"]), 2)
        r = self.ddb.delete_item(TableName=self.lsi_table, Key={"pk": {"S": "metrics"}, "sk": {"N": "1"}},
                                 ReturnItemCollectionMetrics="SIZE")
        self.assertEqual(r["ItemCollectionMetrics"]["ItemCollectionKey"], {"pk": {"S": "metrics"}})
        # Without local indexes there is no item collection to report.
        name = self.create_table()
        r = self.ddb.put_item(TableName=name, Item={"pk": {"S": "a"}}, ReturnItemCollectionMetrics="SIZE")
        self.assertNotIn("ItemCollectionMetrics", r)


if __name__ == "__main__":
    unittest.main()
