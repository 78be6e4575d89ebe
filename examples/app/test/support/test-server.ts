import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryMailer } from "@tessera/mail";
import Database from "better-sqlite3";
import { loadConfig } from "../../src/config.js";
import { type RunningServer, startServer } from "../../src/server.js";

/** A running example app on a fresh SQLite file, with direct read access to that file. */
export interface TestServer {
  readonly url: string;
  readonly databasePath: string;
  /** Runs a read-only query on the app's database file. */
  query<Row>(sql: string, ...params: unknown[]): Row[];
  stop(): Promise<void>;
}

/**
 * Starts the app on port 0 and a temporary database; `environment` adds settings, `options`
 * a mailer and a clock.
 */
export async function startTestServer(
  environment: Record<string, string> = {},
  options: Parameters<typeof startServer>[1] = {},
): Promise<TestServer> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-e2e-"));
  const databasePath = join(folder, "app.db");
  const server: RunningServer = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: databasePath,
      SECRET_KEY_BASE: "e2e-secret-".repeat(6),
      ...environment,
    }),
    // Mails stay in memory unless a test brings its own mailer (or none, as production has).
    environment.NODE_ENV === "production" || options.mailer
      ? options
      : { ...options, mailer: new MemoryMailer() },
  );
  return {
    url: server.url,
    databasePath,
    query<Row>(sql: string, ...params: unknown[]) {
      const database = new Database(databasePath, { readonly: true });
      try {
        return database.prepare(sql).all(...params) as Row[];
      } finally {
        database.close();
      }
    },
    async stop() {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

let nextClient = 1;

/** A fresh client address (TEST-NET-3), so one test's attempts never count against another's. */
export function newClientAddress(): string {
  const n = nextClient++;
  return `203.0.${113 + Math.floor(n / 250)}.${(n % 250) + 1}`;
}
