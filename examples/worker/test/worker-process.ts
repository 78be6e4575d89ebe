import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { waitForLine } from "../../app/test/support/app-process.js";

const workerFolder = fileURLToPath(new URL("..", import.meta.url));
// The same command as `npm run dev`: the tsx CLI on src/dev-server.ts.
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

/** The Worker running under `npm run dev`, with what it printed so far. */
export interface WorkerProcess {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** Standard output and standard error, interleaved as they arrived. */
  output(): string;
  /** Stops it as Ctrl-C would, and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `npm run dev` of examples/worker with only `PATH` and `environment` set (and `args`,
 * such as `--config <file>`), and waits for its ready line (up to 60 s: the first start bundles
 * the service).
 */
export async function startWorker(
  environment: Record<string, string>,
  args: readonly string[] = [],
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    [tsxCli, join(workerFolder, "src/dev-server.ts"), ...args],
    {
      cwd: workerFolder,
      env: {
        PATH: process.env.PATH ?? "",
        TSX_TSCONFIG_PATH: join(workerFolder, "tsconfig.json"),
        PORT: "0",
        ...environment,
      },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const [, url] = await waitForLine(() => output, /listening on (http:\/\/[^\s]+)/, 60_000);
  return {
    url: url!,
    child,
    output: () => output,
    stop: async () => {
      child.kill("SIGINT");
      await exited;
    },
  };
}

/** The SQLite file of the Worker's local D1 database, kept in the state folder beside `DATABASE_PATH`. */
function d1File(databasePath: string): string {
  const folder = join(databasePath, "..", "worker-state", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(folder).find(
    (name) => name.endsWith(".sqlite") && name !== "metadata.sqlite",
  );
  if (!file) throw new Error(`no D1 database in ${folder}`);
  return join(folder, file);
}

/**
 * Reads rows of the Worker's local D1 database, the SQLite file miniflare keeps in the state
 * folder beside `DATABASE_PATH`, read-only.
 */
export function d1Rows(databasePath: string) {
  const file = d1File(databasePath);
  return <Row>(sql: string, ...params: unknown[]): Row[] => {
    const database = new Database(file, { readonly: true });
    try {
      return database.prepare(sql).all(...params) as Row[];
    } finally {
      database.close();
    }
  };
}

/**
 * Runs one writing statement on the Worker's local D1 database: only while no Worker of that
 * `DATABASE_PATH` runs, since miniflare's own connection to the file is not told of it.
 */
export function writeD1(databasePath: string, sql: string, ...params: unknown[]): number {
  const database = new Database(d1File(databasePath));
  try {
    return database.prepare(sql).run(...params).changes;
  } finally {
    database.close();
  }
}
