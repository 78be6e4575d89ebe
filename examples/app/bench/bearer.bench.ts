import { startAppProcess } from "./app-process.js";
import { benchUserToken, JSON_HEADERS } from "./bench-user.js";
import { loadSection, loadTargets } from "./load.js";

// Issue: bearer authentication may cost at most 15% of the throughput of a static JSON route.
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

  const results = await loadTargets(app.url, [
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
  const worst =
    Math.min(...results.slice(1).map((r) => r.medianRequestsPerSecond)) /
    results[0]!.medianRequestsPerSecond;
  process.stdout.write(
    loadSection(
      "examples/app: bearer authentication",
      [
        "autocannon, 10 connections, 3 interleaved rounds of 3 s per route, app in its own process",
        "on a SQLite file. Target: bearer authentication costs at most 15% of the static route's",
        `throughput (ratio ≥ 0.85). Worst ratio this run: ${worst.toFixed(2)} — ${worst >= 0.85 ? "target met" : "target NOT met"}.`,
      ],
      results,
    ),
  );
} finally {
  await app.stop();
}
