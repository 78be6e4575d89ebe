import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryMailer } from "@tessera/mail";
import type { SqlValue } from "@tessera/sql";
import Database from "better-sqlite3";
import { createPostgresSchema } from "../../../../test/support/postgres.js";
import { loadConfig } from "../../src/config.js";
import { type RunningServer, startServer } from "../../src/server.js";

/** A running example app on a fresh database, with direct read access to it. */
export interface TestServer {
  readonly url: string;
  /** The SQLite file (on PostgreSQL, the unused default beside the uploads folder). */
  readonly databasePath: string;
  /** Which engine the app runs on: see {@link TEST_ENGINE}. */
  readonly engine: "sqlite" | "postgres";
  /** Runs a query on the app's database (`?` placeholders on both engines). */
  query<Row>(sql: string, ...params: SqlValue[]): Promise<Row[]>;
  /**
   * Hands every mail due now to the test's mailer (the app's sender would, in the background):
   * await it before reading the mailer.
   */
  deliverMail(): Promise<void>;
  /** Delivers every webhook due now (the app's sender would, in the background). */
  deliverWebhooks(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The engine the app's end-to-end suites run on: SQLite, or PostgreSQL when the test project
 * sets `TESSERA_TEST_DATABASE=postgres` (the `example-app-postgres` project runs the same suites
 * there, on a schema of their own per server).
 */
export const TEST_ENGINE = process.env.TESSERA_TEST_DATABASE === "postgres" ? "postgres" : "sqlite";

/**
 * Starts the app on port 0 and a temporary database on {@link TEST_ENGINE}; `environment` adds
 * settings, `options` a mailer and a clock.
 */
export async function startTestServer(
  environment: Record<string, string> = {},
  options: Parameters<typeof startServer>[1] = {},
): Promise<TestServer> {
  const folder = mkdtempSync(join(tmpdir(), "tessera-e2e-"));
  const databasePath = join(folder, "app.db");
  const postgres = TEST_ENGINE === "postgres" ? await createPostgresSchema() : undefined;
  const server: RunningServer = await startServer(
    loadConfig({
      PORT: "0",
      DATABASE_PATH: databasePath,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      SECRET_KEY_BASE: "e2e-secret-".repeat(6),
      // Production would look new passwords up on the Internet: tests name a local double.
      PWNED_PASSWORDS: "0",
      ...environment,
    }),
    // Mails stay in memory unless a test brings its own mailer, names an adapter, or has none
    // (as production has).
    environment.NODE_ENV === "production" ||
      environment.MAIL_ADAPTER !== undefined ||
      options.mailer
      ? options
      : { ...options, mailer: new MemoryMailer() },
  );
  return {
    url: server.url,
    databasePath,
    engine: TEST_ENGINE,
    deliverMail: () => server.deliverMail(),
    deliverWebhooks: () => server.deliverWebhooks(),
    async query<Row>(sql: string, ...params: SqlValue[]) {
      if (postgres) return postgres.database.all(sql, params) as Promise<Row[]>;
      const database = new Database(databasePath, { readonly: true });
      try {
        return database.prepare(sql).all(...params) as Row[];
      } finally {
        database.close();
      }
    },
    async stop() {
      await server.close();
      await postgres?.drop();
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
