// startPogi: runs the pogi binary shipped in this package for a test run and
// answers once it serves. pogi prints "Ready." on stdout when both listeners
// are bound and storage is open; its JSON log line before that names the
// ports it bound (port 0 picks free ones, the default here).
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");
const readline = require("node:readline");

const BINARY = path.join(__dirname, "bin", "pogi-linux-" + process.arch);

function startPogi(options = {}) {
  const args = ["start", "--port", String(options.port ?? 0), "--grpc-port", String(options.grpcPort ?? 0),
                "--log-format", "json"];
  if (options.inMemory) args.push("--in-memory");
  if (options.dataDir) args.push("--data-dir", options.dataDir);
  if (options.region) args.push("--region", options.region);
  args.push(...(options.args ?? []));
  const child = spawn(options.binary ?? BINARY, args, { stdio: ["ignore", "pipe", "pipe"] });
  const region = options.region ?? "us-east-1";
  const log = [];
  return new Promise((resolve, reject) => {
    // "Ready." (stdout) and the log line with the ports (stderr) come on two
    // pipes, in either order: pogi is handed over once both are in.
    let ports = null;
    let ready = false;
    let settled = false;
    const fail = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error("pogi did not start in time:\n" + log.join("\n"))),
                             options.timeoutMs ?? 10000);
    const exited = new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
    const handOver = () => {
      if (settled || !ready || !ports) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        endpoint: "http://127.0.0.1:" + ports.http,
        port: ports.http,
        grpcPort: ports.grpc,
        region,
        credentials: { accessKeyId: "pogi", secretAccessKey: "pogi" },
        process: child,
        // A clean stop, as Ctrl-C: requests in flight finish, storage closes.
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGTERM");
            const timeout = new Promise((done) => setTimeout(done, options.stopTimeoutMs ?? 10000, "timeout"));
            if ((await Promise.race([exited, timeout])) === "timeout") child.kill("SIGKILL");
          }
          return exited;
        },
      });
    };
    readline.createInterface({ input: child.stderr }).on("line", (line) => {
      log.push(line);
      if (log.length > 50) log.shift();
      if (options.onLog) options.onLog(line);
      if (ports) return;
      try {
        const entry = JSON.parse(line);
        if (entry.http_port !== undefined) {
          ports = { http: Number(entry.http_port), grpc: Number(entry.grpc_port) };
          handOver();
        }
      } catch (_) { /* not a JSON line */ }
    });
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      if (line !== "Ready.") return;
      ready = true;
      handOver();
    });
    child.once("error", fail);
    // Before it is handed over, an exit is a failed start (a bad flag, a port
    // in use): pogi's own words are in the log.
    // "close" comes after the pipes are drained, so the log is complete.
    child.once("close", (code, signal) =>
      fail(new Error(`pogi exited (${signal ?? code}) before it was ready:\n` + log.join("\n"))));
  });
}

module.exports = { startPogi, binaryPath: BINARY };
