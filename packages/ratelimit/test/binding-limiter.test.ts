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

describe("bindingRateLimiter on the Workers binding", () => {
  it("allows the binding's limit, then refuses with Retry-After of one period", async () => {
    const limiter = bindingRateLimiter(await binding(), { limit: 3, periodSeconds: 10 });
    const decisions = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      decisions.push(await limiter.attempt("login", "198.51.100.1"));
    }
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
    for (let attempt = 0; attempt < 3; attempt++) await limiter.attempt("login", "198.51.100.2");
    expect((await limiter.attempt("signup", "198.51.100.2")).allowed).toBe(true);
    expect((await limiter.attempt("login", "198.51.100.3")).allowed).toBe(true);
    expect((await limiter.attempt("login", "198.51.100.2")).allowed).toBe(false);
    expect(seen[0]).toBe(storedRateLimitKey("login", "198.51.100.2"));
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
