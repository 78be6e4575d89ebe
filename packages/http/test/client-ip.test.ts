import { describe, expect, it } from "vitest";
import { clientIp, isIpAddress, rateLimitClientKey } from "../src/index.js";

describe("clientIp", () => {
  const socketAddress = "10.0.0.9";

  it("is the socket address without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    expect(clientIp({ socketAddress, forwardedFor: "203.0.113.7" })).toBe("10.0.0.9");
    expect(clientIp({ socketAddress, forwardedFor: "203.0.113.7", trustProxy: 0 })).toBe(
      "10.0.0.9",
    );
  });

  it("takes the N-th address from the right with N trusted proxies", () => {
    const forwardedFor = "198.51.100.1, 203.0.113.7, 192.0.2.44";
    expect(clientIp({ socketAddress, forwardedFor, trustProxy: 1 })).toBe("192.0.2.44");
    expect(clientIp({ socketAddress, forwardedFor, trustProxy: 2 })).toBe("203.0.113.7");
    expect(clientIp({ socketAddress, forwardedFor, trustProxy: 3 })).toBe("198.51.100.1");
  });

  it("never uses the client-written leftmost entry when the list is longer than N", () => {
    const forged = "1.2.3.4, 203.0.113.7";
    expect(clientIp({ socketAddress, forwardedFor: forged, trustProxy: 1 })).toBe("203.0.113.7");
  });

  it("joins several X-Forwarded-For headers in order", () => {
    const forwardedFor = ["198.51.100.1, 203.0.113.7", "192.0.2.44"];
    expect(clientIp({ socketAddress, forwardedFor, trustProxy: 2 })).toBe("203.0.113.7");
  });

  it("falls back to the socket address when the list is too short or missing", () => {
    expect(clientIp({ socketAddress, forwardedFor: "203.0.113.7", trustProxy: 2 })).toBe(
      "10.0.0.9",
    );
    expect(clientIp({ socketAddress, forwardedFor: null, trustProxy: 1 })).toBe("10.0.0.9");
    expect(clientIp({ socketAddress, trustProxy: 1 })).toBe("10.0.0.9");
    expect(clientIp({ socketAddress, forwardedFor: [], trustProxy: 1 })).toBe("10.0.0.9");
  });

  it.each(["unknown", "", "203.0.113.7:8080", "[2001:db8::1]", "1.2.3", "<script>", "01.2.3.4"])(
    "falls back to the socket address when the chosen entry is %j",
    (entry) => {
      expect(
        clientIp({ socketAddress, forwardedFor: `198.51.100.1, ${entry}`, trustProxy: 1 }),
      ).toBe("10.0.0.9");
    },
  );

  it("accepts IPv6 entries and trims spaces", () => {
    expect(
      clientIp({ socketAddress, forwardedFor: "1.1.1.1,  2001:db8::42  ", trustProxy: 1 }),
    ).toBe("2001:db8::42");
  });

  it("treats a nonsensical trustProxy as none", () => {
    for (const trustProxy of [-1, 1.5, Number.NaN]) {
      expect(clientIp({ socketAddress, forwardedFor: "203.0.113.7", trustProxy })).toBe("10.0.0.9");
    }
  });

  it("passes an unknown socket address on as undefined", () => {
    expect(clientIp({ socketAddress: undefined })).toBeUndefined();
  });
});

describe("rateLimitClientKey", () => {
  it.each([
    ["IPv4 as it is", "203.0.113.7", "203.0.113.7"],
    ["IPv6 to its /64", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    [
      "the same /64 for another host in it",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:db8:1:2::/64",
    ],
    ["compressed IPv6", "2001:db8::1", "2001:db8::/64"],
    ["upper case and leading zeros", "2001:0DB8:0000:00AB::1", "2001:db8:0:ab::/64"],
    ["compression inside the prefix", "2001::5:6:7:8", "2001::/64"],
    ["all zeros", "::", "::/64"],
    ["loopback", "::1", "::/64"],
    ["a zone", "fe80::1%eth0", "fe80::/64"],
    ["IPv4-mapped to IPv4", "::ffff:192.0.2.1", "192.0.2.1"],
    ["IPv4-mapped in hex to IPv4", "::ffff:c000:201", "192.0.2.1"],
    ["IPv4-mapped written in full", "0:0:0:0:0:ffff:192.0.2.1", "192.0.2.1"],
    ["an embedded IPv4 that is not mapped", "64:ff9b::192.0.2.1", "64:ff9b::/64"],
    ["spaces around", " 203.0.113.7 ", "203.0.113.7"],
  ])("maps %s", (_name, ip, key) => {
    expect(rateLimitClientKey(ip)).toBe(key);
  });

  it.each([
    "not an ip",
    "",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::",
    ":1:2:3:4:5:6:7",
    "1.2.3.4::",
  ])("returns %j unchanged when it is no address", (text) => {
    expect(rateLimitClientKey(text)).toBe(text);
  });
});

describe("isIpAddress", () => {
  it.each([
    "0.0.0.0",
    "255.255.255.255",
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7::",
    "1:2:3:4:5:6:7:8",
    "::ffff:1.2.3.4",
  ])("accepts %j", (text) => {
    expect(isIpAddress(text)).toBe(true);
  });

  it.each([
    "256.1.1.1",
    "1.2.3.4.5",
    "1.2.3.-4",
    "1..2.3",
    "01.2.3.4",
    "1.2.3.4 ",
    "::g",
    "1:2:3:4:5:6:7:8:9",
    ":::",
    "fe80::1%",
    "١.٢.٣.٤",
  ])("refuses %j", (text) => {
    expect(isIpAddress(text)).toBe(false);
  });
});
