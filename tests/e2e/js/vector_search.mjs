// Drives pogi's vector search with the AWS SDK for JavaScript v3 (which has
// the commands): stdin is {table, dimensions, items: {key: vector},
// queries: [vector], topK}; stdout is JSON with what the SDK returned, for
// test_vector_search.py to compare with its reference.
import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, SearchVectorsCommand,
  UpdateTableCommand,
} from "@aws-sdk/client-dynamodb";

const input = JSON.parse(await new Promise((resolve) => {
  let s = "";
  process.stdin.on("data", (d) => (s += d));
  process.stdin.on("end", () => resolve(s));
}));
const ddb = new DynamoDBClient({
  endpoint: process.env.POGI_ENDPOINT, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "pogi", secretAccessKey: "pogi" },
});
const functions = ["COSINE", "EUCLIDEAN", "DOT_PRODUCT"];
const num = (x) => ({ N: String(x) });
const out = { searches: {}, errors: {} };

await ddb.send(new CreateTableCommand({
  TableName: input.table, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "tenant", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  VectorIndexes: functions.map((f) => ({
    IndexName: "by-" + f.toLowerCase(), VectorAttribute: { AttributeName: "emb" }, Dimensions: input.dimensions,
    DistanceFunction: f, Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["title"] },
    SearchSchema: [{ AttributeName: "tenant", SearchSchemaElementType: "INLINE_FILTER" }],
  })),
}));
for (const [key, vector] of Object.entries(input.items)) {
  await ddb.send(new PutItemCommand({
    TableName: input.table,
    Item: { pk: { S: key }, title: { S: "t-" + key }, tenant: { S: key.endsWith("0") ? "a" : "b" },
            emb: { L: vector.map(num) } },
  }));
}
for (const f of functions) {
  out.searches[f] = [];
  for (const q of input.queries) {
    const r = await ddb.send(new SearchVectorsCommand({
      TableName: input.table, IndexName: "by-" + f.toLowerCase(), SearchVector: q.map(num), TopK: input.topK,
      ReturnConsumedCapacity: "TOTAL",
    }));
    out.searches[f].push({
      hits: r.SearchResults.map((h) => [h.Item.pk.S, h.Score, Object.keys(h.Item).sort()]),
      bytes: r.ConsumedCapacity.VectorSearchRequestBytes,
    });
  }
}
const filtered = await ddb.send(new SearchVectorsCommand({
  TableName: input.table, IndexName: "by-cosine", SearchVector: input.queries[0].map(num), TopK: input.topK,
  SearchConditionExpression: "#t = :t", ExpressionAttributeNames: { "#t": "tenant" },
  ExpressionAttributeValues: { ":t": { S: "a" } },
}));
out.filtered = filtered.SearchResults.map((h) => [h.Item.pk.S, h.Score]);
const described = await ddb.send(new DescribeTableCommand({ TableName: input.table }));
out.described = described.Table.VectorIndexes.map((v) => [v.IndexName, v.IndexStatus, v.ItemCount, v.Dimensions]);
const added = await ddb.send(new UpdateTableCommand({
  TableName: input.table,
  VectorIndexUpdates: [{ Delete: { IndexName: "by-euclidean" } }],
}));
out.deleting = added.TableDescription.VectorIndexes.map((v) => [v.IndexName, v.IndexStatus]);
for (const [name, request] of Object.entries({
  dimensions: { SearchVector: [num(1)], TopK: 1 },
  topK: { SearchVector: input.queries[0].map(num), TopK: 101 },
  nan: { SearchVector: input.queries[0].map(() => ({ N: "NaN" })), TopK: 1 },
})) {
  try {
    await ddb.send(new SearchVectorsCommand({ TableName: input.table, IndexName: "by-cosine", ...request }));
    out.errors[name] = null;
  } catch (e) {
    out.errors[name] = [e.name, e.message];
  }
}
process.stdout.write(JSON.stringify(out));
