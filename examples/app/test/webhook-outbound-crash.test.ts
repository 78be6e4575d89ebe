// kill -9 of the app during a burst of note creations: after a restart every note that was
// written has had its note.created delivered, and no event was sent for a note that was not.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { listeningUrl, spawnApp } from "./support/app-process.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A receiver on 127.0.0.1: answers 503 while `down`, keeps every verified note id it got. */
async function startReceiver() {
  const state = { down: true, secret: "", noteIds: new Set<number>(), deliveries: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (state.down) return response.writeHead(503).end("down");
      const event = new Webhook(state.secret).verify(
        Buffer.concat(chunks).toString(),
        request.headers as Record<string, string>,
      ) as { type: string; data: { id: number } };
      if (event.type === "note.created") state.noteIds.add(event.data.id);
      state.deliveries++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

async function post(url: string, json: unknown, token?: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(json),
  });
}

/** Waits until `check` holds, polling, up to `timeoutMs` (the lease of a killed delivery). */
async function eventually(check: () => boolean, what: string, timeoutMs = 60_000) {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("outbound webhooks after a crash", () => {
  it("delivers the event of every note written before a kill -9, and of no other", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tessera-webhook-crash-"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    const databasePath = join(folder, "app.db");
    const settings = {
      PORT: "0",
      DATABASE_PATH: databasePath,
      SECRET_KEY_BASE: "webhook-crash-".repeat(5),
      OUTBOUND_ALLOW_HOSTS: "127.0.0.1",
      OUTBOUND_RETRY_SCHEDULE: Array(20).fill("0.5").join(","),
    };
    const receiver = await startReceiver();

    const first = spawnApp(folder, settings);
    cleanups.push(() => first.stop());
    const firstUrl = await listeningUrl(first);
    const credentials = { email: "crash@example.com", password: "correct horse battery" };
    expect((await post(`${firstUrl}/api/auth/signup`, credentials)).status).toBe(201);
    const { token } = (await (await post(`${firstUrl}/api/auth/token`, credentials)).json()) as {
      token: string;
    };
    const endpoint = await post(`${firstUrl}/api/webhook_endpoints`, { url: receiver.url }, token);
    expect(endpoint.status).toBe(201);
    receiver.state.secret = ((await endpoint.json()) as { secret: string }).secret;

    // A burst of creations; the app is killed while they are under way.
    const answered: number[] = [];
    const burst = Array.from({ length: 60 }, (_, index) =>
      post(`${firstUrl}/api/notes`, { title: `Note ${index}` }, token)
        .then(async (response) => {
          if (response.status === 201)
            answered.push(((await response.json()) as { id: number }).id);
        })
        .catch(() => undefined),
    );
    await eventually(() => answered.length >= 10, "the first answers", 30_000);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull();
    await Promise.all(burst);

    // Restarted with the receiver up: every written note's event arrives.
    receiver.state.down = false;
    const second = spawnApp(folder, settings);
    cleanups.push(() => second.stop());
    await listeningUrl(second);
    const written = () => {
      const database = new Database(databasePath, { readonly: true, fileMustExist: true });
      try {
        return (database.prepare("SELECT id FROM notes").all() as { id: number }[]).map(
          (row) => row.id,
        );
      } finally {
        database.close();
      }
    };
    const notes = written();
    expect(notes.length).toBeGreaterThanOrEqual(answered.length);
    for (const id of answered) expect(notes).toContain(id);
    await eventually(
      () => notes.every((id) => receiver.state.noteIds.has(id)),
      "every written note's event",
    );
    expect([...receiver.state.noteIds].sort((a, b) => a - b)).toEqual(
      [...notes].sort((a, b) => a - b),
    );
  }, 120_000);
});
