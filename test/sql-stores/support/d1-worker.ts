import type { D1Connection, D1Statement } from "@tessera/sqlite/d1";
import { Miniflare } from "miniflare";

/** One statement as it travels to the Worker: bytes as `{ bytes: [...] }`, JSON has none. */
interface SentStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** What the Worker does with the statements: one of a statement's methods, or a batch. */
type Method = "run" | "first" | "all" | "batch";

// The Worker runs each request's statements on its own D1 binding, as a deployed Worker would,
// and answers the result (or the error's message, which is what the stores read from D1 errors).
const WORKER_SCRIPT = `
const decode = (value) =>
  value !== null && typeof value === "object" ? new Uint8Array(value.bytes) : value;
export default {
  async fetch(request, env) {
    const { binding, method, statements } = await request.json();
    const database = env[binding];
    try {
      const prepared = statements.map(({ sql, params }) =>
        params.length === 0 ? database.prepare(sql) : database.prepare(sql).bind(...params.map(decode)),
      );
      const result = method === "batch" ? await database.batch(prepared) : await prepared[0][method]();
      return Response.json({ result });
    } catch (error) {
      return Response.json({ error: String(error?.message ?? error) });
    }
  },
};
`;

/**
 * D1 databases in one workerd (miniflare), each binding a {@link D1Connection} for
 * `d1Database`. The statements run inside the Worker, one request each: miniflare's own binding
 * proxy (`getD1Database`) costs three round trips per statement (two of them synchronous), which
 * made each store-contract test on D1 take seconds. Dispose of it when done.
 */
export function startD1Worker(bindings: readonly string[]) {
  const worker = new Miniflare({
    modules: true,
    script: WORKER_SCRIPT,
    compatibilityDate: "2026-07-01",
    d1Databases: [...bindings],
  });

  async function send(binding: string, method: Method, statements: SentStatement[]) {
    const response = await worker.dispatchFetch("http://d1.test/", {
      method: "POST",
      body: JSON.stringify({ binding, method, statements }),
    });
    const answer = (await response.json()) as { result?: unknown; error?: string };
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result;
  }

  return {
    /** A connection to the database of `binding` (one of those given). */
    connection(binding: string): D1Connection {
      if (!bindings.includes(binding)) throw new Error(`no D1 binding ${binding}`);
      const statement = (sql: string, params: readonly unknown[]): D1Statement & SentStatement => ({
        sql,
        params,
        bind: (...values) => statement(sql, values.map(sentValue)),
        run: () => send(binding, "run", [{ sql, params }]) as ReturnType<D1Statement["run"]>,
        first: () => send(binding, "first", [{ sql, params }]),
        all: () => send(binding, "all", [{ sql, params }]) as ReturnType<D1Statement["all"]>,
      });
      return {
        prepare: (sql) => statement(sql, []),
        batch: async (statements) =>
          (await send(
            binding,
            "batch",
            statements.map((sent) => {
              const { sql, params } = sent as D1Statement & SentStatement;
              return { sql, params };
            }),
          )) as unknown[],
      };
    },
    /** Resolves once workerd serves. */
    ready: async () => {
      await worker.ready;
    },
    dispose: () => worker.dispose(),
  };
}

/** A bound value as JSON carries it: bytes as an object the Worker turns back into bytes. */
function sentValue(value: unknown): unknown {
  return value instanceof Uint8Array ? { bytes: [...value] } : value;
}
