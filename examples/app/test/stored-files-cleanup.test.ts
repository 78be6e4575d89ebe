// Files a crash leaves in the uploads folder: partial uploads are removed when the app starts,
// and `npm run sweep-files` deletes stored files no record references. Real files, real app.
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newStorageKey } from "@tessera/records";
import { afterAll, describe, expect, it } from "vitest";
import { runAppScript } from "./support/app-process.js";
import { newClientAddress, startTestServer } from "./support/test-server.js";

const root = mkdtempSync(join(tmpdir(), "tessera-stored-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HOUR = 3_600_000;
let folders = 0;

/** Writes a file into `folder` last modified `ageMs` ago. */
function fileAged(folder: string, name: string, ageMs: number): string {
  writeFileSync(join(folder, name), "bytes");
  const when = new Date(Date.now() - ageMs);
  utimesSync(join(folder, name), when, when);
  return name;
}

/** Signs up, creates a post and uploads its cover; returns the cover's storage key. */
async function postWithCover(url: string): Promise<string> {
  const client = newClientAddress();
  const credentials = { email: `files.${client}@example.com`, password: "correct horse battery" };
  const json = { "content-type": "application/json", "x-forwarded-for": client };
  const body = JSON.stringify(credentials);
  await fetch(`${url}/api/auth/signup`, { method: "POST", headers: json, body });
  const issued = await fetch(`${url}/api/auth/token`, { method: "POST", headers: json, body });
  const { token } = (await issued.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}`, "x-forwarded-for": client };
  const post = await fetch(`${url}/api/posts`, {
    method: "POST",
    headers: { ...json, ...auth },
    body: JSON.stringify({ title: "With cover", status: "draft" }),
  });
  const { id } = (await post.json()) as { id: number };
  const form = new FormData();
  form.append("file", new File(["png"], "cover.png", { type: "image/png" }));
  const uploaded = await fetch(`${url}/api/posts/${id}/cover`, {
    method: "PUT",
    headers: auth,
    body: form,
  });
  expect(uploaded.status).toBe(200);
  return ((await uploaded.json()) as { cover_key: string }).cover_key;
}

function sweepFiles(environment: Record<string, string>) {
  return runAppScript("src/sweep-files.ts", root, environment);
}

describe("starting the app", () => {
  it("removes partial uploads a crash left, keeping a fresh one and stored files", async () => {
    const uploads = join(root, `uploads-${++folders}`);
    rmSync(uploads, { recursive: true, force: true });
    const server = await startTestServer({ UPLOADS_PATH: uploads });
    const kept = await postWithCover(server.url);
    await server.stop();
    const abandoned = fileAged(
      uploads,
      `${newStorageKey()}.${newStorageKey()}.partial`,
      10 * 60_000,
    );
    const live = fileAged(uploads, `${newStorageKey()}.${newStorageKey()}.partial`, 0);

    const restarted = await startTestServer({ UPLOADS_PATH: uploads });
    try {
      expect(existsSync(join(uploads, abandoned))).toBe(false);
      expect(readdirSync(uploads).sort()).toEqual([kept, `${kept}.type`, live].sort());
    } finally {
      await restarted.stop();
    }
  });
});

describe("npm run sweep-files", () => {
  it("deletes unreferenced files older than an hour and abandoned partials, nothing else", async () => {
    const folder = join(root, `sweep-${++folders}`);
    const environment = { DATABASE_PATH: join(folder, "app.db"), UPLOADS_PATH: join(folder, "up") };
    const server = await startTestServer(environment);
    const referenced = await postWithCover(server.url);
    await server.stop();
    const uploads = environment.UPLOADS_PATH;
    // Old enough to sweep: only the reference keeps it.
    fileAged(uploads, referenced, 5 * HOUR);
    fileAged(uploads, `${referenced}.type`, 5 * HOUR);
    const orphan = newStorageKey();
    fileAged(uploads, orphan, 2 * HOUR);
    fileAged(uploads, `${orphan}.type`, 2 * HOUR);
    const sidecarOnly = fileAged(uploads, `${newStorageKey()}.type`, 2 * HOUR);
    // Stored ten minutes ago: its row may still be on its way.
    const young = newStorageKey();
    fileAged(uploads, young, 10 * 60_000);
    fileAged(uploads, `${young}.type`, 10 * 60_000);
    fileAged(uploads, `${newStorageKey()}.${newStorageKey()}.partial`, 10 * 60_000);

    const result = sweepFiles(environment);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "Swept stored files: 2 unreferenced file(s) and 1 partial upload(s) deleted.",
    );
    expect(readdirSync(uploads).sort()).toEqual(
      [referenced, `${referenced}.type`, young, `${young}.type`].sort(),
    );
    expect(existsSync(join(uploads, sidecarOnly))).toBe(false);
  });

  it("says why an in-memory app has nothing to sweep", () => {
    const result = sweepFiles({ DATABASE_PATH: ":memory:" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "Cannot sweep files: an in-memory database keeps its files in memory: set UPLOADS_PATH",
    );
  });
});
