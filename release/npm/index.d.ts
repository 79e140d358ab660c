import type { ChildProcess } from "node:child_process";

export interface StartPogiOptions {
  /** Keep nothing on disk. */
  inMemory?: boolean;
  /** The data folder (pogi's default: ./.pogi). Ignored with inMemory. */
  dataDir?: string;
  /** HTTP port for DynamoDB's API; 0 (the default) picks a free one. */
  port?: number;
  /** gRPC port for the admin API; 0 (the default) picks a free one. */
  grpcPort?: number;
  /** The region pogi answers as (default us-east-1). */
  region?: string;
  /** More `pogi start` flags, e.g. ["--clock", "2030-01-01T00:00:00Z"]. */
  args?: string[];
  /** Another pogi binary than the one in this package. */
  binary?: string;
  /** Each line pogi logs (JSON). */
  onLog?: (line: string) => void;
  timeoutMs?: number;
  stopTimeoutMs?: number;
}

export interface Pogi {
  /** http://127.0.0.1:PORT: the endpoint for any AWS SDK's DynamoDB client. */
  endpoint: string;
  port: number;
  grpcPort: number;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  process: ChildProcess;
  /** Stops pogi cleanly and resolves once it has exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startPogi(options?: StartPogiOptions): Promise<Pogi>;
export const binaryPath: string;
