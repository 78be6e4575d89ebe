import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { startProcessGroup } from "../../../test/support/process-group.js";
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
  /** Stops it as Ctrl-C would, waits for it to exit, then kills what is left of its group. */
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
  // In a group of its own: tsx's CLI runs the server in a child, which runs workerd in another.
  const group = startProcessGroup(
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
  const [, url] = await waitForLine(group.output, /listening on (http:\/\/[^\s]+)/, 60_000).catch(
    async (error: unknown) => {
      // The caller never gets a Worker to stop: a start that fails or times out stops here.
      await group.stop();
      throw error;
    },
  );
  return {
    url: url!,
    child: group.child,
    output: group.output,
    stop: async () => {
      group.child.kill("SIGINT");
      await group.exited;
      // Whatever the Ctrl-C left behind (a workerd that outlived its parent) goes too.
      await group.stop();
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
