import { describe, expect, it, vi } from "vitest";
import { type SweepReport, scheduleSweeps } from "../src/index.js";
import { callbackContext } from "./callback-context.js";
import type { Answer } from "./fake-service.js";
import { closedPortUrl } from "./fake-service.js";
import { callback, MINUTE, SECOND, setupRunner, T0 } from "./runner-setup.js";

/** A way the service fails, the error it leaves, and whether the fake service sees requests. */
const failing: [string, () => Promise<Parameters<typeof setupRunner>[0]>, string, boolean][] = [
  [
    "a 500 answer",
    async () => ({ answer: (): Answer => ({ status: 500, body: "busy" }) }),
    "RENDER_URL answered 500: busy",
    true,
  ],
  [
    "no answer",
    async () => ({ answer: (): Answer => "hang" }),
    "RENDER_URL did not answer within 300 ms",
    true,
  ],
  [
    "a refused connection",
    async () => ({ overrides: { url: await closedPortUrl() } }),
    "RENDER_URL refused the connection",
    false,
  ],
];

describe("the sweep", () => {
  it.each(failing)(
    "retries a job refused by %s once a minute has passed, 3 attempts in all, then fails it",
    async (_name, options, error, reachesService) => {
      const { runner, store, time, service, changes } = await setupRunner(await options());
      const job = await runner.start(1, { prompt: "p", width: null });
      expect(job).toMatchObject({ status: "queued", attempts: 1, error });

      time.now = T0 + 60 * SECOND;
      expect(await runner.sweep()).toEqual(report({}));
      time.now = T0 + 61 * SECOND;
      expect(await runner.sweep()).toEqual(report({ retried: [job.id] }));
      expect(await store.find(job.id)).toMatchObject({
        status: "queued",
        attempts: 2,
        lastAttemptAt: T0 + 61 * SECOND,
        error,
      });
      time.now = T0 + 2 * MINUTE + 2 * SECOND;
      expect(await runner.sweep()).toEqual(report({ retried: [job.id] }));
      expect((await store.find(job.id))!.attempts).toBe(3);

      // The third attempt has failed: the next sweep fails the job without a fourth.
      time.now = T0 + 3 * MINUTE + 3 * SECOND;
      expect(await runner.sweep()).toEqual(report({ exhausted: [job.id] }));
      expect(await store.find(job.id)).toMatchObject({
        status: "failed",
        attempts: 3,
        error: `gave up after 3 submission attempts: ${error}`,
      });
      time.now = T0 + 60 * MINUTE;
      expect(await runner.sweep()).toEqual(report({}));
      expect(service.received).toHaveLength(reachesService ? 3 : 0);
      // Same error each time: the hook saw the creation and the failure, not the retries.
      expect(changes.map((change) => [change.cause, change.job.status])).toEqual([
        ["start", "queued"],
        ["submission", "queued"],
        ["sweep", "failed"],
      ]);
    },
  );

  it("does not fail a job whose last attempt is still within the retry age", async () => {
    const { runner, store, time } = await setupRunner({
      answer: () => ({ status: 503, body: "" }),
      overrides: { maxAttempts: 1 },
    });
    const job = await runner.start(1, { prompt: "p", width: null });
    time.now = T0 + 30 * SECOND;
    expect(await runner.sweep()).toEqual(report({}));
    expect((await store.find(job.id))!.status).toBe("queued");
    time.now = T0 + 61 * SECOND;
    expect(await runner.sweep()).toEqual(report({ exhausted: [job.id] }));
  });

  it("submits a queued job again and marks it submitted when the service recovers", async () => {
    const { runner, store, time, service } = await setupRunner({
      answer: () => ({ status: 502, body: "bad gateway" }),
    });
    const job = await runner.start(1, { prompt: "p", width: 640 });
    service.answerWith(() => ({ status: 201, body: '{"id":"ext-9"}' }));
    time.now = T0 + 2 * MINUTE;
    expect(await runner.sweep()).toEqual(report({ retried: [job.id], submitted: [job.id] }));
    expect(await store.find(job.id)).toMatchObject({
      status: "submitted",
      externalId: "ext-9",
      error: null,
      attempts: 2,
    });
    // The retry carries the same body, callback address and token included.
    expect(service.received[1]!.body).toBe(service.received[0]!.body);
  });

  it("retries at most 10 queued jobs per run, oldest attempt first", async () => {
    const { runner, time } = await setupRunner({ answer: () => ({ status: 500, body: "" }) });
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      time.now = T0 + i * SECOND;
      ids.push((await runner.start(1, { prompt: `p${i}`, width: null })).id);
    }
    time.now = T0 + 5 * MINUTE;
    const first = await runner.sweep();
    expect([...first.retried].sort((a, b) => a - b)).toEqual(ids.slice(0, 10));
    time.now = T0 + 5 * MINUTE + SECOND;
    expect((await runner.sweep()).retried).toEqual(ids.slice(10));
  });

  it("fails a submitted or running job after an hour without news", async () => {
    const { runner, store, time, changes } = await setupRunner();
    const silent = await runner.start(1, { prompt: "silent", width: null });
    const talking = await runner.start(1, { prompt: "talking", width: null });
    const address = new URL(runner.callbackUrl(talking));
    time.now = T0 + 30 * MINUTE;
    await runner.handleCallback(
      callback(`${address.pathname}${address.search}`, '{"status":"running","progress":10}'),
      callbackContext(String(talking.id)),
    );

    time.now = T0 + 60 * MINUTE;
    expect(await runner.sweep()).toEqual(report({}));
    time.now = T0 + 60 * MINUTE + SECOND;
    expect(await runner.sweep()).toEqual(report({ stale: [silent.id] }));
    expect(await store.find(silent.id)).toMatchObject({
      status: "failed",
      error: "no news from the service for an hour",
    });
    expect((await store.find(talking.id))!.status).toBe("running");
    expect(changes.at(-1)).toMatchObject({
      cause: "sweep",
      job: { id: silent.id, status: "failed" },
      previous: { status: "submitted" },
    });

    time.now = T0 + 91 * MINUTE;
    expect(await runner.sweep()).toEqual(report({ stale: [talking.id] }));
    expect(await store.find(talking.id)).toMatchObject({ status: "failed", progress: 10 });
  });

  it("leaves finished jobs alone", async () => {
    const { runner, store, time } = await setupRunner();
    const job = await runner.start(1, { prompt: "p", width: null });
    const address = new URL(runner.callbackUrl(job));
    await runner.handleCallback(
      callback(`${address.pathname}${address.search}`, '{"status":"done"}'),
      callbackContext(String(job.id)),
    );
    time.now = T0 + 10 * 60 * MINUTE;
    expect(await runner.sweep()).toEqual(report({}));
    expect((await store.find(job.id))!.status).toBe("done");
  });
});

describe("scheduleSweeps", () => {
  it("runs the sweep every interval, never two at once, until stopped", async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let overlapped = false;
      let runs = 0;
      const reports: SweepReport[] = [];
      let finish: () => void = () => {};
      const sweep = async () => {
        runs++;
        running++;
        overlapped ||= running > 1;
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
        running--;
        return report({});
      };
      const stop = scheduleSweeps(sweep, { intervalMs: 1000, onReport: (r) => reports.push(r) });
      await vi.advanceTimersByTimeAsync(1000);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(3000); // still running: these ticks skip
      expect(runs).toBe(1);
      finish();
      await vi.advanceTimersByTimeAsync(1000);
      expect(runs).toBe(2);
      expect(reports).toHaveLength(1);
      stop();
      finish();
      await vi.advanceTimersByTimeAsync(5000);
      expect(runs).toBe(2);
      expect(overlapped).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands a failed run to onError and keeps going", async () => {
    vi.useFakeTimers();
    try {
      const errors: unknown[] = [];
      let runs = 0;
      const stop = scheduleSweeps(
        async () => {
          runs++;
          throw new Error("database is locked");
        },
        { intervalMs: 500, onError: (error) => errors.push(error) },
      );
      await vi.advanceTimersByTimeAsync(1500);
      stop();
      expect(runs).toBe(3);
      expect(errors.map((error) => (error as Error).message)).toEqual([
        "database is locked",
        "database is locked",
        "database is locked",
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

function report(parts: Partial<SweepReport>): SweepReport {
  return { stale: [], exhausted: [], retried: [], submitted: [], ...parts };
}
