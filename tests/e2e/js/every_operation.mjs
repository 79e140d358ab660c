// Sends every command of @aws-sdk/client-dynamodb (the newest model: the
// SDK's own list of DynamoDB's operations) to pogi once, with an empty input,
// and prints {operation: what came back} as JSON: "ok", or the error's name.
// An empty input is enough: an operation pogi answers refuses it with
// ValidationException or a not-found, one it lacks with
// UnknownOperationException.
import * as sdk from "@aws-sdk/client-dynamodb";

const ddb = new sdk.DynamoDBClient({
  endpoint: process.env.POGI_ENDPOINT, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "pogi", secretAccessKey: "pogi" },
});
const out = {};
for (const [name, Command] of Object.entries(sdk)) {
  if (!name.endsWith("Command") || name.startsWith("$") || typeof Command !== "function") continue;
  const operation = name.slice(0, -"Command".length);
  try {
    await ddb.send(new Command({}));
    out[operation] = "ok";
  } catch (e) {
    out[operation] = e.name;
  }
}
process.stdout.write(JSON.stringify(out));
