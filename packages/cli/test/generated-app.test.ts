// A whole app made with the generators, as a user would: accounts, models (one with a field of
// every type, one for GraphQL), a webhook and a job generated, migrated by `tessera migrate` on SQLite and on PostgreSQL, served by a server
// file written the way the READMEs show, and driven over HTTP.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signStandardWebhook } from "@tessera/signer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForLine } from "../../../examples/app/test/support/app-process.js";
import { createPostgresSchema, type PostgresSchema } from "../../../test/support/postgres.js";
import { type ProcessGroup, startProcessGroup } from "../../../test/support/process-group.js";
import {
  type RecordingService,
  startRecordingService,
} from "../../../test/support/recording-service.js";
import { tessera } from "./support/tessera-process.js";

const repository = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = import.meta.resolve("tsx/esm");
const ORDERS_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
/** A model with a field of every type, so the type-check sees every form the template takes. */
const EVERY_FIELD_TYPE = [
  "name:string^",
  "summary:text?",
  "body:rich_text?",
  "count:integer?",
  "ratio:float?",
  "active:boolean",
  "released_on:date?",
  "released_at:datetime?",
  "opens_at:time?",
  "price:decimal?",
  "serial:uuid?",
  "post:references?",
  "maker:references:user?",
  "target:polymorphic:post,user?",
  "cover:attachment?",
  "photos:attachments",
  "settings:json?",
  "size:enum:small,large",
  "public_id:token",
  "lock_version:integer",
];

/** The app's own server, written as a user of the generated modules would write it. */
const SERVER = `import { createServer } from "node:http";
import { accountRoutes } from "@tessera/accounts";
import { sqlAccountStores } from "@tessera/accounts/sql";
import { bearerAuthentication } from "@tessera/bearer";
import { toNodeHandler } from "@tessera/node";
import { openPostgres } from "@tessera/postgres/pg";
import { jsonRecordRoutes, MemoryObjectStorage } from "@tessera/records";
import { SqlRecordStore } from "@tessera/records/sql";
import { openSqliteFile } from "@tessera/sqlite/better-sqlite3";
import { SqlWebhookEventStore } from "@tessera/webhooks/sql";
import { renderJobs } from "./jobs/render.js";
import { postModel } from "./models/post.js";
import { ordersWebhookRoute } from "./webhooks/orders.js";

const env = process.env;
const database = env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openSqliteFile(env.DATABASE_PATH!);
const secretKeyBase = env.SECRET_KEY_BASE!;
const accounts = accountRoutes({ ...sqlAccountStores(database), secretKeyBase, passwords: { iterations: 1000 } });
const authenticate = bearerAuthentication(accounts.bearer);
const jobs = renderJobs({ database, appUrl: env.APP_URL!, secretKeyBase, environment: env });
const routes = [
  ...accounts.routes,
  ...jsonRecordRoutes({ model: postModel, store: new SqlRecordStore(database, postModel), storage: new MemoryObjectStorage(), authenticate }),
  ordersWebhookRoute({ store: new SqlWebhookEventStore(database), secret: env.ORDERS_WEBHOOK_SECRET! }),
  ...jobs.routes(authenticate),
];
const server = createServer(toNodeHandler(routes)).listen(0, "127.0.0.1", () => {
  console.log(\`listening on http://127.0.0.1:\${(server.address() as { port: number }).port}\`);
});
`;

let renderService: RecordingService;
beforeAll(async () => {
  renderService = await startRecordingService({ status: 202, body: '{"id":"ext-7"}' });
});
afterAll(() => renderService.close());

describe.each(["sqlite", "postgres"] as const)("an app generated for %s", (engine) => {
  const app = mkdtempSync(join(repository, "packages/cli/test/.generated-"));
  let schema: PostgresSchema | undefined;
  let server: ProcessGroup | undefined;
  let url = "";
  beforeAll(async () => {
    schema = engine === "postgres" ? await createPostgresSchema() : undefined;
    const database = schema
      ? { DATABASE_URL: schema.url }
      : { DATABASE_PATH: join(app, "data/app.db") };
    const generate = async (...args: string[]) => {
      const run = await tessera(args, app, database);
      if (run.status !== 0) throw new Error(`tessera ${args.join(" ")}: ${run.stderr}`);
    };
    await generate("generate", "accounts");
    await generate("generate", "model", "post", "title:string", "body:text?");
    await generate("generate", "model", "gadget", ...EVERY_FIELD_TYPE, "--unique-scope", "owner");
    await generate("generate", "model", "note", "title:string", "word_count:integer?", "--graphql");
    await generate("generate", "webhook", "orders", "--standard");
    await generate("generate", "job", "render", "prompt:text");
    mkdirSync(join(app, "data"), { recursive: true });
    await generate("migrate");
    writeFileSync(join(app, "src/server.ts"), SERVER);
    server = startProcessGroup(process.execPath, ["--import", TSX, join(app, "src/server.ts")], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? "",
        TSX_TSCONFIG_PATH: join(repository, "tsconfig.json"),
        ...database,
        SECRET_KEY_BASE: "a secret key base of at least thirty-two characters",
        APP_URL: "https://app.example",
        ORDERS_WEBHOOK_SECRET: ORDERS_SECRET,
        RENDER_URL: renderService.url,
        RENDER_SECRET: "render-shared-secret",
      },
    });
    [, url = ""] = await waitForLine(server.output, /listening on (http:\/\/[^\s]+)/, 30_000);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await schema?.drop();
    rmSync(app, { recursive: true, force: true });
  });

  const call = async (
    path: string,
    init: { token?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const response = await fetch(`${url}${path}`, {
      method: init.json === undefined && init.body === undefined ? "GET" : "POST",
      headers: {
        "content-type": "application/json",
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined
        ? { body: init.body }
        : init.json !== undefined
          ? { body: JSON.stringify(init.json) }
          : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("is generated as code that type-checks strictly and that Biome accepts", () => {
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../../tsconfig.json",
        include: ["src/models", "src/webhooks", "src/jobs", "test"],
      }),
    );
    const bin = join(repository, "node_modules", ".bin");
    expect(
      execFileSync(join(bin, "tsc"), ["-p", app, "--noEmit", "--strict"], { encoding: "utf8" }),
    ).toBe("");
    const generated = ["src/models", "src/webhooks", "src/jobs", "test"].map((folder) =>
      join(app, folder),
    );
    execFileSync(join(bin, "biome"), ["check", ...generated], {
      cwd: repository,
      encoding: "utf8",
    });
    // tsc over the generated app took 56 to 61 s with a load of 17 on two cores.
  }, 180_000);

  it("signs up, creates and lists posts, takes a webhook once and submits a job", async () => {
    const credentials = { email: "ada@example.com", password: "correct horse battery staple" };
    expect((await call("/api/auth/signup", { json: credentials })).status).toBe(201);
    const { token } = (await call("/api/auth/token", { json: credentials })).body as {
      token: string;
    };

    const created = await call("/api/posts", { token, json: { title: "Hello" } });
    expect(created).toMatchObject({ status: 201, body: { title: "Hello", body: null } });
    const listed = await fetch(`${url}/api/posts`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await listed.json()) as { title: string }[]).map((post) => post.title)).toEqual([
      "Hello",
    ]);
    expect((await call("/api/posts", { json: { title: "No token" } })).status).toBe(401);

    const body = JSON.stringify({ type: "order.paid" });
    const headers = signStandardWebhook({ id: `msg_${engine}`, body, secret: ORDERS_SECRET });
    expect(await call("/webhooks/orders", { body, headers: { ...headers } })).toEqual({
      status: 200,
      body: { status: "processed" },
    });
    expect((await call("/webhooks/orders", { body, headers: { ...headers } })).body).toEqual({
      status: "duplicate",
    });

    const job = await call("/api/render_jobs", { token, json: { prompt: "a red fox" } });
    expect(job).toMatchObject({ status: 201, body: { status: "submitted", external_id: "ext-7" } });
    expect(JSON.parse(renderService.requests.at(-1)!.body)).toMatchObject({
      input: { prompt: "a red fox" },
    });
  });
});
