import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { cpuRatio, type LoadResult, loadSection, loadTargets } from "./load.js";

// Issue "GraphQL output for record APIs": the notes model through POST /graphql against the
// same model's JSON routes, in the same run. Goal: GraphQL within 1.5x of JSON.
const SEEDED_NOTES = 200;
const NOTE_FIELDS =
  "id userId title body pinned dueOn rating wordCount tags postId createdAt updatedAt";

const app = await startAppProcess();
try {
  const token = await benchUserToken(app.url);
  const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` };

  let sequence = 0;
  /** A new note's values each time: every field of the model set. */
  const noteValues = () => {
    sequence += 1;
    return {
      title: `Bench note ${sequence}`,
      body: `Line 1\nLine ${sequence}`,
      pinned: sequence % 2 === 0,
      due_on: "2024-02-29",
      rating: 4.5,
      word_count: sequence,
      tags: ["bench", { sequence }],
    };
  };
  const jsonCreate = () => JSON.stringify(noteValues());
  const graphqlCreate = () => {
    const { due_on, word_count, ...rest } = noteValues();
    return JSON.stringify({
      query: `mutation ($input: NoteCreateInput!) { createNote(input: $input) { ${NOTE_FIELDS} } }`,
      variables: { input: { ...rest, dueOn: due_on, wordCount: word_count } },
    });
  };

  console.error(`seeding ${SEEDED_NOTES} notes`);
  for (let n = 0; n < SEEDED_NOTES; n++) {
    const response = await fetch(`${app.url}/api/notes`, {
      method: "POST",
      headers,
      body: jsonCreate(),
    });
    if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
  }
  const listQuery = JSON.stringify({ query: `{ notes(limit: 50) { ${NOTE_FIELDS} } }` });
  const check = await fetch(`${app.url}/graphql`, { method: "POST", headers, body: listQuery });
  const checked = (await check.json()) as { data?: { notes?: unknown[] } };
  if (checked.data?.notes?.length !== 50) throw new Error("the GraphQL listing did not answer");

  const results = await loadTargets(app, [
    {
      name: "POST /api/notes",
      path: "/api/notes",
      method: "POST",
      headers,
      eachRequest: () => ({ body: jsonCreate(), headers: {} }),
    },
    {
      name: "POST /graphql createNote",
      path: "/graphql",
      method: "POST",
      headers,
      eachRequest: () => ({ body: graphqlCreate(), headers: {} }),
    },
    { name: "GET /api/notes?limit=50", path: "/api/notes?limit=50", headers },
    {
      name: "POST /graphql notes(limit: 50)",
      path: "/graphql",
      method: "POST",
      headers,
      body: listQuery,
    },
  ]);
  const [jsonCreateResult, graphqlCreateResult, jsonList, graphqlList] = results as [
    LoadResult,
    LoadResult,
    LoadResult,
    LoadResult,
  ];
  /** GraphQL's server CPU per request over JSON's: the goal is at most 1.5. */
  const timeRatio = (json: LoadResult, graphql: LoadResult) => cpuRatio(graphql, json).toFixed(2);
  const note = [
    "autocannon, 10 connections, 3 interleaved rounds of 3 s per route (all four in one run),",
    `app in its own process on a SQLite file (WAL, \`NODE_ENV=production\`), ${SEEDED_NOTES} notes`,
    "seeded first; CPU read from /proc around each round. Every request authenticates a bearer",
    "JWT. The create sends a value for 7 of the 8 fields (GraphQL in variables) and answers the",
    "whole record; the listing reads 50 of the owner's newest notes with every field (GraphQL",
    "selects them all: 600 fields). GraphQL parses and validates each operation text once",
    "(cached), runs it as graphql-jit compiled it, and decodes, validates and stores as JSON does.",
  ];
  process.stdout.write(
    [
      loadSection("examples/app: GraphQL vs JSON, create a note", note, [
        jsonCreateResult,
        graphqlCreateResult,
      ]),
      `GraphQL takes ${timeRatio(jsonCreateResult, graphqlCreateResult)}x the server CPU of JSON per create (goal: at most 1.5x).`,
      "",
      loadSection(
        "examples/app: GraphQL vs JSON, list 50 notes",
        ["The same run and settings as the create above."],
        [jsonList, graphqlList],
      ),
      `GraphQL takes ${timeRatio(jsonList, graphqlList)}x the server CPU of JSON per listing (goal: at most 1.5x).`,
      "",
    ].join("\n"),
  );
} finally {
  await app.stop();
}
