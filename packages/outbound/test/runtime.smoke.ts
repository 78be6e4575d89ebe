import type { RuntimeSmoke } from "../../../scripts/check-runtimes/smoke.js";

type OutboundModule = typeof import("@tessera/outbound");
type OutboxModule = typeof import("@tessera/outbox");

export default {
  does: "refuse every SSRF form of a URL, post through the guarded fetch without following a redirect, send a message and deliver it signed",
  imports: () => ["@tessera/outbound", "@tessera/outbox"],
  async run({ load, check }) {
    const outbound = await load<OutboundModule>("@tessera/outbound");
    const { MemoryOutbox } = await load<OutboxModule>("@tessera/outbox");
    const { checkOutboundUrl, guardedFetch } = outbound;
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

    const outbox = new MemoryOutbox();
    const store = new outbound.MemoryOutboundStore();
    const secretKeys = outbound.outboundSecretKeys({ current: "a".repeat(64) });
    const webhooks = new outbound.OutboundWebhooks({ store, outbox, writer: outbox, secretKeys });
    const created = await webhooks.createEndpoint(1, { url: "https://hooks.example.com/in" });
    check(created.ok, "an endpoint is created");
    const { messageId } = await webhooks.send(outbox, 1, "note.created", { id: 1 });
    const delivered: { headers: Record<string, string>; body: string }[] = [];
    const sender = outbound.webhookSender({
      store,
      outbox,
      writer: outbox,
      secretKeys,
      fetch: async (request) => {
        delivered.push({ headers: { ...request.headers }, body: request.body });
        return { kind: "answered", status: 204, answer: "", durationMs: 1 };
      },
    });
    const report = await sender.drain();
    check(report.delivered === 1, "the message is delivered");
    check(delivered[0]?.headers["webhook-id"] === messageId, "webhook-id is the message id");
    check(
      /^v1,[A-Za-z0-9+/]+=*$/.test(delivered[0]?.headers["webhook-signature"] ?? ""),
      "it is signed",
    );
    check(JSON.parse(delivered[0]?.body ?? "{}").data?.id === 1, "the body carries the data");
  },
} satisfies RuntimeSmoke;
