import { startAppProcess } from "./app-process.js";
import { loadTable, loadTargets } from "./load.js";

// Issue: bearer authentication may cost at most 15% of the throughput of a static JSON route.
const app = await startAppProcess();
try {
  const json = { "content-type": "application/json" };
  const credentials = JSON.stringify({ email: "bench@example.com", password: "bench password" });
  await fetch(`${app.url}/api/auth/signup`, { method: "POST", headers: json, body: credentials });
  const { token } = (await (
    await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: json, body: credentials })
  ).json()) as { token: string };
  const { key } = (await (
    await fetch(`${app.url}/api/auth/keys`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${token}` },
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
  const failures = results.filter((result) => result.non2xx > 0);
  if (failures.length > 0) throw new Error(`non-2xx answers: ${JSON.stringify(failures)}`);
  const worst =
    Math.min(...results.slice(1).map((r) => r.medianRequestsPerSecond)) /
    results[0]!.medianRequestsPerSecond;
  process.stdout.write(
    [
      "## examples/app: bearer authentication",
      "",
      "autocannon, 10 connections, 3 interleaved rounds of 3 s per route, app in its own process",
      "on a SQLite file. Target: bearer authentication costs at most 15% of the static route's",
      `throughput (ratio ≥ 0.85). Worst ratio this run: ${worst.toFixed(2)} — ${worst >= 0.85 ? "target met" : "target NOT met"}.`,
      "",
      loadTable(results),
      "",
    ].join("\n"),
  );
} finally {
  await app.stop();
}
