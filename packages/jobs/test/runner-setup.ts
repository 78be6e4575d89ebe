import { signatureHeaderVerifier } from "@tessera/webhooks";
import { afterEach, expect } from "vitest";
import {
  createJobRunner,
  defineJob,
  type JobChange,
  type JobDefinition,
  type JobRunnerOptions,
  jobTokenKeys,
  MemoryJobStore,
} from "../src/index.js";
import { type Answer, type FakeService, type Received, startFakeService } from "./fake-service.js";

export const SERVICE_SECRET = "render service secret";
export const SERVICE_TOKEN = "render-bearer-token";
export const SECRET_KEY_BASE = "a secret key base that is long enough to use";
export const APP_URL = "https://app.example";
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

/** The example app's job: `render`, inputs `prompt:text width:integer?`. */
export const render = defineJob("render", ["prompt:text", "width:integer?"]);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A service answering 202 with an id, unless told otherwise. */
export const accepting = (): Answer => ({ status: 202, body: '{"id":"ext-1"}' });

/**
 * A runner for `render` on a memory store, talking to a fake service on 127.0.0.1, with a
 * movable clock and every change hook call recorded.
 */
export async function setupRunner(
  options: {
    answer?: (received: Received) => Answer;
    overrides?: Partial<JobRunnerOptions>;
    /** Another job than `render`. */
    definition?: JobDefinition;
  } = {},
) {
  const service: FakeService = await startFakeService(SERVICE_SECRET, options.answer ?? accepting);
  cleanups.push(() => service.close());
  const definition = options.definition ?? render;
  const store = new MemoryJobStore(definition);
  const time = { now: T0 };
  const changes: JobChange[] = [];
  const runner = createJobRunner({
    definition,
    store,
    url: service.url,
    secret: SERVICE_SECRET,
    verifySignature: signatureHeaderVerifier({ secret: SERVICE_SECRET }),
    bearerToken: SERVICE_TOKEN,
    appUrl: APP_URL,
    tokenKeys: jobTokenKeys({ current: SECRET_KEY_BASE }),
    clock: () => time.now,
    timeoutMs: 300,
    onChange: (change) => {
      changes.push(change);
    },
    ...options.overrides,
  });
  return { service, store, time, changes, runner };
}

/** A callback request as the service would send it, by token or by signature. */
export function callback(
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Request {
  return new Request(`${APP_URL}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });
}

/** Status and parsed JSON body of a response. */
export async function answerOf(response: Response): Promise<{ status: number; body: unknown }> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}
