import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type RateLimit = typeof import("@tessera/ratelimit");

export default {
  does: "refuse the attempt over the limit per client and group; on workerd, through the rate-limiting binding too",
  imports: () => ["@tessera/ratelimit"],
  async run({ runtime, load, check, bindings }) {
    const { bindingRateLimiter, createRateLimiter, MemoryRateLimitStore } =
      await load<RateLimit>("@tessera/ratelimit");
    const now = Date.UTC(2026, 0, 1, 12, 0, 15);
    const limiter = createRateLimiter({
      store: new MemoryRateLimitStore(),
      limit: 3,
      clock: () => now,
    });
    const decisions = [];
    for (let attempt = 0; attempt < 4; attempt++)
      decisions.push(await limiter.attempt("login", "203.0.113.7"));
    check(
      decisions.map((decision) => decision.allowed).join() === "true,true,true,false",
      "the 4th of 3 is refused",
    );
    check(decisions[3]?.retryAfterSeconds === 45, "a refusal tells the seconds left in the window");
    check(
      (await limiter.attempt("login", "203.0.113.8")).allowed,
      "another client has its own count",
    );
    check(
      (await limiter.attempt("signup", "203.0.113.7")).allowed,
      "another group has its own count",
    );
    if (runtime !== "workerd") return;
    // The harness's Worker binds LIMITER as a rate limiter of 3 per 60 s.
    const binding = bindings.LIMITER as Parameters<RateLimit["bindingRateLimiter"]>[0];
    const bound = bindingRateLimiter(binding, { limit: 3, periodSeconds: 60 });
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt++)
      answers.push((await bound.attempt("login", "198.51.100.1")).allowed);
    check(answers.join() === "true,true,true,false", "the binding refuses the 4th of 3");
  },
} satisfies RuntimeSmoke;
