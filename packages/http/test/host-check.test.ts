import { describe, expect, it } from "vitest";
import {
  createHostCheck,
  HOST_REFUSAL_MESSAGE,
  normalizeHost,
  parseAllowedHosts,
} from "../src/index.js";

/** A request as a server receives it: the `Host` header as the client sent it, or none. */
function requestWithHost(host: string | undefined): Request {
  const request = new Request("http://127.0.0.1/api/health");
  if (host !== undefined) request.headers.set("host", host);
  return request;
}

// APP_URL's host, then ALLOWED_HOSTS: a name, a bare IPv6 address, an address with a port.
const check = createHostCheck([
  "app.example.com",
  ...parseAllowedHosts("www.example.com, ::1, 10.0.0.5:3000"),
]);
const passes = (host: string | undefined) => check(requestWithHost(host)) === undefined;

describe("the host check", () => {
  it("passes APP_URL's host and each listed one", () => {
    expect(passes("app.example.com")).toBe(true);
    expect(passes("www.example.com")).toBe(true);
    expect(passes("10.0.0.5")).toBe(true);
  });

  it("refuses an unknown host with the 400 envelope, naming ALLOWED_HOSTS and not the host", async () => {
    const refusal = check(requestWithHost("evil.example"));
    expect(refusal?.status).toBe(400);
    expect(refusal?.headers.get("content-type")).toBe("application/json");
    expect(await refusal?.json()).toEqual({
      error: { code: "unknown_host", message: HOST_REFUSAL_MESSAGE, status: 400 },
    });
    expect(HOST_REFUSAL_MESSAGE).toBe("Unknown host: add it to ALLOWED_HOSTS to serve it.");
    for (const host of ["example.com", "app.example.com.evil.example", "evil-app.example.com"]) {
      expect([host, passes(host)]).toEqual([host, false]);
    }
  });

  it("refuses a request without a Host, or with one that names no host", () => {
    for (const host of [undefined, "", " ", "app.example.com/evil", "evil@app.example.com"]) {
      expect([host, passes(host)]).toEqual([host, false]);
    }
    expect(passes("app.example.com:99999")).toBe(false);
  });

  it("does not compare ports: a host with any port passes", () => {
    expect(passes("app.example.com:3000")).toBe(true);
    expect(passes("app.example.com:443")).toBe(true);
    expect(passes("10.0.0.5:8080")).toBe(true);
  });

  it("reads IPv6 hosts in brackets, with or without a port, in any spelling", () => {
    expect(passes("[::1]")).toBe(true);
    expect(passes("[::1]:3000")).toBe(true);
    expect(passes("[0:0:0:0:0:0:0:1]:3000")).toBe(true);
    expect(passes("[::2]")).toBe(false);
    expect(passes("::1")).toBe(false);
  });

  it("ignores case and a final dot", () => {
    expect(passes("APP.Example.COM")).toBe(true);
    expect(passes("App.Example.Com:8080")).toBe(true);
    expect(passes("app.example.com.")).toBe(true);
  });

  it("answers the same for a Host it has seen before, however many spellings came", () => {
    const fresh = createHostCheck(["app.example.com"]);
    const verdict = (host: string) => fresh(requestWithHost(host)) === undefined;
    const spellings = Array.from({ length: 40 }, (_, port) => `APP.example.com:${port + 1}`);
    for (let round = 0; round < 2; round++) {
      for (const host of spellings) expect(verdict(host)).toBe(true);
      expect(verdict("evil.example")).toBe(false);
      expect(verdict("app.example.com.evil.example")).toBe(false);
    }
  });

  it("refuses to be built without a host, or from something that is not one", () => {
    expect(() => createHostCheck([])).toThrow(TypeError);
    expect(() => createHostCheck(["https://app.example.com"])).toThrow(TypeError);
  });
});

describe("parseAllowedHosts", () => {
  it("splits on commas, trims, drops empty entries and normalizes each", () => {
    expect(parseAllowedHosts(" App.Example.com , ::1, [2001:DB8::5]:8443,, bücher.de ")).toEqual([
      "app.example.com",
      "[::1]",
      "[2001:db8::5]",
      "xn--bcher-kva.de",
    ]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
    expect(parseAllowedHosts("")).toEqual([]);
  });

  it("refuses an entry that is a URL rather than a host, naming it", () => {
    expect(() => parseAllowedHosts("app.example.com, https://www.example.com")).toThrow(
      '"https://www.example.com" is not a host name',
    );
    expect(() => parseAllowedHosts("app.example.com/path")).toThrow(TypeError);
  });
});

describe("normalizeHost", () => {
  it("gives the name alone, lower-cased, IP addresses in their usual form", () => {
    expect(normalizeHost("Example.COM:3000")).toBe("example.com");
    expect(normalizeHost("[0:0::1]:80")).toBe("[::1]");
    expect(normalizeHost("127.1")).toBe("127.0.0.1");
    expect(normalizeHost("example.com.")).toBe("example.com");
    expect(normalizeHost("a b")).toBeUndefined();
    expect(normalizeHost(":80")).toBeUndefined();
  });
});
