// Drives pogi's bulk operations with the AWS SDK for JavaScript v3 (which
// has the commands; botocore does not): stdin is {table, prefix, slow}, the
// inputs already in the folder store's bucket "src"; stdout is JSON with
// what the SDK returned, for test_bulk_puts.py to check.
import {
  CancelBulkOperationCommand, DescribeBulkOperationCommand, DynamoDBClient, ListBulkOperationsCommand,
  StartBulkPutItemsCommand,
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
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const start = (prefix, extra = {}) => ddb.send(new StartBulkPutItemsCommand({
  TableName: input.table,
  InputS3Configuration: { S3Bucket: "src", S3KeyPrefix: prefix, InputFormat: "DYNAMODB_JSON" },
  OutputS3Configuration: { S3Bucket: "out", S3KeyPrefix: "js", OutputType: ["ERROR", "CONDITION_CHECK_FAILURE"] },
  ...extra,
}));
const describe = async (arn) =>
  (await ddb.send(new DescribeBulkOperationCommand({ BulkOperationArn: arn }))).BulkOperationDescription;
const until = async (arn, done) => {
  for (let i = 0; i < 1200; i++) {
    const d = await describe(arn);
    if (done(d)) return d;
    await sleep(50);
  }
  throw new Error("bulk operation " + arn + " did not get there");
};
const out = {};

const started = (await start(input.prefix)).BulkOperationDescription;
out.started = { status: started.BulkOperationStatus };
const done = await until(started.BulkOperationArn, (d) => !["IN_PROGRESS", "CANCELLING"].includes(d.BulkOperationStatus));
out.done = {
  arn: done.BulkOperationArn, status: done.BulkOperationStatus, processed: done.ProcessedItemCount,
  startIsDate: done.StartTime instanceof Date, endIsDate: done.EndTime instanceof Date,
};
const listed = await ddb.send(new ListBulkOperationsCommand({ MaxResults: 25 }));
out.listed = listed.BulkOperationsSummaryList.map((s) => s.BulkOperationArn);

const slow = (await start(input.slow, { MaxWriteRequestUnits: 1024 })).BulkOperationDescription;
await until(slow.BulkOperationArn, (d) => d.ProcessedItemCount > 0);
out.cancel = (await ddb.send(new CancelBulkOperationCommand({ BulkOperationArn: slow.BulkOperationArn })))
  .BulkOperationStatus;
out.cancelled = (await until(slow.BulkOperationArn, (d) => d.BulkOperationStatus !== "CANCELLING"))
  .BulkOperationStatus;
try {
  await describe(slow.BulkOperationArn + "0");
  out.missing = "none";
} catch (e) {
  out.missing = e.name;
}
process.stdout.write(JSON.stringify(out));
