import {
  checkOutboundTarget,
  checkOutboundUrl,
  classifyAddress,
  guardedFetch,
  type OutboundFetch,
} from "@tessera/outbound";
import { type NodeLookup, nodeGuardedFetch, nodeResolveHost } from "@tessera/outbound/node";
import { describe, expect, it } from "vitest";
import { testReceiver } from "./support/receiver.js";

const receiver = await testReceiver();

// Every form of a non-public target the guard must refuse, written as a user could write it.
const REFUSED_URLS = {
  "decimal IPv4 (127.0.0.1)": "http://2130706433/",
  "octal IPv4": "http://0177.0.0.1/",
  "hex IPv4": "http://0x7f.0x0.0x0.0x1/",
  "short IPv4": "http://127.1/",
  "IPv4-mapped private": "http://[::ffff:10.0.0.1]/",
  "IPv4-mapped loopback in hex": "http://[::ffff:7f00:1]/",
  "IPv4-compatible loopback (stored as [::7f00:1])": "http://[::127.0.0.1]/",
  "IPv4-compatible private in hex": "http://[::a00:1]/",
  "IPv4-compatible metadata address": "http://[::169.254.169.254]/",
  "NAT64 of loopback": "http://[64:ff9b::127.0.0.1]/",
  "NAT64 of a private address": "http://[64:ff9b::a00:1]/",
  "6to4 of a private address": "http://[2002:a00:1::]/",
  unspecified: "http://0.0.0.0/",
  "IPv6 unspecified": "http://[::]/",
  "cloud metadata (link-local)": "http://169.254.169.254/latest/meta-data/",
  CGNAT: "http://100.64.0.1/",
  "private 10/8": "http://10.1.2.3/",
  "private 172.16/12": "https://172.16.0.1/",
  "private 192.168/16": "http://192.168.1.1/",
  "IPv6 unique-local": "http://[fc00::1]/",
  "IPv6 link-local": "http://[fe80::1]/",
  "IPv6 loopback": "http://[::1]/",
  multicast: "http://224.0.0.1/",
  broadcast: "http://255.255.255.255/",
  "reserved (240/4)": "http://240.0.0.1/",
  localhost: "http://localhost:8080/",
  "a name under localhost": "http://api.localhost/",
} as const;

describe("classifyAddress", () => {
  it("calls public only unicast addresses, unwrapping the IPv6 forms that carry an IPv4", () => {
    expect(classifyAddress("93.184.216.34")).toBe("public");
    expect(classifyAddress("2606:4700::1")).toBe("public");
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
    expect(classifyAddress("64:ff9b::808:808")).toBe("public");
    expect(classifyAddress("::ffff:10.0.0.1")).toBe("private");
    expect(classifyAddress("[::ffff:7f00:1]")).toBe("loopback");
    expect(classifyAddress("::ffff:0:a00:1")).toBe("private");
    expect(classifyAddress("2002:7f00:1::")).toBe("loopback");
    expect(classifyAddress("100.64.0.1")).toBe("carrierGradeNat");
    expect(classifyAddress("169.254.169.254")).toBe("linkLocal");
    expect(classifyAddress("fe80::1%eth0")).toBe("linkLocal");
    expect(classifyAddress("fc00::1")).toBe("uniqueLocal");
    expect(classifyAddress("2001::1")).toBe("teredo");
    expect(classifyAddress("64:ff9b:1::1")).not.toBe("public");
  });

  it("classifies an IPv4-compatible address (::a.b.c.d, deprecated) as the IPv4 it carries", () => {
    // The URL parser writes [::127.0.0.1] as [::7f00:1], and glibc's resolver answers ::127.0.0.1.
    expect(classifyAddress("::7f00:1")).toBe("loopback");
    expect(classifyAddress("[::7f00:1]")).toBe("loopback");
    expect(classifyAddress("::127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::a00:1")).toBe("private");
    expect(classifyAddress("::a9fe:a9fe")).toBe("linkLocal");
    expect(classifyAddress("::6440:1")).toBe("carrierGradeNat");
    expect(classifyAddress("::2")).toBe("unspecified");
    expect(classifyAddress("::808:808")).toBe("public");
    // The two addresses of ::/96 that are not IPv4-compatible keep their own class.
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("::")).toBe("unspecified");
  });

  it("reads only dotted IPv4, never the decimal or hex forms the URL parser normalises", () => {
    expect(classifyAddress("2130706433")).toBe("invalid");
    expect(classifyAddress("0x7f.1")).toBe("invalid");
    expect(classifyAddress("example.com")).toBe("invalid");
  });
});

describe("checkOutboundUrl", () => {
  for (const [form, url] of Object.entries(REFUSED_URLS)) {
    it(`refuses ${form}: ${url}`, () => {
      expect(checkOutboundUrl(url)).toMatchObject({ ok: false });
    });
  }

  it("accepts a public address and a host name (checked after DNS)", () => {
    expect(checkOutboundUrl("https://93.184.216.34/hook")).toMatchObject({
      ok: true,
      literal: true,
    });
    expect(checkOutboundUrl("https://hooks.example.com/in")).toMatchObject({
      ok: true,
      literal: false,
      allowed: false,
      host: "hooks.example.com",
    });
  });

  it("refuses other schemes, credentials, plain http under requireHttps, and junk", () => {
    expect(checkOutboundUrl("ftp://example.com/")).toMatchObject({ ok: false });
    expect(checkOutboundUrl("file:///etc/passwd")).toMatchObject({ ok: false });
    expect(checkOutboundUrl("javascript:alert(1)")).toMatchObject({ ok: false });
    expect(checkOutboundUrl("https://user:pw@example.com/")).toMatchObject({ ok: false });
    expect(checkOutboundUrl("https://user@example.com/")).toMatchObject({ ok: false });
    expect(checkOutboundUrl("not a url")).toMatchObject({ ok: false });
    expect(checkOutboundUrl(`https://example.com/${"a".repeat(2100)}`)).toMatchObject({
      ok: false,
    });
    expect(checkOutboundUrl("http://example.com/", { requireHttps: true })).toMatchObject({
      ok: false,
    });
    expect(checkOutboundUrl("https://example.com/", { requireHttps: true })).toMatchObject({
      ok: true,
    });
  });

  it("lets the allow list name a refused host, by name or address, whatever its case or spelling", () => {
    const policy = { allowHosts: ["127.0.0.1", " ::1 ", "LocalHost"] };
    expect(checkOutboundUrl("http://127.0.0.1:9/", policy)).toMatchObject({
      ok: true,
      allowed: true,
    });
    expect(checkOutboundUrl("http://2130706433/", policy)).toMatchObject({
      ok: true,
      allowed: true,
    });
    expect(checkOutboundUrl("http://[::1]/", policy)).toMatchObject({ ok: true, allowed: true });
    expect(checkOutboundUrl("http://localhost./", policy)).toMatchObject({
      ok: true,
      allowed: true,
    });
    expect(checkOutboundUrl("http://10.0.0.1/", policy)).toMatchObject({ ok: false });
  });
});

describe("checkOutboundTarget", () => {
  const dns: Record<string, string[]> = {
    "internal.example": ["127.0.0.1"],
    "mixed.example": ["93.184.216.34", "10.0.0.7"],
    "public.example": ["93.184.216.34", "2606:4700::1"],
    "mapped.example": ["::ffff:169.254.169.254"],
  };
  const resolveHost = async (host: string) => {
    const found = dns[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found;
  };

  it("refuses a name that resolves to a refused address, any one of its addresses", async () => {
    for (const host of ["internal.example", "mixed.example", "mapped.example"]) {
      expect(await checkOutboundTarget(`https://${host}/`, {}, resolveHost)).toMatchObject({
        ok: false,
      });
    }
  });

  it("accepts a public name, an allowed one, and one that does not resolve yet", async () => {
    expect(await checkOutboundTarget("https://public.example/", {}, resolveHost)).toMatchObject({
      ok: true,
    });
    expect(
      await checkOutboundTarget(
        "https://internal.example/",
        { allowHosts: ["internal.example"] },
        resolveHost,
      ),
    ).toMatchObject({ ok: true });
    expect(await checkOutboundTarget("https://later.example/", {}, resolveHost)).toMatchObject({
      ok: true,
    });
  });

  it("resolves with the system resolver on Node: localhost's own name server answer is refused", async () => {
    // The name check refuses localhost before DNS; a raw resolution of it is loopback too.
    expect(await nodeResolveHost("localhost")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]),
    );
    expect(await checkOutboundTarget("http://localhost/", {}, nodeResolveHost)).toMatchObject({
      ok: false,
    });
  });
});

// A resolver standing for a hostile DNS server: the names map to what it answers now.
function fakeDns(answers: Record<string, string>): NodeLookup {
  return (hostname, options, callback) => {
    const address = answers[hostname];
    if (!address)
      return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    const family = address.includes(":") ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const FETCHES: Record<string, (options: Parameters<typeof nodeGuardedFetch>[0]) => OutboundFetch> =
  {
    "nodeGuardedFetch (node:http)": nodeGuardedFetch,
    "guardedFetch (WHATWG fetch)": (options) =>
      guardedFetch({
        ...options,
        resolveHost: async (host) => {
          const lookup = options?.lookup ?? fakeDns({});
          return new Promise((resolve, reject) =>
            lookup(host, { all: true }, (error, found) =>
              error
                ? reject(error)
                : resolve((found as { address: string }[]).map((a) => a.address)),
            ),
          );
        },
      }),
  };

const allowLocal = { allowHosts: ["127.0.0.1"] };
const request = (url: string) => ({
  url,
  headers: { "content-type": "application/json", "webhook-id": "msg_1" },
  body: '{"type":"ping"}',
});

for (const [name, makeFetch] of Object.entries(FETCHES)) {
  describe(name, () => {
    it("posts the body and headers to an allowed host and keeps the answer", async () => {
      const path = `/ok-${name.length}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end("thanks"));
      const outcome = await makeFetch(allowLocal)(request(receiver.url(path)));
      expect(outcome).toMatchObject({ kind: "answered", status: 200, answer: "thanks" });
      const [got] = receiver.receivedAt(path);
      expect(got?.body).toBe('{"type":"ping"}');
      expect(got?.headers["webhook-id"]).toBe("msg_1");
      expect(got?.headers["content-type"]).toBe("application/json");
    });

    it("refuses 127.0.0.1 when the allow list does not name it, sending nothing", async () => {
      const path = `/not-allowed-${name.length}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end());
      const outcome = await makeFetch({})(request(receiver.url(path)));
      expect(outcome).toMatchObject({ kind: "refused" });
      expect(receiver.receivedAt(path)).toEqual([]);
    });

    it("refuses a name that resolves to 127.0.0.1 when it connects, sending nothing", async () => {
      const path = `/rebound-${name.length}`;
      receiver.on(path, (_request, response) => response.writeHead(200).end());
      const lookup = fakeDns({
        "hooks.example": "127.0.0.1",
        "six.example": "::1",
        "compatible.example": "::7f00:1",
      });
      for (const host of ["hooks.example", "six.example", "compatible.example"]) {
        const outcome = await makeFetch({ lookup })(
          request(`http://${host}:${receiver.port}${path}`),
        );
        expect(outcome).toMatchObject({ kind: "refused", message: expect.stringContaining(host) });
      }
      expect(receiver.receivedAt(path)).toEqual([]);
      // The same name on the allow list is delivered to (only node:http connects through the
      // fake resolver; fetch would ask the real DNS for hooks.example).
      if (!name.startsWith("node")) return;
      const allowed = await makeFetch({ lookup, allowHosts: ["hooks.example"] })(
        request(`http://hooks.example:${receiver.port}${path}`),
      );
      expect(allowed).toMatchObject({ kind: "answered", status: 200 });
    });

    it("does not follow a redirect: the 3xx is the answer", async () => {
      const path = `/redirect-${name.length}`;
      const target = `/redirect-target-${name.length}`;
      receiver.on(path, (_request, response) =>
        response.writeHead(307, { location: receiver.url(target) }).end("moved"),
      );
      receiver.on(target, (_request, response) => response.writeHead(200).end());
      const outcome = await makeFetch(allowLocal)(request(receiver.url(path)));
      expect(outcome).toMatchObject({ kind: "answered", status: 307 });
      expect(receiver.receivedAt(target)).toEqual([]);
    });

    it("gives up on an answer that does not come within the timeout", async () => {
      const path = `/silent-${name.length}`;
      receiver.on(path, () => {}); // never answers
      const outcome = await makeFetch({ ...allowLocal, timeoutMs: 150 })(
        request(receiver.url(path)),
      );
      expect(outcome).toMatchObject({ kind: "timeout", message: "no answer within 150 ms" });
    });

    it("keeps only the first KiB of a long answer", async () => {
      const path = `/long-${name.length}`;
      receiver.on(path, (_request, response) => {
        response.writeHead(500);
        response.end("é".repeat(1_000_000));
      });
      const outcome = await makeFetch(allowLocal)(request(receiver.url(path)));
      expect(outcome.kind).toBe("answered");
      if (outcome.kind !== "answered") return;
      expect(outcome.status).toBe(500);
      expect(new TextEncoder().encode(outcome.answer).length).toBeLessThanOrEqual(1026);
      expect(outcome.answer.startsWith("éé")).toBe(true);
    });

    it("reports a refused connection as a network error", async () => {
      const outcome = await makeFetch(allowLocal)(request("http://127.0.0.1:1/"));
      expect(outcome).toMatchObject({ kind: "network-error" });
    });

    it("refuses every SSRF form before any request", async () => {
      const send = makeFetch({});
      for (const url of Object.values(REFUSED_URLS)) {
        expect(await send(request(url))).toMatchObject({ kind: "refused", durationMs: 0 });
      }
    });
  });
}
