// The example app, started in this process as its own suites start it, for the client's tests:
// on `http://localhost:<port>` with APP_URL naming it (passkeys need a host name, not an IP
// address), a clock the tests can move forward (token expiry, the next TOTP step), a memory
// mailer, and `TRUST_PROXY=1` so each client has an address, and rate limits, of its own.
import { createServer } from "node:net";
import { MemoryMailer } from "@tessera/mail";
import {
  newClientAddress,
  startTestServer,
  type TestServer,
} from "../../../../examples/app/test/support/test-server.js";
import type { Fetch } from "../../src/index.js";

/** The running app and what the tests do with it. */
export interface AppUnderTest {
  readonly server: TestServer;
  /** `http://localhost:<port>`: APP_URL, the passkeys' origin. */
  readonly origin: string;
  /** The app's clock: the real one, moved forward by {@link advance}. */
  clock(): number;
  /** Moves the app's clock `milliseconds` forward. */
  advance(milliseconds: number): void;
  stop(): Promise<void>;
}

/** A port free now, so APP_URL can name it before the app listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the example app for a suite; `environment` adds settings. */
export async function startAppUnderTest(
  environment: Record<string, string> = {},
): Promise<AppUnderTest> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  let offset = 0;
  const clock = () => Date.now() + offset;
  const server = await startTestServer(
    { PORT: String(port), APP_URL: origin, TRUST_PROXY: "1", ...environment },
    { mailer: new MemoryMailer(), clock },
  );
  return {
    server,
    origin,
    clock,
    advance(milliseconds) {
      offset += milliseconds;
    },
    stop: () => server.stop(),
  };
}

/** The requests one client sent, as `POST /api/auth/token/refresh`. */
export type SentLog = string[];

/**
 * A `fetch` for one client of the app: the global fetch, with a client address of its own
 * (`X-Forwarded-For`), noting each request it sends in `sent`.
 */
export function clientFetch(sent: SentLog = []): Fetch {
  const address = newClientAddress();
  return (request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const headers = new Headers(request.headers);
    headers.set("x-forwarded-for", address);
    return fetch(new Request(request, { headers }));
  };
}

/** A fresh email address for a test's account. */
export function newEmail(label: string): string {
  return `client.${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The password every test account uses. */
export const PASSWORD = "correct horse battery";
