import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ratioVerdict } from "../../../bench/goal-verdict.js";
import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { cpuRatio, loadSection, loadTargets, median, spreadOf, spreadText } from "./load.js";

// Issue 47's bench: listing an organization's projects (the membership and role checked, the
// rows scoped by organization_id) against listing a user's notes of the same size, in one run.
const SEEDED = 50;
/** Calls per round of each bare query. */
const BARE_CALLS = 20_000;
const ROUNDS = 3;

const folder = mkdtempSync(join(tmpdir(), "tessera-organizations-bench-"));
const databasePath = join(folder, "app.db");
const app = await startAppProcess({ DATABASE_PATH: databasePath });
try {
  const token = await benchUserToken(app.url);
  const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${app.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const organization = await post("/api/orgs", { name: "Bench team" });
  const slug = String(organization.slug);
  // The same words in both: a title or name, and a text of a sentence.
  const text = "A record of a few words, as a person writes one, with a detail or two.";
  console.error(`seeding ${SEEDED} notes and ${SEEDED} projects`);
  for (let n = 0; n < SEEDED; n++) {
    await post("/api/notes", { title: `Bench record ${n}`, body: text });
    await post(`/api/orgs/${slug}/projects`, {
      name: `Bench record ${n}`,
      description: text,
      status: "active",
    });
  }

  const results = await loadTargets(
    app,
    [
      { name: "GET /api/health (static JSON, no auth)", path: "/api/health" },
      {
        name: `GET /api/notes?limit=${SEEDED} (a user's)`,
        path: `/api/notes?limit=${SEEDED}`,
        headers,
      },
      {
        name: `GET /api/orgs/{slug}/projects?limit=${SEEDED} (an organization's)`,
        path: `/api/orgs/${slug}/projects?limit=${SEEDED}`,
        headers,
      },
    ],
    { rounds: ROUNDS },
  );
  const [, notes, projects] = results as [unknown, (typeof results)[0], (typeof results)[0]];

  // The same reads on bare better-sqlite3, in this process: the limit row.
  const database = new Database(databasePath, { readonly: true });
  const userId = (database.prepare("SELECT id FROM users").get() as { id: number }).id;
  const listNotes = database.prepare(
    `SELECT * FROM notes WHERE user_id = ? ORDER BY id DESC LIMIT ${SEEDED}`,
  );
  const membership = database.prepare(
    `SELECT o.id, m.role FROM organization_members m JOIN organizations o ON o.id = m.organization_id
     WHERE o.slug = ? AND m.user_id = ?`,
  );
  const listProjects = database.prepare(
    `SELECT * FROM projects WHERE organization_id = ? ORDER BY id DESC LIMIT ${SEEDED}`,
  );
  const perCall = (read: () => void) => {
    const start = process.cpuUsage();
    for (let n = 0; n < BARE_CALLS; n++) read();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / BARE_CALLS;
  };
  const bare = { notes: [] as number[], projects: [] as number[], membership: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    bare.notes.push(perCall(() => listNotes.all(userId)));
    bare.membership.push(perCall(() => membership.get(slug, userId)));
    bare.projects.push(
      perCall(() => {
        const member = membership.get(slug, userId) as { id: number };
        listProjects.all(member.id);
      }),
    );
  }
  database.close();
  const bareRatio = median(bare.projects) / median(bare.notes);
  const ratio = cpuRatio(projects, notes);

  process.stdout.write(
    loadSection(
      "examples/app: an organization's records",
      [
        `autocannon, 10 connections, ${ROUNDS} interleaved rounds of 3 s per route, app in its own`,
        `process on a SQLite file (WAL). One user's ${SEEDED} notes and their organization's ${SEEDED}`,
        "projects, each with the same title or name and sentence. Both listings authenticate a",
        "bearer JWT and read every row; the projects' also look up the membership and its role",
        "(one query by slug and user) before the rows, scoped by organization_id.",
      ],
      results,
      [
        `Listing an organization's projects against a user's notes: ${ratioVerdict(ratio, 1.15)}.`,
        "",
        "| bare better-sqlite3, the app's file | CPU µs per listing (range of rounds) |",
        "|---|---|",
        `| the user's ${SEEDED} notes | ${spreadText(spreadOf(bare.notes))} |`,
        `| the membership, then the organization's ${SEEDED} projects | ${spreadText(spreadOf(bare.projects))} |`,
        `| the membership alone (by slug and user) | ${spreadText(spreadOf(bare.membership))} |`,
        "",
        `On bare better-sqlite3 the projects' listing is ${bareRatio.toFixed(2)}x the notes': a note row has`,
        "eight field columns to a project's three, which the membership query does not outweigh.",
        "The membership is read by its own query, just before the rows (not inside their query),",
        "so the listing makes two round trips to the database where a user's makes one; the",
        "table above says what that query costs by itself.",
      ],
    ),
  );
} finally {
  await app.stop();
  rmSync(folder, { recursive: true, force: true });
}
