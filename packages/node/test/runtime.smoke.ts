import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type NodeAdapter = typeof import("@tessera/node");
type Http = typeof import("node:http");
type Route = import("@tessera/http").Route;

export default {
  does: "serve routes from a real node:http server on 127.0.0.1: body, status, cookies, 404, 413",
  imports: (runtime) =>
    runtime === "workerd"
      ? { notFor: "a Node http adapter; Workers serve fetch handlers directly" }
      : ["@tessera/node", "node:http"],
  denoPermissions: [
    { flag: "--allow-net=127.0.0.1", why: "the node smoke serves on 127.0.0.1 and calls itself" },
  ],
  async run({ load, check }) {
    const { toNodeHandler } = await load<NodeAdapter>("@tessera/node");
    const { createServer } = await load<Http>("node:http");
    const routes: Route[] = [
      {
        method: "POST",
        path: "/echo/:name",
        handle: async (request, context) => {
          const headers = new Headers({ "content-type": "text/plain; charset=utf-8" });
          headers.append("set-cookie", "a=1; Path=/");
          headers.append("set-cookie", "b=2; Path=/");
          headers.set("x-client", context.clientAddress);
          const text = await request.text();
          return new Response(`${context.params.name}: ${text}`, { status: 201, headers });
        },
      },
    ];
    const server = createServer(toNodeHandler(routes, { trustProxy: 1, maximumBodyBytes: 64 }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const origin = `http://127.0.0.1:${port}`;
    try {
      const body = '{"greeting":"héllo"}';
      const echoed = await fetch(`${origin}/echo/caf%C3%A9`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
        body,
      });
      check(echoed.status === 201, "the route's status is written");
      check((await echoed.text()) === `café: ${body}`, "the route read the body and the path");
      check(
        echoed.headers.getSetCookie().join(" | ") === "a=1; Path=/ | b=2; Path=/",
        "each Set-Cookie is its own header line",
      );
      check(
        echoed.headers.get("x-client") === "203.0.113.9",
        "the client address honours trustProxy",
      );

      const missing = await fetch(`${origin}/nowhere`);
      const envelope = (await missing.json()) as { error: { message: string } };
      check(
        missing.status === 404 && envelope.error.message === "Not found",
        "another path is the JSON 404",
      );

      const large = await fetch(`${origin}/echo/big`, { method: "POST", body: "x".repeat(65) });
      check(large.status === 413, "a body over the cap is a 413 before the route runs");
      await large.body?.cancel();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  },
} satisfies RuntimeSmoke;
