import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";
import { callbackContext } from "./callback-context.js";

type Jobs = typeof import("@tessera/jobs");
type Crypto = typeof import("@tessera/crypto");

const SERVICE_SECRET = "render service secret";
const APP_URL = "https://app.example";
const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

export default {
  does: "a signed job submission, then token callbacks move it running → done; a forged one is refused",
  imports: () => ["@tessera/jobs", "@tessera/crypto"],
  async run({ load, check }) {
    const { advanceJob, createJobRunner, defineJob, jobTokenKeys, MemoryJobStore } =
      await load<Jobs>("@tessera/jobs");
    const { encodeHex, hmacSha256, utf8 } = await load<Crypto>("@tessera/crypto");

    const render = defineJob("render", ["prompt:text", "width:integer?"]);
    const store = new MemoryJobStore(render);
    let now = T0;
    const causes: string[] = [];
    const submissions: { signature: string | null; bearer: string | null; body: string }[] = [];
    const runner = createJobRunner({
      definition: render,
      store,
      url: "https://render.example/jobs",
      secret: SERVICE_SECRET,
      bearerToken: "render-token",
      appUrl: APP_URL,
      tokenKeys: jobTokenKeys({ current: "a secret key base of at least thirty-two characters" }),
      clock: () => now,
      // The remote service, answered in place: the smoke opens no connection.
      fetch: async (request) => {
        submissions.push({
          signature: request.headers.get("x-signature"),
          bearer: request.headers.get("authorization"),
          body: await request.text(),
        });
        return Response.json({ id: "ext-1" }, { status: 202 });
      },
      onChange: (change) => {
        causes.push(change.cause);
      },
    });

    const job = await runner.start(7, { prompt: "a red fox", width: null });
    check(
      job.status === "submitted" && job.externalId === "ext-1" && job.attempts === 1,
      "a started job is submitted with the service's id",
    );
    const [sent] = submissions;
    check(
      sent !== undefined &&
        sent.signature === encodeHex(hmacSha256(utf8(SERVICE_SECRET), utf8(sent.body))) &&
        sent.bearer === "Bearer render-token",
      "the submission is signed over its exact body and carries the bearer token",
    );
    const webhook = runner.callbackUrl(job);
    check(
      (JSON.parse(sent?.body ?? "{}") as { webhook?: string }).webhook === webhook &&
        webhook.startsWith(`${APP_URL}/webhooks/render/${job.id}?token=`),
      "the service is given the job's callback address",
    );

    const callback = (url: string, body: unknown) =>
      runner.handleCallback(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        callbackContext(String(job.id)),
      );
    now = T0 + 60_000;
    const running = await callback(webhook, { status: "IN_PROGRESS", progress: 40 });
    check(
      running.status === 200 && ((await running.json()) as { ok: boolean }).ok,
      "a callback with the job's token is accepted",
    );
    let stored = await store.find(job.id);
    check(stored?.status === "running" && stored.progress === 40, "the job is running at 40%");

    await callback(webhook, { status: "running", progress: 10 });
    check((await store.find(job.id))?.progress === 40, "progress never goes back");

    const unsigned = await callback(`${APP_URL}/webhooks/render/${job.id}?token=forged`, {
      status: "failed",
    });
    check(unsigned.status === 401, "a callback without the token or a signature is a 401");
    check((await store.find(job.id))?.status === "running", "the refused callback changed nothing");

    now = T0 + 120_000;
    await callback(webhook, {
      status: "completed",
      output: { url: "https://cdn.example/fox.png" },
    });
    stored = await store.find(job.id);
    check(
      stored?.status === "done" &&
        stored.progress === 100 &&
        stored.result === '{"url":"https://cdn.example/fox.png"}' &&
        stored.updatedAt === T0 + 120_000,
      "the job is done with the service's output",
    );
    const late = await callback(webhook, { status: "running", progress: 90 });
    check(
      late.status === 200 && (await store.find(job.id))?.status === "done",
      "a late event is answered and leaves the finished job alone",
    );
    check(
      advanceJob(stored!, { type: "reported", status: "running", word: "running" }) === undefined,
      "the state machine refuses to move a finished job",
    );
    check(
      causes.join(",") === "start,submission,callback,callback",
      "the change hook ran once per stored change",
    );
  },
} satisfies RuntimeSmoke;
