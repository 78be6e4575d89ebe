import { Miniflare } from "miniflare";
import { afterAll, describe, expect, it } from "vitest";
import { bindingRateLimiter, type RateLimitBinding, storedRateLimitKey } from "../src/index.js";

// The Workers rate-limiting binding as workerd runs it, through miniflare: 3 per 10 s.
const worker = new Miniflare({
  modules: true,
  script: "export default { fetch: () => new Response() }",
  compatibilityDate: "2026-07-01",
  ratelimits: { AUTH_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 3, period: 10 } } },
});
afterAll(() => worker.dispose());

async function binding(): Promise<RateLimitBinding> {
  const bindings = await worker.getBindings<{ AUTH_RATE_LIMITER: RateLimitBinding }>();
  return bindings.AUTH_RATE_LIMITER;
}

const PERIOD_MS = 10_000;
let clients = 0;

/**
 * Runs `attempts` for a new client address until one run falls inside one window of the
 * binding: miniflare counts in fixed 10-second windows of the real clock, so a run that
 * crosses into the next window starts counting again, whatever the limiter does.
 */
async function inOneWindow<T>(attempts: (client: string) => Promise<T>): Promise<T> {
  for (let trial = 0; ; trial++) {
    const client = `198.51.100.${++clients}`;
    const window = Math.floor(Date.now() / PERIOD_MS);
    const result = await attempts(client);
    if (Math.floor(Date.now() / PERIOD_MS) === window || trial === 4) return result;
  }
}

describe("bindingRateLimiter on the Workers binding", () => {
  it("allows the binding's limit, then refuses with Retry-After of one period", async () => {
    const limiter = bindingRateLimiter(await binding(), { limit: 3, periodSeconds: 10 });
    const decisions = await inOneWindow(async (client) => {
      const made = [];
      for (let attempt = 0; attempt < 4; attempt++)
        made.push(await limiter.attempt("login", client));
      return made;
    });
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]).toEqual({
      allowed: false,
      limit: 3,
      remaining: undefined,
      retryAfterSeconds: 10,
    });
  });

  it("counts each group and client apart, with the key the counter stores get", async () => {
    const seen: string[] = [];
    const real = await binding();
    const limiter = bindingRateLimiter(
      {
        limit: (options) => {
          seen.push(options.key);
          return real.limit(options);
        },
      },
      { limit: 3, periodSeconds: 10 },
    );
    const { client, otherGroup, otherClient, fourth } = await inOneWindow(async (client) => {
      seen.length = 0;
      for (let attempt = 0; attempt < 3; attempt++) await limiter.attempt("login", client);
      return {
        client,
        otherGroup: await limiter.attempt("signup", client),
        otherClient: await limiter.attempt("login", `192.0.2.${clients}`),
        fourth: await limiter.attempt("login", client),
      };
    });
    expect(otherGroup.allowed).toBe(true);
    expect(otherClient.allowed).toBe(true);
    expect(fourth.allowed).toBe(false);
    expect(seen[0]).toBe(storedRateLimitKey("login", client));
    const long = "x".repeat(10_000);
    await limiter.attempt("email", long);
    expect(seen.at(-1)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("refuses settings that cannot be a binding's", () => {
    const never: RateLimitBinding = { limit: async () => ({ success: true }) };
    expect(() => bindingRateLimiter(never, { limit: 0, periodSeconds: 60 })).toThrow(RangeError);
    expect(() => bindingRateLimiter(never, { limit: 10, periodSeconds: 0.5 })).toThrow(RangeError);
  });
});
