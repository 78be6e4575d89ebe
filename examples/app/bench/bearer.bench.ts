import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { type LoadResult, loadSection, loadTargets } from "./load.js";

// Issue "Performance": bearer authentication adds at most 5 µs of server CPU per request over
// the static route with a JWT, and at most 8 µs with an API key.
const app = await startAppProcess();
try {
  const token = await benchUserToken(app.url);
  const { key } = (await (
    await fetch(`${app.url}/api/auth/keys`, {
      method: "POST",
      headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "bench" }),
    })
  ).json()) as { key: string };

  const results = await loadTargets(app, [
    { name: "GET /api/health (static JSON, no auth)", path: "/api/health" },
    {
      name: "GET /api/auth/me with a JWT",
      path: "/api/auth/me",
      headers: { authorization: `Bearer ${token}` },
    },
    {
      name: "GET /api/auth/me with an API key",
      path: "/api/auth/me",
      headers: { authorization: `Bearer ${key}` },
    },
  ]);
  const [health, jwt, apiKey] = results as [LoadResult, LoadResult, LoadResult];
  const added = (result: LoadResult) =>
    result.cpuMicrosPerRequest.median - health.cpuMicrosPerRequest.median;
  const verdict = (result: LoadResult, goal: number) =>
    `${added(result).toFixed(1)} µs (goal ≤ ${goal}: ${added(result) <= goal ? "met" : "NOT met"})`;
  process.stdout.write(
    loadSection(
      "examples/app: bearer authentication",
      [
        "autocannon, 10 connections, 3 interleaved rounds of 3 s per route, app in its own process",
        "on a SQLite file (`NODE_ENV=production`), CPU read from /proc around each round. Goal:",
        "bearer authentication adds at most 5 µs of server CPU per request over the static route",
        "with a JWT, at most 8 µs with an API key.",
        "",
        `Added this run: ${verdict(jwt, 5)} with a JWT, ${verdict(apiKey, 8)} with an API key.`,
      ],
      results,
    ),
  );
} finally {
  await app.stop();
}
