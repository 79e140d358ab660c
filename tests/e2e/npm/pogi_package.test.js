// Run by test_release.py with `node --test` inside a fresh folder where the
// npm tarball was installed offline: the package's API starts pogi, an AWS
// SDK client writes and reads an item, and stop() leaves no process behind.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const { startPogi } = require("pogi");
const {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand,
} = require("@aws-sdk/client-dynamodb");

test("startPogi serves an AWS SDK client and stops cleanly", async () => {
  const db = await startPogi({ inMemory: true });
  assert.match(db.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
  const client = new DynamoDBClient({ endpoint: db.endpoint, region: db.region, credentials: db.credentials });
  await client.send(new CreateTableCommand({
    TableName: "npm_test",
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    BillingMode: "PAY_PER_REQUEST",
  }));
  await client.send(new PutItemCommand({ TableName: "npm_test", Item: { pk: { S: "a" }, n: { N: "1.50" } } }));
  const got = await client.send(new GetItemCommand({ TableName: "npm_test", Key: { pk: { S: "a" } } }));
  assert.deepStrictEqual(got.Item, { pk: { S: "a" }, n: { N: "1.5" } });
  client.destroy();
  const pid = db.process.pid;
  const { code } = await db.stop();
  assert.strictEqual(code, 0);
  assert.throws(() => process.kill(pid, 0), { code: "ESRCH" });
});

test("a bad flag rejects with pogi's own words", async () => {
  await assert.rejects(startPogi({ args: ["--no-such-flag"] }), /no-such-flag/);
});
