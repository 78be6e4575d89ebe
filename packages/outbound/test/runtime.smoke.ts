import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type OutboundModule = typeof import("@tessera/outbound");

export default {
  does: "refuse every SSRF form of a URL, and post through the guarded fetch without following a redirect",
  imports: () => ["@tessera/outbound"],
  async run({ load, check }) {
    const { checkOutboundUrl, guardedFetch } = await load<OutboundModule>("@tessera/outbound");
    for (const url of [
      "http://2130706433/",
      "http://0x7f.1/",
      "http://[::ffff:10.0.0.1]/",
      "http://169.254.169.254/",
      "http://[fe80::1]/",
      "https://user:pw@example.com/",
    ]) {
      check(!checkOutboundUrl(url).ok, `${url} is refused`);
    }
    check(checkOutboundUrl("https://hooks.example.com/in").ok, "a public name is accepted");
    const seen: Request[] = [];
    const send = guardedFetch({
      resolveHost: async (host) => (host === "inside.example" ? ["10.0.0.7"] : ["93.184.216.34"]),
      fetch: async (request) => {
        seen.push(request);
        return new Response("moved", { status: 302, headers: { location: "http://10.0.0.7/" } });
      },
    });
    const refused = await send({ url: "https://inside.example/", headers: {}, body: "{}" });
    check(refused.kind === "refused" && seen.length === 0, "a name resolving inside is refused");
    const moved = await send({ url: "https://hooks.example.com/", headers: {}, body: "{}" });
    check(moved.kind === "answered" && moved.status === 302, "a redirect is an answer");
    check(seen[0]?.redirect === "manual", "redirects are not followed");
  },
} satisfies RuntimeSmoke;
