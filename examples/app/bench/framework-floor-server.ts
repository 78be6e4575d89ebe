import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

// The framework's floor for issue 33's static route: Hono on @hono/node-server, the two the app
// is built on, answering `GET /api/health` with the app's bytes and headers and nothing else —
// no middleware, the Host compared by hand as the bare server does. Its cost over the bare
// server (node:http alone) is what any Hono app on Node pays per request before its own code
// runs; the app's cost over it is ours.
// With FLOOR_MIDDLEWARE=1 one pass-through middleware runs first: Hono answers a route with a
// single handler synchronously, and any middleware makes every answer asynchronous, so this is
// the floor of an app that has any.
// Settings: PORT (0 for any), ALLOWED_HOSTS (one host; default 127.0.0.1), FLOOR_MIDDLEWARE.

const allowedHost = process.env.ALLOWED_HOSTS ?? "127.0.0.1";
// A plain object in the init and a string body: node-server's fast path, as the app's answer.
const HEALTH_HEADERS = {
  "content-type": "application/json",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
};

function hostOf(host: string): string {
  const colon = host.lastIndexOf(":");
  return colon > 0 && !host.endsWith("]") ? host.slice(0, colon) : host;
}

const app = new Hono();
if (process.env.FLOOR_MIDDLEWARE === "1") {
  app.use(async (_context, next) => {
    await next();
  });
}
app.get("/api/health", (context) =>
  hostOf(context.req.header("host") ?? "") === allowedHost
    ? new Response('{"status":"ok"}', { headers: HEALTH_HEADERS })
    : new Response(null, { status: 400 }),
);

const server = serve(
  { fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" },
  (info) => console.log(`framework floor listening on http://127.0.0.1:${info.port}`),
) as Server;
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
});
